; malformed for chcsolve: a recursive datatype (a list) cannot be split into fields
(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
(set-logic HORN)
(declare-fun P (L) Bool)
(assert (forall ((x L)) (=> (= x nil) (P x))))
(check-sat)
