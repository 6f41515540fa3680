; expected: unsat
; x := 1; loop x := x / 2. After 10 halvings x = 1/1024 < 1/1000, so the query
; x < 0.001 is reached (a counterexample of 10 steps).
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (= x 1.0) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (= y (/ x 2))) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (< x 0.001)) false)))
(check-sat)
(exit)
