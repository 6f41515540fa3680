; expected: unsat
; As mixed-sat (n := n + 1, x := x + 1/2, so x = n/2); the query n = 7 /\ x = 3.5 is
; reached after 7 steps.
(set-logic HORN)
(declare-fun inv (Int Real) Bool)
(assert (forall ((n Int) (x Real)) (=> (and (= n 0) (= x 0.0)) (inv n x))))
(assert (forall ((n Int) (x Real) (n1 Int) (x1 Real))
  (=> (and (inv n x) (= n1 (+ n 1)) (= x1 (+ x 0.5))) (inv n1 x1))))
(assert (forall ((n Int) (x Real)) (=> (and (inv n x) (= n 7) (= x 3.5)) false)))
(check-sat)
(exit)
