; expected: unsat
; The loop writes a[i] := i from i = 0, so once i > 5, a[5] = 5: the query is reachable
; (a counterexample needs the stored value).
(set-logic HORN)
(declare-fun inv ((Array Int Int) Int) Bool)
(assert (forall ((a (Array Int Int)))
  (=> (= (select a 5) 7) (inv a 0))))
(assert (forall ((a (Array Int Int)) (i Int))
  (=> (inv a i) (inv (store a i i) (+ i 1)))))
(assert (forall ((a (Array Int Int)) (i Int))
  (=> (and (inv a i) (> i 5) (= (select a 5) 5)) false)))
(check-sat)
