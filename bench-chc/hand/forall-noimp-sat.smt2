; expected: sat
; A forall without =>: the fact (forall ((x Int)) (P x x)) is just the head, and
; the query is (not (and ...)). Both arguments move together, so x = y always
; and the query (x /= y) never fires.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int)) (P x x)))
(assert (forall ((x Int) (y Int) (a Int) (b Int)) (=> (and (P x y) (= a (+ x 1)) (= b (+ y 1))) (P a b))))
(assert (forall ((x Int) (y Int)) (not (and (P x y) (distinct x y)))))
(check-sat)
(exit)
