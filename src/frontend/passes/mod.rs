//! Preprocessing passes. Each returns the new system and a back-translator that maps
//! models and counterexamples of the new system to the system it was given.
//!
//! Predicates keep their ids through every pass; a pass that eliminates a predicate
//! just leaves it without clauses and says in its back-translator how to interpret it.

mod coi;
mod inline;
mod simplify;

pub use coi::ConeOfInfluence;
pub use inline::Inline;
pub use simplify::Simplify;

use super::chc::{ChcSystem, ClauseId, PredId};
use crate::logic::{eval, mk_var_of, Assignment, Term, Var};
use rustc_hash::FxHashMap;

/// An interpretation of predicates: a formula over the predicate's [`params`](super::PredDecl::params).
/// A predicate without an entry is interpreted as `false`.
pub type Model = FxHashMap<PredId, Term>;

/// One clause application of a counterexample: the clause and values for (some of) its variables.
#[derive(Clone, Debug)]
pub struct CexStep {
    pub clause: ClauseId,
    pub vals: Assignment,
}

/// A linear derivation of `false`: a fact first, a query last, each step's head feeding the next step's body.
pub type Cex = Vec<CexStep>;

/// Where a clause of a new system comes from: a chain of clauses of the old system,
/// each with terms (over the new clause's variables) for the old clause's variables.
/// A variable missing from a map keeps its name.
#[derive(Clone, Debug)]
pub struct Origin(pub Vec<(ClauseId, FxHashMap<Var, Term>)>);

impl Origin {
    pub fn same(c: ClauseId) -> Origin {
        Origin(vec![(c, FxHashMap::default())])
    }
}

/// Maps answers of the transformed system back to the system the pass was given.
pub trait BackTranslate: Send + Sync {
    fn model(&self, m: Model) -> Model;
    fn cex(&self, c: Cex) -> Cex;
}

/// A preprocessing pass.
pub trait Pass {
    fn name(&self) -> &'static str;
    fn apply(&self, sys: &ChcSystem) -> (ChcSystem, Box<dyn BackTranslate>);
}

/// Expands each step through the origins of its clause (shared by passes that only rewrite clauses).
pub fn expand_cex(origins: &[Origin], old: &ChcSystem, c: Cex) -> Cex {
    let mut out = vec![];
    for step in c {
        for (cid, map) in &origins[step.clause.idx()].0 {
            let mut vals = Assignment::default();
            for v in old.clauses[cid.idx()].vars() {
                let t = map.get(&v).cloned().unwrap_or_else(|| mk_var_of(&v));
                if let Ok(x) = eval(&t, &step.vals) {
                    vals.insert(v, x);
                }
            }
            out.push(CexStep { clause: *cid, vals });
        }
    }
    out
}

/// Back-translation of a pass that rewrites clauses and keeps every predicate's meaning.
pub struct ClauseMap {
    pub origins: Vec<Origin>,
    pub old: ChcSystem,
}

impl BackTranslate for ClauseMap {
    fn model(&self, m: Model) -> Model {
        m
    }
    fn cex(&self, c: Cex) -> Cex {
        expand_cex(&self.origins, &self.old, c)
    }
}

/// The default pipeline, with the back-translators to apply in reverse.
pub fn preprocess(sys: &ChcSystem) -> (ChcSystem, Vec<Box<dyn BackTranslate>>) {
    let passes: Vec<Box<dyn Pass>> = vec![
        Box::new(Simplify),
        Box::new(ConeOfInfluence),
        Box::new(Inline),
        Box::new(Simplify),
        Box::new(ConeOfInfluence),
    ];
    let mut cur = sys.clone();
    let mut backs = vec![];
    for p in passes {
        let t = std::time::Instant::now();
        let (next, back) = p.apply(&cur);
        log::debug!(
            "pass {}: {} clauses -> {} in {:.3}s",
            p.name(),
            cur.clauses.len(),
            next.clauses.len(),
            t.elapsed().as_secs_f64()
        );
        cur = next;
        backs.push(back);
    }
    (cur, backs)
}

/// Applies back-translators in reverse order to a model.
pub fn model_back(backs: &[Box<dyn BackTranslate>], m: Model) -> Model {
    backs.iter().rev().fold(m, |m, b| b.model(m))
}

/// Applies back-translators in reverse order to a counterexample.
pub fn cex_back(backs: &[Box<dyn BackTranslate>], c: Cex) -> Cex {
    backs.iter().rev().fold(c, |c, b| b.cex(c))
}
