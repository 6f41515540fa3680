; expected: sat
; Flag b alternates: when false x++, when true y++. Invariant:
; (not b and x = y) or (b and x = y + 1).
; The query (b and x = y) never fires.
(set-logic HORN)
(declare-fun Q (Int Int Bool) Bool)
(assert (forall ((x Int) (y Int) (b Bool)) (=> (and (= x 0) (= y 0) (= b false)) (Q x y b))))
(assert (forall ((x Int) (y Int) (b Bool) (x1 Int) (b1 Bool)) (=> (and (Q x y b) (not b) (= x1 (+ x 1)) (= b1 true)) (Q x1 y b1))))
(assert (forall ((x Int) (y Int) (b Bool) (y1 Int) (b1 Bool)) (=> (and (Q x y b) b (= y1 (+ y 1)) (= b1 false)) (Q x y1 b1))))
(assert (forall ((x Int) (y Int) (b Bool)) (=> (and (Q x y b) b (= x y)) false)))
(check-sat)
(exit)
