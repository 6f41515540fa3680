; z3's names of the division operators (bvudiv_i, bvurem_i: z3 prints them, and CHC-COMP's
; BV files use them), which mean the SMT-LIB operators: 200 halved eight times is 0, so the
; query with n = 8 is reached
(set-logic HORN)
(declare-fun Inv ((_ BitVec 8) (_ BitVec 8)) Bool)
(assert (forall ((x (_ BitVec 8)) (n (_ BitVec 8))) (=> (and (= x #xc8) (= n #x00)) (Inv x n))))
(assert (forall ((x (_ BitVec 8)) (n (_ BitVec 8)))
  (=> (and (Inv x n) (distinct x #x00)) (Inv (bvudiv_i x #x02) (bvadd n (bvurem_i #x03 #x02))))))
(assert (forall ((x (_ BitVec 8)) (n (_ BitVec 8))) (=> (and (Inv x n) (= x #x00) (= n #x08)) false)))
(check-sat)
(exit)
