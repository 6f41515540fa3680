; adding #x0100 to a word three times makes its high byte 3, its low byte unchanged
(set-logic HORN)
(declare-fun P ((_ BitVec 16)) Bool)
(assert (forall ((w (_ BitVec 16))) (=> (= w #x00ab) (P w))))
(assert (forall ((w (_ BitVec 16))) (=> (P w) (P (bvadd w #x0100)))))
(assert (forall ((w (_ BitVec 16)))
  (=> (and (P w) (= ((_ extract 15 8) w) #x03) (= ((_ extract 7 0) w) #xab)) false)))
(check-sat)
(exit)
