; the length of a list built by consing is its number of conses: never negative, and a
; non-empty list has a positive length
(set-logic HORN)
(declare-datatypes ((Lst 0)) (((nil) (cons (head Int) (tail Lst)))))
(declare-fun len (Lst Int) Bool)
(assert (forall ((l Lst)) (=> (= l nil) (len l 0))))
(assert (forall ((l Lst) (t Lst) (h Int) (n Int))
  (=> (and (= l (cons h t)) (len t n)) (len l (+ n 1)))))
(assert (forall ((l Lst) (n Int)) (=> (and (len l n) (< n 0)) false)))
(assert (forall ((l Lst) (n Int)) (=> (and (len l n) ((_ is cons) l) (<= n 0)) false)))
(check-sat)
