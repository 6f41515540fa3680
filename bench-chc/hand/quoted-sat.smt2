; expected: sat
; Quoted symbols with spaces and punctuation as predicate and variable names.
; |x y| counts 0..10 (guard < 10), so the query |x y| > 10 never fires.
(set-logic HORN)
(declare-fun |inv loop#1| (Int) Bool)
(declare-fun |main@.exit| (Int) Bool)
(assert (forall ((|x y| Int)) (=> (= |x y| 0) (|inv loop#1| |x y|))))
(assert (forall ((|x y| Int) (|x'| Int)) (=> (and (|inv loop#1| |x y|) (< |x y| 10) (= |x'| (+ |x y| 1))) (|inv loop#1| |x'|))))
(assert (forall ((|x y| Int)) (=> (and (|inv loop#1| |x y|) (>= |x y| 10)) (|main@.exit| |x y|))))
(assert (forall ((|x y| Int)) (=> (and (|main@.exit| |x y|) (> |x y| 10)) false)))
(check-sat)
(exit)
