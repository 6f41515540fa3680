; malformed for chcsolve (linear integer arithmetic only): product of two variables
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 1) (= y 1)) (P x y))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x y) (= z (* x y))) (P z y))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (> x 5)) false)))
(check-sat)
(exit)
