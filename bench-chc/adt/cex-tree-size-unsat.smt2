; Binary trees: the number of leaves is one more than the number of nodes, except that
; the node count has a planted bug on nodes whose label is negative and whose children
; are both nodes. A counterexample is a tree of depth 3 with such a root.
(set-logic HORN)
(declare-datatypes ((T 0)) (((leaf) (node (lab Int) (left T) (right T)))))
(declare-fun leaves (T Int) Bool)
(declare-fun nodes (T Int) Bool)
(assert (forall ((n Int)) (=> (= n 1) (leaves leaf n))))
(assert (forall ((x Int) (l T) (r T) (a Int) (b Int))
  (=> (and (leaves l a) (leaves r b)) (leaves (node x l r) (+ a b)))))
(assert (forall ((n Int)) (=> (= n 0) (nodes leaf n))))
(assert (forall ((x Int) (l T) (r T) (a Int) (b Int) (c Int))
  (=> (and (nodes l a) (nodes r b)
           (= c (ite (and (< x 0) ((_ is node) l) ((_ is node) r)) (+ a b) (+ a b 1))))
      (nodes (node x l r) c))))
(assert (forall ((t T) (a Int) (b Int)) (=> (and (leaves t a) (nodes t b) (not (= a (+ b 1)))) false)))
(check-sat)
