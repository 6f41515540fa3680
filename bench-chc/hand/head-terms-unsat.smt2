; expected: unsat
; Heads that are not distinct variables; a constant (- 1) and a term in the head.
; From P(-1, 0) each step gives P(x + 1, y + 2): (2, 6) after 3 steps.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((y Int)) (=> (= y 0) (P (- 1) y))))
(assert (forall ((x Int) (y Int)) (=> (P x y) (P (+ x 1) (+ y 2)))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (= x 2) (= y 6)) false)))
(check-sat)
(exit)
