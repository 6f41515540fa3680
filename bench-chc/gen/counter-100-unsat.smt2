; expected: unsat
; x starts at 0 and steps +1 while x < 100, so x = 100 is reached after
; exactly 100 steps and the query x >= 100 fires (counterexample depth 100).
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 100) (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (>= x 100)) false)))
(check-sat)
(exit)
