//! The library entry point: parse, preprocess, run the engines, translate the answer back,
//! validate it against the original clauses, and only then report it.

use crate::chc::{chain, AccelCex, Cex, Model};
use crate::chc::{ChcSystem, Features};
use crate::engine::{AccelAnswer, Answer, EngineKind, EngineOptions, EngineStats, Problem, Stop};
use crate::frontend::passes::{
    accel_cex_back, cex_back, eliminate_quantifiers, model_back, preprocess_shared, BackTranslate,
};
use crate::frontend::{parse_str, InputError};
use crate::logic::*;
use crate::portfolio::{Portfolio, Report};
use crate::smt::{SatResult, Smt, SolverConfig, SolverKind, SolverPaths};
use crate::ts::TsAdapter;
use crate::validate;

mod absint;
mod accept;
mod defer;
mod direct;
mod exact;
mod k_to_one;
mod progress;
mod prune;
mod reason;
mod unfold;
pub use absint::AbsintStats;
use progress::progress;
pub use progress::Progress;
pub use reason::{stop_kind, Reason};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How to solve.
#[derive(Clone, Debug)]
pub struct Options {
    /// Engines to run in parallel, each on its own core; empty means the measured schedule
    /// of [`crate::schedule`].
    pub engines: Vec<EngineKind>,
    /// A schedule to run instead of the measured one on linear systems
    /// ([`crate::schedule::parse`]'s notation; `engines` wins when both are given).
    pub schedule: Option<Vec<crate::schedule::Lane>>,
    /// Cores to schedule the default portfolio for (else what the machine offers).
    pub jobs: Option<usize>,
    /// The SMT solver the engines use; `None` picks yices when it can be found (it answers
    /// the small incremental queries of the engines an order of magnitude faster), else z3.
    pub solver: Option<SolverKind>,
    /// The binary of each solver kind, where one is named (else found by [`find_solver`]):
    /// the engines' solver, the validator's z3, the second judge's cvc5, and every solver an
    /// engine starts besides its own (interpolation backends and checkers).
    pub paths: SolverPaths,
    /// Wall-clock limit for the whole run.
    pub timeout: Option<Duration>,
    /// Write every command sent to every solver into this folder.
    pub tee_dir: Option<PathBuf>,
    /// Where the run records its stage and figures as it goes, for a caller that stops
    /// waiting before the run ends (the binary's `--stats` at its time limit).
    pub progress: Option<Arc<Progress>>,
    /// Expand accelerated counterexamples into every concrete step (and replay them)
    /// instead of certifying their segments.
    pub expand: bool,
    /// Limit in MB on chcsolve's own heap (counted by [`crate::mem::CountingAlloc`], which
    /// the binary installs as its global allocator) and, separately, on the address space of
    /// each solver process. Passing it stops the engines: the answer is unknown.
    ///
    /// What the heap part measures: the live heap of the whole process, every thread's
    /// allocations counted together. In the binary that is the one run. In a library, it
    /// also counts the host program's own allocations and those of other runs going on at
    /// the same time: each run compares its own limit with that sum (a run without a limit
    /// is never stopped by another run's).
    pub memory_limit: Option<u64>,
    /// Every engine's settings ([`EngineOptions`]: Spacer's global guidance and
    /// abstraction, CEGAR's domain, ...); each engine of the schedule is built from them.
    pub engine_options: EngineOptions,
    /// A stop switch for a caller on another thread (the Python package's Ctrl-C): once it
    /// is set, the run stops as at its time limit (every engine's solver processes are
    /// killed) within [`CANCEL_POLL`], and the answer is `Unknown(Reason::Interrupted)`.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Who judges an answer against the original text ([`crate::judge`]) before it is
    /// returned.
    pub validate: Validate,
    /// Stop the other lanes' solver processes (SIGSTOP) while an engine's answer is
    /// validated and judged, and let them go on (SIGCONT) if it fails (default: false, not
    /// yet measured on whole sets).
    pub pause_to_check: bool,
    /// Where an answer the judge rejects is written with its input, to replay the check
    /// (else `$TMPDIR/chcsolve-rejected`).
    pub replay_dir: Option<PathBuf>,
    /// The abstract-interpretation pass ([`crate::absint`], `--absint`).
    pub absint: crate::absint::Config,
    /// Is a model wanted with a `sat` answer (default: true)? When not, a k-inductive
    /// invariant that passes the k-induction check on the original clauses is the answer
    /// ([`Verdict::SatKInductive`]), without first making it inductive and quantifier-free.
    pub need_model: bool,
}

/// How often a run with [`Options::cancel`] looks at it while it waits for the engines.
pub const CANCEL_POLL: Duration = Duration::from_millis(50);

impl Options {
    /// True once [`Options::cancel`] was set.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::SeqCst))
    }
}

/// The judges of every answer ([`crate::judge`]), after the validator's first pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Validate {
    /// A fresh z3 process (for a model of an input that converts integers to
    /// bit-vectors, cvc5, when found, proves the assertions z3 leaves open).
    #[default]
    Once,
    /// z3 and cvc5, side by side: both must accept.
    Twice,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engines: vec![],
            schedule: None,
            jobs: None,
            solver: None,
            paths: SolverPaths::default(),
            timeout: None,
            tee_dir: None,
            progress: None,
            expand: false,
            pause_to_check: false,
            memory_limit: None,
            engine_options: EngineOptions::default(),
            cancel: None,
            validate: Validate::Once,
            replay_dir: None,
            absint: crate::absint::Config::default(),
            need_model: true,
        }
    }
}

/// A validated answer.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Safe: a model of the original clauses, checked by a fresh solver.
    Sat(Model),
    /// Safe: a `k`-inductive invariant of the original clauses, checked by a fresh solver
    /// (base case, induction step, and that it excludes the queries: see
    /// [`crate::validate::check_k_inductive`]). Given only when [`Options::need_model`] is
    /// false; it is not itself a model (a model is made from it by unrolling `k` steps).
    SatKInductive { k: usize, invariant: Model },
    /// Unsafe: a derivation of `false` in the original clauses, replayed exactly.
    Unsat(Cex),
    /// Unsafe: a linear derivation of `false` in the original clauses with accelerated
    /// segments, each proven by the validator to stand for its count of runs of its cycle
    /// (see [`crate::validate::check_accel_cex`]); the other steps replayed exactly.
    UnsatAccelerated(AccelCex),
    /// No validated answer, and why.
    Unknown(Reason),
}

impl Verdict {
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Sat(_) | Verdict::SatKInductive { .. } => "sat",
            Verdict::Unsat(_) | Verdict::UnsatAccelerated(_) => "unsat",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

/// Counters for `--stats`.
#[derive(Debug, Default)]
pub struct Stats {
    pub parse_seconds: f64,
    pub preprocess_seconds: f64,
    pub clauses: usize,
    pub clauses_after_preprocessing: usize,
    pub predicates: usize,
    /// What the system uses ([`Features`]'s line: `linear, sorts Int Bool, no quantifiers`).
    pub features: String,
    /// The engine whose answer was printed.
    pub winner: Option<&'static str>,
    /// Answers checked by the validator, and how many of them failed (each failure is a bug).
    pub validations: u32,
    pub validation_failures: u32,
    /// Models whose check did not finish (out of time, or the solver said `unknown`): not
    /// printed, and not counted as failures.
    pub validations_undecided: u32,
    /// How the printed answer was validated (`replayed N steps`, `certified K accelerated
    /// segments ...`), with a fallback's reason when there was one.
    pub validation: Option<String>,
    /// Models that had quantifiers (from inlining's back-translation, k-induction) before
    /// they were made quantifier-free ([`crate::qe`]), those of them that needed z3's
    /// `qe` fallback for at least one quantifier, and those that could not be made
    /// quantifier-free (not printed).
    pub models_quantified: u32,
    pub models_qe_fallback: u32,
    pub models_qe_failed: u32,
    /// k-inductive answers made inductive models by interpolation ([`k_to_one`]), and those
    /// for which no interpolant came.
    pub models_k_to_one: u32,
    pub models_k_to_one_failed: u32,
    /// Answers checked by the judge against the original text ([`crate::judge`]): how many,
    /// in how many seconds in all, how many it rejected (each a bug) and how many it could
    /// not decide (printed as `unknown`, "could not validate"). `judges` names the solvers.
    pub judgments: u32,
    pub judge_seconds: f64,
    pub judge_rejections: u32,
    pub judge_undecided: u32,
    pub judges: &'static str,
    /// Answers engines gave up on because they broke their own invariants or panicked
    /// ([`Stop::Bug`]): each a bug, like a validation failure.
    pub engine_bugs: u32,
    /// Every engine that reported, in the order of the reports.
    pub engines: Vec<EngineRun>,
    pub total_seconds: f64,
    /// The abstract-interpretation pass.
    pub absint: AbsintStats,
    /// This run's interpolation queries, per backend ([`crate::interp::InterpStats`]).
    pub interpolation: Vec<(&'static str, crate::smt::BackendStats)>,
}

/// One engine's report in [`Stats::engines`].
#[derive(Clone, Debug)]
pub struct EngineRun {
    pub name: &'static str,
    pub seconds: f64,
    pub stats: EngineStats,
    /// Why it stopped without an answer, when it did.
    pub stop: Option<Stop>,
}

/// The result of a run: the verdict, the original system it refers to, and counters.
pub struct Outcome {
    pub verdict: Verdict,
    pub system: ChcSystem,
    pub stats: Stats,
    /// The witness exactly as the judge accepted it (for a sat or unsat verdict of a run
    /// that had the input's text): the model's `define-fun`s, Golem's derivation, or the
    /// list format of an accelerated counterexample.
    pub witness: Option<String>,
}

pub use crate::judge::Source;

/// Why a run could not start.
#[derive(Debug)]
pub enum SolveError {
    /// The input is outside the supported language.
    Input(InputError),
    /// No usable solver, or another setup problem.
    Setup(String),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Input(e) => write!(f, "{e}"),
            SolveError::Setup(m) => write!(f, "(error \"{}\")", m.replace('"', "\"\"")),
        }
    }
}

/// Parses and solves a CHC-COMP problem; the answer is judged against `input`.
///
/// Like every entry point of the library, it runs on a thread of its own with a big stack
/// ([`crate::mem::on_big_stack`]) and waits for it: a deeply nested input can't overflow the
/// caller's stack, which would abort the caller's process. Input nested deeper than
/// [`crate::frontend::parse::MAX_NESTING`] is an error ([`SolveError::Input`]).
pub fn solve_str(input: &str, opts: &Options) -> Result<Outcome, SolveError> {
    crate::mem::on_big_stack(|| solve_str_here(input, opts))
}

fn solve_str_here(input: &str, opts: &Options) -> Result<Outcome, SolveError> {
    let start = Instant::now();
    progress(opts, |p| p.stage("parsing"));
    let sys = parse_str(input).map_err(SolveError::Input)?;
    let parse_seconds = start.elapsed().as_secs_f64();
    progress(opts, |p| {
        p.record("parse-seconds", format!("{parse_seconds:.3}"))
    });
    let source = Source {
        text: input.into(),
        index: 0,
    };
    let mut out = solve_judged_here(sys, Some(source), opts)?;
    out.stats.parse_seconds = parse_seconds;
    out.stats.total_seconds = start.elapsed().as_secs_f64();
    Ok(out)
}

/// Solves each system in turn within `opts.timeout` for all of them together, handing each
/// outcome to `report` as soon as it is known (the queries of a fixedpoint file). With the
/// input's `text`, the k-th system is judged as its k-th problem.
pub fn solve_each(
    systems: Vec<ChcSystem>,
    text: Option<Arc<str>>,
    opts: &Options,
    mut report: impl FnMut(Result<Outcome, SolveError>),
) {
    let deadline = opts.timeout.map(|t| Instant::now() + t);
    for (index, sys) in systems.into_iter().enumerate() {
        if opts.cancelled() {
            report(Ok(Outcome {
                verdict: Verdict::Unknown(Reason::Interrupted),
                stats: Stats::default(),
                system: sys,
                witness: None,
            }));
            continue;
        }
        let opts = Options {
            timeout: deadline.map(|d| d.saturating_duration_since(Instant::now())),
            ..opts.clone()
        };
        let source = text.clone().map(|text| Source { text, index });
        report(solve_judged(sys, source, &opts));
    }
}

/// The reason of the unknown answer at the memory limit `mb` (this run's, else the
/// process's).
fn memory_limit_reason(mb: Option<u64>) -> Reason {
    Reason::MemoryLimit(mb.or_else(crate::mem::limit_mb))
}

/// Solves a system built in code. There is no text to judge the answer against: it is
/// checked by the validator alone ([`crate::validate`]).
pub fn solve_system(sys: ChcSystem, opts: &Options) -> Result<Outcome, SolveError> {
    solve_judged(sys, None, opts)
}

/// Solves a parsed system; with its `source`, every answer is judged against the text. Runs
/// on a thread with a big stack, as [`solve_str`] does.
pub fn solve_judged(
    sys: ChcSystem,
    source: Option<Source>,
    opts: &Options,
) -> Result<Outcome, SolveError> {
    crate::mem::on_big_stack(|| solve_judged_here(sys, source, opts))
}

fn solve_judged_here(
    sys: ChcSystem,
    source: Option<Source>,
    opts: &Options,
) -> Result<Outcome, SolveError> {
    let start = Instant::now();
    progress(opts, |p| {
        p.record("clauses", sys.clauses.len());
        p.record("predicates", sys.preds.len());
    });
    let deadline = opts.timeout.map(|t| start + t);
    let features = Features::of(&sys);
    let z3_path = opts.paths.find(SolverKind::Z3).map_err(SolveError::Setup)?;
    let (kind, engine_path) = match opts.solver {
        Some(k) => (k, opts.paths.find(k).map_err(SolveError::Setup)?),
        // yices prints array values as opaque names (`@fun_5`): z3 for arrays
        None if features.arrays => (SolverKind::Z3, z3_path.clone()),
        None => match opts.paths.find(SolverKind::Yices) {
            Ok(p) => (SolverKind::Yices, p),
            Err(_) => (SolverKind::Z3, z3_path.clone()),
        },
    };
    log::info!("engines use {kind} at {}", engine_path.display());
    let mut smt = SolverConfig::new(kind, engine_path);
    smt.tee_dir = opts.tee_dir.clone();
    smt.memory_limit_mb = opts.memory_limit;
    smt.paths = opts.paths.clone();
    smt.reals = features.reals;
    smt.arrays = features.arrays;
    let (judges, judge_fallback) = crate::judge::judges(
        z3_path.clone(),
        opts.paths.find(SolverKind::Cvc5),
        opts.validate == Validate::Twice,
        source.as_ref().map(|s| &*s.text),
    )
    .map_err(SolveError::Setup)?;
    let mut z3 = SolverConfig::new(SolverKind::Z3, z3_path);
    z3.reals = smt.reals;
    z3.arrays = smt.arrays;
    z3.tee_dir = opts.tee_dir.clone();
    z3.memory_limit_mb = opts.memory_limit;
    z3.paths = opts.paths.clone();
    z3.interp_stats = smt.interp_stats.clone();
    // quantifiers over arithmetic in clause constraints (Princess's `forall` in a body):
    // eliminated exactly and confirmed first; the clauses stay equivalent one by one
    let mut sys = sys;
    if let Err(why) = eliminate_quantifiers(&mut sys, &smt, &z3, deadline) {
        return Ok(Outcome {
            verdict: Verdict::Unknown(Reason::Quantifiers(why)),
            stats: Stats {
                clauses: sys.clauses.len(),
                predicates: sys.preds.len(),
                total_seconds: start.elapsed().as_secs_f64(),
                ..Stats::default()
            },
            system: sys,
            witness: None,
        });
    }
    // shared with the first back-translator (no copy)
    let sys = Arc::new(sys);
    let mut run = Run {
        orig: &sys,
        features,
        z3,
        smt: smt.clone(),
        deadline,
        stats: Stats {
            clauses: sys.clauses.len(),
            predicates: sys.preds.len(),
            judges: match (&source, opts.validate) {
                (None, _) => "none (no input text)",
                // cvc5 proves the assertions of a model that z3 leaves open
                (Some(_), Validate::Once) if judge_fallback.is_some() => "z3(+cvc5)",
                (Some(_), Validate::Once) => "z3",
                (Some(_), Validate::Twice) => "z3+cvc5",
            },
            ..Stats::default()
        },
        expand: opts.expand,
        pause_to_check: opts.pause_to_check,
        others_running: false,
        check_cap: None,
        judge: source.map(|s| crate::judge::JudgeRun {
            source: s,
            solvers: judges,
            fallback: judge_fallback,
            replay_dir: opts
                .replay_dir
                .clone()
                .or_else(|| opts.tee_dir.as_ref().map(|d| d.join("rejected"))),
            spares: Default::default(),
        }),
        witness: None,
        memory_limit: opts.memory_limit,
        unfold: None,
    };
    let verdict = run.solve(opts, &smt);
    let mut stats = run.stats;
    stats.interpolation = smt.interp_stats.snapshot();
    let witness = run
        .witness
        .take()
        .filter(|_| !matches!(verdict, Verdict::Unknown(_)));
    // the back-translators are gone with `run.solve`, unless an engine thread still holds one
    let sys = Arc::try_unwrap(sys).unwrap_or_else(|shared| (*shared).clone());
    stats.total_seconds = start.elapsed().as_secs_f64();
    Ok(Outcome {
        verdict,
        system: sys,
        stats,
        witness,
    })
}

struct Run<'a> {
    orig: &'a Arc<ChcSystem>,
    /// What the input uses; linearity from the preprocessed system once it is built.
    features: Features,
    z3: SolverConfig,
    /// The engines' solver, for the models of quantifier elimination.
    smt: SolverConfig,
    deadline: Option<Instant>,
    stats: Stats,
    expand: bool,
    pause_to_check: bool,
    /// Are other engines still running while an answer is checked? Then the model check
    /// gets three quarters of the time left ([`Run::check_budget`]).
    others_running: bool,
    /// At most this for the next checks of an answer ([`Run::check_budget`]).
    check_cap: Option<Duration>,
    /// The judge of every answer, when the input's text is known.
    judge: Option<crate::judge::JudgeRun>,
    /// The printed witness of the answer the judge accepted last.
    witness: Option<String>,
    /// This run's limit on the heap, in MB ([`Options::memory_limit`]).
    memory_limit: Option<u64>,
    /// The counterexample search on the input's text, for recursive datatypes
    /// ([`unfold`]).
    unfold: Option<unfold::Lane>,
}

impl Run<'_> {
    /// Past this run's memory limit, or the process's ([`crate::mem::set_limit_mb`], which
    /// the binary sets). The heap is counted for the whole process: a run with a limit
    /// stops when the process's heap passes it, a run without one is not stopped by
    /// another run's limit.
    fn over_memory(&self) -> bool {
        crate::mem::over_limit()
            || self
                .memory_limit
                .is_some_and(|mb| crate::mem::used() as u64 > mb.saturating_mul(1 << 20))
    }

    pub(super) fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// The time a model check or a judgment may take: three quarters of the time left while
    /// other engines run (a hard check must not keep an easy answer that came next from
    /// being checked), else all of it. Half was too little: on LRA-Lin's
    /// `fault_free_revised_sanity_check` and `scenario2_revised_sanity_check` PDR answers at
    /// 0.5 s of 5 and z3 needs 2.3-2.7 s to judge the model (2026-11-29, 78a84f6).
    fn check_budget(&self) -> Option<Duration> {
        let left = self.remaining();
        let left = if self.others_running {
            left.map(|d| d * 3 / 4)
        } else {
            left
        };
        match (left, self.check_cap) {
            (Some(l), Some(c)) => Some(l.min(c)),
            (l, c) => l.or(c),
        }
    }

    fn solve(&mut self, opts: &Options, smt: &SolverConfig) -> Verdict {
        self.start_unfolding();
        let t = Instant::now();
        progress(opts, |p| p.stage("preprocessing"));
        let (psys, backs) = preprocess_shared(self.orig.clone());
        self.stats.preprocess_seconds = t.elapsed().as_secs_f64();
        progress(opts, |p| {
            p.stage("building the transition system");
            p.record(
                "preprocess-seconds",
                format!("{:.3}", self.stats.preprocess_seconds),
            );
            p.record("clauses-after-preprocessing", psys.clauses.len());
        });
        self.stats.clauses_after_preprocessing = psys.clauses.len();
        log::info!(
            "preprocessing: {} clauses -> {} in {:.2}s",
            self.orig.clauses.len(),
            psys.clauses.len(),
            self.stats.preprocess_seconds
        );
        if self.over_memory() {
            return Verdict::Unknown(memory_limit_reason(self.memory_limit));
        }
        self.features = self.features.preprocessed(&psys);
        let features = self.features;
        self.stats.features = features.to_string();
        progress(opts, |p| p.record("features", features));
        let cores = crate::schedule::cores(opts.jobs);
        let (lanes, lines) =
            crate::schedule::choose(&features, cores, &opts.engines, opts.schedule.as_deref());
        for line in lines {
            log::warn!("{line}");
        }
        let t = Instant::now();
        let invariants = match self.absint(&psys, &backs, opts, smt) {
            Ok(invs) => invs,
            Err(verdict) => return verdict,
        };
        // Spacer's clause graph shares the preprocessed system (no copy)
        let graph = psys.clone();
        let Some(adapter) = TsAdapter::new(&psys) else {
            // Non-linear clauses: only the clause-graph engine applies.
            log::info!("non-linear clauses remain after preprocessing: running spacer");
            let problem = Problem {
                ts: None,
                graph,
                seeds: Arc::new(absint::seeds(&psys, invariants, None, false)),
                features,
                input: self.input(),
            };
            progress(opts, |p| {
                p.stage("engines");
                p.record(
                    "schedule",
                    format!("{} (non-linear clauses)", crate::schedule::describe(&lanes)),
                );
            });
            let pf = Portfolio::start(&lanes, &problem, &opts.engine_options, smt);
            return self.portfolio(pf, &psys, &backs, opts);
        };
        // the front-end's intermediate data is freed: give its pages back to the system (the
        // allocator would keep them, and the engines' memory would come on top)
        // SAFETY: a plain libc call, no pointers involved.
        unsafe {
            libc::malloc_trim(0);
        }
        log::info!(
            "transition system: {} state variables, built in {:.2}s",
            adapter.ts.state.len(),
            t.elapsed().as_secs_f64()
        );
        // Queries that need no predicate: satisfiable constraint means a one-step derivation.
        for &q in &adapter.direct_queries {
            let c = &psys.clauses[q.idx()];
            match self.direct_query(c, smt) {
                Ok(Some(vals)) => {
                    let cex = cex_back(&backs, chain(vec![(q, vals)]));
                    if let Some(v) = self.accept_cex(cex, "preprocessing") {
                        return v;
                    }
                }
                Ok(None) => {}
                Err(e) => return Verdict::Unknown(Reason::SolverError(e)),
            }
        }
        if adapter.ts.query.as_bool() == Some(false) || adapter.ts.init.as_bool() == Some(false) {
            // No derivation reaches a query: every remaining predicate can be false.
            let model = model_back(&backs, adapter.model(&psys, &mk_false()));
            if let Some(v) = self.accept_model(model, "preprocessing") {
                return v;
            }
            return Verdict::Unknown(Reason::ValidationFailed);
        }
        log::info!("schedule: {}", crate::schedule::describe(&lanes));
        progress(opts, |p| {
            p.stage("engines");
            p.record("schedule", crate::schedule::describe(&lanes));
        });
        let seeds = absint::seeds(&psys, invariants, Some(&adapter), features.linear_input);
        let seeds = Arc::new(seeds);
        let problem = Problem {
            ts: Some(Arc::new(adapter)),
            graph,
            seeds,
            features,
            input: self.input(),
        };
        // a model wanted: the native lanes (whose safety answers are k-inductive invariants)
        // look for counterexamples only (k-induction's answers are made inductive when
        // accepted: [`Run::k_to_one`])
        let mut engine_options = opts.engine_options.clone();
        engine_options.native.bmc_only |= opts.need_model;
        let pf = Portfolio::start(&lanes, &problem, &engine_options, smt);
        self.portfolio(pf, &psys, &backs, opts)
    }

    /// The input's text and parsed system, for the lanes that read the original assertions.
    fn input(&self) -> Option<crate::engine::Input> {
        self.judge.as_ref().map(|j| crate::engine::Input {
            source: j.source.clone(),
            orig: self.orig.clone(),
        })
    }

    /// Waits for the engines of `pf` (every answer on the preprocessed clauses `psys`,
    /// mapped back through the back-translators), until an answer passes validation, every
    /// lane has ended, or the deadline passes.
    fn portfolio(
        &mut self,
        mut pf: Portfolio,
        psys: &ChcSystem,
        backs: &[Box<dyn BackTranslate>],
        opts: &Options,
    ) -> Verdict {
        let mut stops = vec![];
        // an answer the judge could not decide: the verdict unless another lane's is decided
        let mut undecided: Option<Verdict> = None;
        let mut deferred = defer::Deferred::default();
        loop {
            if let Some(v) = self.unfolded(false) {
                pf.stop();
                return v;
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                pf.stop();
                return undecided.unwrap_or(Verdict::Unknown(Reason::Timeout));
            }
            if self.over_memory() {
                pf.stop();
                return Verdict::Unknown(memory_limit_reason(self.memory_limit));
            }
            if opts.cancelled() {
                pf.stop();
                return Verdict::Unknown(Reason::Interrupted);
            }
            // with a memory limit or a stop switch, wakes up every poll interval to look
            let limited = self.memory_limit.or_else(crate::mem::limit_mb).is_some();
            let poll = match (limited, &opts.cancel) {
                (_, Some(_)) => Some(CANCEL_POLL.min(crate::mem::POLL)),
                (true, None) => Some(crate::mem::POLL),
                (false, None) => None,
            };
            let poll = match &self.unfold {
                Some(l) if l.running() => Some(poll.map_or(unfold::POLL, |p| p.min(unfold::POLL))),
                _ => poll,
            };
            let wait = match poll {
                Some(p) => {
                    let poll = Instant::now() + p;
                    Some(self.deadline.map_or(poll, |d| d.min(poll)))
                }
                None => self.deadline,
            };
            let Some(r) = pf.next(deferred.wait(wait)) else {
                let ctx = (psys, backs, &mut undecided);
                if let Some(v) = self.check_deferred(&mut deferred, pf.running, ctx) {
                    pf.stop();
                    return v;
                }
                if pf.running == 0 {
                    break;
                }
                continue;
            };
            let Report {
                engine,
                answer,
                stats,
                seconds,
            } = r;
            let name = engine.name();
            let stop = match &answer {
                Answer::Unknown(stop) => Some(stop.clone()),
                _ => None,
            };
            self.stats.engines.push(EngineRun {
                name,
                seconds,
                stats,
                stop,
            });
            // with `--pause-to-check on` the other lanes wait (their solvers stopped) while the
            // answer is checked; by default they run on, and their answers queue. A
            // k-inductive answer made a model pauses them too: the `cores` backend's helper
            // processes take their cores (solve/k_to_one.rs).
            let k_to_one =
                opts.need_model && matches!(answer, Answer::SafeKInductive { later: Some(_), .. });
            let checking =
                !matches!(answer, Answer::Unknown(_)) && (self.pause_to_check || k_to_one);
            self.others_running = pf.running > 0;
            if checking {
                pf.pause();
            }
            if let (Some(j), false) = (&self.judge, matches!(answer, Answer::Unknown(_))) {
                j.warm_up();
            }
            let verdict = match answer {
                Answer::Safe(m) => {
                    debug_assert!(m.keys().all(|p| p.idx() < psys.preds.len()));
                    self.accept_model(model_back(backs, m), name)
                }
                a @ Answer::SafeKInductive { .. } => {
                    let defer = (opts.need_model, pf.running > 0 && deferred.is_empty());
                    match self.accept_k_answer(a, (psys, backs), defer, name) {
                        Ok(v) => v,
                        Err(kept) => {
                            deferred.set(kept, name, seconds);
                            None
                        }
                    }
                }
                Answer::Unsafe(cex) => self.accept_cex(cex_back(backs, cex), name),
                Answer::UnsafeInput(cex) => self.accept_cex(cex, name),
                Answer::SafeInput {
                    k,
                    witness,
                    invariant,
                } => self.accept_input_kinductive(k, &witness, invariant, name),
                Answer::UnsafeAccel(a) => self.accept_accel(&a, psys, backs, name),
                Answer::Unknown(stop) => {
                    if let Stop::Bug(e) = &stop {
                        log::error!("{name}: {e} (a bug)");
                        self.stats.engine_bugs += 1;
                    } else {
                        log::info!("{name}: unknown ({stop})");
                    }
                    stops.push((name, stop));
                    None
                }
            };
            match verdict {
                Some(v @ Verdict::Unknown(Reason::NotValidated(_))) => {
                    log::info!("{name}: its answer is not decided; waiting for the other lanes");
                    undecided.get_or_insert(v);
                }
                Some(v) => {
                    pf.stop();
                    return v;
                }
                None => {}
            }
            if checking {
                pf.resume();
            }
        }
        pf.stop();
        match undecided {
            Some(v) => v,
            None => self.unfolded_or(Verdict::Unknown(Reason::EnginesStopped(stops))),
        }
    }
}
