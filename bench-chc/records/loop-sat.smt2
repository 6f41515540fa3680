; expected: sat
; A record holding an array, updated in a loop (a Solidity push): the state's array
; holds i at every index below len, and len only grows, so a[0] = 0 once len > 0.
(set-logic HORN)
(declare-datatypes ((uint_array 0)) (((uint_array (arr (Array Int Int)) (length Int)))))
(declare-datatypes ((state 0)) (((state (balances (Array Int Int)) (xs uint_array)))))
(declare-fun loop (state) Bool)
(assert (forall ((s state))
  (=> (= s (state ((as const (Array Int Int)) 0) (uint_array ((as const (Array Int Int)) 5) 0)))
      (loop s))))
(assert (forall ((s state) (t state))
  (=> (and (loop s)
           (= t (state (balances s)
                       (uint_array (store (arr (xs s)) (length (xs s)) (length (xs s)))
                                   (+ (length (xs s)) 1)))))
      (loop t))))
(assert (forall ((s state))
  (=> (and (loop s) (> (length (xs s)) 0) (not (= (select (arr (xs s)) 0) 0))) false)))
(check-sat)
