; expected: unsat
; As heap-sat, but the first allocation may store an O_Addr too: after one step cell 0 is
; not an O_Int.
(set-logic HORN)
(declare-datatypes ((HeapObject 0)) (((O_Int (getInt Int)) (O_Addr (getAddr Int)) (defObj))))
(declare-datatypes ((Heap 0)) (((HeapCtor (HeapSize Int) (HeapContents (Array Int HeapObject))))))
(declare-fun inv (Heap) Bool)
(assert (forall ((h Heap))
  (=> (= h (HeapCtor 0 ((as const (Array Int HeapObject)) defObj))) (inv h))))
(assert (forall ((h Heap) (g Heap) (v Int) (o HeapObject))
  (=> (and (inv h) (>= v 0)
           (or (= o (O_Int v)) (= o (O_Addr v)))
           (= g (HeapCtor (+ (HeapSize h) 1) (store (HeapContents h) (HeapSize h) o))))
      (inv g))))
(assert (forall ((h Heap) (o HeapObject))
  (=> (and (inv h) (> (HeapSize h) 0) (= o (select (HeapContents h) 0))
           (or (not ((_ is O_Int) o)) (< (getInt o) 0)))
      false)))
(check-sat)
