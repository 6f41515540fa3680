//! Cone of influence: removes clauses that cannot lie on a derivation from facts to a query.
//!
//! Predicates not derivable from the facts are interpreted as `false`, predicates that
//! derive no query as `true`.

use super::{BackTranslate, ClauseMap, Pass, Renamed};
use crate::chc::{Cex, Model};
use crate::chc::{ChcSystem, ClauseId, PredId};
use crate::logic::{mk_false, mk_true};
use rustc_hash::FxHashSet;
use std::sync::Arc;

pub struct ConeOfInfluence;

struct Back {
    /// `None` when every clause was kept.
    clauses: Option<ClauseMap>,
    unreachable: Vec<PredId>,
    irrelevant: Vec<PredId>,
}

impl BackTranslate for Back {
    fn model(&self, mut m: Model) -> Model {
        for p in &self.unreachable {
            m.insert(*p, mk_false());
        }
        for p in &self.irrelevant {
            m.insert(*p, mk_true());
        }
        m
    }
    fn cex(&self, c: Cex) -> Cex {
        match &self.clauses {
            Some(m) => m.cex(c),
            None => c,
        }
    }
}

impl Pass for ConeOfInfluence {
    fn name(&self) -> &'static str {
        "cone-of-influence"
    }

    fn apply(&self, sys: &Arc<ChcSystem>) -> (Option<ChcSystem>, Box<dyn BackTranslate>) {
        // Forward: a predicate is reachable once some clause defining it has all its body
        // predicates reachable (Horn propagation with counters).
        let n = sys.preds.len();
        let mut using: Vec<Vec<usize>> = vec![vec![]; n];
        let mut defining: Vec<Vec<usize>> = vec![vec![]; n];
        let mut missing: Vec<usize> = vec![];
        for (i, c) in sys.clauses.iter().enumerate() {
            let mut body: Vec<PredId> = c.body.iter().map(|b| b.pred).collect();
            body.sort();
            body.dedup();
            for p in &body {
                using[p.idx()].push(i);
            }
            if let Some(h) = &c.head {
                defining[h.pred.idx()].push(i);
            }
            missing.push(body.len());
        }
        let mut reach: FxHashSet<PredId> = FxHashSet::default();
        let mut work: Vec<usize> = (0..sys.clauses.len())
            .filter(|&i| missing[i] == 0)
            .collect();
        while let Some(i) = work.pop() {
            let Some(h) = &sys.clauses[i].head else {
                continue;
            };
            if reach.insert(h.pred) {
                for &j in &using[h.pred.idx()] {
                    missing[j] -= 1;
                    if missing[j] == 0 {
                        work.push(j);
                    }
                }
            }
        }
        let enabled = |c: &crate::chc::Clause| c.body.iter().all(|b| reach.contains(&b.pred));
        // Backward: body predicates of enabled queries, then of enabled clauses defining a
        // relevant predicate.
        let mut relevant: FxHashSet<PredId> = FxHashSet::default();
        let mut work: Vec<PredId> = vec![];
        for c in sys.clauses.iter().filter(|c| c.is_query() && enabled(c)) {
            for b in &c.body {
                if relevant.insert(b.pred) {
                    work.push(b.pred);
                }
            }
        }
        while let Some(p) = work.pop() {
            for &i in &defining[p.idx()] {
                let c = &sys.clauses[i];
                if enabled(c) {
                    for b in &c.body {
                        if relevant.insert(b.pred) {
                            work.push(b.pred);
                        }
                    }
                }
            }
        }
        let keep = |c: &crate::chc::Clause| {
            enabled(c) && c.head.as_ref().is_none_or(|h| relevant.contains(&h.pred))
        };
        let (out, clauses) = if sys.clauses.iter().all(keep) {
            (None, None)
        } else {
            let mut out = ChcSystem {
                preds: sys.preds.clone(),
                clauses: vec![],
                records: sys.records.clone(),
                bitvecs: sys.bitvecs.clone(),
                adt: sys.adt.clone(),
            };
            let mut origins = vec![];
            for (i, c) in sys.clauses.iter().enumerate() {
                if keep(c) {
                    out.clauses.push(c.clone());
                    origins.push(Renamed::same(ClauseId(i as u32), c.body.len()));
                }
            }
            let map = ClauseMap {
                origins,
                old: sys.clone(),
            };
            (Some(out), Some(map))
        };
        let back = Back {
            clauses,
            unreachable: sys.pred_ids().filter(|p| !reach.contains(p)).collect(),
            irrelevant: sys
                .pred_ids()
                .filter(|p| reach.contains(p) && !relevant.contains(p))
                .collect(),
        };
        (out, Box::new(back))
    }
}
