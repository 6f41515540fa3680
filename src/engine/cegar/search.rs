//! The waitlist of the abstraction, ordered by the search strategy (Hajdu & Micskei, Sect. 3.1.2).

use super::arg::NodeId;
use super::cfa::{Cfa, Loc};
use super::Search;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Nodes to expand, the least key first: breadth first by insertion order, depth first by
/// reversed insertion order, error distance by `w_e * d_E(l) + w_d * depth` (then
/// insertion order). A location without a path to the error location has distance
/// "infinity" (the number of locations).
pub struct Waitlist {
    search: Search,
    dist: Vec<u64>,
    heap: BinaryHeap<Reverse<(u64, i64, NodeId)>>,
    seq: i64,
}

impl Waitlist {
    pub fn new(search: Search, cfa: &Cfa) -> Waitlist {
        let far = cfa.locs() as u64;
        Waitlist {
            search,
            dist: cfa
                .dist_err
                .iter()
                .map(|d| d.map_or(far, |d| d as u64))
                .collect(),
            heap: BinaryHeap::new(),
            seq: 0,
        }
    }

    pub fn push(&mut self, n: NodeId, loc: Loc, depth: usize) {
        self.seq += 1;
        let key = match self.search {
            Search::Bfs => (0, self.seq),
            Search::Dfs => (0, -self.seq),
            Search::Err { w_e, w_d } => (
                w_e as u64 * self.dist[loc.idx()] + w_d as u64 * depth as u64,
                self.seq,
            ),
        };
        self.heap.push(Reverse((key.0, key.1, n)));
    }

    pub fn pop(&mut self) -> Option<NodeId> {
        self.heap.pop().map(|Reverse((_, _, n))| n)
    }

    pub fn clear(&mut self) {
        self.heap.clear();
    }
}
