; expected: unsat
; After one swap of a[0] = x and a[1] = y with x != y, a[0] is no longer x: reachable.
(set-logic HORN)
(declare-fun inv ((Array Int Int) Int Int Int) Bool)
(assert (forall ((a (Array Int Int)) (x Int) (y Int))
  (=> (and (= (select a 0) x) (= (select a 1) y) (not (= x y))) (inv a x y 0))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (x Int) (y Int) (n Int) (t Int))
  (=> (and (inv a x y n) (= t (select a 0))
           (= b (store (store a 0 (select a 1)) 1 t)))
      (inv b x y (+ n 1)))))
(assert (forall ((a (Array Int Int)) (x Int) (y Int) (n Int))
  (=> (and (inv a x y n) (= n 1) (not (= (select a 0) x))) false)))
(check-sat)
