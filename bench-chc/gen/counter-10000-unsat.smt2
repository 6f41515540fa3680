; expected: unsat
; x starts at 0 and steps +1 while x < 10000, so x = 10000 is reached after
; exactly 10000 steps and the query x >= 10000 fires (counterexample depth 10000).
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 10000) (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (>= x 10000)) false)))
(check-sat)
(exit)
