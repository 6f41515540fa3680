; a 16-bit counter reaches 1000 after 1000 steps: a deep counterexample
(set-logic HORN)
(declare-fun P ((_ BitVec 16)) Bool)
(assert (forall ((x (_ BitVec 16))) (=> (= x #x0000) (P x))))
(assert (forall ((x (_ BitVec 16))) (=> (and (P x) (bvult x (_ bv1000 16))) (P (bvadd x #x0001)))))
(assert (forall ((x (_ BitVec 16))) (=> (and (P x) (= x (_ bv1000 16))) false)))
(check-sat)
(exit)
