; expected: unsat
; Quoted symbols; |x| and x are the same symbol in SMT-LIB, and so are |P| and P.
; x counts 0..10, so x = 10 reaches the exit predicate and the query fires.
(set-logic HORN)
(declare-fun |P| (Int) Bool)
(declare-fun |main@.exit| (Int) Bool)
(assert (forall ((|x| Int)) (=> (= x 0) (P |x|))))
(assert (forall ((x Int) (|x'| Int)) (=> (and (|P| |x|) (< x 10) (= |x'| (+ x 1))) (P |x'|))))
(assert (forall ((x Int)) (=> (and (P x) (>= |x| 10)) (|main@.exit| x))))
(assert (forall ((x Int)) (=> (and (main@.exit x) (= x 10)) false)))
(check-sat)
(exit)
