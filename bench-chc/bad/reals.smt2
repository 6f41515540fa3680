; malformed for chcsolve (linear real arithmetic only): product of two Real variables
(set-logic HORN)
(declare-fun P (Real Real) Bool)
(assert (forall ((x Real) (y Real)) (=> (and (= x 0.5) (= y 2.0)) (P x y))))
(assert (forall ((x Real) (y Real) (z Real)) (=> (and (P x y) (= z (* x y))) (P z y))))
(assert (forall ((x Real) (y Real)) (=> (and (P x y) (> x 5.0)) false)))
(check-sat)
(exit)
