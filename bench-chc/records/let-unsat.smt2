; expected: unsat
; Datatype values bound by `let` (constructors, selectors, `(as C S)`), as TriCera writes
; its heap updates. Step k (from 0) stores (O_Int n) at index k + 1 and adds k + 1 to n:
; n = 0, 1, 3, 6, so index 3 holds (O_Int 3) after three steps.
(set-logic HORN)
(declare-datatypes ((obj 0)) (((O_Int (getInt Int)) (O_Pair (fst Int) (snd Int)) (defObj))))
(declare-datatypes ((heap 0)) (((heap (size Int) (contents (Array Int obj))))))
(declare-fun inv (heap Int) Bool)
(assert (forall ((h heap))
  (let ((a!1 (heap 0 ((as const (Array Int obj)) (as defObj obj)))))
    (=> (= h a!1) (inv h 0)))))
(assert (forall ((h heap) (n Int) (g heap))
  (let ((s (size h)) (c (contents h)))
    (let ((p (O_Pair n s)) (c2 (store c (+ s 1) (O_Int n))))
      (=> (and (inv h n) (= g (heap (+ s 1) c2)) ((_ is O_Pair) p))
          (inv g (+ n (snd p) 1)))))))
(assert (forall ((h heap) (n Int))
  (let ((x (select (contents h) 3)))
    (=> (and (inv h n) ((_ is O_Int) x) (= (getInt x) 3)) false))))
(check-sat)
