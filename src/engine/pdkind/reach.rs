//! PDKind's reachability checker (the paper's `reachable`, Golem's `ReachabilityChecker`):
//! frames `R_0, R_1, ..` where `R_i` over-approximates the states reachable within `i`
//! steps, refined by interpolants, answering "is `g` reachable within `k` steps?" with a
//! real path length or an explanation.

use super::{Counters, Stop};
use crate::engine::project_onto;
use crate::engine::Unroller;
use crate::interp::{Interp, Interpolator};
use crate::logic::*;
use crate::smt::{KillSwitch, SatResult, SmtStats};
use crate::ts::TransitionSystem;
use rustc_hash::FxHashMap;

/// The answer of [`Reachability::reachable`].
#[derive(Clone, Debug)]
pub(super) enum Reach {
    /// Some state of `g` is reached from an initial state in exactly this many steps.
    Reachable(usize),
    /// An explanation `E` over the state variables: it holds in every state reachable within
    /// `k` steps, and `E /\ g` is unsatisfiable.
    Unreachable(Term),
}

pub(super) struct Reachability<'a> {
    ts: &'a TransitionSystem,
    /// `lemmas[i]`: formulas over the state variables that hold in every state reachable
    /// within `i` steps. `R_i` is the conjunction of the lemmas of levels `i, i+1, ..`.
    lemmas: Vec<Vec<Term>>,
    solver: Unroller,
    /// State variables at step 1 back to the plain state variables.
    back1: FxHashMap<Var, Term>,
    back0: FxHashMap<Var, Term>,
}

impl<'a> Reachability<'a> {
    pub(super) fn new(ts: &'a TransitionSystem, solver: Unroller) -> Reachability<'a> {
        let back = |i: usize| {
            ts.state
                .iter()
                .map(|v| (ts.at_var(v, i), mk_var_of(v)))
                .collect()
        };
        Reachability {
            ts,
            lemmas: vec![],
            solver,
            back1: back(1),
            back0: back(0),
        }
    }

    pub(super) fn smt_stats(&self) -> SmtStats {
        self.solver.smt.stats()
    }

    /// Lemmas in all frames.
    pub(super) fn lemma_count(&self) -> usize {
        self.lemmas.iter().map(Vec::len).sum()
    }

    fn frame(&self, i: usize) -> Term {
        mk_and(self.lemmas.iter().skip(i).flatten().cloned().collect())
    }

    fn add(&mut self, i: usize, lemma: Term) {
        while self.lemmas.len() <= i {
            self.lemmas.push(vec![]);
        }
        self.lemmas[i].push(lemma);
    }

    /// `reachable(i, g)` for `i = from, .., to` (Golem's `checkReachability`): the first
    /// reachable answer, else the explanation at `to`.
    pub(super) fn range(
        &mut self,
        from: usize,
        to: usize,
        g: &Term,
        itp: &mut Interpolator,
        kill: &KillSwitch,
        counters: &mut Counters,
    ) -> Result<Reach, Stop> {
        let mut last = None;
        for i in from..=to {
            match self.reachable(i, g, itp, kill, counters)? {
                r @ Reach::Reachable(_) => return Ok(r),
                r => last = Some(r),
            }
        }
        last.ok_or_else(|| Stop::Bug(format!("pdkind: empty range {from}..={to}")))
    }

    /// Is `g` (over the state variables) reachable within `k` steps? The query at level
    /// `k` is `A /\ B` with `A = init@1 \/ (R_(k-1)@0 /\ trans@0)` (for `k = 0`, `init@1`)
    /// and `B = g@1`:
    /// - satisfiable in `init@1`: reachable in 0 steps;
    /// - satisfiable otherwise: the predecessors `P`, the projection of `trans@0 /\ g@1`
    ///   onto step 0 under the model, are asked at level `k - 1`; reachable means one step
    ///   more, unreachable adds the explanation to `R_(k-1)` and the query is asked again;
    /// - unsatisfiable: the interpolant of `(A, B)`, renamed from step 1, holds in every
    ///   state reachable within `k` steps and excludes `g`; it joins `R_k` and is the
    ///   explanation. Without an interpolant, `not g` is (the weakest explanation).
    pub(super) fn reachable(
        &mut self,
        k: usize,
        g: &Term,
        itp: &mut Interpolator,
        kill: &KillSwitch,
        counters: &mut Counters,
    ) -> Result<Reach, Stop> {
        let ts = self.ts;
        let g1 = ts.at(g, 1);
        let init1 = ts.at(&ts.init, 1);
        loop {
            counters.reach_queries += 1;
            let a = if k == 0 {
                init1.clone()
            } else {
                let step = mk_and(vec![ts.at(&self.frame(k - 1), 0), ts.at(&ts.trans, 0)]);
                mk_or(vec![init1.clone(), step])
            };
            let u = &mut self.solver;
            u.push()?;
            u.assert(&a)?;
            u.assert(&g1)?;
            let r = u.check()?;
            let model = match r {
                SatResult::Sat => Some(u.model()?),
                SatResult::Unsat => None,
                SatResult::Unknown => {
                    u.pop()?;
                    return Err(Stop::SolverUnknown);
                }
            };
            u.pop()?;
            let Some(m) = model else {
                let e = self.explain(&a, &g1, g, itp, kill, counters)?;
                self.add(k, e.clone());
                return Ok(Reach::Unreachable(e));
            };
            if k == 0 || eval_bool(&init1, &m) == Ok(true) {
                return Ok(Reach::Reachable(0));
            }
            let pre = project_onto(&[ts.at(&ts.trans, 0), g1.clone()], &m, &ts.state_at(0))?;
            let pre = subst(&pre, &self.back0);
            match self.reachable(k - 1, &pre, itp, kill, counters)? {
                Reach::Reachable(s) => return Ok(Reach::Reachable(s + 1)),
                // its explanation has joined R_(k-1): ask again
                Reach::Unreachable(_) => {}
            }
        }
    }

    /// The interpolant of `(a, g1)` over the plain state variables, or `not g` without one.
    fn explain(
        &mut self,
        a: &Term,
        g1: &Term,
        g: &Term,
        itp: &mut Interpolator,
        kill: &KillSwitch,
        counters: &mut Counters,
    ) -> Result<Term, Stop> {
        match itp.binary(a, g1) {
            Interp::Interpolant(mut is) if is.len() == 1 => {
                counters.interpolants += 1;
                let e = subst(&is.pop().unwrap(), &self.back1);
                if let Some(v) = free_vars(&e).iter().find(|v| !self.ts.state.contains(v)) {
                    return Err(Stop::SolverError(format!(
                        "pdkind: the interpolant mentions `{}`, not a state variable at step 1",
                        v.name
                    )));
                }
                Ok(e)
            }
            Interp::Interpolant(is) => Err(Stop::SolverError(format!(
                "pdkind: {} interpolants for a binary query",
                is.len()
            ))),
            Interp::Sat(_) => Err(Stop::SolverError(
                "pdkind: the interpolation layer finds a path the solver does not".into(),
            )),
            Interp::Unknown(why) => {
                if kill.is_killed() {
                    return Err(Stop::Killed);
                }
                log::debug!("pdkind: no interpolant ({why}); explanation `not g`");
                counters.interp_unknown += 1;
                Ok(mk_not(g.clone()))
            }
        }
    }
}
