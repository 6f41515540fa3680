//! Engines: each answers on the preprocessed clause graph, with a certificate, behind one
//! trait, [`Engine`]. Most are transition-system engines ([`TsEngine`]: `bmc`, `kind`, `pdr`,
//! `imc`, `tpa`, `split-tpa`, `pdkind`, `abmc`, `trl`): they run on the transition system of
//! a linear clause graph through [`OnTs`], which maps their answers back to the clauses, and
//! step aside (`unknown`) on clauses that stay non-linear. `spacer` and `spacer-local` work on
//! the clause graph itself, non-linear clauses included; `cegar` works on the linear clause
//! graph as a control-flow automaton, without a transition system.
//!
//! | engine | paper | module |
//! | --- | --- | --- |
//! | `bmc` | Biere et al., BMC; Alg. 1 of Frohn & Giesl, *Accelerated BMC* (arXiv, 2024) | [`bmc`] |
//! | `pdr` | Hoder & Bjørner, *Generalized property directed reachability* (SAT 2012), with model-based projection (Komuravelli, Gurfinkel, Chaki, CAV 2014) | [`pdr`] |
//! | `kind` | Sheeran, Singh, Stålmarck, *Checking safety properties using induction and a SAT-solver* | [`kind`] |
//! | `imc` | McMillan, *Interpolation and SAT-based model checking* (CAV 2003) | [`imc`] |
//! | `tpa` | Blicha, Fedyukovich, Hyvärinen, Sharygina, *Transition power abstraction for deep counterexample detection* (TACAS 2022) | [`tpa`] |
//! | `pdkind` | Jovanović, Dutertre, *Property-directed k-induction* (FMCAD 2016) | [`pdkind`] |
//! | `split-tpa` | Blicha, Fedyukovich, Hyvärinen, Sharygina, *Split transition power abstraction for unbounded safety* (LPAR 2023) | [`tpa::split`] |
//! | `abmc` | Frohn & Giesl, *Accelerated bounded model checking* (arXiv, 2024), Alg. 3 | [`abmc`] |
//! | `trl` | Frohn & Giesl, *Infinite State Model Checking by Learning Transitive Relations* (arXiv 2502.04761), Alg. 1 | [`trl`] |
//! | `cegar` | Hajdu & Micskei, *Efficient strategies for CEGAR-based model checking* (JAR 2020), with Beyer & Löwe's explicit-value interpolation (FASE 2013); on the linear clause graph | [`cegar`] |
//! | `spacer` | Komuravelli, Gurfinkel, Chaki, *SMT-based model checking for recursive programs* (CAV 2014); on the clause graph, not a transition system | [`spacer`] |
//! | `treebmc` | bounded unfolding of derivation trees (a node per predicate instance, a selector per clause), on the input's own clauses as text: counterexamples of inputs with recursive datatypes, run beside the portfolio (`src/solve/unfold.rs`), not one of its lanes | [`treebmc`] |

pub mod abmc;
mod api;
pub mod bmc;
pub mod cegar;
pub mod imc;
pub mod kind;
pub mod kinductive;
pub mod learn;
pub(crate) mod named;
pub mod native;
mod obligations;
pub mod pdkind;
pub mod pdr;
pub mod spacer;
pub mod tpa;
pub mod treebmc;
pub mod trl;
mod unroll;

pub use api::{
    AccelAnswer, Answer, Counter, Engine, EngineStats, ExpandError, Input, KToOne, OnTs, Problem,
};
pub use named::Named;
pub use unroll::{bmc_query, confirm_cex, Unroller};

use crate::logic::{Assignment, Term};
use crate::smt::{SmtError, SolverConfig};
use crate::ts::{AccelPath, TransitionSystem, TsPath};
use named::named;
use std::fmt;

/// Logs a bound at info level when it is a power of two or a multiple of 100, else at debug.
pub fn log_progress(what: &str, k: usize) {
    if k.is_power_of_two() || k.is_multiple_of(100) {
        log::info!("{what} {k}");
    } else {
        log::debug!("{what} {k}");
    }
}

/// Why an engine stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Its solvers were killed (another engine won, or the time ran out).
    Killed,
    /// It reached its configured bound.
    Bound(usize),
    /// A solver said `unknown`.
    SolverUnknown,
    /// A solver failed.
    SolverError(String),
    /// The problem is outside what the engine handles.
    Unsupported(String),
    /// The engine broke one of its own invariants, or panicked: a bug, never the solver's
    /// fault.
    Bug(String),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Killed => write!(f, "killed"),
            Stop::Bound(k) => write!(f, "bound {k} reached"),
            Stop::SolverUnknown => write!(f, "solver answered unknown"),
            Stop::SolverError(e) => write!(f, "{e}"),
            Stop::Unsupported(e) => write!(f, "unsupported: {e}"),
            Stop::Bug(e) => write!(f, "bug: {e}"),
        }
    }
}

impl From<SmtError> for Stop {
    fn from(e: SmtError) -> Stop {
        match e {
            SmtError::Killed => Stop::Killed,
            e => Stop::SolverError(e.to_string()),
        }
    }
}

/// The answer of an engine on a transition system.
#[derive(Clone, Debug)]
pub enum TsAnswer {
    /// Safe, with an inductive invariant over the state variables that excludes the query.
    Safe(Term),
    /// Safe, with a `k`-inductive invariant `property` over the state variables that
    /// excludes the query (quantifier-free), and `strengthening`, an inductive invariant
    /// stronger than it (it may have quantifiers).
    SafeKInductive {
        k: usize,
        property: Term,
        strengthening: Term,
    },
    /// Unsafe, with a model of `init@0 /\ trans@0 .. trans@(k-1) /\ query@k` over step-indexed variables.
    Unsafe {
        k: usize,
        vals: Assignment,
    },
    /// Unsafe, with a path given step by step.
    UnsafePath(TsPath),
    /// Unsafe, with a path whose steps may be accelerated segments (ABMC).
    UnsafeAccel(AccelPath),
    Unknown(Stop),
}

/// An engine that works on transition systems.
pub trait TsEngine: Send {
    fn name(&self) -> &'static str;
    fn solve(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> TsAnswer;
    /// Engine-specific counters for `--stats`, plus the SMT counters.
    fn stats(&self) -> EngineStats;
    /// Takes the invariants [`crate::absint`] proved before [`TsEngine::solve`] (PDR starts
    /// its frames with them); the default ignores them.
    fn seed(&mut self, _seeds: &crate::absint::Seeds) {}
    /// Does the engine take a (linear) system with these features ([`Engine::supports`])?
    /// The default takes every sort but arrays: interpolation and acceleration, which most
    /// engines use, are not done over arrays.
    fn supports(&self, f: &crate::chc::Features) -> Result<(), &'static str> {
        match f.beyond(false, true) {
            Some(what) => Err(what),
            None => Ok(()),
        }
    }
}

/// The engines `--engine` can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// Bounded model checking: finds counterexamples only.
    Bmc,
    /// k-induction: counterexamples and k-inductive safety proofs.
    Kind,
    /// Property-directed reachability (IC3/PDR): counterexamples and inductive invariants.
    Pdr,
    /// Accelerated BMC with blocking clauses: deep counterexamples, and safety when the
    /// blocked unrolling runs dry.
    Abmc,
    /// Interpolation-based model checking (McMillan): counterexamples by BMC, and inductive
    /// invariants as fixpoints of interpolants. Not in the default portfolio.
    Imc,
    /// Transition power abstraction: over-approximations of `trans^(<= 2^n)` refined by
    /// interpolants; deep counterexamples (confirmed by BMC) and inductive invariants from
    /// transition invariants. Not in the default portfolio.
    Tpa,
    /// Property-directed k-induction: an induction frame made k-inductive, a reachability
    /// checker refined by interpolants; counterexamples confirmed by BMC, and inductive
    /// invariants from k-inductive ones. Not in the default portfolio.
    Pdkind,
    /// Split transition power abstraction: separate over-approximations of `trans^(2^n)`
    /// and `trans^(< 2^n)`; deep counterexamples (confirmed by BMC) and inductive invariants
    /// from transition invariants of either. Not in the default portfolio.
    SplitTpa,
    /// Transitive relation learning (TRL): the system is extended by transitive relations
    /// learned from loops of traces until its diameter is finite; inductive invariants from
    /// the states reachable within the diameter, counterexamples by BMC. Not in the default
    /// portfolio.
    Trl,
    /// Spacer (Komuravelli, Gurfinkel, Chaki, CAV 2014) on the clause graph, so also on
    /// non-linear clauses: frames of lemmas and must-summaries per predicate. Runs on every
    /// system that is non-linear after preprocessing.
    Spacer,
    /// Spacer without global guidance (local generalization only), whatever
    /// `--spacer-global` says: beside `spacer` on non-linear systems, where the two solve
    /// different files.
    SpacerLocal,
    /// CEGAR with explicit-value or predicate abstraction over the linear clause graph,
    /// refined by interpolation (Theta's algorithms: Hajdu & Micskei, JAR 2020). Configured by the
    /// `--cegar-*` options. Not in the default portfolio.
    Cegar,
    /// BMC and k-induction over the input's original bit-vector assertions, sent to the
    /// solver as they are ([`native`]): systems with bit-vectors whose clauses are linear.
    NativeBv,
}

impl EngineKind {
    /// The name `--engine` takes ([`Named::name`], here without the trait in scope).
    pub fn name(self) -> &'static str {
        Named::name(self)
    }

    /// Does the engine, with its default settings, take a system with these features
    /// ([`Engine::supports`])?
    pub fn supports(self, f: &crate::chc::Features) -> Result<(), &'static str> {
        self.make(&EngineOptions::default()).supports(f)
    }

    /// The engine built from its settings in `opts`.
    pub fn make(self, opts: &EngineOptions) -> Box<dyn Engine> {
        let ts = |e: Box<dyn TsEngine>| -> Box<dyn Engine> { Box::new(OnTs(e)) };
        match self {
            EngineKind::Bmc => ts(Box::new(bmc::Bmc::new(opts.bmc.clone()))),
            EngineKind::Kind => ts(Box::new(kind::KInduction::new(opts.kind.clone()))),
            EngineKind::Pdr => ts(Box::new(pdr::Pdr::new(opts.pdr.clone()))),
            EngineKind::Abmc => ts(Box::new(abmc::Abmc::new(opts.abmc.clone()))),
            EngineKind::Imc => ts(Box::new(imc::Imc::new(opts.imc.clone()))),
            EngineKind::Tpa => ts(Box::new(tpa::Tpa::new(opts.tpa.clone()))),
            EngineKind::Pdkind => ts(Box::new(pdkind::Pdkind::new(opts.pdkind.clone()))),
            EngineKind::SplitTpa => ts(Box::new(tpa::split::SplitTpa::new(opts.split_tpa.clone()))),
            EngineKind::Trl => ts(Box::new(trl::Trl::new(opts.trl.clone()))),
            EngineKind::Spacer => Box::new(spacer::Spacer::new(opts.spacer.clone())),
            EngineKind::SpacerLocal => Box::new(spacer::Spacer::new(spacer::Config {
                global: false,
                ..opts.spacer.clone()
            })),
            EngineKind::Cegar => Box::new(cegar::Cegar::new(opts.cegar.clone())),
            EngineKind::NativeBv => Box::new(native::NativeBv::new(opts.native.clone())),
        }
    }
}

named!(EngineKind {
    // on the transition system of a linear system: unrolling, induction, reachability
    Bmc = "bmc": "bounded model checking: counterexamples only",
    Kind = "kind": "k-induction: counterexamples and k-inductive safety proofs",
    Pdr = "pdr": "property-directed reachability (IC3/PDR)",
    Abmc = "abmc": "accelerated BMC with blocking clauses: deep counterexamples, some proofs",
    // interpolation and summaries of the transition relation
    Imc = "imc": "interpolation-based model checking (McMillan)",
    Tpa = "tpa": "transition power abstraction",
    Pdkind = "pdkind": "property-directed k-induction",
    SplitTpa = "split-tpa": "split transition power abstraction",
    Trl = "trl": "transitive relation learning",
    // on the clause graph
    Spacer = "spacer": "Spacer on the clause graph, also non-linear (global guidance per --spacer-global)",
    SpacerLocal = "spacer-local": "Spacer without global guidance",
    Cegar = "cegar": "CEGAR over the linear clause graph (--cegar-* options)",
    // on the input's own text
    NativeBv = "bv-kind": "BMC and k-induction over the input's bit-vector assertions as written",
});

/// Every engine's settings, one value for all: [`EngineKind::make`] builds each engine from
/// its part. Each part's `Default` is the documented default of that engine (its
/// `Config`'s field docs); the CLI maps its flags onto it.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    pub bmc: bmc::Config,
    pub kind: kind::Config,
    pub pdr: pdr::Config,
    pub abmc: abmc::Config,
    pub imc: imc::Config,
    pub tpa: tpa::Config,
    pub pdkind: pdkind::Config,
    pub split_tpa: tpa::split::Config,
    pub trl: trl::Config,
    /// Spacer's, for every lane that runs it (`spacer-local` turns global guidance off).
    pub spacer: spacer::Config,
    /// CEGAR's (`--engine cegar`).
    pub cegar: cegar::Config,
    /// The native bit-vector lane's (`bv-kind`).
    pub native: native::Config,
}

/// The model-based projection of `/\ phi` under `m` onto `keep` (every other variable
/// eliminated): a conjunction that `m` satisfies and that implies `exists others. phi`.
pub fn project_onto(
    phi: &[Term],
    m: &Assignment,
    keep: &[crate::logic::Var],
) -> Result<Term, Stop> {
    let elim: Vec<crate::logic::Var> = phi
        .iter()
        .flat_map(crate::logic::free_vars)
        .filter(|v| !keep.contains(v))
        .collect::<rustc_hash::FxHashSet<_>>()
        .into_iter()
        .collect();
    crate::logic::mbp::project(phi, m, &elim)
        .map(|p| crate::logic::mk_and(p.lits))
        .map_err(|e| Stop::Bug(format!("projection failed: {e}")))
}
