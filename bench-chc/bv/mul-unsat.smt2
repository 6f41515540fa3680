; doubling 1 eight times gives 0 in 8 bits
(set-logic HORN)
(declare-fun P ((_ BitVec 8)) Bool)
(assert (forall ((x (_ BitVec 8))) (=> (= x #x01) (P x))))
(assert (forall ((x (_ BitVec 8))) (=> (P x) (P (bvmul x #x02)))))
(assert (forall ((x (_ BitVec 8))) (=> (and (P x) (= x #x00)) false)))
(check-sat)
(exit)
