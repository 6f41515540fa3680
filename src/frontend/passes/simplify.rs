//! Simplification and constant propagation: eliminates clause variables defined by an
//! equality conjunct (`v = t`, `b`, `not b`), and drops clauses whose constraint is false.

use super::{BackTranslate, ClauseMap, Pass, Renamed};
use crate::chc::{ChcSystem, Clause, ClauseId, PredApp};
use crate::logic::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

pub struct Simplify;

impl Pass for Simplify {
    fn name(&self) -> &'static str {
        "simplify"
    }

    fn apply(&self, sys: &Arc<ChcSystem>) -> (Option<ChcSystem>, Box<dyn BackTranslate>) {
        let mut simplified: Vec<Option<(Clause, FxHashMap<Var, Term>)>> =
            sys.clauses.iter().map(simplify_changed).collect();
        if simplified.iter().all(Option::is_none) {
            return (None, Box::new(super::Unchanged));
        }
        let mut out = ChcSystem {
            preds: sys.preds.clone(),
            clauses: vec![],
            records: sys.records.clone(),
            bitvecs: sys.bitvecs.clone(),
            adt: sys.adt.clone(),
        };
        let mut origins = vec![];
        for (i, c) in sys.clauses.iter().enumerate() {
            let (c, defs) = simplified[i]
                .take()
                .unwrap_or_else(|| (c.clone(), Default::default()));
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
        (Some(out), Box::new(back))
    }
}

/// Simplifies one clause; returns it with the definitions of the eliminated variables.
pub fn simplify_clause(c: &Clause) -> (Clause, FxHashMap<Var, Term>) {
    simplify_changed(c).unwrap_or_else(|| (c.clone(), FxHashMap::default()))
}

/// [`simplify_clause`], or `None` when the clause stays as it is (no copy is made).
fn simplify_changed(c: &Clause) -> Option<(Clause, FxHashMap<Var, Term>)> {
    let mut c = std::borrow::Cow::Borrowed(c);
    let mut defs: FxHashMap<Var, Term> = FxHashMap::default();
    loop {
        // Pick definitions whose variables are independent of each other this round.
        let mut round: FxHashMap<Var, Term> = FxHashMap::default();
        let mut used: FxHashSet<Var> = FxHashSet::default();
        // the conjuncts that are not this round's definitions: a definition `v = t` becomes
        // `t = t` under its own substitution, so it is dropped rather than rewritten
        let mut rest = vec![];
        for conj in conjuncts(&c.constraint) {
            let Some((v, t)) = definition(&conj) else {
                rest.push(conj);
                continue;
            };
            if round.contains_key(&v) || used.contains(&v) {
                rest.push(conj);
                continue;
            }
            let fv = free_vars(&t);
            if fv.iter().any(|w| round.contains_key(w)) {
                rest.push(conj);
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
        c = std::borrow::Cow::Owned(Clause {
            body: c.body.iter().map(app).collect(),
            constraint: subst(&mk_and(rest), &round),
            head: c.head.as_ref().map(app),
            line: c.line,
        });
        for t in defs.values_mut() {
            *t = subst(t, &round);
        }
        defs.extend(round);
        if c.constraint.as_bool() == Some(false) {
            break;
        }
    }
    // a clause whose constraint is false is a change too: the pass drops it
    match c {
        std::borrow::Cow::Borrowed(c) if c.constraint.as_bool() != Some(false) => None,
        c => Some((c.into_owned(), defs)),
    }
}
