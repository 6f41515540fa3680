; expected: sat
; Linear terms in many spellings: unary minus (- x), n-ary + and -, constant
; coefficients on either side of *, negative literals. The step keeps
; y = -3x (y := (- y 3) while x := x + 1), so the query 3x + y /= 0 never fires.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= (- y) 0)) (P x y))))
(assert (forall ((x Int) (y Int) (a Int) (b Int))
  (=> (and (P x y) (= a (+ x 1 0)) (= b (- y 1 1 1))) (P a b))))
(assert (forall ((x Int) (y Int))
  (=> (and (P x y) (not (= (+ (* 3 x) (* y 1)) 0)) (>= (* (- 2) x) (* x (- 5)))) false)))
(check-sat)
(exit)
