; malformed: the second argument of P is Bool but is given the Int x
(set-logic HORN)
(declare-fun P (Int Bool) Bool)
(assert (forall ((x Int) (b Bool)) (=> (and (= x 0) b) (P x b))))
(assert (forall ((x Int) (b Bool)) (=> (and (P x x) (> x 0)) false)))
(check-sat)
(exit)
