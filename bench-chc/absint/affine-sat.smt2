; expected: sat
; Two counters moving together: x = 2*y. Both start at 0; the first step adds (2k, k) for
; any k, the second sets y to z + k and x to twice that; z is noise. So x - 2*y = 0 is an
; invariant (Karr's analysis finds it). The query x + 2*y = 2*z + 7 then says 4*y - 2*z = 7,
; even = odd: blocked over the integers by x = 2*y, not over the rationals, and not by any
; bound that PDR's or Spacer's cubes propose (pdr and spacer alone: unknown at 10 s).
(set-logic HORN)
(declare-fun Inv (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (= x 0) (= y 0)) (Inv x y z))))
(assert (forall ((x Int) (y Int) (z Int) (k Int) (x1 Int) (y1 Int) (z1 Int))
  (=> (and (Inv x y z) (= x1 (+ x (* 2 k))) (= y1 (+ y k)) (= z1 (+ z (* 3 x1)))) (Inv x1 y1 z1))))
(assert (forall ((x Int) (y Int) (z Int) (k Int) (x1 Int) (y1 Int) (z1 Int))
  (=> (and (Inv x y z) (= y1 (+ z k)) (= x1 (* 2 y1)) (= z1 (- (* 5 y) x))) (Inv x1 y1 z1))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (Inv x y z) (= (+ x (* 2 y)) (+ (* 2 z) 7))) false)))
(check-sat)
