//! Craig interpolation, once for every engine: binary interpolants `(A, B)` and sequence
//! interpolants `(A1, ..., An)`, from SMTInterpol, z3, cvc5, yices (MCSAT) or our own
//! projection, every one checked before it is returned.
//!
//! For a sequence `A1, ..., An` whose conjunction is unsatisfiable, an interpolant is
//! `I1, ..., I(n-1)` such that, with `I0 = true` and `In = false`, `I(k-1) /\ Ak => Ik`,
//! and `Ik` mentions only symbols shared by `A1..Ak` and `A(k+1)..An`. A binary interpolant
//! is the case `n = 2`.
//!
//! SMTInterpol answers a whole sequence in one call; the other backends build it from
//! binary calls, `Ik = itp(I(k-1) /\ Ak, A(k+1) /\ ... /\ An)` (see [`backend`] for each
//! solver's command, and [`own`] for the projection fallback).
//!
//! **Checked, always.** [`Interpolator`] checks each answer in a process of a different
//! solver than the one that produced it (z3 checks everyone but z3; yices checks z3): every
//! `I(k-1) /\ Ak /\ not Ik` unsatisfiable, and the vocabulary condition syntactically. A
//! `sat` claim is confirmed by a model that satisfies every `Ak` under exact evaluation. A
//! failed check is logged as an ERROR, counted, and the next backend is asked.
//!
//! The answer is a value, [`Interp`]: interpolants, a model, or unknown with the reasons.
//! [`InterpStats`] counts, per backend, what was asked and answered, for one run: the sink
//! travels in the run's [`SolverConfig`] and ends in its [`crate::Stats`] (`--stats` prints it).

mod backend;
mod cores;
mod farkas;
mod farkas_real;
mod own;
#[cfg(test)]
mod tests;

use crate::logic::{
    eval_bool, free_vars, mk_and, mk_false, mk_not, mk_true, Assignment, Term, Var,
};
use crate::smt::{SatResult, Smt, SmtError, SolverConfig, SolverKind};
use backend::Answer;
use rustc_hash::FxHashSet;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

pub use own::MAX_DISJUNCTS;

/// A source of interpolants.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Backend {
    /// SMTInterpol's `get-interpolants` (sequences natively).
    SmtInterpol,
    /// z3's `get-interpolant`.
    Z3,
    /// cvc5's `get-interpolant` (syntax-guided; can be slow).
    Cvc5,
    /// yices' MCSAT model interpolants, iterated.
    Yices,
    /// Our own projection of `A` onto the shared symbols ([`own`]), with yices or z3 for
    /// the models.
    Own,
    /// Our own linear interpolants from Farkas certificates of cube pairs ([`farkas`]), with
    /// yices or z3 for the models.
    Farkas,
    /// Our own projections of `A` generalized by unsatisfiable cores with `B` ([`cores`]),
    /// with yices or z3 for the models and cores.
    Cores,
}

impl Backend {
    /// All backends, in the default order of preference (see
    /// docs/interpolation.md: its table and "Which backend first").
    pub const ALL: [Backend; 6] = [
        Backend::Farkas,
        Backend::Own,
        Backend::Yices,
        Backend::SmtInterpol,
        Backend::Z3,
        Backend::Cvc5,
    ];

    /// Every backend: [`Backend::ALL`] and the core-generalized projections, which only the
    /// conversion of k-inductive answers into models asks by default
    /// (docs/interpolation.md).
    pub fn every() -> impl Iterator<Item = Backend> {
        Backend::ALL.into_iter().chain([Backend::Cores])
    }

    pub fn name(self) -> &'static str {
        match self {
            Backend::SmtInterpol => "smtinterpol",
            Backend::Z3 => "z3",
            Backend::Cvc5 => "cvc5",
            Backend::Yices => "yices",
            Backend::Own => "own",
            Backend::Farkas => "farkas",
            Backend::Cores => "cores",
        }
    }

    /// The solver whose process answers (for [`Backend::Own`]: the one giving models).
    fn solvers(self) -> &'static [SolverKind] {
        match self {
            Backend::SmtInterpol => &[SolverKind::SmtInterpol],
            Backend::Z3 => &[SolverKind::Z3],
            Backend::Cvc5 => &[SolverKind::Cvc5],
            Backend::Yices => &[SolverKind::Yices],
            Backend::Own | Backend::Farkas | Backend::Cores => &[SolverKind::Yices, SolverKind::Z3],
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Backend::every()
            .find(|b| b.name() == s.to_ascii_lowercase())
            .ok_or_else(|| {
                format!("unknown interpolation backend `{s}` (smtinterpol, z3, cvc5, yices, own, farkas, cores)")
            })
    }
}

/// The answer to an interpolation query.
#[derive(Clone, Debug)]
pub enum Interp {
    /// Checked interpolants: one for a binary query, `n - 1` for a sequence of `n`.
    Interpolant(Vec<Term>),
    /// The conjunction is satisfiable: a model of every part, checked by exact evaluation.
    Sat(Assignment),
    /// No backend gave a checked answer; the reasons, one per backend tried.
    Unknown(String),
}

pub use crate::smt::{BackendStats, InterpStats};

/// How an [`Interpolator`] finds its solvers.
#[derive(Clone, Debug)]
pub struct InterpConfig {
    /// Backends in order of preference, each with the solver it runs (found ones only).
    pub backends: Vec<(Backend, SolverConfig)>,
    /// Checker solvers (z3 and yices when found), in the normal, non-interpolating mode.
    pub checkers: Vec<SolverConfig>,
    /// Limit on one backend call; the process is killed and restarted after it.
    pub timeout: Duration,
    /// Solver processes the `cores` backend runs in parallel (1: no helpers). More than one
    /// only where the caller's other lanes are idle: the k-to-1 conversion, which runs while
    /// they wait.
    pub workers: usize,
}

impl InterpConfig {
    /// The backends of `order` whose solvers are found, with the settings of the engine's
    /// solver `base`: its kill switch, tee folder, memory limit and logic. A backend of the
    /// engine's solver kind runs its binary; the others run the binaries named in
    /// [`SolverConfig::paths`], else the ones [`crate::smt::find_solver`] finds. The reasons
    /// for the backends left out are logged at debug level.
    pub fn for_engine(order: &[Backend], base: &SolverConfig) -> InterpConfig {
        let cfg = |k: SolverKind| {
            let path = if k == base.kind && !base.path.as_os_str().is_empty() {
                Ok(base.path.clone())
            } else {
                base.paths.find(k)
            };
            path.map(|p| SolverConfig {
                kind: k,
                path: p,
                interpolation: false,
                ..base.clone()
            })
        };
        let mut backends = vec![];
        for &b in order {
            let found = b.solvers().iter().find_map(|&k| match cfg(k) {
                Ok(c) => Some(c),
                Err(e) => {
                    log::debug!("interpolation backend {b}: {e}");
                    None
                }
            });
            if let Some(c) = found {
                let c = if matches!(b, Backend::Own | Backend::Farkas | Backend::Cores) {
                    c
                } else {
                    c.interpolating()
                };
                backends.push((b, c));
            }
        }
        let checkers = [SolverKind::Z3, SolverKind::Yices]
            .into_iter()
            .filter_map(|k| cfg(k).ok())
            .collect();
        InterpConfig {
            backends,
            checkers,
            timeout: Duration::from_secs(10),
            workers: 1,
        }
    }
}

/// Interpolation through a chain of backends, each answer checked. Solver processes start
/// on first use and are restarted after a failure.
pub struct Interpolator {
    cfg: InterpConfig,
    procs: Vec<Option<Smt>>,
    checkers: Vec<Option<Smt>>,
    /// The `cores` backend's helper processes ([`InterpConfig::workers`] - 1 of them).
    helpers: Vec<Smt>,
    calls: usize,
}

impl Interpolator {
    pub fn new(cfg: InterpConfig) -> Interpolator {
        Interpolator {
            procs: cfg.backends.iter().map(|_| None).collect(),
            checkers: cfg.checkers.iter().map(|_| None).collect(),
            helpers: vec![],
            cfg,
            calls: 0,
        }
    }

    /// The backends it will try, in order.
    pub fn backends(&self) -> Vec<Backend> {
        self.cfg.backends.iter().map(|(b, _)| *b).collect()
    }

    /// A binary interpolant of `(a, b)`: `Interpolant(vec![i])`.
    pub fn binary(&mut self, a: &Term, b: &Term) -> Interp {
        self.sequence(&[a.clone(), b.clone()])
    }

    /// A sequence interpolant of `parts` (at least two).
    pub fn sequence(&mut self, parts: &[Term]) -> Interp {
        assert!(parts.len() >= 2, "an interpolation query needs two parts");
        let mut why = vec![];
        for i in 0..self.cfg.backends.len() {
            match self.try_backend(i, parts) {
                Ok(r) => return r,
                Err(e) => why.push(format!("{}: {e}", self.cfg.backends[i].0)),
            }
        }
        if why.is_empty() {
            why.push("no interpolation backend found".into());
        }
        Interp::Unknown(why.join("; "))
    }

    /// Asks backend `i` only (no fallback): its checked answer, or why there is none.
    pub fn ask(&mut self, i: usize, parts: &[Term]) -> Interp {
        match self.try_backend(i, parts) {
            Ok(r) => r,
            Err(e) => Interp::Unknown(e),
        }
    }

    fn try_backend(&mut self, i: usize, parts: &[Term]) -> Result<Interp, String> {
        let backend = self.cfg.backends[i].0;
        let stats = self.cfg.backends[i].1.interp_stats.clone();
        let record = |f: &dyn Fn(&mut BackendStats)| stats.record(backend.name(), f);
        record(&|s| s.asked += 1);
        let start = Instant::now();
        let answer = self.produce(i, parts);
        let elapsed = start.elapsed();
        record(&|s| s.time += elapsed);
        let answer = match answer {
            Ok(a) => a,
            Err(e) => {
                log::debug!("interpolation backend {backend}: {e}");
                record(&|s| s.unknown += 1);
                return Err(e);
            }
        };
        let kind = self.cfg.backends[i].1.kind;
        match answer {
            Answer::Unknown(e) => {
                log::debug!("interpolation backend {backend}: {e}");
                record(&|s| s.unknown += 1);
                Err(e)
            }
            Answer::Interpolants(itps) => match self.check(kind, parts, &itps) {
                Ok(()) => {
                    let size: usize = itps.iter().map(crate::logic::dag_size).sum();
                    record(&|s| {
                        s.interpolants += 1;
                        s.size += size as u64
                    });
                    Ok(Interp::Interpolant(itps))
                }
                Err(e) => {
                    log::error!("interpolant from {backend} failed its check: {e}");
                    record(&|s| s.check_failures += 1);
                    Err(format!("check failed: {e}"))
                }
            },
            Answer::Sat => match self.confirm_sat(kind, parts) {
                Ok(m) => {
                    record(&|s| s.sat += 1);
                    Ok(Interp::Sat(m))
                }
                Err(e) => {
                    log::error!("`sat` from {backend} failed its check: {e}");
                    record(&|s| s.check_failures += 1);
                    Err(format!("sat check failed: {e}"))
                }
            },
        }
    }

    /// The unchecked answer of backend `i`, under its time limit.
    fn produce(&mut self, i: usize, parts: &[Term]) -> Result<Answer, String> {
        let (backend, cfg) = self.cfg.backends[i].clone();
        if self.procs[i].as_ref().is_some_and(|s| !s.is_alive()) {
            self.procs[i] = None;
        }
        if self.procs[i].is_none() {
            let smt = Smt::new(&cfg, &format!("interp-{backend}")).map_err(|e| e.to_string())?;
            self.procs[i] = Some(smt);
        }
        if backend == Backend::Cores {
            self.start_helpers(&cfg)?;
        }
        let smt = self.procs[i].as_mut().unwrap();
        let deadline = smt.deadline(self.cfg.timeout);
        let helpers = if backend == Backend::Cores {
            &mut self.helpers[..]
        } else {
            &mut []
        };
        let helper_deadlines: Vec<_> = helpers
            .iter()
            .map(|h| h.deadline(self.cfg.timeout))
            .collect();
        let r = sequence_with(backend, smt, helpers, parts, &mut self.calls);
        let fired = deadline.fired();
        drop(deadline);
        drop(helper_deadlines);
        if backend == Backend::Cores && (r.is_err() || self.helpers.iter().any(|h| !h.is_alive())) {
            // a helper that failed is in an unknown scope: all start again on the next call
            self.helpers.clear();
        }
        match r {
            Ok(a) => Ok(a),
            Err(e) => {
                self.procs[i] = None;
                if fired {
                    Err(format!("no answer within {:?}", self.cfg.timeout))
                } else {
                    Err(e.to_string())
                }
            }
        }
    }

    /// The `cores` backend's helpers, started with `cfg` and each its own random seed.
    fn start_helpers(&mut self, cfg: &SolverConfig) -> Result<(), String> {
        while self.helpers.len() + 1 < self.cfg.workers {
            let n = self.helpers.len() + 1;
            let mut h = Smt::new(cfg, &format!("interp-cores-{n}")).map_err(|e| e.to_string())?;
            h.raw(&format!("(set-option :random-seed {})", 17 * n))
                .map_err(|e| e.to_string())?;
            self.helpers.push(h);
        }
        Ok(())
    }

    /// A checker process of a different solver than `producer`.
    fn checker(&mut self, producer: SolverKind) -> Result<&mut Smt, String> {
        let Some(j) = self
            .cfg
            .checkers
            .iter()
            .position(|c| c.kind != producer)
            .or_else(|| (!self.cfg.checkers.is_empty()).then_some(0))
        else {
            return Err("no checker solver found".into());
        };
        if self.checkers[j].as_ref().is_some_and(|s| !s.is_alive()) {
            self.checkers[j] = None;
        }
        if self.checkers[j].is_none() {
            let cfg = &self.cfg.checkers[j];
            let smt =
                Smt::new(cfg, &format!("interp-check-{}", cfg.kind)).map_err(|e| e.to_string())?;
            self.checkers[j] = Some(smt);
        }
        Ok(self.checkers[j].as_mut().unwrap())
    }

    /// Checks `itps` against `parts`: the implications and the vocabulary.
    fn check(&mut self, producer: SolverKind, parts: &[Term], itps: &[Term]) -> Result<(), String> {
        check_vocabulary(parts, itps)?;
        let smt = self.checker(producer)?;
        let n = parts.len();
        for k in 0..n {
            let pre = if k == 0 {
                mk_true()
            } else {
                itps[k - 1].clone()
            };
            let post = if k == n - 1 {
                mk_false()
            } else {
                itps[k].clone()
            };
            let q = mk_and(vec![pre, parts[k].clone(), mk_not(post)]);
            match unsat(smt, &q).map_err(|e| e.to_string())? {
                SatResult::Unsat => {}
                r => {
                    return Err(format!(
                        "I{k} /\\ A{} => I{} does not hold (checker: {r})",
                        k + 1,
                        k + 1
                    ))
                }
            }
        }
        Ok(())
    }

    /// A model of every part, found by a checker and evaluated exactly.
    fn confirm_sat(&mut self, producer: SolverKind, parts: &[Term]) -> Result<Assignment, String> {
        let vars: Vec<Var> = backend::vocabulary(parts).into_values().collect();
        let smt = self.checker(producer)?;
        let all = mk_and(parts.to_vec());
        let r = (|| {
            smt.push()?;
            smt.assert(&all)?;
            let r = smt.check_sat()?;
            let m = if r == SatResult::Sat {
                Some(smt.get_model(&vars)?)
            } else {
                None
            };
            smt.pop()?;
            Ok::<_, SmtError>((r, m))
        })()
        .map_err(|e| e.to_string())?;
        let (r, m) = r;
        let Some(m) = m else {
            return Err(format!("the checker says {r}"));
        };
        for (k, p) in parts.iter().enumerate() {
            if eval_bool(p, &m) != Ok(true) {
                return Err(format!("the model does not satisfy A{}", k + 1));
            }
        }
        Ok(m)
    }
}

/// The sequence answer of one backend: natively for SmtInterpol, else by binary calls.
fn sequence_with(
    backend: Backend,
    smt: &mut Smt,
    helpers: &mut [Smt],
    parts: &[Term],
    calls: &mut usize,
) -> Result<Answer, SmtError> {
    if backend == Backend::SmtInterpol {
        return backend::smtinterpol(smt, parts);
    }
    let mut itps = vec![];
    let mut prev = mk_true();
    for k in 0..parts.len() - 1 {
        let a = mk_and(vec![prev, parts[k].clone()]);
        let b = mk_and(parts[k + 1..].to_vec());
        *calls += 1;
        let ans = match backend {
            Backend::Z3 => backend::z3(smt, &a, &b)?,
            Backend::Cvc5 => backend::cvc5(smt, &a, &b, *calls)?,
            Backend::Yices => backend::yices(smt, &a, &b)?,
            Backend::Own => own::project(smt, &a, &b)?,
            Backend::Farkas => farkas::interpolate(smt, &a, &b)?,
            Backend::Cores => cores::interpolate(smt, helpers, &a, &b)?,
            Backend::SmtInterpol => unreachable!(),
        };
        match ans {
            Answer::Interpolants(mut i) if i.len() == 1 => {
                let i = i.pop().unwrap();
                prev = i.clone();
                itps.push(i);
            }
            Answer::Interpolants(i) => {
                return Ok(Answer::Unknown(format!(
                    "{} interpolants for one cut",
                    i.len()
                )))
            }
            // Only the first cut's `sat` is about the parts themselves; a later one means an
            // earlier interpolant was too weak, which the check would reject anyway.
            Answer::Sat if k == 0 => return Ok(Answer::Sat),
            Answer::Sat => {
                return Ok(Answer::Unknown(format!(
                    "cut {} satisfiable: an earlier interpolant is wrong",
                    k + 1
                )))
            }
            u @ Answer::Unknown(_) => return Ok(u),
        }
    }
    Ok(Answer::Interpolants(itps))
}

/// `Ik` mentions only symbols of both `A1..Ak` and `A(k+1)..An`.
pub fn check_vocabulary(parts: &[Term], itps: &[Term]) -> Result<(), String> {
    if itps.len() + 1 != parts.len() {
        return Err(format!(
            "{} interpolants for {} parts",
            itps.len(),
            parts.len()
        ));
    }
    let vars: Vec<FxHashSet<Var>> = parts
        .iter()
        .map(|p| free_vars(p).into_iter().collect())
        .collect();
    for (k, i) in itps.iter().enumerate() {
        for v in free_vars(i) {
            let before = vars[..=k].iter().any(|s| s.contains(&v));
            let after = vars[k + 1..].iter().any(|s| s.contains(&v));
            if !(before && after) {
                return Err(format!(
                    "I{} mentions `{}`, which A1..A{} and A{}..A{} do not share",
                    k + 1,
                    v.name,
                    k + 1,
                    k + 2,
                    parts.len()
                ));
            }
        }
    }
    Ok(())
}

fn unsat(smt: &mut Smt, q: &Term) -> Result<SatResult, SmtError> {
    smt.push()?;
    smt.assert(q)?;
    let r = smt.check_sat()?;
    smt.pop()?;
    Ok(r)
}
