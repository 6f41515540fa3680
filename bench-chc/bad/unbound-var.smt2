; malformed: variable z is neither quantified nor declared
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int)) (=> (and (P x) (> z 0)) false)))
(check-sat)
(exit)
