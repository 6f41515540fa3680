; expected: sat
; x starts in [0, 1) (strict upper bound); loop x := x + 1 while x < 3 (strict guard).
; x < 4 is inductive: initially x < 1, and x < 3 implies x + 1 < 4. Query: x >= 4.
; (x = 3.999 is reachable from x = 0.999, so no smaller bound works.)
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (and (<= 0.0 x) (< x 1.0)) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (< x 3.0) (= y (+ x 1.0))) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (>= x 4.0)) false)))
(check-sat)
(exit)
