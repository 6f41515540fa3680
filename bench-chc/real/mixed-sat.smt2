; expected: sat
; An Int counter n and a Real x: n := 0, x := 0; loop n := n + 1, x := x + 1/2.
; x = n/2 (2x = to_real n) is an inductive invariant, so the query 2x /= n is never
; reached.
(set-logic HORN)
(declare-fun inv (Int Real) Bool)
(assert (forall ((n Int) (x Real)) (=> (and (= n 0) (= x 0.0)) (inv n x))))
(assert (forall ((n Int) (x Real) (n1 Int) (x1 Real))
  (=> (and (inv n x) (= n1 (+ n 1)) (= x1 (+ x 0.5))) (inv n1 x1))))
(assert (forall ((n Int) (x Real)) (=> (and (inv n x) (not (= (* 2.0 x) (to_real n)))) false)))
(check-sat)
(exit)
