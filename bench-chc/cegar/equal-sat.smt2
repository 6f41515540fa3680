; expected: sat
; x and y start equal (at any value) and grow together: the invariant x = y is the only
; interpolant of the first counterexample, and no explicit value proves it.
(set-logic HORN)
(declare-fun I (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (= x y) (I x y))))
(assert (forall ((x Int) (y Int)) (=> (I x y) (I (+ x 1) (+ y 1)))))
(assert (forall ((x Int) (y Int)) (=> (and (I x y) (distinct x y)) false)))
(check-sat)
(exit)
