; expected: sat
; x := 1; loop x := x / 2. x stays positive forever: the invariant x > 0 is inductive
; (x > 0 implies x/2 > 0) and needs the density of the reals (over the integers x/2
; would reach 0). Query: x <= 0.
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (= x 1.0) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (= y (/ x 2))) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (<= x 0.0)) false)))
(check-sat)
(exit)
