; expected: sat
; Clauses in disjunctive form (no =>): the fact and the step as disjunctions, the query as
; (not (and ...)). x counts 0..5 (guard < 5), so x > 5 never holds.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (or (not (= x 0)) (P x))))
(assert (forall ((x Int) (y Int)) (or (not (P x)) (not (< x 5)) (not (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (not (and (P x) (> x 5)))))
(check-sat)
(exit)
