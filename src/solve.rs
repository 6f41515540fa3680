//! The library entry point: parse, preprocess, run the engines, translate the answer back,
//! validate it against the original clauses, and only then report it.

use crate::engine::{EngineKind, Stop, TsAnswer};
use crate::frontend::passes::{cex_back, chain, model_back, preprocess, BackTranslate, Cex, Model};
use crate::frontend::{parse_str, ChcSystem, InputError};
use crate::logic::*;
use crate::portfolio::{Portfolio, Report};
use crate::smt::{find_solver, KillSwitch, SatResult, Smt, SolverConfig, SolverKind};
use crate::spacer::{Answer as SpacerAnswer, Config as SpacerConfig, Spacer};
use crate::ts::TsAdapter;
use crate::validate;
use std::path::PathBuf;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// The default portfolio.
pub const DEFAULT_ENGINES: &[EngineKind] = &[EngineKind::Pdr, EngineKind::Abmc];

/// How to solve.
#[derive(Clone, Debug)]
pub struct Options {
    /// Engines to run in parallel; empty means [`DEFAULT_ENGINES`].
    pub engines: Vec<EngineKind>,
    /// The SMT solver the engines use; `None` picks yices when it can be found (it answers
    /// the small incremental queries of the engines an order of magnitude faster), else z3.
    pub solver: Option<SolverKind>,
    /// Its binary (else found by [`find_solver`]).
    pub solver_path: Option<PathBuf>,
    /// The z3 binary the validator uses (else found by [`find_solver`]).
    pub z3_path: Option<PathBuf>,
    /// Wall-clock limit for the whole run.
    pub timeout: Option<Duration>,
    /// Write every command sent to every solver into this folder.
    pub tee_dir: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engines: vec![],
            solver: None,
            solver_path: None,
            z3_path: None,
            timeout: None,
            tee_dir: None,
        }
    }
}

/// A validated answer.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Safe: a model of the original clauses, checked by a fresh solver.
    Sat(Model),
    /// Unsafe: a derivation of `false` in the original clauses, replayed exactly.
    Unsat(Cex),
    /// No validated answer, and why.
    Unknown(String),
}

impl Verdict {
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Sat(_) => "sat",
            Verdict::Unsat(_) => "unsat",
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
    /// The engine whose answer was printed.
    pub winner: Option<&'static str>,
    /// Answers checked by the validator, and how many of them failed (each failure is a bug).
    pub validations: u32,
    pub validation_failures: u32,
    /// Models whose check did not finish (out of time, or the solver said `unknown`): not
    /// printed, and not counted as failures.
    pub validations_undecided: u32,
    pub engines: Vec<(
        String,
        f64,
        Vec<(&'static str, String)>,
        crate::smt::SmtStats,
    )>,
    pub total_seconds: f64,
}

/// The result of a run: the verdict, the original system it refers to, and counters.
pub struct Outcome {
    pub verdict: Verdict,
    pub system: ChcSystem,
    pub stats: Stats,
}

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

/// Parses and solves a CHC-COMP problem.
pub fn solve_str(input: &str, opts: &Options) -> Result<Outcome, SolveError> {
    let start = Instant::now();
    let sys = parse_str(input).map_err(SolveError::Input)?;
    let parse_seconds = start.elapsed().as_secs_f64();
    let mut out = solve_system(sys, opts)?;
    out.stats.parse_seconds = parse_seconds;
    out.stats.total_seconds = start.elapsed().as_secs_f64();
    Ok(out)
}

/// Solves a parsed system.
pub fn solve_system(sys: ChcSystem, opts: &Options) -> Result<Outcome, SolveError> {
    let start = Instant::now();
    let deadline = opts.timeout.map(|t| start + t);
    let z3_path =
        find_solver(SolverKind::Z3, opts.z3_path.as_deref()).map_err(SolveError::Setup)?;
    let (kind, engine_path) = match opts.solver {
        Some(k) => (
            k,
            find_solver(k, opts.solver_path.as_deref()).map_err(SolveError::Setup)?,
        ),
        None => match find_solver(SolverKind::Yices, opts.solver_path.as_deref()) {
            Ok(p) => (SolverKind::Yices, p),
            Err(_) => (SolverKind::Z3, z3_path.clone()),
        },
    };
    log::info!("engines use {kind} at {}", engine_path.display());
    let mut smt = SolverConfig::new(kind, engine_path);
    smt.tee_dir = opts.tee_dir.clone();
    let mut z3 = SolverConfig::new(SolverKind::Z3, z3_path);
    z3.tee_dir = opts.tee_dir.clone();
    let mut run = Run {
        orig: &sys,
        z3,
        deadline,
        stats: Stats {
            clauses: sys.clauses.len(),
            predicates: sys.preds.len(),
            ..Stats::default()
        },
    };
    let verdict = run.solve(opts, &smt);
    let mut stats = run.stats;
    stats.total_seconds = start.elapsed().as_secs_f64();
    Ok(Outcome {
        verdict,
        system: sys,
        stats,
    })
}

struct Run<'a> {
    orig: &'a ChcSystem,
    z3: SolverConfig,
    deadline: Option<Instant>,
    stats: Stats,
}

impl Run<'_> {
    fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    fn solve(&mut self, opts: &Options, smt: &SolverConfig) -> Verdict {
        let t = Instant::now();
        let (psys, backs) = preprocess(self.orig);
        self.stats.preprocess_seconds = t.elapsed().as_secs_f64();
        self.stats.clauses_after_preprocessing = psys.clauses.len();
        log::info!(
            "preprocessing: {} clauses -> {} in {:.2}s",
            self.orig.clauses.len(),
            psys.clauses.len(),
            self.stats.preprocess_seconds
        );
        let engines = if opts.engines.is_empty() {
            DEFAULT_ENGINES.to_vec()
        } else {
            opts.engines.clone()
        };
        let ts_engines: Vec<EngineKind> = engines
            .iter()
            .copied()
            .filter(|&e| e != EngineKind::Spacer)
            .collect();
        let t = Instant::now();
        let Some(adapter) = TsAdapter::new(&psys) else {
            // Non-linear clauses: only the clause-graph engine applies.
            log::info!("non-linear clauses remain after preprocessing: running spacer");
            let spacer = SpacerRun::start(Arc::new(psys.clone()), smt);
            return self.portfolio(None, Some(spacer), &psys, &backs, None);
        };
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
                Err(e) => return Verdict::Unknown(e),
            }
        }
        if adapter.ts.query.as_bool() == Some(false) || adapter.ts.init.as_bool() == Some(false) {
            // No derivation reaches a query: every remaining predicate can be false.
            let model = model_back(&backs, adapter.model(&psys, &mk_false()));
            if let Some(v) = self.accept_model(model, "preprocessing") {
                return v;
            }
            return Verdict::Unknown("validation failed".into());
        }
        let spacer = engines
            .contains(&EngineKind::Spacer)
            .then(|| SpacerRun::start(Arc::new(psys.clone()), smt));
        let pf = (!ts_engines.is_empty())
            .then(|| Portfolio::start(&ts_engines, Arc::new(adapter.ts.clone()), smt));
        self.portfolio(pf, spacer, &psys, &backs, Some(&adapter))
    }

    /// Waits for the transition-system engines `pf` (answers mapped back through `adapter`)
    /// and Spacer on the clause graph, until an answer passes validation, every engine has
    /// given up, or the deadline passes.
    fn portfolio(
        &mut self,
        mut pf: Option<Portfolio>,
        mut spacer: Option<SpacerRun>,
        psys: &ChcSystem,
        backs: &[Box<dyn BackTranslate>],
        adapter: Option<&TsAdapter>,
    ) -> Verdict {
        let mut reasons = vec![];
        let stop_all = |pf: &Option<Portfolio>, spacer: &Option<SpacerRun>| {
            if let Some(pf) = pf {
                pf.stop();
            }
            if let Some(sp) = spacer {
                sp.kill.kill_all();
            }
        };
        loop {
            let pf_running = pf.as_ref().is_some_and(|p| p.running > 0);
            if !pf_running && spacer.is_none() {
                break;
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                stop_all(&pf, &spacer);
                return Verdict::Unknown("timeout".into());
            }
            // Spacer's report, if any (waiting for it alone when no other engine runs).
            if let Some(sp) = &spacer {
                let got = if pf_running {
                    sp.rx
                        .try_recv()
                        .map_err(|e| e == mpsc::TryRecvError::Disconnected)
                } else {
                    match self.remaining() {
                        Some(r) => sp
                            .rx
                            .recv_timeout(r)
                            .map_err(|e| e == mpsc::RecvTimeoutError::Disconnected),
                        None => sp.rx.recv().map_err(|_| true),
                    }
                };
                if matches!(got, Err(true)) {
                    log::error!("spacer: its thread ended without an answer (a bug)");
                    reasons.push("spacer: no answer".into());
                    spacer = None;
                } else if let Ok(r) = got {
                    spacer = None;
                    if let Some(v) = self.spacer_verdict(r, psys, backs, &mut reasons) {
                        stop_all(&pf, &spacer);
                        return v;
                    }
                }
            }
            let Some(p) = pf.as_mut().filter(|p| p.running > 0) else {
                continue;
            };
            let wait = match (&spacer, self.deadline) {
                (Some(_), Some(d)) => Some(d.min(Instant::now() + Duration::from_millis(20))),
                (Some(_), None) => Some(Instant::now() + Duration::from_millis(20)),
                (None, d) => d,
            };
            let Some(r) = p.next(wait) else {
                continue;
            };
            let Report {
                engine,
                answer,
                counters,
                smt: smt_stats,
                seconds,
            } = r;
            self.stats
                .engines
                .push((engine.name().to_string(), seconds, counters, smt_stats));
            let adapter = adapter.expect("transition-system engines run on an adapter");
            let verdict = match answer {
                TsAnswer::Safe(inv) => {
                    let model = model_back(backs, adapter.model(psys, &inv));
                    self.accept_model(model, engine.name())
                }
                TsAnswer::Unsafe { k, vals } => match adapter.cex(k, &vals) {
                    Some(cex) => self.accept_cex(cex_back(backs, cex), engine.name()),
                    None => {
                        log::error!(
                            "{}: its trace does not map to clauses (a bug)",
                            engine.name()
                        );
                        self.stats.validation_failures += 1;
                        None
                    }
                },
                TsAnswer::Unknown(why) => {
                    log::info!("{}: unknown ({why})", engine.name());
                    reasons.push(format!("{}: {why}", engine.name()));
                    None
                }
            };
            if let Some(v) = verdict {
                stop_all(&pf, &spacer);
                return v;
            }
        }
        stop_all(&pf, &spacer);
        Verdict::Unknown(reasons.join("; "))
    }

    /// Maps Spacer's answer back to the original clauses and validates it.
    fn spacer_verdict(
        &mut self,
        r: SpacerReport,
        psys: &ChcSystem,
        backs: &[Box<dyn BackTranslate>],
        reasons: &mut Vec<String>,
    ) -> Option<Verdict> {
        let SpacerReport {
            answer,
            counters,
            smt,
            seconds,
        } = r;
        self.stats
            .engines
            .push(("spacer".to_string(), seconds, counters, smt));
        match answer {
            SpacerAnswer::Safe(m) => {
                debug_assert!(m.keys().all(|p| p.idx() < psys.preds.len()));
                self.accept_model(model_back(backs, m), "spacer")
            }
            SpacerAnswer::Unsafe(cex) => self.accept_cex(cex_back(backs, cex), "spacer"),
            SpacerAnswer::Unknown(why) => {
                log::info!("spacer: unknown ({why})");
                reasons.push(format!("spacer: {why}"));
                None
            }
        }
    }

    /// Is `c.constraint` satisfiable? Returns values for the clause's variables if so.
    fn direct_query(
        &self,
        c: &crate::frontend::Clause,
        smt: &SolverConfig,
    ) -> Result<Option<Assignment>, String> {
        let mut s = Smt::new(smt, "direct-query").map_err(|e| e.to_string())?;
        let vars = c.vars();
        for v in &vars {
            s.declare(v).map_err(|e| e.to_string())?;
        }
        s.assert(&c.constraint).map_err(|e| e.to_string())?;
        match s.check_sat().map_err(|e| e.to_string())? {
            SatResult::Sat => Ok(Some(s.get_model(&vars).map_err(|e| e.to_string())?)),
            SatResult::Unsat => Ok(None),
            SatResult::Unknown => Err("solver answered unknown on a query clause".into()),
        }
    }

    fn accept_model(&mut self, model: Model, engine: &'static str) -> Option<Verdict> {
        self.stats.validations += 1;
        match validate::check_model(self.orig, &model, &self.z3, self.remaining()) {
            Ok(()) => {
                log::info!("{engine}: model validated");
                self.stats.winner = Some(engine);
                Some(Verdict::Sat(model))
            }
            Err(e @ validate::ModelError::Rejected(_)) => {
                self.stats.validation_failures += 1;
                log::error!("{engine}: model REJECTED by the validator: {e}");
                None
            }
            Err(e @ validate::ModelError::Undecided(_)) => {
                self.stats.validations_undecided += 1;
                log::warn!("{engine}: model not validated, so not printed: {e}");
                None
            }
        }
    }

    fn accept_cex(&mut self, cex: Cex, engine: &'static str) -> Option<Verdict> {
        self.stats.validations += 1;
        let checked = validate::complete_cex(self.orig, &cex, &self.z3)
            .and_then(|cex| validate::check_cex(self.orig, &cex).map(|()| cex));
        match checked {
            Ok(cex) => {
                log::info!("{engine}: counterexample of {} steps replayed", cex.len());
                self.stats.winner = Some(engine);
                Some(Verdict::Unsat(cex))
            }
            Err(e) => {
                self.stats.validation_failures += 1;
                log::error!("{engine}: counterexample REJECTED by the validator: {e}");
                None
            }
        }
    }
}

/// What Spacer reported.
struct SpacerReport {
    answer: SpacerAnswer,
    counters: Vec<(&'static str, String)>,
    smt: crate::smt::SmtStats,
    seconds: f64,
}

/// Spacer running on the clause graph in its own thread, with its own solver processes.
struct SpacerRun {
    rx: mpsc::Receiver<SpacerReport>,
    kill: KillSwitch,
}

impl SpacerRun {
    fn start(sys: Arc<ChcSystem>, smt: &SolverConfig) -> SpacerRun {
        let (tx, rx) = mpsc::channel();
        let mut cfg = smt.clone();
        cfg.kill = KillSwitch::new();
        let kill = cfg.kill.clone();
        let tx_err = tx.clone();
        let spawned = std::thread::Builder::new()
            .name("spacer".into())
            .stack_size(256 << 20)
            .spawn(move || {
                let start = Instant::now();
                let mut engine = Spacer::new(SpacerConfig::default());
                let answer = engine.solve(&sys, &cfg);
                let (counters, smt) = engine.stats();
                log::info!(
                    "spacer: finished after {:.2}s",
                    start.elapsed().as_secs_f64()
                );
                let _ = tx.send(SpacerReport {
                    answer,
                    counters,
                    smt,
                    seconds: start.elapsed().as_secs_f64(),
                });
            });
        if let Err(err) = spawned {
            let _ = tx_err.send(SpacerReport {
                answer: SpacerAnswer::Unknown(Stop::SolverError(err.to_string())),
                counters: vec![],
                smt: crate::smt::SmtStats::default(),
                seconds: 0.0,
            });
        }
        SpacerRun { rx, kill }
    }
}
