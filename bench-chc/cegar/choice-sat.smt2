; expected: sat
; x is chosen among 1, 2 and 3 and never changes while y counts to 3: x = 0 is unreachable.
; Explicit values prove it only by enumerating the three choices (MaxEnum >= 3, seed 000
; Sect. 3.1.1); with one successor per edge, x is unknown.
(set-logic HORN)
(declare-fun C (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (< 0 x) (< x 4) (= y 0)) (C x y))))
(assert (forall ((x Int) (y Int)) (=> (and (C x y) (< y 3)) (C x (+ y 1)))))
(assert (forall ((x Int) (y Int)) (=> (and (C x y) (= x 0)) false)))
(check-sat)
(exit)
