; expected: unsat
; b gets v + 1 where a gets v: after one store they differ at that index.
(set-logic HORN)
(declare-fun inv ((Array Int Int) (Array Int Int)) Bool)
(assert (forall ((a (Array Int Int)))
  (=> true (inv a a))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int) (v Int))
  (=> (inv a b) (inv (store a i v) (store b i (+ v 1))))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (j Int))
  (=> (and (inv a b) (not (= (select a j) (select b j)))) false)))
(check-sat)
