; malformed for chcsolve (Int, Real, Bool and arrays only): a bit-vector predicate argument
(set-logic HORN)
(declare-fun P ((_ BitVec 8)) Bool)
(assert (forall ((a (_ BitVec 8))) (=> (= a #x00) (P a))))
(assert (forall ((a (_ BitVec 8))) (=> (and (P a) (= a #x01)) false)))
(check-sat)
(exit)
