; expected: sat
; Literals beyond 64 bits: x starts at 2^64 = 18446744073709551616 and steps +1
; while x < 2^64 + 4, so 2^64 <= x <= 2^64 + 4 and neither query disjunct holds.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 18446744073709551616) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 18446744073709551620) (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (or (> x 18446744073709551620) (< x (- 1000000000000000000000000000000)))) false)))
(check-sat)
(exit)
