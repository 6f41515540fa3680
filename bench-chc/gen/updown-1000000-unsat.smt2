; expected: unsat
; x counts up from 0 and y down from 1000000 while x < 1000000; after 1000000 steps
; x = 1000000 and y = 0, which the query forbids (counterexample depth 1000000).
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 1000000)) (P x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int)) (=> (and (P x y) (< x 1000000) (= x1 (+ x 1)) (= y1 (- y 1))) (P x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (= x 1000000) (= y 0)) false)))
(check-sat)
(exit)
