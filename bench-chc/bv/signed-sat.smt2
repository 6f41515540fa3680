; counting up while below 128 unsigned: the counter reaches 128, which is negative as a
; signed value, but never exceeds 128 unsigned
(set-logic HORN)
(declare-fun P ((_ BitVec 8)) Bool)
(assert (forall ((x (_ BitVec 8))) (=> (= x #x00) (P x))))
(assert (forall ((x (_ BitVec 8))) (=> (and (P x) (bvult x #x80)) (P (bvadd x #x01)))))
(assert (forall ((x (_ BitVec 8))) (=> (and (P x) (bvslt x #x00) (bvugt x #x80)) false)))
(check-sat)
(exit)
