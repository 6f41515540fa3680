; expected: unsat
; As locs-sat, but Q's loop adds 3 to c: after one step c = 2a + 1, so the query fires.
(set-logic HORN)
(declare-fun P (Int Bool) Bool)
(declare-fun Q (Int Int Int) Bool)
(assert (forall ((x Int) (b Bool)) (=> (and (= x 0) b) (P x b))))
(assert (forall ((x Int) (b Bool)) (=> (and (P x b) (< x 10)) (P (+ x 1) b))))
(assert (forall ((x Int) (b Bool)) (=> (and (P x b) (>= x 10)) (Q x (* 2 x) 7))))
(assert (forall ((a Int) (c Int) (d Int)) (=> (and (Q a c d) (= d 7)) (Q (+ a 1) (+ c 3) d))))
(assert (forall ((a Int) (c Int) (d Int)) (=> (and (Q a c d) (distinct c (* 2 a))) false)))
(assert (forall ((x Int) (b Bool)) (=> (and (P x b) (not b)) false)))
(check-sat)
(exit)
