//! Split transition power abstraction: Blicha, Fedyukovich, Hyvärinen, Sharygina, *Split
//! transition power abstraction for unbounded safety* (LPAR 2023), in the formulation of
//! Golem's `TPASplit`.
//!
//! Two hierarchies of relations over `s, s'`:
//!
//! - `ATr^=_n` over-approximates exactly `T^(2^n)`: level 0 is `trans` (with its step-local
//!   variables), level `n + 1` a conjunction of interpolants that over-approximates
//!   `ATr^=_n o ATr^=_n`. This is the hierarchy of the shared [`Search`] in
//!   [`Powers::Exact`] mode: `Search::reach` is the paper's exact query;
//! - `ATr^<_n` over-approximates `T^(< 2^n)`: level 0 is `Id`, level `n + 1` a conjunction
//!   of interpolants that over-approximates `ATr^<_n \/ (ATr^<_n o ATr^=_n)` (first fewer
//!   than `2^n` steps, then exactly `2^n`: together fewer than `2^(n+1)`). Kept here
//!   (`Split::lt`).
//!
//! The paper's procedures and where they are here:
//!
//! - **The main loop** (Golem's `checkPower`): `Split::run`. At `n = 0, 1, ..` it asks
//!   `init ->* query` in fewer than `2^(n+1)` steps (`Split::reach_less`), then the
//!   less-than fixpoint check (the basic TPA's, on `ATr^<_i`, [`Search::closure_invariant`]);
//!   then in exactly `2^(n+1)` steps (`Search::reach`), then the exact fixpoint check
//!   (`Split::exact_fixpoint`).
//! - **`IsReachable^<(n, from, to)`**: `Split::reach_less`.
//!   `from@0 /\ (ATr^<_n(s0, s2) \/ ATr^<_n(s0, s1) /\ ATr^=_n(s1, s2)) /\ to@2`:
//!   - unsatisfiable: the interpolant of (the two-step relation, `from@0 /\ to@2`)
//!     strengthens `ATr^<_(n+1)`;
//!   - satisfiable by the first disjunct: at level 0 the path has 0 steps; above, the
//!     query is asked again at level `n - 1`;
//!   - satisfiable by the second: at level 0 the path has 1 step; above, the midpoint is
//!     the MBP of both halves onto `s1`; the first half is asked by `reach_less(n - 1)`,
//!     the second by the exact `Search::reach(n - 1)` from the states really reached.
//!     When a half is unreachable its interpolant has strengthened a level-`n` relation,
//!     and the query is asked again.
//! - **The exact fixpoint check** (Golem's `checkExactFixedPoint`): `ATr^=_i` is a
//!   transition invariant when it is transitive, `ATr^=_i(s0, s1) /\ ATr^=_i(s1, s2) =>
//!   ATr^=_i(s0, s2)`, alone, for states reached from `init` by `ATr^<_i`, or for states
//!   that reach `query` by `ATr^<_i`. Then every reachable state is in the image of
//!   `init` under `R_i = ATr^<_i \/ (ATr^<_i o ATr^=_i)`, and the system is safe when
//!   `init(s0) /\ R_i(s0, s2) /\ query(s2)` is unsatisfiable (this is the less-than query of
//!   level `i`: for `i = n + 1` the answer waits for the next round, `Split::pending`).
//!
//! **Certificates.** Counterexamples: the step count is confirmed by plain BMC
//! ([`Search::confirm`]). Safety from `ATr^<_i`: the basic TPA's invariants. Safety from
//! `ATr^=_i` (`Split::equals_invariant`), each candidate checked by the engine's solver
//! before it is returned (`init => Inv`, `Inv /\ trans => Inv'`, `Inv /\ query` unsat):
//! 1. the image `P = exists s0 s1. init(s0) /\ R_i(s0, s)`, by MBP disjunctions;
//! 2. the states that cannot reach the query, `not exists s1 s2. R_i(s, s2) /\ query(s2)`;
//! 3. `P` is in general only `k`-inductive for `k = 2^i` (`P o T^k` lies in `P`; Golem
//!    turns it into an inductive invariant, `kinductiveToInductive`): for `k <=
//!    Config::max_unfold`, `P /\ /\_{0<j<k} not exists s1..sj. P(s0) /\ T(s0, s1) /\ ..
//!    /\ P(s_(j-1)) /\ T(s_(j-1), s_j) /\ not P(s_j)`, the states from which no path of
//!    fewer than `k` steps leaves `P`.
//!
//! When none passes, the fixpoint is counted as dropped and the search goes on.

use super::{killed_or, project_onto, Counters, Powers, Reach, Search};
use crate::engine::{Stop, TsAnswer, TsEngine};
use crate::logic::*;
use crate::smt::{SatResult, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;
use rustc_hash::FxHashSet;

/// Split TPA settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// The settings shared with the basic TPA (levels, interpolation, projections).
    pub tpa: super::Config,
    /// Largest `k = 2^i` for which a `k`-inductive invariant from an exact fixpoint is made
    /// inductive by unrolling (default 4).
    pub max_unfold: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            tpa: super::Config::default(),
            max_unfold: 4,
        }
    }
}

/// Which fixpoint proved the system safe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// `ATr^<_level` is a transition invariant (the basic TPA's check and invariants).
    Less { level: usize },
    /// `ATr^=_level` is transitive; the invariant is the candidate `from`.
    Equals { level: usize, from: Candidate },
}

/// The candidate invariants of an exact fixpoint (module doc, 1 to 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Candidate {
    Image,
    CannotReachQuery,
    Unfolded,
}

pub struct SplitTpa {
    cfg: Config,
    counters: Counters,
    proof: Option<Proof>,
    smt: SmtStats,
}

impl SplitTpa {
    pub fn new(cfg: Config) -> SplitTpa {
        SplitTpa {
            cfg,
            counters: Counters::default(),
            proof: None,
            smt: SmtStats::default(),
        }
    }

    /// The counters of the last run.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// The fixpoint behind the last `Safe` answer.
    pub fn proof(&self) -> Option<Proof> {
        self.proof
    }
}

struct Split<'a> {
    /// The `=` hierarchy, the checking solver, the interpolator and the counters.
    s: Search<'a>,
    /// `ATr^<_n` as conjuncts over `s, s'`; `lt[0]` is `[Id]`.
    lt: Vec<Vec<Term>>,
    /// A level whose `=` relation is a transition invariant, waiting for the less-than
    /// query of its level to be unreachable.
    pending: Option<usize>,
    max_unfold: usize,
    proof: Option<Proof>,
    /// Exact fixpoints whose candidates all failed, as `(i, |ATr^=_i|, |ATr^<_i|)`: not
    /// tried again until a relation of the level is strengthened.
    dropped: FxHashSet<(usize, usize, usize)>,
}

impl Split<'_> {
    fn run(&mut self) -> Result<TsAnswer, Stop> {
        let ts = self.s.ts;
        let (init, query) = (ts.init.clone(), ts.query.clone());
        for n in 0..=self.s.cfg.max_level {
            self.s.counters.level = n;
            crate::engine::log_progress("split-tpa: level", n);
            match self.reach_less(&init, &query, n)? {
                Reach::Reachable { steps, .. } => {
                    log::info!(
                        "split-tpa: query reachable in {steps} steps (< 2^{})",
                        n + 1
                    );
                    return self.s.confirm(steps, 1usize << (n + 1));
                }
                Reach::Unreachable => {
                    log::debug!("split-tpa: safe up to < {} steps", 1u128 << (n + 1));
                    if let Some(i) = self.pending.take() {
                        if let Some(inv) = self.equals_invariant(i)? {
                            return Ok(TsAnswer::Safe(inv));
                        }
                    }
                    if let Some(inv) = self.less_fixpoint(n + 1)? {
                        return Ok(TsAnswer::Safe(inv));
                    }
                }
            }
            match self.s.reach(&init, &query, n)? {
                Reach::Reachable { steps, .. } => {
                    log::info!(
                        "split-tpa: query reachable in {steps} steps (= 2^{})",
                        n + 1
                    );
                    return self.s.confirm(steps, 1usize << (n + 1));
                }
                Reach::Unreachable => {
                    log::debug!("split-tpa: safe up to {} steps", 1u128 << (n + 1));
                    if let Some(inv) = self.exact_fixpoint(n + 1)? {
                        return Ok(TsAnswer::Safe(inv));
                    }
                }
            }
        }
        Err(Stop::Bound(self.s.cfg.max_level))
    }

    /// `ATr^<_n`.
    fn lt_rel(&self, n: usize) -> Term {
        mk_and(self.lt[n].clone())
    }

    /// `ATr^<_n := ATr^<_n /\ i`.
    fn strengthen_lt(&mut self, n: usize, i: Term) {
        while self.lt.len() <= n {
            self.lt.push(vec![]);
        }
        self.lt[n].push(i);
    }

    /// `R_n(s@i, s@(i+2)) = ATr^<_n(s@i, s@(i+2)) \/ ATr^<_n(s@i, s@(i+1)) /\
    /// ATr^=_n(s@(i+1), s@(i+2))`, as its two disjuncts.
    fn two_step(&self, n: usize, i: usize) -> (Term, Term) {
        let ts = self.s.ts;
        let l = self.lt_rel(n);
        let direct = self.s.between(&l, i, i + 2);
        // ATr^=_0 is trans with step-local variables: `at` moves those to step i + 1
        let via = mk_and(vec![
            self.s.between(&l, i, i + 1),
            ts.at(&self.s.rel(n), i + 1),
        ]);
        (direct, via)
    }

    /// A model of `q` from the checking solver, `None` when unsatisfiable.
    fn model_of(&mut self, q: &Term) -> Result<Option<Assignment>, Stop> {
        let u = &mut self.s.check;
        u.push()?;
        let r = (|| {
            u.assert(q)?;
            match u.check()? {
                SatResult::Sat => Ok(Some(u.model()?)),
                SatResult::Unsat => Ok(None),
                SatResult::Unknown => Err(Stop::SolverUnknown),
            }
        })();
        u.pop()?;
        r
    }

    /// Is `to` reachable from `from` (state formulas, possibly with step-local variables)
    /// in fewer than `2^(n+1)` steps? Refines `ATr^<` and `ATr^=` at levels `<= n + 1`.
    fn reach_less(&mut self, from: &Term, to: &Term, n: usize) -> Result<Reach, Stop> {
        let ts = self.s.ts;
        let (from0, to2) = (ts.at(from, 0), ts.at(to, 2));
        loop {
            self.s.counters.queries += 1;
            let (direct, via) = self.two_step(n, 0);
            let two = mk_or(vec![direct.clone(), via.clone()]);
            let q = mk_and(vec![from0.clone(), two.clone(), to2.clone()]);
            let Some(m) = self.model_of(&q)? else {
                let b = mk_and(vec![from0.clone(), to2.clone()]);
                let i = self.s.relation_interpolant(&two, &b, n)?;
                self.strengthen_lt(n + 1, i);
                return Ok(Reach::Unreachable);
            };
            if eval_bool(&direct, &m) == Ok(true) {
                if n == 0 {
                    // Id: the states of `from /\ to`, 0 steps
                    return self.reached(&[from0, direct, to2], &m, 0);
                }
                match self.reach_less(from, to, n - 1)? {
                    Reach::Unreachable => continue,
                    r => return Ok(r),
                }
            }
            if n == 0 {
                // Id, then trans: 1 step
                return self.reached(&[from0, via, to2], &m, 1);
            }
            let keep = ts.state_at(1);
            let l01 = self.s.between(&self.lt_rel(n), 0, 1);
            let e12 = ts.at(&self.s.rel(n), 1);
            let half1 = project_onto(&[from0.clone(), l01], &m, &keep)?;
            let half2 = project_onto(&[e12, to2.clone()], &m, &keep)?;
            let mid = self.s.back(&mk_and(vec![half1, half2]), 1);
            let (s1, mid) = match self.reach_less(from, &mid, n - 1)? {
                Reach::Unreachable => continue,
                Reach::Reachable { steps, target } => (steps, target),
            };
            match self.s.reach(&mid, to, n - 1)? {
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

    /// Level 0: the states at step 2 of the exact path `/\ parts` that `m` satisfies.
    fn reached(&self, parts: &[Term], m: &Assignment, steps: usize) -> Result<Reach, Stop> {
        let target = project_onto(parts, m, &self.s.ts.state_at(2))?;
        Ok(Reach::Reachable {
            steps,
            target: self.s.back(&target, 2),
        })
    }

    /// The less-than fixpoint check: is some `ATr^<_i`, `1 <= i <= top`, a transition
    /// invariant that makes the system safe?
    fn less_fixpoint(&mut self, top: usize) -> Result<Option<Term>, Stop> {
        for i in 1..=top.min(self.lt.len() - 1) {
            let r = self.lt_rel(i);
            if let Some(inv) = self.s.closure_invariant(&r, i)? {
                self.proof = Some(Proof::Less { level: i });
                return Ok(Some(inv));
            }
        }
        Ok(None)
    }

    /// The exact fixpoint check on the levels `1..=top`.
    fn exact_fixpoint(&mut self, top: usize) -> Result<Option<Term>, Stop> {
        let ts = self.s.ts;
        for i in 1..=top.min(self.s.levels.len() - 1).min(self.lt.len() - 1) {
            let key = (i, self.s.levels[i].rel.len(), self.lt[i].len());
            if self.dropped.contains(&key) {
                continue;
            }
            let (e, l) = (self.s.rel(i), self.lt_rel(i));
            let s = &self.s;
            // ATr^=_i(s0, s1) /\ ATr^=_i(s1, s2) /\ not ATr^=_i(s0, s2)
            let step = mk_and(vec![
                s.between(&e, 0, 1),
                s.between(&e, 1, 2),
                mk_not(s.between(&e, 0, 2)),
            ]);
            // ... from states reached by ATr^<_i: init(s3) /\ ATr^<_i(s3, s0)
            let from_init = mk_and(vec![ts.at(&ts.init, 3), s.between(&l, 3, 0)]);
            // ... to states that reach the query by ATr^<_i: ATr^<_i(s2, s3) /\ query(s3)
            let to_query = mk_and(vec![s.between(&l, 2, 3), ts.at(&ts.query, 3)]);
            let transitive = self.s.unsat(&step)?
                || self.s.unsat(&mk_and(vec![step.clone(), from_init]))?
                || self.s.unsat(&mk_and(vec![step, to_query]))?;
            if !transitive {
                continue;
            }
            log::debug!("split-tpa: level {i} of the = hierarchy is a transition invariant");
            self.s.counters.fixpoints += 1;
            if let Some(inv) = self.equals_invariant(i)? {
                return Ok(Some(inv));
            }
            if self.pending != Some(i) {
                self.dropped.insert(key);
            }
        }
        Ok(None)
    }

    /// The inductive invariant of a transitive `ATr^=_i` (see the module doc), checked;
    /// `None` when the less-than query of level `i` is not yet known unreachable (then the
    /// level is pending) or no candidate passes.
    fn equals_invariant(&mut self, i: usize) -> Result<Option<Term>, Stop> {
        let ts = self.s.ts;
        let (direct, via) = self.two_step(i, 0);
        let r = mk_or(vec![direct, via]);
        let init0 = ts.at(&ts.init, 0);
        let query2 = ts.at(&ts.query, 2);
        if !self
            .s
            .unsat(&mk_and(vec![init0.clone(), r.clone(), query2.clone()]))?
        {
            log::debug!("split-tpa: level {i} waits for its less-than query");
            self.pending = Some(i);
            return Ok(None);
        }
        // 1. exists s0 s1. init(s0) /\ R_i(s0, s2), over s2
        let image = self.s.image(&mk_and(vec![init0, r.clone()]), 2)?;
        if let Some(p) = &image {
            if self.s.certify(p)? {
                log::info!("split-tpa: safe: = fixpoint at level {i}, image of init");
                return Ok(Some(self.proved(i, Candidate::Image, p.clone())));
            }
        }
        // 2. not exists s1 s2. R_i(s0, s2) /\ query(s2), over s0
        if let Some(pre) = self.s.image(&mk_and(vec![r, query2]), 0)? {
            let inv = mk_not(pre);
            if self.s.certify(&inv)? {
                log::info!(
                    "split-tpa: safe: = fixpoint at level {i}, states that cannot reach the query"
                );
                return Ok(Some(self.proved(i, Candidate::CannotReachQuery, inv)));
            }
        }
        // 3. the image made inductive by unrolling 2^i steps
        let k = 1usize.checked_shl(i as u32).unwrap_or(usize::MAX);
        if let (Some(p), true) = (image, k <= self.max_unfold) {
            if let Some(inv) = self.unfold(&p, k)? {
                if self.s.certify(&inv)? {
                    log::info!("split-tpa: safe: = fixpoint at level {i}, {k}-inductive image");
                    return Ok(Some(self.proved(i, Candidate::Unfolded, inv)));
                }
            }
        }
        log::info!("split-tpa: = fixpoint at level {i}: no candidate invariant passes its check");
        self.s.counters.invariants_dropped += 1;
        Ok(None)
    }

    fn proved(&mut self, level: usize, from: Candidate, inv: Term) -> Term {
        self.proof = Some(Proof::Equals { level, from });
        inv
    }

    /// For a `k`-inductive `p`: `p /\ /\_{0<j<k} not exists s1..sj. p(s0) /\ T(s0, s1) /\ ..
    /// /\ p(s_(j-1)) /\ T(s_(j-1), s_j) /\ not p(s_j)`, over `s0`; `None` when a projection
    /// needs too many disjuncts.
    fn unfold(&mut self, p: &Term, k: usize) -> Result<Option<Term>, Stop> {
        let ts = self.s.ts;
        let mut parts = vec![p.clone()];
        let mut path = vec![];
        for j in 1..k {
            path.push(ts.at(p, j - 1));
            path.push(ts.at(&ts.trans, j - 1));
            let mut phi = path.clone();
            phi.push(mk_not(ts.at(p, j)));
            let Some(leaves) = self.s.image(&mk_and(phi), 0)? else {
                return Ok(None);
            };
            parts.push(mk_not(leaves));
        }
        Ok(Some(mk_and(parts)))
    }
}

/// The exact fixpoint check of level 1 with planted `ATr^=_1` and `ATr^<_1` (over `s, s'`),
/// after both level-0 queries found the query unreachable: the invariant and its proof.
#[cfg(test)]
pub(super) fn exact_fixpoint_with(
    ts: &TransitionSystem,
    smt: &SolverConfig,
    eq1: Term,
    lt1: Term,
    max_unfold: usize,
) -> Result<Option<(Term, Proof)>, Stop> {
    let cfg = super::Config::default();
    let mut sp = Split {
        s: Search::new(ts, smt, &cfg, Powers::Exact)?,
        lt: vec![vec![]],
        pending: None,
        max_unfold,
        proof: None,
        dropped: FxHashSet::default(),
    };
    let id = sp.s.identity();
    sp.strengthen_lt(0, id);
    sp.strengthen_lt(1, lt1);
    sp.s.strengthen(1, eq1)?;
    let inv = sp.exact_fixpoint(1)?;
    Ok(inv.map(|i| (i, sp.proof.unwrap())))
}

impl TsEngine for SplitTpa {
    fn name(&self) -> &'static str {
        "split-tpa"
    }

    fn solve(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> TsAnswer {
        self.counters = Counters::default();
        self.proof = None;
        let s = match Search::new(ts, smt, &self.cfg.tpa, Powers::Exact) {
            Ok(s) => s,
            Err(e) => return killed_or(Err(e), smt),
        };
        let mut sp = Split {
            s,
            lt: vec![vec![]],
            pending: None,
            max_unfold: self.cfg.max_unfold,
            proof: None,
            dropped: FxHashSet::default(),
        };
        let id = sp.s.identity();
        sp.strengthen_lt(0, id);
        let r = sp.run();
        self.counters = sp.s.counters;
        self.proof = sp.proof;
        self.smt = sp.s.smt_stats();
        killed_or(r, smt)
    }

    fn stats(&self) -> crate::engine::EngineStats {
        let mut rows = self.counters.rows();
        if let Some(p) = self.proof {
            rows.push(("proof", format!("{p:?}").into()));
        }
        crate::engine::EngineStats::new(self.smt, rows)
    }
}
