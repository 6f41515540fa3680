; expected: sat
; ite in a transition: x := (ite (< x 5) (+ x 1) 0) from x = 0 cycles through 0..5,
; so x > 5 is never reached. Also an ite of Bool sort in the query guard.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (ite (< x 5) (+ x 1) 0))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (ite (> x 2) (> x 5) (< x 0))) false)))
(check-sat)
(exit)
