; expected: sat
; A datatype named before it is declared, as Solidity's SMTChecker writes some files
; (struct_array_branches_2d.sol): `outer` holds an array of `inner`, which the next command
; declares. Each step stores an `inner` at index `count` and increments `count`, keeping
; `flag`; so `count` stays non-negative and `flag` true.
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
  (=> (and (inv s) (or (< (count (o s)) 0) (not (flag s)))) false)))
(check-sat)
