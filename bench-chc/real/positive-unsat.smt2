; expected: unsat
; As positive-sat, with the non-strict start x >= 0: x = 0 is an initial state and
; satisfies the query x <= 0 (a counterexample of one step).
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (>= x 0.0) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (>= y x)) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (<= x 0.0)) false)))
(check-sat)
(exit)
