; expected: sat
; Nullary predicates Start and Err. Start holds (a fact without quantifier);
; P counts 0..3 and Err is derived only from x > 3, which is unreachable, so
; Err is false and the query (=> Err false) holds.
(set-logic HORN)
(declare-fun Start () Bool)
(declare-fun Err () Bool)
(declare-fun P (Int) Bool)
(assert Start)
(assert (forall ((x Int)) (=> (and Start (= x 0)) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 3) (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (> x 3)) Err)))
(assert (=> Err false))
(check-sat)
(exit)
