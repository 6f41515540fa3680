; expected: unsat
; x zigzags between 0 and 1000 forever: up with d = 1 while x < 1000, then d := -1
; and down while x > 0, then d := 1 again. Reachable: (d = 1 and 0 <= x <= 1000)
; or (d = -1 and 0 <= x <= 999): a disjunction (d = 0 is not reachable).
; x = 0 with d = -1 is reached after 2000 steps; the query forbids it.
(set-logic HORN)
(declare-fun Z (Int Int) Bool)
(assert (forall ((x Int) (d Int)) (=> (and (= x 0) (= d 1)) (Z x d))))
(assert (forall ((x Int) (d Int) (x1 Int)) (=> (and (Z x d) (= d 1) (< x 1000) (= x1 (+ x 1))) (Z x1 d))))
(assert (forall ((x Int) (d Int) (x1 Int) (d1 Int)) (=> (and (Z x d) (= d 1) (>= x 1000) (= x1 (- x 1)) (= d1 (- 1))) (Z x1 d1))))
(assert (forall ((x Int) (d Int) (x1 Int)) (=> (and (Z x d) (= d (- 1)) (> x 0) (= x1 (- x 1))) (Z x1 d))))
(assert (forall ((x Int) (d Int) (x1 Int) (d1 Int)) (=> (and (Z x d) (= d (- 1)) (<= x 0) (= x1 (+ x 1)) (= d1 1)) (Z x1 d1))))
(assert (forall ((x Int) (d Int)) (=> (and (Z x d) (= d (- 1)) (= x 0)) false)))
(check-sat)
(exit)
