; expected: sat
; x counts from 0 by 2 while below 100: 0 <= x <= 100 and x even. The pass finds x mod 2 = 0
; and x >= 0 but not the bound (widening drops it), so it cannot answer alone: the query
; x = 101 \/ x > 102 needs both. PDR seeded with the parity fact learns the bound (x <= 101
; is inductive) and answers; PDR alone must block the odd values one by one.
(set-logic HORN)
(declare-fun Inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (= x 0) (Inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (Inv x y) (< x 100) (= x1 (+ x 2)) (= y1 (+ y x))) (Inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (Inv x y) (or (= x 101) (> x 102))) false)))
(check-sat)
