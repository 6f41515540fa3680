; expected: unsat
; A query with no predicate in its body: x = 1 and x > 0 is satisfiable, so the
; clause (=> (and (= x 1) (> x 0)) false) is violated whatever P is.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int)) (=> (and (= x 1) (> x 0)) false)))
(check-sat)
(exit)
