; expected: unsat
; As flags-sat, but release leaves the flag set: after acquire and release, l = false and
; f = true, and the query fires.
(set-logic HORN)
(declare-fun L (Bool Bool Int) Bool)
(assert (forall ((l Bool) (f Bool) (d Int)) (=> (and (not l) (not f)) (L l f d))))
(assert (forall ((l Bool) (f Bool) (d Int) (d1 Int)) (=> (and (L l f d) (not l)) (L true true d1))))
(assert (forall ((l Bool) (f Bool) (d Int)) (=> (and (L l f d) l) (L false f (+ d 1)))))
(assert (forall ((l Bool) (f Bool) (d Int)) (=> (and (L l f d) (distinct l f)) false)))
(check-sat)
(exit)
