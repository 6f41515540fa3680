//! Simplification and constant propagation: eliminates clause variables defined by an
//! equality conjunct (`v = t`, `b`, `not b`), and drops clauses whose constraint is false.

use super::{BackTranslate, ClauseMap, Pass, Renamed};
use crate::frontend::chc::{ChcSystem, Clause, ClauseId, PredApp};
use crate::logic::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

pub struct Simplify;

impl Pass for Simplify {
    fn name(&self) -> &'static str {
        "simplify"
    }

    fn apply(&self, sys: &Arc<ChcSystem>) -> (ChcSystem, Box<dyn BackTranslate>) {
        let mut out = ChcSystem {
            preds: sys.preds.clone(),
            clauses: vec![],
        };
        let mut origins = vec![];
        for (i, c) in sys.clauses.iter().enumerate() {
            let (c, defs) = simplify_clause(c);
            if c.constraint.as_bool() == Some(false) {
                continue;
            }
            origins.push(Renamed::new(ClauseId(i as u32), c.body.len(), defs));
            out.clauses.push(c);
        }
        let back = ClauseMap {
            origins,
            old: sys.clone(),
        };
        (out, Box::new(back))
    }
}

/// Simplifies one clause; returns it with the definitions of the eliminated variables.
pub fn simplify_clause(c: &Clause) -> (Clause, FxHashMap<Var, Term>) {
    let mut c = c.clone();
    let mut defs: FxHashMap<Var, Term> = FxHashMap::default();
    loop {
        // Pick definitions whose variables are independent of each other this round.
        let mut round: FxHashMap<Var, Term> = FxHashMap::default();
        let mut used: FxHashSet<Var> = FxHashSet::default();
        for conj in conjuncts(&c.constraint) {
            let Some((v, t)) = definition(&conj) else {
                continue;
            };
            if round.contains_key(&v) || used.contains(&v) {
                continue;
            }
            let fv = free_vars(&t);
            if fv.iter().any(|w| round.contains_key(w)) {
                continue;
            }
            used.extend(fv);
            round.insert(v, t);
        }
        if round.is_empty() {
            break;
        }
        let app = |a: &PredApp| PredApp {
            pred: a.pred,
            args: a.args.iter().map(|t| subst(t, &round)).collect(),
        };
        c = Clause {
            body: c.body.iter().map(app).collect(),
            constraint: subst(&c.constraint, &round),
            head: c.head.as_ref().map(app),
            line: c.line,
        };
        for t in defs.values_mut() {
            *t = subst(t, &round);
        }
        defs.extend(round);
        if c.constraint.as_bool() == Some(false) {
            break;
        }
    }
    (c, defs)
}
