; expected: unsat
; x starts at 0 and steps +1 while x < 10, so x = 10 is reached after
; exactly 10 steps and the query x >= 10 fires (counterexample depth 10).
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 10) (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (>= x 10)) false)))
(check-sat)
(exit)
