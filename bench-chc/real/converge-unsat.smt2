; expected: unsat
; x := 1/2; loop x := (x + 1) / 2, so after k steps x = 1 - 2^-(k+1): after 6 steps
; x = 127/128 = 0.9921875 >= 0.99, and the query x >= 0.99 is reached.
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (= x (/ 1 2)) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (= y (/ (+ x 1.0) 2.0))) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (>= x 0.99)) false)))
(check-sat)
(exit)
