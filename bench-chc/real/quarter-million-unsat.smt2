; expected: unsat
; x := 0; loop x := x + 1/4 while x < 250000. x = 250000 is reached after exactly
; 10^6 steps, so the query x >= 250000 is reached by a counterexample of 10^6 steps
; and no shorter one: too deep to unroll, found by acceleration (x + n/4 after n steps).
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (= x 0.0) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (< x 250000.0) (= y (+ x 0.25))) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (>= x 250000.0)) false)))
(check-sat)
(exit)
