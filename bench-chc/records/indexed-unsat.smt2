; expected: unsat
; As indexed-sat, but the hash of the empty input is 5 and of every other input 0, and the
; input's length changes: after one step the kept hash 5 differs from the input's hash 0.
(set-logic HORN)
(declare-datatypes ((bytes 0)) (((bytes (data (Array Int Int)) (len Int)))))
(declare-datatypes ((crypto 0)) (((crypto (keccak (Array bytes Int))))))
(declare-fun inv (crypto bytes Int) Bool)
(assert (forall ((c crypto) (b bytes) (h Int))
  (=> (and (= b (bytes ((as const (Array Int Int)) 0) 0))
           (= c (crypto (store ((as const (Array bytes Int)) 0) b 5)))
           (= h (select (keccak c) b)))
      (inv c b h))))
(assert (forall ((c crypto) (b bytes) (h Int) (b2 bytes))
  (=> (and (inv c b h) (= b2 (bytes (data b) (+ (len b) 1)))) (inv c b2 h))))
(assert (forall ((c crypto) (b bytes) (h Int))
  (=> (and (inv c b h) (not (= h (select (keccak c) b)))) false)))
(check-sat)
