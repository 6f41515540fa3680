; expected: sat
; x starts anywhere strictly between 0 and 1; loop x := (x + 1) / 2. x moves towards 1
; but never reaches it: 0 < x < 1 is an inductive invariant with strict bounds
; (0 < x < 1 implies 1/2 < (x + 1)/2 < 1). Query: x >= 1 or x <= 0.
(set-logic HORN)
(declare-fun inv (Real) Bool)
(assert (forall ((x Real)) (=> (and (< 0.0 x) (< x 1.0)) (inv x))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x) (= y (/ (+ x 1.0) 2.0))) (inv y))))
(assert (forall ((x Real)) (=> (and (inv x) (or (>= x 1.0) (<= x 0.0))) false)))
(check-sat)
(exit)
