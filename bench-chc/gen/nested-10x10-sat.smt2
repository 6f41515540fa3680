; expected: sat
; Outer loop i = 0..10, inner loop j reset to 0 and run to 10, c counts
; inner steps; when the outer loop exits, i = 10 and c = 100.
; Invariants Outer: c = 10*i, 0 <= i <= 10; Inner: c = 10*i + j, 0 <= j <= 10,
; i < 10; so at exit c is exactly 100 and the query c /= 100 never fires.
(set-logic HORN)
(declare-fun Outer (Int Int) Bool)
(declare-fun Inner (Int Int Int) Bool)
(assert (forall ((i Int) (c Int)) (=> (and (= i 0) (= c 0)) (Outer i c))))
(assert (forall ((i Int) (c Int) (j Int)) (=> (and (Outer i c) (< i 10) (= j 0)) (Inner i j c))))
(assert (forall ((i Int) (j Int) (c Int) (j1 Int) (c1 Int)) (=> (and (Inner i j c) (< j 10) (= j1 (+ j 1)) (= c1 (+ c 1))) (Inner i j1 c1))))
(assert (forall ((i Int) (j Int) (c Int) (i1 Int)) (=> (and (Inner i j c) (>= j 10) (= i1 (+ i 1))) (Outer i1 c))))
(assert (forall ((i Int) (c Int)) (=> (and (Outer i c) (>= i 10) (distinct c 100)) false)))
(check-sat)
(exit)
