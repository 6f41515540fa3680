; expected: sat
; (x, y, z) starts at (1, 2, 3) and rotates to (y, z, x): always a permutation
; of 1, 2, 3, so the three stay pairwise distinct and the query never fires.
(set-logic HORN)
(declare-fun P (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (= x 1) (= y 2) (= z 3)) (P x y z))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (P x y z) (P y z x))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x y z) (not (distinct x y z))) false)))
(check-sat)
(exit)
