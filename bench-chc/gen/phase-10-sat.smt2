; expected: sat
; Phase p = 0: x climbs from 0 to 10; then the guard flips (p := 1) and x
; descends to 0 and stops.
; Invariant 0 <= x <= 10 (and p in {0,1}): the query x < 0 or x > 10 never fires.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (p Int)) (=> (and (= x 0) (= p 0)) (P x p))))
(assert (forall ((x Int) (p Int) (x1 Int)) (=> (and (P x p) (= p 0) (< x 10) (= x1 (+ x 1))) (P x1 p))))
(assert (forall ((x Int) (p Int) (x1 Int) (p1 Int)) (=> (and (P x p) (= p 0) (>= x 10) (= x1 (- x 1)) (= p1 1)) (P x1 p1))))
(assert (forall ((x Int) (p Int) (x1 Int)) (=> (and (P x p) (= p 1) (> x 0) (= x1 (- x 1))) (P x1 p))))
(assert (forall ((x Int) (p Int)) (=> (and (P x p) (or (< x 0) (> x 10))) false)))
(check-sat)
(exit)
