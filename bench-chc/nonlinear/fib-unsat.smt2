; expected: unsat
; Fibonacci as in fib-sat; fib(6) = 8 is derivable, by a tree of 25 calls.
(set-logic HORN)
(declare-fun F (Int Int) Bool)
(assert (forall ((n Int) (r Int)) (=> (and (>= n 0) (<= n 1) (= r n)) (F n r))))
(assert (forall ((n Int) (a Int) (b Int) (r Int))
  (=> (and (>= n 2) (F (- n 1) a) (F (- n 2) b) (= r (+ a b))) (F n r))))
(assert (forall ((n Int) (r Int)) (=> (and (F n r) (= n 6) (= r 8)) false)))
(check-sat)
(exit)
