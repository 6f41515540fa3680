; Lists: the length of an append is the sum of the lengths, except that the length clause
; has a planted bug: a list whose head is 5 and whose tail has length 3 counts 5. A
; counterexample appends such a list to a non-empty one: a tree of append, three length
; chains and the query.
(set-logic HORN)
(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
(declare-fun len (L Int) Bool)
(declare-fun app (L L L) Bool)
(assert (forall ((n Int)) (=> (= n 0) (len nil n))))
(assert (forall ((x Int) (l L) (n Int) (m Int))
  (=> (and (len l n) (= m (ite (and (= x 5) (= n 3)) 5 (+ n 1)))) (len (cons x l) m))))
(assert (forall ((b L)) (app nil b b)))
(assert (forall ((x Int) (a L) (b L) (c L))
  (=> (app a b c) (app (cons x a) b (cons x c)))))
(assert (forall ((a L) (b L) (c L) (n Int) (m Int) (k Int))
  (=> (and (app a b c) (len a n) (len b m) (len c k) (> n 0) (not (= k (+ n m)))) false)))
(check-sat)
