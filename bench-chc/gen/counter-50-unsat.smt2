; expected: unsat
; x starts at 0 and steps +1 while x < 50, so x = 50 is reached after
; exactly 50 steps and the query x >= 50 fires (counterexample depth 50).
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 50) (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (>= x 50)) false)))
(check-sat)
(exit)
