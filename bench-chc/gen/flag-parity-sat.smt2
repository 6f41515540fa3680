; expected: sat
; x counts up from 0 and the Bool flag b toggles each step, so b <=> x is odd.
; The query (b and x even) never fires.
(set-logic HORN)
(declare-fun P (Int Bool) Bool)
(assert (forall ((x Int) (b Bool)) (=> (and (= x 0) (not b)) (P x b))))
(assert (forall ((x Int) (b Bool) (x1 Int) (b1 Bool)) (=> (and (P x b) (= x1 (+ x 1)) (= b1 (not b))) (P x1 b1))))
(assert (forall ((x Int) (b Bool)) (=> (and (P x b) b (= (mod x 2) 0)) false)))
(check-sat)
(exit)
