; expected: sat
; x starts strictly positive and never decreases (x' >= x, any amount). The invariant
; x > 0 is strict: x >= 0 would admit x = 0 and the query x <= 0, and over the reals
; there is no smallest positive value to use instead.
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (> x 0.0) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (>= y x)) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (<= x 0.0)) false)))
(check-sat)
(exit)
