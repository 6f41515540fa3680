; expected: sat
; a[5] = 7 is stored once; the loop writes a[i] := i only at i >= 10, so a[5] stays 7.
(set-logic HORN)
(declare-fun inv ((Array Int Int) Int) Bool)
(assert (forall ((a (Array Int Int)) (b (Array Int Int)))
  (=> (= b (store a 5 7)) (inv b 10))))
(assert (forall ((a (Array Int Int)) (i Int))
  (=> (inv a i) (inv (store a i i) (+ i 1)))))
(assert (forall ((a (Array Int Int)) (i Int))
  (=> (and (inv a i) (not (= (select a 5) 7))) false)))
(check-sat)
