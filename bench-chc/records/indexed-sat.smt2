; expected: sat
; An array indexed by a record that is read (Solidity's keccak256 over bytes_tuple): the
; hash is a function, so equal inputs give equal hashes, and the state keeps it unchanged.
(set-logic HORN)
(declare-datatypes ((bytes 0)) (((bytes (data (Array Int Int)) (len Int)))))
(declare-datatypes ((crypto 0)) (((crypto (keccak (Array bytes Int))))))
(declare-fun inv (crypto bytes Int) Bool)
(assert (forall ((c crypto) (b bytes) (h Int))
  (=> (= h (select (keccak c) b)) (inv c b h))))
(assert (forall ((c crypto) (b bytes) (h Int) (b2 bytes))
  (=> (and (inv c b h) (= b2 (bytes (data b) (len b)))) (inv c b2 h))))
(assert (forall ((c crypto) (b bytes) (h Int))
  (=> (and (inv c b h) (not (= h (select (keccak c) b)))) false)))
(check-sat)
