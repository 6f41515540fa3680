; expected: unsat
; x := 0; loop x := x + 1/2 (no bound). After 7 steps x = 3.5, so the query x >= 3.5
; is reached.
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (= x 0.0) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (= y (+ x (/ 1 2)))) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (>= x 3.5)) false)))
(check-sat)
(exit)
