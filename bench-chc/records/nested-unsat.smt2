; expected: unsat
; As nested-sat, but the query asks for data[2] = 2: the third step stores n = 2 at
; index len = 2, so it is reached after three steps.
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
  (=> (and (inv t n e) (= (select (data (msg t)) 2) 2)) false)))
(check-sat)
