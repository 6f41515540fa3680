; expected: unsat
; x = 0, 2, 4, ...: x = 20 (even, >= 20) is reached after 10 steps.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x 2))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (and (= (mod x 2) 0) (>= x 20))) false)))
(check-sat)
(exit)
