; expected: sat
; x := 0; loop x := x + 1/2 (no bound). x >= 0 is inductive (non-strict), so the
; query x < 0 is never reached.
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (= x 0.0) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (= y (+ x (/ 1 2)))) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (< x 0.0)) false)))
(check-sat)
(exit)
