; malformed for chcsolve (Int and Bool only): an array-sorted predicate argument
(set-logic HORN)
(declare-fun P ((Array Int Int)) Bool)
(assert (forall ((a (Array Int Int))) (=> (= (select a 0) 0) (P a))))
(assert (forall ((a (Array Int Int))) (=> (and (P a) (> (select a 0) 0)) false)))
(check-sat)
(exit)
