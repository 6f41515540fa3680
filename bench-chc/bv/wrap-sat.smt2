; an 8-bit counter stepping by 2 from 0 stays even through the wrap-around
(set-logic HORN)
(declare-fun P ((_ BitVec 8)) Bool)
(assert (forall ((x (_ BitVec 8))) (=> (= x #x00) (P x))))
(assert (forall ((x (_ BitVec 8))) (=> (P x) (P (bvadd x #x02)))))
(assert (forall ((x (_ BitVec 8))) (=> (and (P x) (= ((_ extract 0 0) x) #b1)) false)))
(check-sat)
(exit)
