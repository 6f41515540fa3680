; expected: sat
; let binds in parallel: (let ((x y) (y x)) (P x y)) is P(old y, old x), a swap.
; From P(1, 2) only (1, 2) and (2, 1) are reachable, so x = y never holds.
; (A sequential reading would give P(2, 2) and make the query fire.)
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 1) (= y 2)) (P x y))))
(assert (forall ((x Int) (y Int)) (=> (P x y) (let ((x y) (y x)) (P x y)))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (= x y)) false)))
(check-sat)
(exit)
