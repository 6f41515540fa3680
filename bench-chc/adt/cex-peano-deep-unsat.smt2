; Peano addition checked against integer addition, with a planted bug deep down: the step
; adds one more when x is 7, so add(8, y) = y + 9. The counterexample needs add unfolded
; 9 times beside three value chains (toint) of up to 13 steps: a tree of height 14.
(set-logic HORN)
(declare-datatypes ((Nat 0)) (((Z) (S (p Nat)))))
(declare-fun add (Nat Nat Nat) Bool)
(declare-fun toint (Nat Int) Bool)
(assert (forall ((n Int)) (=> (= n 0) (toint Z n))))
(assert (forall ((x Nat) (n Int)) (=> (toint x n) (toint (S x) (+ n 1)))))
(assert (forall ((y Nat)) (add Z y y)))
(assert (forall ((x Nat) (y Nat) (z Nat) (w Nat))
  (=> (and (add x y z)
           (= w (ite (= x (S (S (S (S (S (S (S Z)))))))) (S (S z)) (S z))))
      (add (S x) y w))))
(assert (forall ((x Nat) (y Nat) (z Nat) (a Int) (b Int) (c Int))
  (=> (and (add x y z) (toint x a) (toint y b) (toint z c) (>= b 4) (not (= c (+ a b))))
      false)))
(check-sat)
