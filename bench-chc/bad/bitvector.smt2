; malformed for chcsolve: an array of bit-vectors as a predicate argument (bit-vectors are
; supported as predicate arguments and variables, not inside arrays)
(set-logic HORN)
(declare-fun P ((Array Int (_ BitVec 8))) Bool)
(assert (forall ((a (Array Int (_ BitVec 8)))) (=> (= (select a 0) #x00) (P a))))
(assert (forall ((a (Array Int (_ BitVec 8)))) (=> (and (P a) (= (select a 1) #x01)) false)))
(check-sat)
(exit)
