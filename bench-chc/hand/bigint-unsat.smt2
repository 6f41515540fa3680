; expected: unsat
; Literals beyond 64 bits: x starts at 2^64 and steps +1 while x < 2^64 + 4;
; x = 2^64 + 3 is reached after 3 steps, where 4x = 73786976294838206476.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 18446744073709551616) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 18446744073709551620) (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (= (* 4 x) 73786976294838206476)) false)))
(check-sat)
(exit)
