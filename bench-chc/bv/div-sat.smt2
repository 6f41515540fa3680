; dividing by a value that is not zero never grows a value
(set-logic HORN)
(declare-fun P ((_ BitVec 8)) Bool)
(assert (forall ((x (_ BitVec 8))) (=> (= x #x64) (P x))))
(assert (forall ((x (_ BitVec 8)) (y (_ BitVec 8))) (=> (and (P x) (distinct y #x00)) (P (bvudiv x y)))))
(assert (forall ((x (_ BitVec 8))) (=> (and (P x) (bvugt x #x64)) false)))
(check-sat)
(exit)
