; an 8-bit counter stepping by 1 from 0 is 0 again after 256 steps: unsat only because of
; the wrap-around (over unbounded integers it would be sat)
(set-logic HORN)
(declare-fun P ((_ BitVec 8) Bool) Bool)
(assert (forall ((x (_ BitVec 8))) (=> (= x #x00) (P x false))))
(assert (forall ((x (_ BitVec 8)) (f Bool)) (=> (P x f) (P (bvadd x #x01) true))))
(assert (forall ((x (_ BitVec 8))) (=> (and (P x true) (= x #x00)) false)))
(check-sat)
(exit)
