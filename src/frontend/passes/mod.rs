//! Preprocessing passes. Each returns the new system and a back-translator that maps
//! models and counterexamples of the new system to the system it was given.
//!
//! Predicates keep their ids through every pass; a pass that eliminates a predicate
//! just leaves it without clauses and says in its back-translator how to interpret it.

pub mod adt;
pub mod bitvec;
mod coi;
mod commands;
mod inline;
mod qe;
pub mod records;
mod segment;
mod simplify;

pub use coi::ConeOfInfluence;
pub use inline::{exact_interpretation, Inline};
pub use qe::eliminate_quantifiers;
pub use segment::accel_cex_back;
pub use simplify::Simplify;

use crate::chc::{Cex, CexStep, ChcSystem, ClauseId, Model};
use crate::logic::{eval, Assignment, Term, Var};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Where a premise of an old clause application comes from, inside an [`Origin`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Premise {
    /// An earlier entry of the same origin.
    Step(usize),
    /// The new clause's body application with this index.
    Body(usize),
}

/// One old clause application inside an [`Origin`]: the clause, terms (over the new clause's
/// variables) for its variables (a variable missing from the map keeps its name), and where
/// each of its body applications comes from.
#[derive(Clone, Debug)]
pub struct OriginStep {
    pub clause: ClauseId,
    pub map: FxHashMap<Var, Term>,
    pub premises: Vec<Premise>,
}

/// Where a clause of a new system comes from: a derivation fragment of old clauses, premises
/// first, the entry whose head is the new clause's head last; its open premises are the new
/// clause's body applications.
#[derive(Clone, Debug)]
pub struct Origin(pub Vec<OriginStep>);

impl Origin {
    /// The old clause `c` itself, with `body` body applications.
    pub fn same(c: ClauseId, body: usize) -> Origin {
        Origin::renamed(c, body, FxHashMap::default())
    }

    /// The old clause `c`, with `body` body applications kept in order and its variables
    /// given by `map`.
    pub fn renamed(c: ClauseId, body: usize, map: FxHashMap<Var, Term>) -> Origin {
        Origin(vec![OriginStep {
            clause: c,
            map,
            premises: (0..body).map(Premise::Body).collect(),
        }])
    }
}

/// Maps answers of the transformed system back to the system the pass was given.
pub trait BackTranslate: Send + Sync {
    fn model(&self, m: Model) -> Model;
    fn cex(&self, c: Cex) -> Cex;
}

/// A preprocessing pass: the new system, or `None` when the pass changed no clause (then
/// the system it was given stays in place, and no copy is made).
pub trait Pass {
    fn name(&self) -> &'static str;
    fn apply(&self, sys: &Arc<ChcSystem>) -> (Option<ChcSystem>, Box<dyn BackTranslate>);
}

/// The back-translation of a pass that changed nothing.
pub struct Unchanged;

impl BackTranslate for Unchanged {
    fn model(&self, m: Model) -> Model {
        m
    }
    fn cex(&self, c: Cex) -> Cex {
        c
    }
}

/// Expands each step through the origin of its clause (shared by passes that only rewrite
/// clauses). Each new step becomes its origin's old steps; an open premise `Body(k)` becomes
/// the last old step of the new step's `k`-th premise.
pub fn expand_cex(origins: &[Origin], old: &ChcSystem, c: Cex) -> Cex {
    let mut out: Cex = vec![];
    // the index in `out` of the old step that stands for each new step's head
    let mut root: Vec<usize> = Vec::with_capacity(c.len());
    // each old clause's variables, computed once (long counterexamples repeat clauses)
    let mut vars_of: Vec<Option<Vec<Var>>> = vec![None; old.clauses.len()];
    for step in c {
        let base = out.len();
        let origin = &origins[step.clause.idx()].0;
        for e in origin {
            let mut vals = Assignment::default();
            let vars =
                vars_of[e.clause.idx()].get_or_insert_with(|| old.clauses[e.clause.idx()].vars());
            for v in vars.iter() {
                let x = match e.map.get(v) {
                    Some(t) => eval(t, &step.vals).ok(),
                    None => step.vals.get(v).cloned(),
                };
                if let Some(x) = x {
                    vals.insert(v.clone(), x);
                }
            }
            let premises = e
                .premises
                .iter()
                .map(|p| match *p {
                    Premise::Step(s) => base + s,
                    // a malformed counterexample maps to an index the validator rejects
                    Premise::Body(k) => step
                        .premises
                        .get(k)
                        .and_then(|&s| root.get(s).copied())
                        .unwrap_or(usize::MAX),
                })
                .collect();
            out.push(CexStep {
                clause: e.clause,
                vals,
                premises,
            });
        }
        root.push(out.len() - 1);
    }
    out
}

/// Where a clause of a pass that rewrites clauses one by one comes from: one old clause,
/// with its body applications in order and terms for the variables it eliminated (the
/// [`Origin::renamed`] of the clause, in 16 bytes: large systems have one per clause and pass).
pub struct Renamed {
    pub clause: ClauseId,
    pub body: u32,
    pub map: Option<Box<FxHashMap<Var, Term>>>,
}

impl Renamed {
    /// The old clause `c`, with `body` body applications and its variables given by `map`.
    pub fn new(c: ClauseId, body: usize, map: FxHashMap<Var, Term>) -> Renamed {
        Renamed {
            clause: c,
            body: body as u32,
            map: (!map.is_empty()).then(|| Box::new(map)),
        }
    }

    /// The old clause `c` itself.
    pub fn same(c: ClauseId, body: usize) -> Renamed {
        Renamed::new(c, body, FxHashMap::default())
    }

    pub fn origin(&self) -> Origin {
        let map = self.map.as_deref().cloned().unwrap_or_default();
        Origin::renamed(self.clause, self.body as usize, map)
    }
}

/// Back-translation of a pass that rewrites clauses one by one and keeps every predicate's
/// meaning.
pub struct ClauseMap {
    pub origins: Vec<Renamed>,
    pub old: Arc<ChcSystem>,
}

impl BackTranslate for ClauseMap {
    fn model(&self, m: Model) -> Model {
        m
    }
    fn cex(&self, c: Cex) -> Cex {
        let origins: Vec<Origin> = self.origins.iter().map(Renamed::origin).collect();
        expand_cex(&origins, &self.old, c)
    }
}

/// The default pipeline, with the back-translators to apply in reverse.
pub fn preprocess(sys: &ChcSystem) -> (ChcSystem, Vec<Box<dyn BackTranslate>>) {
    let (out, backs) = preprocess_shared(Arc::new(sys.clone()));
    let out = Arc::try_unwrap(out).unwrap_or_else(|shared| (*shared).clone());
    (out, backs)
}

/// [`preprocess`] on a shared system: the first back-translator shares `sys`, and the result
/// is shared with the back-translators when the last passes changed nothing (no copies).
pub fn preprocess_shared(sys: Arc<ChcSystem>) -> (Arc<ChcSystem>, Vec<Box<dyn BackTranslate>>) {
    let passes: Vec<Box<dyn Pass>> = vec![
        Box::new(Simplify),
        Box::new(ConeOfInfluence),
        Box::new(Inline),
        Box::new(Simplify),
        Box::new(ConeOfInfluence),
    ];
    // each back-translator shares the system its pass was given; a pass that changed nothing
    // leaves the system it was given in place, so that one copy serves it, its
    // back-translator and the next pass
    let mut cur = sys;
    let mut backs = vec![];
    for p in passes {
        let t = std::time::Instant::now();
        let (next, back) = p.apply(&cur);
        log::debug!(
            "pass {}: {} clauses -> {} in {:.3}s (heap {} MB)",
            p.name(),
            cur.clauses.len(),
            next.as_ref()
                .map_or("unchanged".to_string(), |n| n.clauses.len().to_string()),
            t.elapsed().as_secs_f64(),
            crate::mem::used() >> 20
        );
        if let Some(next) = next {
            cur = Arc::new(next);
        }
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
