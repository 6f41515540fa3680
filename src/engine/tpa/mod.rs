//! Transition Power Abstraction (TPA): Blicha, Fedyukovich, Hyvärinen, Sharygina,
//! *Transition power abstraction for deep counterexample detection* (TACAS 2022), the basic
//! variant (one hierarchy of relations), in the formulation of Golem's `TPABasic`.
//!
//! Level `n` holds a relation `ATr_n(s, s')` over the state and next-state variables that
//! over-approximates `T^{<= 2^n}`: level 0 is exactly `Id \/ trans` (with its step-local
//! variables), every higher level a conjunction of Craig interpolants, so pure over `s, s'`.
//! A reachability query at level `n` asks whether `to` is reachable from `from` in at most
//! `2^(n+1)` steps, by two copies of `ATr_n`.
//!
//! The paper's procedures and where they are here:
//!
//! - **The main loop** (`TPA`, "check power `n`" in Golem): `Search::run`. At `n = 0, 1, ..`
//!   it asks `init ->* query` at level `n`; reachable means a counterexample, unreachable
//!   means safety up to `2^(n+1)` steps, then the fixpoint check.
//! - **`IsReachable(n, from, to)`**: `Search::reach`. `from@0 /\ ATr_n@0 /\ ATr_n@1 /\ to@2`
//!   in the level's own incremental solver (`Level::solver`, holding both copies):
//!   - unsatisfiable: the interpolant `I(s@0, s@2)` of `(ATr_n@0 /\ ATr_n@1, from@0 /\ to@2)`
//!     from [`Interpolator::binary`] (checked by the interpolation layer) strengthens
//!     `ATr_(n+1)` (`Search::strengthen`); it still over-approximates `ATr_n o ATr_n`;
//!   - satisfiable at level 0: the path is real (`Id \/ trans` is exact); the number of
//!     `trans` steps is read from the model, and the reached states are the model-based
//!     projection (MBP) onto `s@2` of the query with each step fixed to the disjunct the
//!     model takes (`Id` or `trans`), so every reached state is reached in exactly that
//!     many steps;
//!   - satisfiable at level `n > 0`: the midpoint is the MBP of `from@0 /\ ATr_n@0` and of
//!     `ATr_n@1 /\ to@2` onto `s@1`; both halves are asked at level `n - 1`, the second from
//!     the states the first one really reaches. When a half is unreachable its interpolant
//!     has strengthened `ATr_n`, and the query is asked again.
//! - **The fixpoint check** (Golem's `checkLessThanFixedPoint`): `Search::fixpoint`, for each
//!   level `i <= n + 1`. `ATr_i` is a *right* transition invariant when
//!   `ATr_i(s0, s1) /\ trans(s1, s2) => ATr_i(s0, s2)` (alone, or restricted to `init(s0)`),
//!   a *left* one when `trans(s0, s1) /\ ATr_i(s1, s2) => ATr_i(s0, s2)` (alone, or restricted
//!   to `query(s2)`). With `Id => ATr_i` and `init(s0) /\ ATr_i(s0, s1) /\ query(s1)`
//!   unsatisfiable, the system is safe.
//!
//! **Certificates.** A counterexample is never taken from the abstraction alone: the step
//! count `k` of a reachable answer is confirmed by plain BMC (`Search::confirm`:
//! `init@0 /\ trans@0..trans@(k-1) /\ query@k`, exactly as `bmc.rs`, falling back to every
//! depth up to `2^(n+1)` if that fails) and its model is the answer `Unsafe { k, vals }`.
//! A safety proof is an inductive invariant over the state variables ([`cert`]): for a right
//! fixpoint, the image of `init` under `ATr_i`, `exists s0. init(s0) /\ ATr_i(s0, s)`; for a
//! left one, the states that cannot reach the query, `not exists s1. ATr_i(s, s1) /\
//! query(s1)`. Each is computed as a disjunction of model-based projections (at most
//! `Config::max_disjuncts`, else the level is skipped) and checked by the engine's solver
//! (`init => Inv`, `Inv /\ trans => Inv'`, `Inv /\ query` unsatisfiable) before it is
//! returned; the validator re-checks it against the original clauses.
//!
//! When the interpolation layer gives no interpolant (every backend unknown or out of
//! time), TPA cannot refine and stops with [`Stop::SolverError`]; when the engine is killed
//! (its solvers' and the interpolator's shared kill switch), with [`Stop::Killed`].

mod cert;
pub mod split;
#[cfg(test)]
mod split_tests;
#[cfg(test)]
mod tests;

use super::{confirm_cex, project_onto, Stop, TsAnswer, TsEngine, Unroller};
use crate::interp::{Backend, Interp, InterpConfig, Interpolator};
use crate::logic::*;
use crate::smt::{KillSwitch, SatResult, Smt, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;
use rustc_hash::FxHashMap;
use std::time::Duration;

/// TPA settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Give up after this level (default 40: `2^41` steps).
    pub max_level: usize,
    /// Limit on one interpolation call of one backend (default 5 s).
    pub interp_timeout: Duration,
    /// Interpolation backends in order of preference (default: [`Backend::ALL`]).
    pub backends: Vec<Backend>,
    /// Most model-based projections collected for one invariant.
    pub max_disjuncts: usize,
    /// Check the invariant before returning it (always, except in the test that shows the
    /// check matters).
    pub certify: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_level: 40,
            interp_timeout: Duration::from_secs(5),
            backends: Backend::ALL.to_vec(),
            max_disjuncts: 64,
            certify: true,
        }
    }
}

/// What the engine counts (`--stats`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Counters {
    /// The level of the last top-level query (it covers `2^(level+1)` steps).
    pub level: usize,
    /// Reachability queries asked (every level, every retry).
    pub queries: u64,
    /// Interpolants received (each strengthens a level).
    pub interpolants: u64,
    /// Transition invariants found (right or left fixpoints).
    pub fixpoints: u64,
    /// Invariants that could not be built (too many projections) or failed their check.
    pub invariants_dropped: u64,
    /// Disjuncts of the projection behind the returned invariant.
    pub invariant_disjuncts: usize,
    /// Length of the counterexample returned.
    pub cex_steps: usize,
}

impl Counters {
    /// The counters as `--stats` rows.
    pub(super) fn rows(&self) -> Vec<(&'static str, crate::engine::Counter)> {
        vec![
            ("level", self.level.into()),
            ("queries", self.queries.into()),
            ("interpolants", self.interpolants.into()),
            ("fixpoints", self.fixpoints.into()),
            ("invariants dropped", self.invariants_dropped.into()),
            ("invariant disjuncts", self.invariant_disjuncts.into()),
            ("cex steps", self.cex_steps.into()),
        ]
    }
}

pub struct Tpa {
    cfg: Config,
    counters: Counters,
    smt: SmtStats,
}

impl Tpa {
    pub fn new(cfg: Config) -> Tpa {
        Tpa {
            cfg,
            counters: Counters::default(),
            smt: SmtStats::default(),
        }
    }

    /// The counters of the last run.
    pub fn counters(&self) -> Counters {
        self.counters
    }
}

/// The answer of a reachability query.
#[derive(Clone, Debug)]
pub(super) enum Reach {
    /// Some states of `to` (`target`, over the state variables) are reached from `from` in
    /// exactly `steps` steps of `trans`.
    Reachable {
        steps: usize,
        target: Term,
    },
    Unreachable,
}

/// One level of the hierarchy.
pub(super) struct Level {
    /// `ATr_n` as conjuncts over the state and next-state variables (level 0 also has
    /// `trans`'s step-local variables). No conjunct: `true`.
    rel: Vec<Term>,
    /// A solver holding `ATr_n@0 /\ ATr_n@1`, started on first use.
    solver: Option<Unroller>,
}

/// The search state shared by both variants: the hierarchy of `Search::reach` (TPA's
/// `ATr_n`, or split TPA's `ATr^=_n`), the checking solver, the interpolator, counters.
pub(super) struct Search<'a> {
    pub(super) ts: &'a TransitionSystem,
    smt_cfg: &'a SolverConfig,
    pub(super) cfg: &'a Config,
    kill: KillSwitch,
    /// `Exact`: level 0 is `trans` and level `n` over-approximates `T^(2^n)` (split TPA);
    /// `UpTo`: level 0 is `Id \/ trans` and level `n` over-approximates `T^(<= 2^n)`.
    powers: Powers,
    pub(super) levels: Vec<Level>,
    /// For the fixpoint checks, projections and invariant checks.
    pub(super) check: Unroller,
    itp: Interpolator,
    pub(super) counters: Counters,
    /// Statistics of solvers already closed (BMC).
    closed: SmtStats,
}

/// What the hierarchy of [`Search::reach`] over-approximates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Powers {
    /// `T^(<= 2^n)` (basic TPA).
    UpTo,
    /// `T^(2^n)` (split TPA's `=` hierarchy).
    Exact,
}

impl<'a> Search<'a> {
    /// A search with level 0 set (`Id \/ trans` or `trans`), its checking solver and its
    /// interpolator.
    pub(super) fn new(
        ts: &'a TransitionSystem,
        smt: &'a SolverConfig,
        cfg: &'a Config,
        powers: Powers,
    ) -> Result<Search<'a>, Stop> {
        let check = Unroller::new(Smt::new(smt, "tpa-check")?);
        let mut icfg = InterpConfig::for_engine(&cfg.backends, smt);
        icfg.timeout = cfg.interp_timeout;
        let itp = Interpolator::new(icfg);
        if itp.backends().is_empty() {
            log::warn!("tpa: no interpolation backend found; it cannot refine");
        }
        let mut s = Search {
            ts,
            smt_cfg: smt,
            cfg,
            kill: smt.kill.clone(),
            powers,
            levels: vec![],
            check,
            itp,
            counters: Counters::default(),
            closed: SmtStats::default(),
        };
        let level0 = match powers {
            Powers::UpTo => mk_or(vec![s.identity(), ts.trans.clone()]),
            Powers::Exact => ts.trans.clone(),
        };
        s.strengthen(0, level0)?;
        Ok(s)
    }

    /// The statistics of every solver the search used.
    pub(super) fn smt_stats(&self) -> SmtStats {
        let mut st = self.closed;
        st += self.check.smt.stats();
        for l in &self.levels {
            if let Some(u) = &l.solver {
                st += u.smt.stats();
            }
        }
        st
    }
}

/// `Stop::Killed` for any failure once the engine is killed.
pub(super) fn killed_or(r: Result<TsAnswer, Stop>, smt: &SolverConfig) -> TsAnswer {
    match r {
        Err(_) if smt.kill.is_killed() => TsAnswer::Unknown(Stop::Killed),
        r => r.unwrap_or_else(TsAnswer::Unknown),
    }
}

impl Search<'_> {
    fn run(&mut self) -> Result<TsAnswer, Stop> {
        for n in 0..=self.cfg.max_level {
            self.counters.level = n;
            super::log_progress("tpa: level", n);
            let (init, query) = (self.ts.init.clone(), self.ts.query.clone());
            match self.reach(&init, &query, n)? {
                Reach::Reachable { steps, .. } => {
                    log::info!("tpa: query reachable in {steps} steps (level {n})");
                    return self.confirm(steps, 1usize << (n + 1));
                }
                Reach::Unreachable => {
                    log::debug!("tpa: safe up to {} steps", 1u128 << (n + 1));
                    if let Some(inv) = self.fixpoint(n + 1)? {
                        return Ok(TsAnswer::Safe(inv));
                    }
                }
            }
        }
        Err(Stop::Bound(self.cfg.max_level))
    }

    /// `Id`: every state variable equals its next-state variable.
    pub(super) fn identity(&self) -> Term {
        mk_and(
            self.ts
                .state
                .iter()
                .zip(&self.ts.next)
                .map(|(s, n)| mk_eq(mk_var_of(s), mk_var_of(n)))
                .collect(),
        )
    }

    pub(super) fn rel(&self, n: usize) -> Term {
        mk_and(self.levels[n].rel.clone())
    }

    /// The solver of level `n`, started with `ATr_n@0 /\ ATr_n@1` when needed.
    fn level_solver(&mut self, n: usize) -> Result<&mut Unroller, Stop> {
        if self.levels[n].solver.is_none() {
            let smt = Smt::new(self.smt_cfg, &format!("tpa-level-{n}"))?;
            let mut u = Unroller::new(smt);
            let r = self.rel(n);
            u.assert_at(self.ts, &r, 0)?;
            u.assert_at(self.ts, &r, 1)?;
            self.levels[n].solver = Some(u);
        }
        Ok(self.levels[n].solver.as_mut().unwrap())
    }

    /// `ATr_n := ATr_n /\ i`.
    pub(super) fn strengthen(&mut self, n: usize, i: Term) -> Result<(), Stop> {
        while self.levels.len() <= n {
            self.levels.push(Level {
                rel: vec![],
                solver: None,
            });
        }
        if let Some(u) = self.levels[n].solver.as_mut() {
            u.assert_at(self.ts, &i, 0)?;
            u.assert_at(self.ts, &i, 1)?;
        }
        self.levels[n].rel.push(i);
        Ok(())
    }

    /// Is `to` reachable from `from` (state formulas, possibly with step-local variables)
    /// in at most `2^(n+1)` steps (exactly `2^(n+1)` for [`Powers::Exact`])? Refines the
    /// levels `<= n + 1` on the way.
    pub(super) fn reach(&mut self, from: &Term, to: &Term, n: usize) -> Result<Reach, Stop> {
        let ts = self.ts;
        let (from0, to2) = (ts.at(from, 0), ts.at(to, 2));
        loop {
            self.counters.queries += 1;
            let u = self.level_solver(n)?;
            u.push()?;
            u.assert(&from0)?;
            u.assert(&to2)?;
            let r = u.check()?;
            let model = if r == SatResult::Sat {
                Some(u.model()?)
            } else {
                None
            };
            u.pop()?;
            let model = match (r, model) {
                (SatResult::Unknown, _) => return Err(Stop::SolverUnknown),
                (SatResult::Unsat, _) | (_, None) => {
                    let i = self.interpolate(n, &from0, &to2)?;
                    self.strengthen(n + 1, i)?;
                    return Ok(Reach::Unreachable);
                }
                (SatResult::Sat, Some(m)) => m,
            };
            if n == 0 {
                return self.real_steps(&from0, &to2, &model);
            }
            let r = self.rel(n);
            let (r01, r12) = (ts.at(&r, 0), ts.at(&r, 1));
            let keep = ts.state_at(1);
            let half1 = project_onto(&[from0.clone(), r01], &model, &keep)?;
            let half2 = project_onto(&[r12, to2.clone()], &model, &keep)?;
            let mid = self.back(&mk_and(vec![half1, half2]), 1);
            let (s1, mid) = match self.reach(from, &mid, n - 1)? {
                Reach::Unreachable => continue,
                Reach::Reachable { steps, target } => (steps, target),
            };
            match self.reach(&mid, to, n - 1)? {
                Reach::Unreachable => continue,
                Reach::Reachable { steps, target } => {
                    return Ok(Reach::Reachable {
                        steps: s1 + steps,
                        target,
                    })
                }
            }
        }
    }

    /// Level 0 with a model of `from@0 /\ (Id \/ trans)@0 /\ (Id \/ trans)@1 /\ to@2`: the
    /// steps the model takes, and the states of `to` reached by exactly those steps. (For
    /// [`Powers::Exact`] level 0 is `trans`: both steps are taken.)
    fn real_steps(&mut self, from0: &Term, to2: &Term, m: &Assignment) -> Result<Reach, Stop> {
        let ts = self.ts;
        let id = self.identity();
        let mut parts = vec![from0.clone(), to2.clone()];
        let mut steps = 0;
        for i in 0..2 {
            let idi = ts.at(&id, i);
            if self.powers == Powers::UpTo && eval_bool(&idi, m) == Ok(true) {
                parts.push(idi);
            } else {
                let tri = ts.at(&ts.trans, i);
                if eval_bool(&tri, m) != Ok(true) {
                    return Err(Stop::SolverError(format!(
                        "tpa: the level-0 model takes neither Id nor trans at step {i}"
                    )));
                }
                parts.push(tri);
                steps += 1;
            }
        }
        let target = project_onto(&parts, m, &ts.state_at(2))?;
        Ok(Reach::Reachable {
            steps,
            target: self.back(&target, 2),
        })
    }

    /// The interpolant of `(ATr_n@0 /\ ATr_n@1, from@0 /\ to@2)`, as a relation over the
    /// state (`@0`) and next-state (`@2`) variables.
    fn interpolate(&mut self, n: usize, from0: &Term, to2: &Term) -> Result<Term, Stop> {
        let ts = self.ts;
        let r = self.rel(n);
        let a = mk_and(vec![ts.at(&r, 0), ts.at(&r, 1)]);
        let b = mk_and(vec![from0.clone(), to2.clone()]);
        self.relation_interpolant(&a, &b, n)
    }

    /// The interpolant of `(a, b)` where `b` is `from@0 /\ to@2`, as a relation over the
    /// state (`@0`) and next-state (`@2`) variables; `n` is the level asked (for messages).
    pub(super) fn relation_interpolant(
        &mut self,
        a: &Term,
        b: &Term,
        n: usize,
    ) -> Result<Term, Stop> {
        let ts = self.ts;
        let i = match self.itp.binary(a, b) {
            Interp::Interpolant(mut is) if is.len() == 1 => is.pop().unwrap(),
            Interp::Interpolant(is) => {
                return Err(Stop::SolverError(format!(
                    "tpa: {} interpolants for a binary query",
                    is.len()
                )))
            }
            Interp::Sat(_) => {
                return Err(Stop::SolverError(format!(
                "tpa: the interpolation layer finds a path at level {n} that the solver does not"
            )))
            }
            Interp::Unknown(why) => {
                if self.kill.is_killed() {
                    return Err(Stop::Killed);
                }
                log::info!("tpa: no interpolant at level {n}: {why}");
                return Err(Stop::SolverError(format!(
                    "tpa: no interpolant at level {n}: {why}"
                )));
            }
        };
        self.counters.interpolants += 1;
        let mut map: FxHashMap<Var, Term> = FxHashMap::default();
        for (s, x) in ts.state.iter().zip(&ts.next) {
            map.insert(ts.at_var(s, 0), mk_var_of(s));
            map.insert(ts.at_var(s, 2), mk_var_of(x));
        }
        for v in free_vars(&i) {
            if !map.contains_key(&v) {
                return Err(Stop::SolverError(format!(
                    "tpa: the interpolant mentions `{}`, not a state variable at step 0 or 2",
                    v.name
                )));
            }
        }
        Ok(subst(&i, &map))
    }

    /// `t` over the state variables at step `i`, renamed to the plain state variables.
    pub(super) fn back(&self, t: &Term, i: usize) -> Term {
        let map: FxHashMap<Var, Term> = self
            .ts
            .state
            .iter()
            .map(|s| (self.ts.at_var(s, i), mk_var_of(s)))
            .collect();
        subst(t, &map)
    }

    /// Confirms a counterexample of `k` steps by BMC (at every depth up to `bound` if `k`
    /// fails, which would be a bug in the step count).
    pub(super) fn confirm(&mut self, k: usize, bound: usize) -> Result<TsAnswer, Stop> {
        let (r, stats) = confirm_cex(self.ts, self.smt_cfg, "tpa", k, bound);
        self.closed += stats;
        if let Ok(TsAnswer::Unsafe { k, .. }) = &r {
            self.counters.cex_steps = *k;
        }
        r
    }
}

impl TsEngine for Tpa {
    fn name(&self) -> &'static str {
        "tpa"
    }

    fn solve(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> TsAnswer {
        self.counters = Counters::default();
        let mut s = match Search::new(ts, smt, &self.cfg, Powers::UpTo) {
            Ok(s) => s,
            Err(e) => return killed_or(Err(e), smt),
        };
        let r = s.run();
        self.counters = s.counters;
        self.smt = s.smt_stats();
        killed_or(r, smt)
    }

    fn stats(&self) -> crate::engine::EngineStats {
        crate::engine::EngineStats::new(self.smt, self.counters.rows())
    }
}
