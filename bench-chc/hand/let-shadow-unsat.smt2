; expected: unsat
; let binds in parallel: (let ((x y) (y x)) (P x y)) swaps the arguments,
; so (2, 1) is reached from P(1, 2) in one step and the query fires.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 1) (= y 2)) (P x y))))
(assert (forall ((x Int) (y Int)) (=> (P x y) (let ((x y) (y x)) (P x y)))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (= x 2) (= y 1)) false)))
(check-sat)
(exit)
