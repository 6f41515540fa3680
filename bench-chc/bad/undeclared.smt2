; malformed: predicate Q is used but never declared
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int)) (=> (P x) (Q x))))
(assert (forall ((x Int)) (=> (and (P x) (> x 0)) false)))
(check-sat)
(exit)
