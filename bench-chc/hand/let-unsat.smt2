; expected: unsat
; x := x + 1, y := y + 2 from (0, 0), written with let wrapped around the =>
; (and a nested let); (3, 6) is reached after 3 steps, which the query forbids.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (P x y))))
(assert (forall ((x Int) (y Int) (a Int) (b Int))
  (let ((x1 (+ x 1)))
    (let ((y1 (+ y 2)))
      (=> (and (P x y) (= a x1) (= b y1)) (P a b))))))
(assert (forall ((x Int) (y Int)) (let ((c 3)) (=> (and (P x y) (= x c) (= y (* 2 c))) false))))
(check-sat)
(exit)
