; expected: sat
; A kind2-style system: MAIN's step is `top_step`, defined by one clause over two node
; predicates, each a fact. Inlining (to a fixpoint) folds them all into MAIN's step, so the
; system becomes linear. `top_step` is declared first, as kind2 does, so one pass in
; declaration order would not reach it. x = 2 * i holds in MAIN, so x = 2 * i + 1 is unreachable.
(set-logic HORN)
(declare-fun INIT_STATE () Bool)
(declare-fun top_step (Int Int Int Int) Bool)
(declare-fun inc_step (Int Int) Bool)
(declare-fun count_step (Int Int) Bool)
(declare-fun MAIN (Int Int Bool) Bool)
(declare-fun ERR () Bool)
(assert INIT_STATE)
(assert (forall ((a Int) (b Int)) (=> (= b (+ a 2)) (inc_step a b))))
(assert (forall ((a Int) (b Int)) (=> (= b (+ a 1)) (count_step a b))))
(assert (forall ((i Int) (x Int) (j Int) (y Int))
  (=> (and (count_step i j) (inc_step x y)) (top_step i x j y))))
(assert (forall ((i Int) (x Int)) (=> (and INIT_STATE (= i 0) (= x 0)) (MAIN i x true))))
(assert (forall ((i Int) (x Int) (j Int) (y Int) (f Bool))
  (=> (and (MAIN i x f) (top_step i x j y) (< i 20)) (MAIN j y false))))
(assert (forall ((i Int) (x Int) (f Bool)) (=> (and (MAIN i x f) (= x (+ (* 2 i) 1))) ERR)))
(assert (=> ERR false))
(check-sat)
(exit)
