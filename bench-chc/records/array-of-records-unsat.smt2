; expected: unsat
; As array-of-records-sat, but the pair stored at cell 0 is (x, x - i): at i = 1 the cell
; holds lo > hi after two steps.
(set-logic HORN)
(declare-datatypes ((pair 0)) (((pair (lo Int) (hi Int)))))
(declare-fun inv ((Array Int pair) Int) Bool)
(assert (forall ((a (Array Int pair)))
  (=> (= a ((as const (Array Int pair)) (pair 0 0))) (inv a 0))))
(assert (forall ((a (Array Int pair)) (b (Array Int pair)) (i Int) (x Int) (y Int))
  (=> (and (inv a i) (>= i 0) (= b (store (store a 0 (pair x (- x i))) (+ i 1) (pair y x))))
      (inv b (+ i 1)))))
(assert (forall ((a (Array Int pair)) (i Int))
  (=> (and (inv a i) (> (lo (select a 0)) (hi (select a 0)))) false)))
(check-sat)
