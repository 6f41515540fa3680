; expected: unsat
; Clauses in disjunctive form (no =>): the fact, the step and the query as
; disjunctions of negated body atoms and the head. x counts 0..5, so x = 5 is
; reached after 5 steps and the query fires.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (or (P x) (distinct x 0))))
(assert (forall ((x Int) (y Int)) (or (not (P x)) (>= x 5) (not (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (or (not (P x)) (not (= x 5)))))
(check-sat)
(exit)
