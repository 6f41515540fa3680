; expected: sat
; x = 0, -1, -2, ...: SMT-LIB (mod x 3) is never negative.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x (- 1)))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (< (mod x 3) 0)) false)))
(check-sat)
(exit)
