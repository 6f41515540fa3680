; expected: unsat
; A deep counterexample through nested records: the counter inside goes up by one per step
; and the query needs it at 40, so the only derivation has 41 steps.
(set-logic HORN)
(declare-datatypes ((counter 0)) (((counter (value Int) (limit Int)))))
(declare-datatypes ((st 0)) (((st (c counter) (steps Int)))))
(declare-fun run (st) Bool)
(assert (forall ((s st)) (=> (= s (st (counter 0 40) 0)) (run s))))
(assert (forall ((s st) (t st))
  (=> (and (run s) (< (value (c s)) (limit (c s)))
           (= t (st (counter (+ (value (c s)) 1) (limit (c s))) (+ (steps s) 1))))
      (run t))))
(assert (forall ((s st)) (=> (and (run s) (= (steps s) 40) (= (value (c s)) 40)) false)))
(check-sat)
