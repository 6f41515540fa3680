; expected: sat
; A kind2-style system whose node step has Boolean locals: `inc_step` adds 1 or 2, chosen by
; two locals that no equality defines. After inlining, `top_step` is a fact over them, so its
; exact interpretation is an `exists` over both; MAIN's step has one variable (`f`) that is
; not an argument of `top_step`, so the weakest interpretation, over MAIN's model, quantifies
; over one. i <= x <= 2 * i holds in MAIN, so x > 2 * i is unreachable.
(set-logic HORN)
(declare-fun INIT_STATE () Bool)
(declare-fun top_step (Int Int Int Int) Bool)
(declare-fun inc_step (Int Int) Bool)
(declare-fun count_step (Int Int) Bool)
(declare-fun MAIN (Int Int Bool) Bool)
(declare-fun ERR () Bool)
(assert INIT_STATE)
(assert (forall ((a Int) (b Int) (l1 Bool) (l2 Bool))
  (=> (or (and l1 (= b (+ a 1)))
          (and (not l1) l2 (= b (+ a 2)))
          (and (not l1) (not l2) (= b (+ a 1))))
      (inc_step a b))))
(assert (forall ((a Int) (b Int)) (=> (= b (+ a 1)) (count_step a b))))
(assert (forall ((i Int) (x Int) (j Int) (y Int))
  (=> (and (count_step i j) (inc_step x y)) (top_step i x j y))))
(assert (forall ((i Int) (x Int)) (=> (and INIT_STATE (= i 0) (= x 0)) (MAIN i x true))))
(assert (forall ((i Int) (x Int) (j Int) (y Int) (f Bool))
  (=> (and (MAIN i x f) (top_step i x j y)) (MAIN j y false))))
(assert (forall ((i Int) (x Int) (f Bool)) (=> (and (MAIN i x f) (> x (* 2 i))) ERR)))
(assert (=> ERR false))
(check-sat)
(exit)
