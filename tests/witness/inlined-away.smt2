; Every predicate but Inv is removed by preprocessing: |A b| and Mid are inlined (one
; defining clause, one use), Dead derives nothing (cone of influence: false). Mid's model
; is rebuilt as `exists x. 0 <= x <= 3 /\ y = 2x`, which needs divisibility to eliminate.
(set-logic HORN)
(declare-fun |A b| (Int) Bool)
(declare-fun Mid (Int) Bool)
(declare-fun Inv (Int Int) Bool)
(declare-fun Dead (Int) Bool)
(assert (forall ((x Int)) (=> (and (>= x 0) (<= x 3)) (|A b| x))))
(assert (forall ((x Int) (y Int)) (=> (and (|A b| x) (= y (* 2 x))) (Mid y))))
(assert (forall ((y Int) (z Int)) (=> (and (Mid y) (= z 0)) (Inv y z))))
(assert (forall ((y Int) (z Int) (z1 Int)) (=> (and (Inv y z) (< z 10) (= z1 (+ z 1))) (Inv y z1))))
(assert (forall ((y Int) (z Int)) (=> (and (Inv y z) (= (mod y 2) 1)) false)))
(assert (forall ((x Int)) (=> (Dead x) (Dead (+ x 1)))))
(assert (forall ((x Int)) (=> (and (Dead x) (Inv x x)) false)))
(check-sat)
