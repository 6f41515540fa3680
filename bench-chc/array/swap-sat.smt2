; expected: sat
; a[0] and a[1] are swapped any number of times: together they stay {x, y}.
(set-logic HORN)
(declare-fun inv ((Array Int Int) Int Int) Bool)
(assert (forall ((a (Array Int Int)) (x Int) (y Int))
  (=> (and (= (select a 0) x) (= (select a 1) y)) (inv a x y))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (x Int) (y Int) (t Int))
  (=> (and (inv a x y) (= t (select a 0))
           (= b (store (store a 0 (select a 1)) 1 t)))
      (inv b x y))))
(assert (forall ((a (Array Int Int)) (x Int) (y Int))
  (=> (and (inv a x y) (not (= (select a 0) x)) (not (= (select a 0) y))) false)))
(check-sat)
