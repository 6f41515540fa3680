; expected: sat
; Two copies of one loop (x, y, z), run in lockstep from the same arbitrary state with the
; same free k in each step: x1 = x2, y1 = y2, z1 = z2 (relational affine equalities, as in
; reve's product programs). The query z1 + z2 = 7 then says 2*z1 = 7: blocked over the
; integers by z1 = z2 (pdr and spacer alone: unknown at 10 s).
(set-logic HORN)
(declare-fun Inv (Int Int Int Int Int Int) Bool)
(assert (forall ((a Int) (b Int) (c Int)) (Inv a b c a b c)))
(assert (forall ((x1 Int) (y1 Int) (z1 Int) (x2 Int) (y2 Int) (z2 Int) (k Int)
                 (u1 Int) (v1 Int) (w1 Int) (u2 Int) (v2 Int) (w2 Int))
  (=> (and (Inv x1 y1 z1 x2 y2 z2)
           (= u1 (+ x1 k)) (= v1 (+ y1 (* 3 u1))) (= w1 (+ z1 (* 2 v1) (- u1)))
           (= u2 (+ x2 k)) (= v2 (+ y2 (* 3 u2))) (= w2 (+ z2 (* 2 v2) (- u2))))
      (Inv u1 v1 w1 u2 v2 w2))))
(assert (forall ((x1 Int) (y1 Int) (z1 Int) (x2 Int) (y2 Int) (z2 Int) (k Int)
                 (u1 Int) (v1 Int) (w1 Int) (u2 Int) (v2 Int) (w2 Int))
  (=> (and (Inv x1 y1 z1 x2 y2 z2)
           (= u1 (- z1 k)) (= v1 (+ x1 y1)) (= w1 (* 5 y1))
           (= u2 (- z2 k)) (= v2 (+ x2 y2)) (= w2 (* 5 y2)))
      (Inv u1 v1 w1 u2 v2 w2))))
(assert (forall ((x1 Int) (y1 Int) (z1 Int) (x2 Int) (y2 Int) (z2 Int))
  (=> (and (Inv x1 y1 z1 x2 y2 z2) (= (+ z1 z2) 7)) false)))
(check-sat)
