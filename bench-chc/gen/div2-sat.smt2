; expected: sat
; x = 1, 3, 5, ... is odd, so 2 * (div x 2) = x - 1 always (floor division).
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 1) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x 2))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (not (= (* 2 (div x 2)) (- x 1)))) false)))
(check-sat)
(exit)
