//! Cone of influence: removes clauses that cannot lie on a derivation from facts to a query.
//!
//! Predicates not derivable from the facts are interpreted as `false`, predicates that
//! derive no query as `true`.

use super::{BackTranslate, ClauseMap, Model, Origin, Pass};
use crate::frontend::chc::{ChcSystem, ClauseId, PredId};
use crate::logic::{mk_false, mk_true};
use rustc_hash::FxHashSet;

pub struct ConeOfInfluence;

struct Back {
    clauses: ClauseMap,
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
    fn cex(&self, c: super::Cex) -> super::Cex {
        self.clauses.cex(c)
    }
}

impl Pass for ConeOfInfluence {
    fn name(&self) -> &'static str {
        "cone-of-influence"
    }

    fn apply(&self, sys: &ChcSystem) -> (ChcSystem, Box<dyn BackTranslate>) {
        let mut reach: FxHashSet<PredId> = FxHashSet::default();
        loop {
            let before = reach.len();
            for c in &sys.clauses {
                if let Some(h) = &c.head {
                    if c.body.iter().all(|b| reach.contains(&b.pred)) {
                        reach.insert(h.pred);
                    }
                }
            }
            if reach.len() == before {
                break;
            }
        }
        let enabled = |c: &crate::frontend::Clause| c.body.iter().all(|b| reach.contains(&b.pred));
        let mut relevant: FxHashSet<PredId> = FxHashSet::default();
        loop {
            let before = relevant.len();
            for c in sys.clauses.iter().filter(|c| enabled(c)) {
                let useful = c.head.as_ref().is_none_or(|h| relevant.contains(&h.pred));
                if useful {
                    relevant.extend(c.body.iter().map(|b| b.pred));
                }
            }
            if relevant.len() == before {
                break;
            }
        }
        let mut out = ChcSystem {
            preds: sys.preds.clone(),
            clauses: vec![],
        };
        let mut origins = vec![];
        for (i, c) in sys.clauses.iter().enumerate() {
            let keep = enabled(c) && c.head.as_ref().is_none_or(|h| relevant.contains(&h.pred));
            if keep {
                out.clauses.push(c.clone());
                origins.push(Origin::same(ClauseId(i as u32)));
            }
        }
        let back = Back {
            clauses: ClauseMap {
                origins,
                old: sys.clone(),
            },
            unreachable: sys.pred_ids().filter(|p| !reach.contains(p)).collect(),
            irrelevant: sys
                .pred_ids()
                .filter(|p| reach.contains(p) && !relevant.contains(p))
                .collect(),
        };
        (out, Box::new(back))
    }
}
