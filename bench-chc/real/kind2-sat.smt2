; expected: sat
; A Kind 2-style node: state (%init Bool, n Int, t Real, m Real, ok Bool). Initially
; %init, n = 0, t = 0, m = -1.5, ok. Each step: n := (ite (>= n 9) 0 (+ n 1)),
; t := (to_real n) / 4 (so t in [0, 2.25]), m := (ite (> t m) t m) (the maximum so far),
; ok := ok /\ m <= 2.25, %init := false. Invariant: 0 <= n <= 9 /\ 4t = n /\ m <= 2.25 /\
; ok, so the query (not %init) /\ (not ok) is never reached.
(set-logic HORN)
(declare-fun |Node.step| (Bool Int Real Real Bool) Bool)
(assert (forall ((%init Bool) (n Int) (t Real) (m Real) (ok Bool))
  (=> (and %init (= n 0) (= t 0.0) (= m (- 1.5)) ok)
      (|Node.step| %init n t m ok))))
(assert (forall ((%init Bool) (n Int) (t Real) (m Real) (ok Bool)
                 (%init1 Bool) (n1 Int) (t1 Real) (m1 Real) (ok1 Bool))
  (let ((nn (ite (>= n 9) 0 (+ n 1))))
    (let ((tt (/ (to_real nn) 4)))
      (let ((mm (ite (> tt m) tt m)))
        (=> (and (|Node.step| %init n t m ok)
                 (= n1 nn) (= t1 tt) (= m1 mm)
                 (= ok1 (and ok (<= mm 2.25)))
                 (not %init1))
            (|Node.step| %init1 n1 t1 m1 ok1)))))))
(assert (forall ((%init Bool) (n Int) (t Real) (m Real) (ok Bool))
  (=> (and (|Node.step| %init n t m ok) (not %init) (not ok)) false)))
(check-sat)
(exit)
