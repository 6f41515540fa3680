; malformed for chcsolve (linear real arithmetic only): division by a variable
(set-logic HORN)
(declare-fun P (Real Real) Bool)
(assert (forall ((x Real) (y Real)) (=> (and (= x 1.0) (= y 2.0)) (P x y))))
(assert (forall ((x Real) (y Real) (z Real)) (=> (and (P x y) (= z (/ x y))) (P z y))))
(assert (forall ((x Real) (y Real)) (=> (and (P x y) (< x 0.1)) false)))
(check-sat)
(exit)
