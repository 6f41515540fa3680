; expected: sat
; Non-linear, Solidity-style: a function summary f(s, s') over balances s, called twice.
(set-logic HORN)
(declare-fun f ((Array Int Int) (Array Int Int)) Bool)
(declare-fun twice ((Array Int Int) (Array Int Int)) Bool)
(assert (forall ((s (Array Int Int)))
  (=> true (f s (store s 1 (+ (select s 1) 1))))))
(assert (forall ((s (Array Int Int)) (t (Array Int Int)) (u (Array Int Int)))
  (=> (and (f s t) (f t u)) (twice s u))))
(assert (forall ((s (Array Int Int)) (u (Array Int Int)))
  (=> (and (twice s u) (not (= (select u 1) (+ (select s 1) 2)))) false)))
(check-sat)
