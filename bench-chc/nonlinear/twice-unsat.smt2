; expected: unsat
; As twice-sat, but the query asks for z = x + 2 with x = 5, which the two calls derive:
; the counterexample is a tree (the Q step has two premises).
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(declare-fun Q (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (= y (+ x 1)) (P x y))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x y) (P y z)) (Q x z))))
(assert (forall ((x Int) (z Int)) (=> (and (Q x z) (= x 5) (= z 7)) false)))
(check-sat)
(exit)
