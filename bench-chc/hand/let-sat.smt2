; expected: sat
; x := x + 1, y := y + 2 from (0, 0), written with let: in the body, and
; wrapped around the whole =>. Invariant y = 2x, so the query y - 2x /= 0 never fires.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (let ((s (+ x y))) (and (= s 0) (= x 0))) (P x y))))
(assert (forall ((x Int) (y Int) (a Int) (b Int))
  (let ((x1 (+ x 1)) (y1 (+ y 2)))
    (=> (and (P x y) (= a x1) (= b y1)) (P a b)))))
(assert (forall ((x Int) (y Int))
  (=> (let ((d (- y (* 2 x)))) (and (P x y) (not (= d 0)))) false)))
(check-sat)
(exit)
