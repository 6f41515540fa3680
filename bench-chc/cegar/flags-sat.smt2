; expected: sat
; A lock l with a flag f that follows it, and data d that changes arbitrarily: acquire sets
; both, release clears both. l = f always, so the query (l /= f) never fires. Explicit
; values of l and f suffice; d need not be tracked.
(set-logic HORN)
(declare-fun L (Bool Bool Int) Bool)
(assert (forall ((l Bool) (f Bool) (d Int)) (=> (and (not l) (not f)) (L l f d))))
(assert (forall ((l Bool) (f Bool) (d Int) (d1 Int)) (=> (and (L l f d) (not l)) (L true true d1))))
(assert (forall ((l Bool) (f Bool) (d Int)) (=> (and (L l f d) l) (L false false (+ d 1)))))
(assert (forall ((l Bool) (f Bool) (d Int)) (=> (and (L l f d) (distinct l f)) false)))
(check-sat)
(exit)
