; expected: sat
; Two locations with disjoint variable sets (P over Int and Bool, Q over three Ints).
; P counts x from 0 to 10 with b fixed to true; Q starts at (x, 2x, 7) and keeps c = 2a.
; Neither query fires: b stays true in P, c = 2a in Q.
(set-logic HORN)
(declare-fun P (Int Bool) Bool)
(declare-fun Q (Int Int Int) Bool)
(assert (forall ((x Int) (b Bool)) (=> (and (= x 0) b) (P x b))))
(assert (forall ((x Int) (b Bool)) (=> (and (P x b) (< x 10)) (P (+ x 1) b))))
(assert (forall ((x Int) (b Bool)) (=> (and (P x b) (>= x 10)) (Q x (* 2 x) 7))))
(assert (forall ((a Int) (c Int) (d Int)) (=> (and (Q a c d) (= d 7)) (Q (+ a 1) (+ c 2) d))))
(assert (forall ((a Int) (c Int) (d Int)) (=> (and (Q a c d) (distinct c (* 2 a))) false)))
(assert (forall ((x Int) (b Bool)) (=> (and (P x b) (not b)) false)))
(check-sat)
(exit)
