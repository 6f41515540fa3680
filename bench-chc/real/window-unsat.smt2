; expected: unsat
; x starts in [0, 1); loop x := x + 1 while x < 3. From x = 0.5: 1.5, 2.5, then
; 2.5 < 3 allows a third step to 3.5, so the query x >= 3.5 is reached (it needs a
; start value that is not an integer: from an integer start x stays <= 3).
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (and (<= 0.0 x) (< x 1.0)) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (< x 3.0) (= y (+ x 1.0))) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (>= x 3.5)) false)))
(check-sat)
(exit)
