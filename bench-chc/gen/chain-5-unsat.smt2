; expected: unsat
; Chain P0 -> P1 -> ... -> P5; each link does x := x + 1, y := y + x.
; In Pi, x = i and y = i*(i-1)/2, so in P5 x = 5 and y = 10.
; The query (P5 with y = 10) fires.
(set-logic HORN)
(declare-fun P0 (Int Int) Bool)
(declare-fun P1 (Int Int) Bool)
(declare-fun P2 (Int Int) Bool)
(declare-fun P3 (Int Int) Bool)
(declare-fun P4 (Int Int) Bool)
(declare-fun P5 (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (P0 x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int)) (=> (and (P0 x y) (= x1 (+ x 1)) (= y1 (+ y x))) (P1 x1 y1))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int)) (=> (and (P1 x y) (= x1 (+ x 1)) (= y1 (+ y x))) (P2 x1 y1))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int)) (=> (and (P2 x y) (= x1 (+ x 1)) (= y1 (+ y x))) (P3 x1 y1))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int)) (=> (and (P3 x y) (= x1 (+ x 1)) (= y1 (+ y x))) (P4 x1 y1))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int)) (=> (and (P4 x y) (= x1 (+ x 1)) (= y1 (+ y x))) (P5 x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (P5 x y) (= y 10)) false)))
(check-sat)
(exit)
