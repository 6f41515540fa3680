; expected: unsat
; A predicate over Bools only: a 2-bit counter (hi, lo) starting at 00 counts
; 00 -> 01 -> 10 -> 11, so 11 is reached after 3 steps; the query forbids it.
(set-logic HORN)
(declare-fun C (Bool Bool) Bool)
(assert (forall ((hi Bool) (lo Bool)) (=> (and (not hi) (not lo)) (C hi lo))))
(assert (forall ((hi Bool) (lo Bool) (hi1 Bool) (lo1 Bool))
  (=> (and (C hi lo) (= lo1 (not lo)) (= hi1 (xor hi lo))) (C hi1 lo1))))
(assert (forall ((hi Bool) (lo Bool)) (=> (and (C hi lo) hi lo) false)))
(check-sat)
(exit)
