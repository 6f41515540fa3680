; malformed: P is declared with two arguments but applied to one
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (P x y))))
(assert (forall ((x Int)) (=> (and (P x) (> x 0)) false)))
(check-sat)
(exit)
