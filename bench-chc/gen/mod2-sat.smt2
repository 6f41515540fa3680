; expected: sat
; x = 0, 2, 4, ... is always even: (mod x 2) = 1 never holds.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x 2))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (= (mod x 2) 1)) false)))
(check-sat)
(exit)
