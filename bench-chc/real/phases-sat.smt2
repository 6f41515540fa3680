; expected: sat
; Three predicates. up: x := 0, x := x + 0.5 while x <= 2.5; when x >= 3, down gets
; y := x; down: y := y / 2; when y < 1, done gets z := y. Invariants: up x >= 0,
; down y > 0 (y starts at 3 and halving keeps it positive), done 0 < z < 1, so the
; query done(z) /\ (z <= 0 \/ z >= 1) is never reached.
(set-logic HORN)
(declare-fun up (Real) Bool)
(declare-fun down (Real) Bool)
(declare-fun done (Real) Bool)
(assert (forall ((x Real)) (=> (= x 0.0) (up x))))
(assert (forall ((x Real) (x1 Real)) (=> (and (up x) (<= x 2.5) (= x1 (+ x 0.5))) (up x1))))
(assert (forall ((x Real) (y Real)) (=> (and (up x) (>= x 3.0) (= y x)) (down y))))
(assert (forall ((y Real) (y1 Real)) (=> (and (down y) (= y1 (/ y 2))) (down y1))))
(assert (forall ((y Real) (z Real)) (=> (and (down y) (< y 1.0) (= z y)) (done z))))
(assert (forall ((z Real)) (=> (and (done z) (or (<= z 0.0) (>= z 1.0))) false)))
(check-sat)
(exit)
