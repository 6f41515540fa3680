; expected: unsat
; x counts from 0 up to 6: x = 6 is reached after six steps.
(set-logic HORN)
(declare-fun C (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (C x))))
(assert (forall ((x Int)) (=> (and (C x) (< x 6)) (C (+ x 1)))))
(assert (forall ((x Int)) (=> (and (C x) (>= x 6)) false)))
(check-sat)
(exit)
