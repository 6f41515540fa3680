; expected: sat
; A procedure summary called twice: P(x, y) is y = x + 1, Q(x, z) calls P twice, so
; z = x + 2 always and the query (z /= x + 2) is unreachable. Non-linear (P twice in a body).
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(declare-fun Q (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (= y (+ x 1)) (P x y))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x y) (P y z)) (Q x z))))
(assert (forall ((x Int) (z Int)) (=> (and (Q x z) (not (= z (+ x 2)))) false)))
(check-sat)
(exit)
