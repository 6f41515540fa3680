; expected: unsat
; x = 0, y = 50; while x < 100: x++, and also y++ once x >= 50.
; Invariant (x <= 50 and y = 50) or (50 <= x <= 100 and y = x): at exit y = 100.
; The query x >= 100 and y = 100 fires after 100 steps.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 50)) (P x y))))
(assert (forall ((x Int) (y Int) (x1 Int)) (=> (and (P x y) (< x 50) (= x1 (+ x 1))) (P x1 y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int)) (=> (and (P x y) (>= x 50) (< x 100) (= x1 (+ x 1)) (= y1 (+ y 1))) (P x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (>= x 100) (= y 100)) false)))
(check-sat)
(exit)
