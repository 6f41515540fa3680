; expected: unsat
; (x, y, z) starts at (1, 2, 3) and rotates to (y, z, x); after two steps it is
; (3, 1, 2): distinct and x = 3, which the query forbids.
(set-logic HORN)
(declare-fun P (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (= x 1) (= y 2) (= z 3)) (P x y z))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (P x y z) (P y z x))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x y z) (distinct x y z) (distinct x 1 2)) false)))
(check-sat)
(exit)
