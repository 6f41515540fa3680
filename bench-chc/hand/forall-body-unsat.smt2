; expected: unsat
; The twin of forall-body-sat.smt2 with one change: x counts 0, 1, 2, ... (step a = x + 1),
; so x = 1, y = 1 is reachable in one step, and query 1 fires there: x is odd, that is,
; forall z. x /= 2z holds (the quantifier over arithmetic in the body, eliminated exactly).
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
(assert (forall ((x Int) (y Int) (a Int) (b Int)) (=> (and (inv x y) (= a (+ x 1)) (= b (+ y 1))) (inv a b))))
(assert (forall ((x Int) (y Int)) (not (and (inv x y) (forall ((z Int)) (not (= x (* 2 z))))))))
(check-sat)
(exit)
