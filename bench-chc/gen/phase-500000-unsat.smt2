; expected: unsat
; Phase p = 0: x climbs from 0 to 500000; then the guard flips (p := 1) and x
; descends to 0 and stops.
; x = 0 with p = 1 is reached after 1000000 steps; the query forbids it.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (p Int)) (=> (and (= x 0) (= p 0)) (P x p))))
(assert (forall ((x Int) (p Int) (x1 Int)) (=> (and (P x p) (= p 0) (< x 500000) (= x1 (+ x 1))) (P x1 p))))
(assert (forall ((x Int) (p Int) (x1 Int) (p1 Int)) (=> (and (P x p) (= p 0) (>= x 500000) (= x1 (- x 1)) (= p1 1)) (P x1 p1))))
(assert (forall ((x Int) (p Int) (x1 Int)) (=> (and (P x p) (= p 1) (> x 0) (= x1 (- x 1))) (P x1 p))))
(assert (forall ((x Int) (p Int)) (=> (and (P x p) (= p 1) (= x 0)) false)))
(check-sat)
(exit)
