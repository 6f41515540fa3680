; expected: unsat
; Ground facts without a quantifier: P(0, 1) and P(5, (- 3)), and a ground
; query clause; P(5, -3) violates it directly.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (P 0 1))
(assert (P 5 (- 3)))
(assert (forall ((x Int) (y Int) (a Int) (b Int)) (=> (and (P x y) (= a (+ x 2)) (= b (+ y 2))) (P a b))))
(assert (=> (P 5 (- 3)) false))
(check-sat)
(exit)
