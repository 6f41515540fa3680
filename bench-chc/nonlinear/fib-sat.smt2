; expected: sat
; Fibonacci as a recursive procedure: F(n, r) means fib(n) = r for n >= 0. Every result is
; non-negative (r >= 0 is inductive: a sum of two non-negative results), so r < 0 is unreachable.
(set-logic HORN)
(declare-fun F (Int Int) Bool)
(assert (forall ((n Int) (r Int)) (=> (and (>= n 0) (<= n 1) (= r n)) (F n r))))
(assert (forall ((n Int) (a Int) (b Int) (r Int))
  (=> (and (>= n 2) (F (- n 1) a) (F (- n 2) b) (= r (+ a b))) (F n r))))
(assert (forall ((n Int) (r Int)) (=> (and (F n r) (< r 0)) false)))
(check-sat)
(exit)
