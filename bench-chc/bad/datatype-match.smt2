; malformed for chcsolve: a `match` term over a recursive datatype
(set-logic HORN)
(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
(declare-fun P (L Int) Bool)
(assert (forall ((x L) (n Int))
  (=> (= n (match x ((nil 0) ((cons h t) h)))) (P x n))))
(check-sat)
