; expected: unsat
; As loop-calls-sat; x = 4 * i is reachable (both calls add 2), so x > 3 * i /\ i = 3 is.
(set-logic HORN)
(declare-fun Inc (Int Int) Bool)
(declare-fun L (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (= y (+ x 1)) (Inc x y))))
(assert (forall ((x Int) (y Int)) (=> (= y (+ x 2)) (Inc x y))))
(assert (forall ((i Int) (x Int)) (=> (and (= i 0) (= x 0)) (L i x))))
(assert (forall ((i Int) (x Int) (y Int) (z Int))
  (=> (and (L i x) (< i 10) (Inc x y) (Inc y z)) (L (+ i 1) z))))
(assert (forall ((i Int) (x Int)) (=> (and (L i x) (> x (* 3 i)) (= i 3)) false)))
(check-sat)
(exit)
