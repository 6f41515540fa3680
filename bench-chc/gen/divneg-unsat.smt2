; expected: unsat
; x = 0, -1, -2, ...: at x = -5, (div x 2) = -3 (Euclidean division).
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x (- 1)))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (and (= x (- 5)) (= (div x 2) (- 3)))) false)))
(check-sat)
(exit)
