; expected: sat
; Quantifiers over arithmetic inside clause bodies, as Princess (Eldarica's front-end)
; writes them: each is a theory constraint, eliminated before solving. x counts 0, 2, 4,
; ... and y 0, 1, 2, ..., so x = 2y with y >= 0 always. Each query is false there:
;  1. not (inv /\ forall z. x /= 2z): x odd (divisibility: QE must be exact);
;  2. (inv /\ forall z. z < y \/ z > x - y) => false: some z lies in [y, x - y] = [y, y];
;  3. not inv \/ exists z. x = 2z /\ z >= 0: an exists in positive position, under or;
;  4. (inv /\ forall z. exists w. z = w + y /\ x /= y + y) => false: nested, x /= 2y.
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
(assert (forall ((x Int) (y Int) (a Int) (b Int)) (=> (and (inv x y) (= a (+ x 2)) (= b (+ y 1))) (inv a b))))
(assert (forall ((x Int) (y Int)) (not (and (inv x y) (forall ((z Int)) (not (= x (* 2 z))))))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (forall ((z Int)) (or (< z y) (> z (- x y))))) false)))
(assert (forall ((x Int) (y Int)) (or (not (inv x y)) (exists ((z Int)) (and (= x (* 2 z)) (>= z 0))))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (forall ((z Int)) (exists ((w Int)) (and (= z (+ w y)) (not (= x (+ y y))))))) false)))
(check-sat)
(exit)
