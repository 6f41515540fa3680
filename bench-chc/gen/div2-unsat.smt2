; expected: unsat
; x = 0, 2, 4, ...: (div x 2) = 10 at x = 20, after 10 steps.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x 2))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (= (div x 2) 10)) false)))
(check-sat)
(exit)
