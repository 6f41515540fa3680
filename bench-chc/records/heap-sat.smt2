; expected: sat
; A heap of objects with several constructors (as TriCera encodes C): the first allocation
; stores an O_Int of a non-negative value at address 0, later ones go above it, so once the
; heap is not empty its cell 0 is an O_Int with getInt >= 0.
(set-logic HORN)
(declare-datatypes ((HeapObject 0)) (((O_Int (getInt Int)) (O_Addr (getAddr Int)) (defObj))))
(declare-datatypes ((Heap 0)) (((HeapCtor (HeapSize Int) (HeapContents (Array Int HeapObject))))))
(declare-fun inv (Heap) Bool)
(assert (forall ((h Heap))
  (=> (= h (HeapCtor 0 ((as const (Array Int HeapObject)) defObj))) (inv h))))
(assert (forall ((h Heap) (g Heap) (v Int) (o HeapObject))
  (=> (and (inv h) (>= v 0)
           (= o (ite (= (HeapSize h) 0) (O_Int v) (O_Addr v)))
           (= g (HeapCtor (+ (HeapSize h) 1) (store (HeapContents h) (HeapSize h) o))))
      (inv g))))
(assert (forall ((h Heap) (o HeapObject))
  (=> (and (inv h) (> (HeapSize h) 0) (= o (select (HeapContents h) 0))
           (or (not ((_ is O_Int) o)) (< (getInt o) 0)))
      false)))
(check-sat)
