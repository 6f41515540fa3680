//! The queue of proof obligations shared by PDR and Spacer: an arena of obligations (so that
//! chains of them can be followed by id) and a priority queue over it, lowest level first,
//! then lowest depth, then the oldest (lowest id).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Index;

/// Obligations by id, with the level each must be blocked at and its depth (distance to the
/// query), and the ids queued by `(level, depth, id)`, smallest first. An id may stand in the
/// queue several times (queued again before it is popped).
pub struct Queue<T> {
    arena: Vec<Entry<T>>,
    heap: BinaryHeap<Reverse<(usize, usize, usize)>>,
}

struct Entry<T> {
    ob: T,
    level: usize,
    depth: usize,
    /// Queued again ([`Queue::requeue`]) since it was pushed.
    requeued: bool,
}

impl<T> Default for Queue<T> {
    fn default() -> Queue<T> {
        Queue {
            arena: vec![],
            heap: BinaryHeap::new(),
        }
    }
}

impl<T> Queue<T> {
    /// Adds `ob`, to be blocked at `level`, at `depth` steps from the query, and queues it;
    /// returns its id.
    pub fn push(&mut self, level: usize, depth: usize, ob: T) -> usize {
        let id = self.arena.len();
        self.heap.push(Reverse((level, depth, id)));
        self.arena.push(Entry {
            ob,
            level,
            depth,
            requeued: false,
        });
        id
    }

    /// Queues obligation `id` again, at `level`.
    pub fn requeue(&mut self, id: usize, level: usize) {
        let e = &mut self.arena[id];
        e.level = level;
        e.requeued = true;
        self.heap.push(Reverse((level, e.depth, id)));
    }

    /// The id of the next obligation: lowest level, then depth, then id.
    pub fn pop(&mut self) -> Option<usize> {
        self.heap.pop().map(|Reverse((_, _, id))| id)
    }

    /// The level obligation `id` was last queued at.
    pub fn level(&self, id: usize) -> usize {
        self.arena[id].level
    }

    pub fn depth(&self, id: usize) -> usize {
        self.arena[id].depth
    }

    /// Was obligation `id` queued again since it was pushed?
    pub fn requeued(&self, id: usize) -> bool {
        self.arena[id].requeued
    }
}

impl<T> Index<usize> for Queue<T> {
    type Output = T;

    fn index(&self, id: usize) -> &T {
        &self.arena[id].ob
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_by_level_then_depth_then_age() {
        let mut q = Queue::default();
        let a = q.push(2, 0, "a");
        let b = q.push(1, 1, "b");
        let c = q.push(1, 0, "c");
        let d = q.push(1, 0, "d");
        assert_eq!(q.pop(), Some(c));
        assert_eq!(q.pop(), Some(d));
        q.requeue(c, 3);
        assert!(q.requeued(c) && !q.requeued(a));
        assert_eq!((q.level(c), q.depth(c), q[c]), (3, 0, "c"));
        assert_eq!(q.pop(), Some(b));
        assert_eq!(q.pop(), Some(a));
        assert_eq!(q.pop(), Some(c));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn an_id_queued_twice_is_popped_twice() {
        let mut q = Queue::default();
        let a = q.push(1, 0, ());
        q.requeue(a, 1);
        assert_eq!((q.pop(), q.pop(), q.pop()), (Some(a), Some(a), None));
    }
}
