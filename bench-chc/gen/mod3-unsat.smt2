; expected: unsat
; x = 1, 4, 7, ...: x = 31 is reached after 10 steps.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 1) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x 3))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (= x 31)) false)))
(check-sat)
(exit)
