; expected: unsat
; ite in a transition: x := (ite (< x 5) (+ x 1) 0) from x = 0 reaches x = 5
; after 5 steps, which the query forbids.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (ite (< x 5) (+ x 1) 0))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (= (ite (>= x 5) 1 0) 1)) false)))
(check-sat)
(exit)
