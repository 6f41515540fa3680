; expected: unsat
; x starts at 0 and steps +1 while x < 100000, so x = 100000 is reached after
; exactly 100000 steps and the query x >= 100000 fires (counterexample depth 100000).
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 100000) (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (>= x 100000)) false)))
(check-sat)
(exit)
