; expected: sat
; Records inside records (Solidity's tx_type holds a bytes_tuple): the message's length
; and the counter grow together, so len = n always and len > n is never reached.
(set-logic HORN)
(declare-datatypes ((bytes 0)) (((bytes (data (Array Int Int)) (len Int)))))
(declare-datatypes ((tx 0)) (((tx (sender Int) (msg bytes)))))
(declare-datatypes ((empty 0)) (((empty))))
(declare-fun inv (tx Int empty) Bool)
(assert (forall ((t tx) (e empty))
  (=> (= t (tx 7 (bytes ((as const (Array Int Int)) 0) 0))) (inv t 0 e))))
(assert (forall ((t tx) (u tx) (n Int) (e empty) (f empty))
  (=> (and (inv t n e) (= e f)
           (= u (tx (sender t) (bytes (store (data (msg t)) (len (msg t)) n) (+ (len (msg t)) 1)))))
      (inv u (+ n 1) f))))
(assert (forall ((t tx) (n Int) (e empty))
  (=> (and (inv t n e) (or (not (= (len (msg t)) n)) (not (= (sender t) 7)))) false)))
(check-sat)
