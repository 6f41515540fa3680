; expected: unsat
; x = 0, -1, -2, ...: x = -5 is reached and (mod -5 3) = 1 since -5 = 3*(-2) + 1.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x (- 1)))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (and (= x (- 5)) (= (mod x 3) 1))) false)))
(check-sat)
(exit)
