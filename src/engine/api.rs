//! The one boundary between the engines and the rest: every engine answers on the
//! preprocessed clause graph through [`Engine`], with one [`Answer`] type and typed
//! [`EngineStats`]. Transition-system engines ([`TsEngine`]) plug in through [`OnTs`], which
//! holds the shared transition-system adapter and translates their answers back to clauses
//! (as Golem's `TransitionSystemEngine` does). The portfolio sees only this trait.

use super::{Stop, TsAnswer, TsEngine};
use crate::absint::Seeds;
use crate::chc::{AccelCex, Cex, ChcSystem, Features, Model};
use crate::smt::{SmtStats, SolverConfig};
use crate::ts::{AccelPath, TsAdapter};
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// The problem in the forms the engines take.
#[derive(Clone)]
pub struct Problem {
    /// The preprocessed clause graph.
    pub graph: Arc<ChcSystem>,
    /// The graph as a transition system and the way back, when its clauses are linear.
    pub ts: Option<Arc<TsAdapter>>,
    /// Invariants proven by [`crate::absint`], for PDR's and Spacer's first frames.
    pub seeds: Arc<Seeds>,
    /// What the system uses ([`Features::of`], linearity after preprocessing): the
    /// portfolio runs only the engines that take it ([`Engine::supports`]).
    pub features: Features,
    /// The input's text and parsed system, for the lanes that read the original assertions
    /// (`bv-kind`, [`super::native`]); `None` for a system built in code.
    pub input: Option<Input>,
}

/// The input an answer is judged against: its text (and which of its problems) and the
/// parsed system before preprocessing.
#[derive(Clone)]
pub struct Input {
    pub source: crate::judge::Source,
    pub orig: Arc<ChcSystem>,
}

/// An engine's answer, on the preprocessed clause graph.
#[derive(Clone, Debug)]
pub enum Answer {
    /// A model: per predicate, a formula over its parameters.
    Safe(Model),
    /// A `k`-inductive invariant `property` (per predicate, quantifier-free) and `model`, a
    /// model stronger than it (it may have quantifiers): k-induction's answer. `later` makes
    /// a quantifier-free model from the property, for a run that wants one.
    SafeKInductive {
        k: usize,
        property: Model,
        model: Model,
        later: Option<KToOne>,
    },
    /// A derivation of `false` (a tree when clauses are non-linear).
    Unsafe(Cex),
    /// A derivation of `false` in the clauses of the parsed system before preprocessing
    /// ([`Input::orig`]), values given for the predicates' arguments (the native lanes).
    UnsafeInput(Cex),
    /// "No query fails" is `k`-inductive on the input's text: `witness` is the judge's
    /// `(k-inductive K (define-fun ..))` over the input's sorts, `invariant` the same
    /// property over the parsed system before preprocessing (with quantifiers); not a model.
    SafeInput {
        k: usize,
        witness: String,
        invariant: Model,
    },
    /// A linear derivation of `false` with accelerated segments (ABMC, TRL).
    UnsafeAccel(AccelAnswer),
    Unknown(Stop),
}

impl Answer {
    pub fn is_unknown(&self) -> bool {
        matches!(self, Answer::Unknown(_))
    }
}

/// A counterexample with accelerated segments, kept as the transition-system path it came
/// from: certified segment by segment ([`AccelAnswer::segments`]) or, failing that,
/// expanded into concrete steps ([`AccelAnswer::expand`]).
#[derive(Clone)]
pub struct AccelAnswer {
    path: AccelPath,
    adapter: Arc<TsAdapter>,
}

impl fmt::Debug for AccelAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AccelAnswer({} segments)", self.path.segments())
    }
}

/// A k-inductive property of a transition system, to be made an inductive, quantifier-free
/// model when one is wanted ([`super::kinductive::to_inductive`]): after the answer, under
/// the run's deadline, not in the engine's time slice.
#[derive(Clone)]
pub struct KToOne {
    k: usize,
    property: crate::logic::Term,
    adapter: Arc<TsAdapter>,
}

impl fmt::Debug for KToOne {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KToOne(k = {})", self.k)
    }
}

impl KToOne {
    pub fn k(&self) -> usize {
        self.k
    }

    /// The inductive strengthening of the property by interpolation with `itp`, as a model
    /// of the clauses `graph`.
    pub fn model(
        &self,
        graph: &ChcSystem,
        itp: &mut crate::interp::Interpolator,
        kill: &crate::smt::KillSwitch,
    ) -> Result<Model, Stop> {
        let ts = &self.adapter.ts;
        let inv = super::kinductive::to_inductive(ts, &self.property, self.k.max(1), itp, kill)?;
        Ok(self.adapter.model(graph, &inv))
    }
}

/// Why an accelerated counterexample could not be expanded.
#[derive(Clone, Debug)]
pub enum ExpandError {
    /// Out of time, or a count the solver could not give.
    Failed(String),
    /// The expanded steps do not map to clauses (a bug).
    Unmapped,
}

impl AccelAnswer {
    /// The counterexample on the clauses `graph`, segments and all; `None` when a segment
    /// does not map to clauses.
    pub fn segments(&self, graph: &ChcSystem) -> Option<AccelCex> {
        self.adapter.accel_cex(graph, &self.path)
    }

    /// Every run of every segment expanded into a concrete step, within `deadline`.
    pub fn expand(&self, deadline: Option<Instant>) -> Result<(Cex, usize), ExpandError> {
        let path = self.path.expand(deadline).map_err(ExpandError::Failed)?;
        let steps = path.steps.len();
        let cex = self.adapter.cex_path(&path).ok_or(ExpandError::Unmapped)?;
        Ok((cex, steps))
    }
}

/// One figure of an engine's statistics.
#[derive(Clone, Debug, PartialEq)]
pub enum Counter {
    Count(u64),
    Seconds(f64),
    Text(String),
}

impl fmt::Display for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Counter::Count(n) => write!(f, "{n}"),
            Counter::Seconds(s) => write!(f, "{s:.3}"),
            Counter::Text(t) => f.write_str(t),
        }
    }
}

macro_rules! counts {
    ($($t:ty),*) => {$(
        impl From<$t> for Counter {
            fn from(n: $t) -> Counter {
                Counter::Count(n as u64)
            }
        }
    )*};
}
counts!(u8, u16, u32, u64, usize);

/// A switch, printed `true` or `false`.
impl From<bool> for Counter {
    fn from(b: bool) -> Counter {
        Counter::Text(b.to_string())
    }
}

impl From<String> for Counter {
    fn from(t: String) -> Counter {
        Counter::Text(t)
    }
}

impl From<&str> for Counter {
    fn from(t: &str) -> Counter {
        Counter::Text(t.to_string())
    }
}

/// An engine's figures for `--stats`: its own counters, and its solvers'.
#[derive(Clone, Debug, Default)]
pub struct EngineStats {
    pub counters: Vec<(&'static str, Counter)>,
    pub smt: SmtStats,
}

impl EngineStats {
    pub fn new(smt: SmtStats, counters: Vec<(&'static str, Counter)>) -> EngineStats {
        EngineStats { counters, smt }
    }

    /// The counter `name` when it is a count.
    pub fn count(&self, name: &str) -> Option<u64> {
        self.counters.iter().find_map(|(n, c)| match c {
            Counter::Count(k) if *n == name => Some(*k),
            _ => None,
        })
    }
}

/// An engine on the preprocessed clause graph.
pub trait Engine: Send {
    fn name(&self) -> &'static str;
    /// Runs to an answer, or until `smt.kill` kills its solvers (then `Unknown(Killed)`).
    fn solve(&mut self, problem: &Problem, smt: &SolverConfig) -> Answer;
    fn stats(&self) -> EngineStats;
    /// Does the engine take a system with these features? `Err` names the first thing it
    /// does not take (`arrays`, `non-linear clauses`), for a line such as `tpa does not take
    /// arrays`. The portfolio, the schedule and `--engine` ask this, nothing else.
    fn supports(&self, f: &Features) -> Result<(), &'static str>;
}

/// A transition-system engine on the clause graph: it runs on the problem's transition
/// system (and steps aside when the clauses are not linear), and its answers are mapped back
/// to the clauses through the adapter.
pub struct OnTs(pub Box<dyn TsEngine>);

impl Engine for OnTs {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    /// Linear clauses only (a transition system), and what the engine itself takes.
    fn supports(&self, f: &Features) -> Result<(), &'static str> {
        match f.beyond(true, false) {
            Some(what) => Err(what),
            None => self.0.supports(f),
        }
    }

    fn solve(&mut self, problem: &Problem, smt: &SolverConfig) -> Answer {
        let Some(adapter) = &problem.ts else {
            return Answer::Unknown(Stop::Unsupported("non-linear clauses".into()));
        };
        self.0.seed(&problem.seeds);
        let unmapped = || Answer::Unknown(Stop::Bug("its trace does not map to clauses".into()));
        match self.0.solve(&adapter.ts, smt) {
            TsAnswer::Safe(inv) => Answer::Safe(adapter.model(&problem.graph, &inv)),
            TsAnswer::SafeKInductive {
                k,
                property,
                strengthening,
            } => Answer::SafeKInductive {
                k,
                property: adapter.model(&problem.graph, &property),
                model: adapter.model(&problem.graph, &strengthening),
                later: Some(KToOne {
                    k,
                    property,
                    adapter: adapter.clone(),
                }),
            },
            TsAnswer::Unsafe { k, vals } => {
                adapter.cex(k, &vals).map_or_else(unmapped, Answer::Unsafe)
            }
            TsAnswer::UnsafePath(p) => adapter.cex_path(&p).map_or_else(unmapped, Answer::Unsafe),
            TsAnswer::UnsafeAccel(path) => Answer::UnsafeAccel(AccelAnswer {
                path,
                adapter: adapter.clone(),
            }),
            TsAnswer::Unknown(stop) => Answer::Unknown(stop),
        }
    }

    fn stats(&self) -> EngineStats {
        self.0.stats()
    }
}

#[cfg(test)]
#[path = "api_tests.rs"]
mod tests;
