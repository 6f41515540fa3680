; expected: unsat
; The three phases of phases-sat: up counts x = 0, 0.5, ..., 3; down starts at y = 3
; and halves: 1.5, 0.75; done gets z = 0.75, so the query done(z) /\ z >= 0.75 is
; reached (6 + 1 + 2 + 1 steps).
(set-logic HORN)
(declare-fun up (Real) Bool)
(declare-fun down (Real) Bool)
(declare-fun done (Real) Bool)
(assert (forall ((x Real)) (=> (= x 0.0) (up x))))
(assert (forall ((x Real) (x1 Real)) (=> (and (up x) (<= x 2.5) (= x1 (+ x 0.5))) (up x1))))
(assert (forall ((x Real) (y Real)) (=> (and (up x) (>= x 3.0) (= y x)) (down y))))
(assert (forall ((y Real) (y1 Real)) (=> (and (down y) (= y1 (/ y 2))) (down y1))))
(assert (forall ((y Real) (z Real)) (=> (and (down y) (< y 1.0) (= z y)) (done z))))
(assert (forall ((z Real)) (=> (and (done z) (>= z 0.75)) false)))
(check-sat)
(exit)
