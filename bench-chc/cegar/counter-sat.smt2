; expected: sat
; x counts from 0 up to 6 and stops: x > 6 is unreachable.
(set-logic HORN)
(declare-fun C (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (C x))))
(assert (forall ((x Int)) (=> (and (C x) (< x 6)) (C (+ x 1)))))
(assert (forall ((x Int)) (=> (and (C x) (> x 6)) false)))
(check-sat)
(exit)
