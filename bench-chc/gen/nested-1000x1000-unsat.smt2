; expected: unsat
; Outer loop i = 0..1000, inner loop j reset to 0 and run to 1000, c counts
; inner steps; when the outer loop exits, i = 1000 and c = 1000000.
; The query (i >= 1000 and c = 1000000) is reached at depth about 1002000.
(set-logic HORN)
(declare-fun Outer (Int Int) Bool)
(declare-fun Inner (Int Int Int) Bool)
(assert (forall ((i Int) (c Int)) (=> (and (= i 0) (= c 0)) (Outer i c))))
(assert (forall ((i Int) (c Int) (j Int)) (=> (and (Outer i c) (< i 1000) (= j 0)) (Inner i j c))))
(assert (forall ((i Int) (j Int) (c Int) (j1 Int) (c1 Int)) (=> (and (Inner i j c) (< j 1000) (= j1 (+ j 1)) (= c1 (+ c 1))) (Inner i j1 c1))))
(assert (forall ((i Int) (j Int) (c Int) (i1 Int)) (=> (and (Inner i j c) (>= j 1000) (= i1 (+ i 1))) (Outer i1 c))))
(assert (forall ((i Int) (c Int)) (=> (and (Outer i c) (>= i 1000) (= c 1000000)) false)))
(check-sat)
(exit)
