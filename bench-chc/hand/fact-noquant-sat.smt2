; expected: sat
; Ground facts without a quantifier: P(0, 1) and P(5, 6). The step keeps
; y = x + 1, so the query y /= x + 1 never fires.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (P 0 1))
(assert (P 5 6))
(assert (forall ((x Int) (y Int) (a Int) (b Int)) (=> (and (P x y) (= a (+ x 2)) (= b (+ y 2))) (P a b))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (not (= y (+ x 1)))) false)))
(check-sat)
(exit)
