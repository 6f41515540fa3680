; expected: unsat
; Linear terms in many spellings; y = -3x is kept and (x, y) = (4, -12) is
; reached after 4 steps.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= (- y) 0)) (P x y))))
(assert (forall ((x Int) (y Int) (a Int) (b Int))
  (=> (and (P x y) (= a (+ x 1 0)) (= b (- y 1 1 1))) (P a b))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (= (* x (- 3)) y) (= (- y) 12)) false)))
(check-sat)
(exit)
