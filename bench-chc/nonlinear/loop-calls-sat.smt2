; expected: sat
; A loop that calls Inc (adds 1 or 2) twice per iteration: x >= 2 * i is an invariant of L,
; so x < 2 * i is unreachable.
(set-logic HORN)
(declare-fun Inc (Int Int) Bool)
(declare-fun L (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (= y (+ x 1)) (Inc x y))))
(assert (forall ((x Int) (y Int)) (=> (= y (+ x 2)) (Inc x y))))
(assert (forall ((i Int) (x Int)) (=> (and (= i 0) (= x 0)) (L i x))))
(assert (forall ((i Int) (x Int) (y Int) (z Int))
  (=> (and (L i x) (< i 10) (Inc x y) (Inc y z)) (L (+ i 1) z))))
(assert (forall ((i Int) (x Int)) (=> (and (L i x) (< x (* 2 i))) false)))
(check-sat)
(exit)
