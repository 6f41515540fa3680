; expected: sat
; a and b start equal and get the same stores: they stay equal (extensionality).
(set-logic HORN)
(declare-fun inv ((Array Int Int) (Array Int Int)) Bool)
(assert (forall ((a (Array Int Int)))
  (=> true (inv a a))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int) (v Int))
  (=> (inv a b) (inv (store a i v) (store b i v)))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (j Int))
  (=> (and (inv a b) (not (= (select a j) (select b j)))) false)))
(check-sat)
