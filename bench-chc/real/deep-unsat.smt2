; expected: unsat
; x := 0; loop x := x + 0.25 while x <= 19.75. x = 20 is reached after exactly 80
; steps, so the query x >= 20 is reached by a counterexample of 80 steps and no
; shorter one.
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (= x 0.0) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (<= x 19.75) (= y (+ x 0.25))) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (>= x 20.0)) false)))
(check-sat)
(exit)
