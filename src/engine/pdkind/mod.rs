//! Property-directed k-induction (PDKind): Jovanović and Dutertre, *Property-directed
//! k-induction* (FMCAD 2016), in the formulation of Golem's PDKind engine. IC3 split in two:
//! an induction frame proved k-inductive, and a reachability checker that answers with
//! interpolants.
//!
//! The paper's procedures and where they are here:
//!
//! - **The main loop** (`PD-KIND`): `Search::run`. The induction frame `F` is a list of
//!   obligations `(lemma, cex)`: each lemma holds in every state reachable within `n` steps,
//!   and `cex` is a set of states that reach the query in exactly `steps` steps. It starts as
//!   `[(not query, query)]` with `n = 0`. Each round pushes with `k = n + 1` (Golem's choice
//!   among `1 <= k <= n + 1`): a counterexample ends the search, a frame that push leaves
//!   unchanged is a k-inductive invariant, else the round continues with the new frame and
//!   the new `n`.
//! - **`push(F, n, k)`**: `Search::push`. For each obligation `(f, cex)` of a queue:
//!   - induction: `F@0 /\ .. /\ F@(k-1) /\ trans@0..trans@(k-1) /\ not f@k` unsatisfiable
//!     means `f` is k-inductive relative to `F`: it joins the new frame;
//!   - else, if `cex@k` is reachable in the same way, its predecessors `g_cex` (the model-based
//!     projection of `trans^k /\ cex@k` onto step 0) reach the query in `steps + k` steps; if
//!     the reachability checker reaches them within `n` steps, the system is unsafe; else its
//!     explanation `e` blocks them: `(e, g_cex)` joins `F` and the queue, and `(f, cex)` is
//!     asked again;
//!   - else the counterexample to induction `g_cti` (the projection of `trans^k /\ not f@k`)
//!     is asked to the reachability checker: unreachable within `n` steps, its explanation
//!     strengthens `f` (`(f /\ e, cex)` replaces `(f, cex)` and is asked again); reachable,
//!     `f` fails at some depth `> n`, which bounds the new `n`, and the weaker `(not cex, cex)`
//!     joins both frames.
//! - **`reachable(k, g)`** ([`reach`]): the reachability frames `R_i`, refined by the
//!   interpolants of [`Interpolator::binary`] (checked by the interpolation layer). One
//!   deviation from Golem: push asks `reachable(n, g)` once instead of every bound
//!   `n - k + 1 ..= n` in turn; the frames over-approximate the states reachable *within*
//!   `i` steps, so one query at `n` covers them all, and a reached state comes with the real
//!   length of its path.
//!
//! **Certificates.** The fixpoint `F` is k-inductive; [`kinductive`] turns it into an
//! inductive invariant over the state variables (`Search::invariant`: by model-based
//! projection, [`kinductive::by_projection`], when that needs few disjuncts, else by
//! interpolation, [`kinductive::to_inductive`]), and `Search::certify`
//! checks the three conditions (`init => Inv`, `Inv /\ trans => Inv'`, `Inv /\ query`
//! unsatisfiable) with the engine's solver before it is returned; a failed check is logged
//! as an error and the answer is unknown. A counterexample of `m` steps is never taken from
//! the frames alone: `Search::confirm` runs plain BMC at depth `m` (as `bmc.rs`; every depth
//! up to `m` if that fails) and answers with its model.
//!
//! A query with step-local variables is first made a formula over the state variables,
//! `exists locals. query`, by substitution or by a disjunction of model-based projections
//! (`state_query`); the lemmas and counterexamples are then all over the state variables.
//! When the interpolation layer gives no interpolant, the explanation of an unreachable `g`
//! is `not g` (counted as `interp unknown`); when the engine is killed, it stops with
//! [`Stop::Killed`].

mod reach;
#[cfg(test)]
mod tests;

use super::{
    confirm_cex, kinductive, log_progress, project_onto, Stop, TsAnswer, TsEngine, Unroller,
};
use crate::interp::{Backend, InterpConfig, Interpolator};
use crate::logic::*;
use crate::smt::{KillSwitch, SatResult, Smt, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;
use reach::{Reach, Reachability};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::time::Duration;

/// PDKind settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Give up when the induction depth `k` would pass this (default: none, run until killed).
    pub max_k: Option<usize>,
    /// Limit on one interpolation call of one backend (default 3 s).
    pub interp_timeout: Duration,
    /// Interpolation backends in order of preference (default: yices, SMTInterpol, own).
    /// Not [`Backend::ALL`]'s order: `own` projects `A` exactly, an interpolant as strong as
    /// the image itself, and the reachability frames then enumerate states (on
    /// `bench-chc/`, 64 solved with `own` first, 66 with this order).
    pub backends: Vec<Backend>,
    /// Most model-based projections for `exists locals. query` (default 64).
    pub max_query_disjuncts: usize,
    /// Most model-based projections for the invariant built from a k-inductive fixpoint
    /// before interpolation is used instead (default 64).
    pub max_invariant_disjuncts: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_k: None,
            interp_timeout: Duration::from_secs(3),
            backends: vec![Backend::Yices, Backend::SmtInterpol, Backend::Own],
            max_query_disjuncts: 64,
            max_invariant_disjuncts: 64,
        }
    }
}

/// What the engine counts (`--stats`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Counters {
    /// The frame's validity bound `n` in the last round.
    pub n: usize,
    /// The induction depth of the last push.
    pub k: usize,
    /// Push rounds.
    pub pushes: u64,
    /// Obligations taken from the queue.
    pub obligations: u64,
    /// Counterexamples to induction blocked by strengthening a lemma.
    pub strengthened: u64,
    /// Counterexample predecessors blocked by a new lemma.
    pub blocked: u64,
    /// Lemmas weakened to `not cex`.
    pub weakened: u64,
    /// Reachability queries (every level, every retry).
    pub reach_queries: u64,
    /// Interpolants received by the reachability checker.
    pub interpolants: u64,
    /// Reachability explanations without an interpolant (`not g` instead).
    pub interp_unknown: u64,
    /// Obligations in the last frame.
    pub frame_size: usize,
    /// Lemmas in the reachability frames.
    pub reach_lemmas: usize,
    /// Length of the counterexample returned.
    pub cex_steps: usize,
    /// How the k-inductive fixpoint became inductive (`projection`, `interpolation`).
    pub invariant_by: &'static str,
}

pub struct Pdkind {
    cfg: Config,
    counters: Counters,
    smt: SmtStats,
}

impl Pdkind {
    pub fn new(cfg: Config) -> Pdkind {
        Pdkind {
            cfg,
            counters: Counters::default(),
            smt: SmtStats::default(),
        }
    }

    /// The counters of the last run.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    fn run(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> Result<TsAnswer, Stop> {
        let mut ind = Unroller::new(Smt::new(smt, "pdkind-ind")?);
        let query = match state_query(ts, &mut ind, self.cfg.max_query_disjuncts) {
            Ok(q) => q,
            Err(e) => {
                self.smt = ind.smt.stats();
                return Err(e);
            }
        };
        let reach = match Smt::new(smt, "pdkind-reach") {
            Ok(s) => s,
            Err(e) => {
                self.smt = ind.smt.stats();
                return Err(e.into());
            }
        };
        let mut icfg = InterpConfig::for_engine(&self.cfg.backends, smt);
        icfg.timeout = self.cfg.interp_timeout;
        let itp = Interpolator::new(icfg);
        if itp.backends().is_empty() {
            log::warn!("pdkind: no interpolation backend found; explanations are `not g`");
        }
        let sts = TransitionSystem {
            query,
            ..ts.clone()
        };
        let mut s = Search {
            ts: &sts,
            orig: ts,
            cfg: &self.cfg,
            smt_cfg: smt,
            counters: Counters::default(),
            ind,
            reach: Reachability::new(&sts, Unroller::new(reach)),
            itp,
            closed: SmtStats::default(),
        };
        let r = s.run();
        self.counters = s.counters;
        self.counters.reach_lemmas = s.reach.lemma_count();
        self.smt = s.ind.smt.stats();
        self.smt += s.reach.smt_stats();
        self.smt += s.closed;
        r
    }
}

/// An element of the induction frame.
#[derive(Clone, Debug)]
struct Obligation {
    /// Holds in every state reachable within `n` steps.
    lemma: Term,
    /// States that reach the query in exactly `steps` steps; the lemma excludes them.
    cex: Term,
    steps: usize,
}

impl PartialEq for Obligation {
    fn eq(&self, o: &Obligation) -> bool {
        self.lemma == o.lemma && self.cex == o.cex
    }
}

/// What one push found.
enum Pushed {
    /// The query is reached in this many steps (to be confirmed).
    Unsafe(usize),
    /// Every obligation was k-inductive relative to the frame: a fixpoint.
    Fixpoint,
    /// The new frame, valid up to the new `n`.
    Next(Vec<Obligation>, usize),
}

/// One run: the system (its query over the state variables), its solvers and counters.
struct Search<'a> {
    /// The system the search works on: `query` over the state variables.
    ts: &'a TransitionSystem,
    /// The system as given (certificates are checked against it).
    orig: &'a TransitionSystem,
    cfg: &'a Config,
    smt_cfg: &'a SolverConfig,
    counters: Counters,
    /// k-induction queries and the final checks.
    ind: Unroller,
    reach: Reachability<'a>,
    itp: Interpolator,
    /// Statistics of the solvers already closed (BMC confirmation).
    closed: SmtStats,
}

impl Search<'_> {
    fn kill(&self) -> &KillSwitch {
        &self.smt_cfg.kill
    }

    /// The main loop of PD-KIND.
    fn run(&mut self) -> Result<TsAnswer, Stop> {
        let ts = self.ts;
        if self.unsat(&ts.init)? {
            log::info!("pdkind: no initial state");
            return self.safe(mk_false());
        }
        if !self.unsat(&mk_and(vec![ts.init.clone(), ts.query.clone()]))? {
            return self.confirm(0);
        }
        let mut n = 0;
        let mut frame = vec![Obligation {
            lemma: mk_not(ts.query.clone()),
            cex: ts.query.clone(),
            steps: 0,
        }];
        loop {
            let k = n + 1;
            if self.cfg.max_k.is_some_and(|m| k > m) {
                return Err(Stop::Bound(n));
            }
            self.counters.n = n;
            self.counters.k = k;
            self.counters.pushes += 1;
            log_progress("pdkind: k =", k);
            match self.push(&mut frame, n, k)? {
                Pushed::Unsafe(steps) => return self.confirm(steps),
                Pushed::Fixpoint => {
                    self.counters.frame_size = frame.len();
                    let f = mk_and(frame.into_iter().map(|o| o.lemma).collect());
                    log::info!("pdkind: fixpoint at n = {n}, k = {k}");
                    let inv = self.invariant(&f, k)?;
                    return self.safe(inv);
                }
                Pushed::Next(f, np) => {
                    self.counters.frame_size = f.len();
                    frame = f;
                    n = np;
                }
            }
        }
    }

    /// An inductive invariant from the k-inductive `f`: by projection (at most
    /// `max_invariant_disjuncts`), else by interpolation.
    fn invariant(&mut self, f: &Term, k: usize) -> Result<Term, Stop> {
        let max = self.cfg.max_invariant_disjuncts;
        if let Some(inv) = kinductive::by_projection(self.ts, f, k, &mut self.ind, max)? {
            self.counters.invariant_by = "projection";
            return Ok(inv);
        }
        log::info!("pdkind: k-to-1 induction needs more than {max} projections; interpolating");
        let kill = self.smt_cfg.kill.clone();
        let inv = kinductive::to_inductive(self.ts, f, k, &mut self.itp, &kill)?;
        self.counters.invariant_by = "interpolation";
        Ok(inv)
    }

    /// `push(F, n, k)` (see the module documentation), on the induction solver with
    /// `trans@0..trans@(k-1)` asserted for the whole round.
    fn push(&mut self, frame: &mut Vec<Obligation>, n: usize, k: usize) -> Result<Pushed, Stop> {
        let ts = self.ts;
        self.ind.push()?;
        for i in 0..k {
            self.ind.assert_at(ts, &ts.trans, i)?;
        }
        let r = self.push_in(frame, n, k);
        self.ind.pop()?;
        r
    }

    fn push_in(&mut self, frame: &mut Vec<Obligation>, n: usize, k: usize) -> Result<Pushed, Stop> {
        let ts = self.ts;
        let mut queue: VecDeque<Obligation> = frame.iter().cloned().collect();
        let mut next: Vec<Obligation> = vec![];
        let mut np = n + k;
        let state0 = ts.state_at(0);
        let back0: FxHashMap<Var, Term> = state0
            .iter()
            .zip(&ts.state)
            .map(|(a, s)| (a.clone(), mk_var_of(s)))
            .collect();
        let trans_k: Vec<Term> = (0..k).map(|i| ts.at(&ts.trans, i)).collect();
        while let Some(ob) = queue.pop_front() {
            if self.kill().is_killed() {
                return Err(Stop::Killed);
            }
            self.counters.obligations += 1;
            let f_abs = mk_and(frame.iter().map(|o| o.lemma.clone()).collect());
            let not_f = mk_not(ob.lemma.clone());
            let not_f_k = ts.at(&not_f, k);
            let cex_k = ts.at(&ob.cex, k);
            // F@0 /\ .. /\ F@(k-1) /\ trans^k, then not f@k, then cex@k
            self.ind.push()?;
            let r = (|| {
                for i in 0..k {
                    self.ind.assert(&ts.at(&f_abs, i))?;
                }
                let Some(cti) = self.model_with(&not_f_k)? else {
                    return Ok(None);
                };
                let cex = self.model_with(&cex_k)?;
                Ok::<_, Stop>(Some((cti, cex)))
            })();
            self.ind.pop()?;
            let Some((cti, cex)) = r? else {
                // f is k-inductive relative to F
                if !next.contains(&ob) {
                    next.push(ob);
                }
                continue;
            };
            if let Some(m) = cex {
                // predecessors of cex, k steps back: they reach the query in steps + k
                let mut phi = trans_k.clone();
                phi.push(cex_k);
                let g_cex = subst(&project_onto(&phi, &m, &state0)?, &back0);
                let steps = ob.steps + k;
                match self.reachable(n, &g_cex)? {
                    Reach::Reachable(i) => return Ok(Pushed::Unsafe(i + steps)),
                    Reach::Unreachable(e) => {
                        self.counters.blocked += 1;
                        let new = Obligation {
                            lemma: e,
                            cex: g_cex,
                            steps,
                        };
                        if !frame.contains(&new) {
                            frame.push(new.clone());
                        }
                        queue.push_back(new);
                        queue.push_back(ob);
                    }
                }
                continue;
            }
            // the counterexample to induction
            let mut phi = trans_k.clone();
            phi.push(not_f_k);
            let g_cti = subst(&project_onto(&phi, &cti, &state0)?, &back0);
            match self.reachable(n, &g_cti)? {
                Reach::Reachable(i) => {
                    // not f is reached in i + k > n steps: f is valid only below that
                    let kill = self.smt_cfg.kill.clone();
                    let r = self.reach.range(
                        n + 1,
                        i + k,
                        &not_f,
                        &mut self.itp,
                        &kill,
                        &mut self.counters,
                    )?;
                    let Reach::Reachable(s) = r else {
                        return Err(Stop::SolverError(format!(
                            "pdkind: `not f` is reached in {} steps, then not within them",
                            i + k
                        )));
                    };
                    np = np.min(s);
                    self.counters.weakened += 1;
                    let new = Obligation {
                        lemma: mk_not(ob.cex.clone()),
                        cex: ob.cex.clone(),
                        steps: ob.steps,
                    };
                    if !frame.contains(&new) {
                        frame.push(new.clone());
                    }
                    if !next.contains(&new) {
                        next.push(new);
                    }
                }
                Reach::Unreachable(e) => {
                    self.counters.strengthened += 1;
                    let new = Obligation {
                        lemma: mk_and(vec![ob.lemma.clone(), e]),
                        cex: ob.cex.clone(),
                        steps: ob.steps,
                    };
                    frame.retain(|o| *o != ob);
                    if !frame.contains(&new) {
                        frame.push(new.clone());
                    }
                    queue.push_back(new);
                }
            }
        }
        if frame.len() == next.len() && frame.iter().all(|o| next.contains(o)) {
            return Ok(Pushed::Fixpoint);
        }
        Ok(Pushed::Next(next, np))
    }

    /// `reachable(n, g)` of the reachability checker.
    fn reachable(&mut self, n: usize, g: &Term) -> Result<Reach, Stop> {
        let kill = self.smt_cfg.kill.clone();
        self.reach
            .reachable(n, g, &mut self.itp, &kill, &mut self.counters)
    }

    /// A model of the induction solver's assertions and `t` (popped again), if any.
    fn model_with(&mut self, t: &Term) -> Result<Option<Assignment>, Stop> {
        let u = &mut self.ind;
        u.push()?;
        let r = (|| {
            u.assert(t)?;
            match u.check()? {
                SatResult::Sat => Ok(Some(u.model()?)),
                SatResult::Unsat => Ok(None),
                SatResult::Unknown => Err(Stop::SolverUnknown),
            }
        })();
        u.pop()?;
        r
    }

    /// Is `q` unsatisfiable, in the induction solver? (`unknown` is an error.)
    fn unsat(&mut self, q: &Term) -> Result<bool, Stop> {
        Ok(self.model_with(q)?.is_none())
    }

    /// `Safe(inv)` when `inv` passes its check, else unknown (a bug, logged).
    fn safe(&mut self, inv: Term) -> Result<TsAnswer, Stop> {
        self.certify(&inv)?;
        Ok(TsAnswer::Safe(inv))
    }

    /// The three conditions of an inductive invariant excluding the query, on the system as
    /// given: `init => inv`, `inv /\ trans => inv'`, `inv /\ query` unsatisfiable.
    fn certify(&mut self, inv: &Term) -> Result<(), Stop> {
        let ts = self.orig;
        if let Some(v) = free_vars(inv).iter().find(|v| !ts.state.contains(v)) {
            log::error!("pdkind: the invariant mentions `{}` (a bug)", v.name);
            return Err(Stop::SolverError(format!(
                "pdkind: the invariant mentions `{}`",
                v.name
            )));
        }
        let conditions = [
            (
                "init => Inv",
                mk_and(vec![ts.init.clone(), mk_not(inv.clone())]),
            ),
            (
                "Inv /\\ trans => Inv'",
                mk_and(vec![inv.clone(), ts.trans.clone(), mk_not(ts.prime(inv))]),
            ),
            (
                "Inv /\\ query => false",
                mk_and(vec![inv.clone(), ts.query.clone()]),
            ),
        ];
        for (what, q) in conditions {
            if !self.unsat(&q)? {
                log::error!("pdkind: the invariant fails its check `{what}` (a bug)");
                return Err(Stop::SolverError(format!(
                    "pdkind: the invariant fails its check `{what}`"
                )));
            }
        }
        Ok(())
    }

    /// Plain BMC at depth `m` on the system as given, `init@0 /\ trans@0..trans@(m-1) /\
    /// query@m`, and its model; every depth up to `m` if that fails.
    fn confirm(&mut self, m: usize) -> Result<TsAnswer, Stop> {
        let (r, stats) = confirm_cex(self.orig, self.smt_cfg, "pdkind", m, m);
        self.closed += stats;
        if let Ok(TsAnswer::Unsafe { k, .. }) = &r {
            self.counters.cex_steps = *k;
        }
        r
    }
}

/// `exists locals. query` over the state variables, quantifier-free: the query itself
/// without locals, else with its defined locals substituted, else the disjunction of the
/// model-based projections of the query onto the state variables (at most `max` of them,
/// enumerated in `u`; exact, since the projection is). `Unsupported` past `max`.
fn state_query(ts: &TransitionSystem, u: &mut Unroller, max: usize) -> Result<Term, Stop> {
    let locals: Vec<Var> = free_vars(&ts.query)
        .into_iter()
        .filter(|v| !ts.state.contains(v))
        .collect();
    if locals.is_empty() {
        return Ok(ts.query.clone());
    }
    let closed = mk_exists_elim(locals, ts.query.clone());
    if !matches!(closed.get(), TermNode::Exists(..)) {
        return Ok(closed);
    }
    u.push()?;
    let r = (|| {
        u.assert(&ts.query)?;
        let mut ds = vec![];
        loop {
            match u.check()? {
                SatResult::Unsat => return Ok(mk_or(ds)),
                SatResult::Unknown => return Err(Stop::SolverUnknown),
                SatResult::Sat => {}
            }
            if ds.len() == max {
                return Err(Stop::Unsupported(format!(
                    "pdkind: the query's locals need more than {max} projections"
                )));
            }
            let m = u.model()?;
            let psi = project_onto(std::slice::from_ref(&ts.query), &m, &ts.state)?;
            u.assert(&mk_not(psi.clone()))?;
            ds.push(psi);
        }
    })();
    u.pop()?;
    r
}

impl TsEngine for Pdkind {
    fn name(&self) -> &'static str {
        "pdkind"
    }

    fn solve(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> TsAnswer {
        self.counters = Counters::default();
        self.run(ts, smt).unwrap_or_else(TsAnswer::Unknown)
    }

    fn stats(&self) -> crate::engine::EngineStats {
        let c = &self.counters;
        crate::engine::EngineStats::new(
            self.smt,
            vec![
                ("n", c.n.into()),
                ("k", c.k.into()),
                ("pushes", c.pushes.into()),
                ("obligations", c.obligations.into()),
                ("strengthened", c.strengthened.into()),
                ("blocked", c.blocked.into()),
                ("weakened", c.weakened.into()),
                ("reach queries", c.reach_queries.into()),
                ("interpolants", c.interpolants.into()),
                ("interp unknown", c.interp_unknown.into()),
                ("frame size", c.frame_size.into()),
                ("reach lemmas", c.reach_lemmas.into()),
                ("cex steps", c.cex_steps.into()),
                ("invariant by", c.invariant_by.into()),
            ],
        )
    }
}
