; expected: sat
; Contract-style storage m[k][i]: each step adds 1 to m[0][0] and to the counter c.
(set-logic HORN)
(declare-fun inv ((Array Int (Array Int Int)) Int) Bool)
(assert (forall ((m (Array Int (Array Int Int))))
  (=> (= m ((as const (Array Int (Array Int Int))) ((as const (Array Int Int)) 0))) (inv m 0))))
(assert (forall ((m (Array Int (Array Int Int))) (c Int))
  (=> (inv m c)
      (inv (store m 0 (store (select m 0) 0 (+ (select (select m 0) 0) 1))) (+ c 1)))))
(assert (forall ((m (Array Int (Array Int Int))) (c Int))
  (=> (and (inv m c) (not (= (select (select m 0) 0) c))) false)))
(check-sat)
