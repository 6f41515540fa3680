; expected: unsat
; As forward-sat (a datatype named before it is declared), but the query asks for the
; element at index 1 holding 5 in its first value: reached after two steps, the second
; storing v = 5.
(set-logic HORN)
(declare-datatypes ((outer 0) (st 0)) (((outer (items (Array Int inner)) (count Int))) ((st (o outer) (flag Bool)))))
(declare-datatypes ((inner 0)) (((inner (vals (Array Int Int)) (len Int)))))
(declare-fun inv (st) Bool)
(assert (forall ((s st))
  (=> (= s (st (outer ((as const (Array Int inner)) (inner ((as const (Array Int Int)) 0) 0)) 0) true))
      (inv s))))
(assert (forall ((s st) (t st) (v Int))
  (=> (and (inv s)
           (= t (st (outer (store (items (o s)) (count (o s)) (inner (store ((as const (Array Int Int)) 0) 0 v) 1))
                           (+ (count (o s)) 1))
                    (flag s))))
      (inv t))))
(assert (forall ((s st))
  (=> (and (inv s) (= (len (select (items (o s)) 1)) 1) (= (select (vals (select (items (o s)) 1)) 0) 5))
      false)))
(check-sat)
