; expected: sat
; x counts up from 0 and y down from 1000 while x < 1000. Inductive invariant:
; x + y = 1000 and 0 <= x <= 1000, hence y >= 0; the query y < 0 never fires.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 1000)) (P x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int)) (=> (and (P x y) (< x 1000) (= x1 (+ x 1)) (= y1 (- y 1))) (P x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (< y 0)) false)))
(check-sat)
(exit)
