; expected: sat
; x := 0; loop x := x + 1/4 while x < 250000. x never gets negative: x >= 0 is an
; inductive invariant, so the query x < 0 is never reached (the unsat twin asks for
; x >= 250000, reached after exactly 10^6 steps).
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (= x 0.0) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (< x 250000.0) (= y (+ x 0.25))) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (< x 0.0)) false)))
(check-sat)
(exit)
