; expected: unsat
; As equal-sat, but y grows by 2: after one step x /= y.
(set-logic HORN)
(declare-fun I (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (= x y) (I x y))))
(assert (forall ((x Int) (y Int)) (=> (I x y) (I (+ x 1) (+ y 2)))))
(assert (forall ((x Int) (y Int)) (=> (and (I x y) (distinct x y)) false)))
(check-sat)
(exit)
