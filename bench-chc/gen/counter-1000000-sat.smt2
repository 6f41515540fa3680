; expected: sat
; x starts at 0 and steps +1 only while x < 1000000, so 0 <= x <= 1000000 is
; inductive and the query x > 1000000 never fires.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 1000000) (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (> x 1000000)) false)))
(check-sat)
(exit)
