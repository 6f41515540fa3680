; expected: unsat
; The node of kind2-sat: n counts 0..9 and wraps to 0, t = n/4, m is the maximum of
; t so far (from -1.5). After 9 steps n = 9, t = m = 2.25; the 10th step wraps n to 0
; and t to 0 while m stays 2.25, so the query ok /\ n = 0 /\ m = 2.25 /\ t < m is
; reached (10 steps).
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
  (=> (and (|Node.step| %init n t m ok) ok (= n 0) (= m 2.25) (< t m)) false)))
(check-sat)
(exit)
