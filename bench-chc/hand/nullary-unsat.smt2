; expected: unsat
; Nullary predicates Start and Err. Start holds; P counts 0..3 and Err is derived
; from x >= 3, reached after 3 steps, so the query (=> Err false) fails.
(set-logic HORN)
(declare-fun Start () Bool)
(declare-fun Err () Bool)
(declare-fun P (Int) Bool)
(assert (=> true Start))
(assert (forall ((x Int)) (=> (and Start (= x 0)) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 3) (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (>= x 3)) Err)))
(assert (=> Err false))
(check-sat)
(exit)
