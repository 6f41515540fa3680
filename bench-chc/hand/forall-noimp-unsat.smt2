; expected: unsat
; A forall without =>: the fact (forall ((z Int)) (P 0 z)) is just the head, and
; the query is (not (and ...)). P(0, 7) holds, and the step gives P(1, 7) and
; P(2, 7), which the query forbids.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((z Int)) (P 0 z)))
(assert (forall ((x Int) (z Int) (x1 Int)) (=> (and (P x z) (< x 5) (= x1 (+ x 1))) (P x1 z))))
(assert (forall ((x Int) (z Int)) (not (and (P x z) (= x 2) (= z 7)))))
(check-sat)
(exit)
