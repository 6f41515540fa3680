; malformed for chcsolve (Int and Bool only): a Real-sorted predicate argument
(set-logic HORN)
(declare-fun P (Real) Bool)
(assert (forall ((x Real)) (=> (= x 0.5) (P x))))
(assert (forall ((x Real)) (=> (and (P x) (> x 1.0)) false)))
(check-sat)
(exit)
