; the greatest signed 8-bit value plus one is the least: signed order, not unsigned
(set-logic HORN)
(declare-fun P ((_ BitVec 8)) Bool)
(assert (forall ((x (_ BitVec 8))) (=> (= x #x7f) (P x))))
(assert (forall ((x (_ BitVec 8))) (=> (and (P x) (bvslt (bvadd x #x01) x)) false)))
(check-sat)
(exit)
