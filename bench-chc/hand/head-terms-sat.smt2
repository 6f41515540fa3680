; expected: sat
; Heads that are not distinct variables: a repeated variable (P x x) and terms
; (P (+ x 1) (+ y 1)). Both arguments move together, so x = y always.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (< x 10)) (P (+ x 1) (+ y 1)))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (not (= x y))) false)))
(check-sat)
(exit)
