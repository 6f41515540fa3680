; expected: sat
; A parity fact: x starts at any even number; the first step adds 2k, the second sets x to
; 2*z - 4k; y and z are noise. So x mod 2 = 0 (a congruence) is invariant, and the query
; x = y + z + 7 /\ y = z, i.e. x = 2*y + 7 odd, is unreachable. No linear invariant blocks
; it (pdr and spacer alone: unknown at 10 s).
(set-logic HORN)
(declare-fun Inv (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int) (n Int)) (=> (= x (* 2 n)) (Inv x y z))))
(assert (forall ((x Int) (y Int) (z Int) (k Int) (x1 Int) (y1 Int) (z1 Int))
  (=> (and (Inv x y z) (= x1 (+ x (* 2 k))) (= y1 (+ y (* 3 x1))) (= z1 (+ z (* 2 y1) (- x1)))) (Inv x1 y1 z1))))
(assert (forall ((x Int) (y Int) (z Int) (k Int) (x1 Int) (y1 Int) (z1 Int))
  (=> (and (Inv x y z) (= x1 (- (* 2 z) (* 4 k))) (= y1 (+ x y)) (= z1 (* 5 y))) (Inv x1 y1 z1))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (Inv x y z) (= x (+ y z 7)) (= y z)) false)))
(check-sat)
