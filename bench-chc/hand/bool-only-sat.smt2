; expected: sat
; A predicate over Bools only: hi and lo start equal (both false) and both
; toggle each step, so they stay equal and the query (hi xor lo) never fires.
; Uses Bool equality (= a b) and => inside the body.
(set-logic HORN)
(declare-fun C (Bool Bool) Bool)
(assert (forall ((hi Bool) (lo Bool)) (=> (and (= hi false) (not lo)) (C hi lo))))
(assert (forall ((hi Bool) (lo Bool) (hi1 Bool) (lo1 Bool))
  (=> (and (C hi lo) (= hi1 (not hi)) (= lo1 (not lo)) (=> hi1 (not hi))) (C hi1 lo1))))
(assert (forall ((hi Bool) (lo Bool)) (=> (and (C hi lo) (xor hi lo)) false)))
(check-sat)
(exit)
