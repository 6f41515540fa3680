; expected: sat
; x = 0, -1, -2, ...: (div -5 2) = -3 in SMT-LIB (not -2 as in C),
; so the query x = -5 and (div x 2) = -2 never fires.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x (- 1)))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (and (= x (- 5)) (= (div x 2) (- 2)))) false)))
(check-sat)
(exit)
