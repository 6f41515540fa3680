; expected: unsat
; Clauses written without =>: a fact (forall ((x Int)) (P 0 x)) whose body is just
; the head, a disjunctive step, and a query as (not (and ...)). P(0, 7) holds, and
; the step gives P(1, 7) and P(2, 7), which the query forbids.
(set-logic HORN)
(declare-fun P (Int Int) Bool)
(assert (forall ((x Int)) (P 0 x)))
(assert (forall ((x Int) (y Int) (z Int)) (or (not (P x z)) (>= x 5) (P (+ x 1) z))))
(assert (forall ((x Int) (z Int)) (not (and (P x z) (= x 2) (= z 7)))))
(check-sat)
(exit)
