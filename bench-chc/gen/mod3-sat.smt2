; expected: sat
; x = 1, 4, 7, ... so (mod x 3) = 1 always; the query (mod x 3) /= 1 never fires.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 1) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x 3))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (not (= (mod x 3) 1))) false)))
(check-sat)
(exit)
