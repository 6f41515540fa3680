//! k-induction with incremental base and step solvers (Sheeran, Singh, Stålmarck, FMCAD 2000).
//!
//! With `P = not query`, at each `k`:
//! - base: `init@0 /\ trans@0 .. trans@(k-1) /\ query@k` (BMC); sat gives a counterexample;
//! - step: `trans@0 .. trans@(k-1) /\ P@0 .. P@(k-1) /\ query@k`; unsat means `P` is k-inductive.
//!
//! The certificate is the inductive strengthening
//! `I(s) = /\_{j<k} not exists s1..sj. trans(s,s1) /\ .. /\ query(sj)`:
//! every path of fewer than `k` steps from `s` avoids the query. Base cases up to depth `k`
//! make `I` hold initially, the step makes it inductive.
//! (Step-local variables of the query are existential, so `P@i` is asserted with fresh
//! locals: a weaker assumption, which keeps the step check sound.)
//!
//! A run that wants a quantifier-free model makes one from the k-inductive property after
//! the answer, outside the engine and its time slice ([`crate::engine::KToOne`]: by
//! interpolation, [`kinductive::to_inductive`], about `log2 k` calls, where eliminating the
//! quantifiers of `I` projects whole unrollings of a transition relation whose havocked
//! variables and disjunctions make the projection blow up).

use super::unroll::BmcSteps;
use super::{log_progress, Stop, TsAnswer, TsEngine, Unroller};
use crate::logic::*;
use crate::smt::{SatResult, Smt, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;

/// k-induction settings.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Give up after this k (default: none).
    pub max_k: Option<usize>,
}

pub struct KInduction {
    cfg: Config,
    k: usize,
    smt: SmtStats,
}

impl KInduction {
    pub fn new(cfg: Config) -> KInduction {
        KInduction {
            cfg,
            k: 0,
            smt: SmtStats::default(),
        }
    }

    fn run(&mut self, ts: &TransitionSystem, cfg: &SolverConfig) -> Result<TsAnswer, Stop> {
        let mut base = BmcSteps::new(Unroller::new(Smt::new(cfg, "kind-base")?));
        let mut step = Unroller::new(Smt::new(cfg, "kind-step")?);
        let r = self.unroll(ts, &mut base, &mut step);
        self.smt = base.stats();
        self.smt += step.smt.stats();
        r
    }

    fn unroll(
        &mut self,
        ts: &TransitionSystem,
        base: &mut BmcSteps,
        step: &mut Unroller,
    ) -> Result<TsAnswer, Stop> {
        for k in 0.. {
            if self.cfg.max_k.is_some_and(|m| k > m) {
                return Err(Stop::Bound(k - 1));
            }
            self.k = k;
            log_progress("kind: k =", k);
            // base: init@0 /\ trans@0..trans@(k-1) /\ query@k
            if let Some(vals) = base.check(ts, k)? {
                return Ok(TsAnswer::Unsafe { k, vals });
            }
            // step: trans@0..trans@(k-1) /\ P@0..P@(k-1) /\ query@k
            step.push()?;
            step.assert_at(ts, &ts.query, k)?;
            match step.check()? {
                SatResult::Unsat => return Ok(self.answer(ts, k)),
                SatResult::Unknown => return Err(Stop::SolverUnknown),
                SatResult::Sat => {}
            }
            step.pop()?;
            step.assert_at(ts, &mk_not(ts.query.clone()), k)?;
            step.assert_at(ts, &ts.trans, k)?;
        }
        unreachable!()
    }

    /// The answer once `not query` is `k`-inductive: the property with its (quantified)
    /// strengthening when the query has no variables besides the state's (then `not query`
    /// is quantifier-free), else the strengthening alone.
    fn answer(&mut self, ts: &TransitionSystem, k: usize) -> TsAnswer {
        let qf_query = free_vars(&ts.query).iter().all(|v| ts.state.contains(v));
        if k == 0 || !qf_query {
            return TsAnswer::Safe(strengthening(ts, k));
        }
        TsAnswer::SafeKInductive {
            k,
            property: mk_not(ts.query.clone()),
            strengthening: strengthening(ts, k),
        }
    }
}

/// `I(s) = /\_{j<k} not exists s1..sj, locals. trans(s,s1) /\ .. /\ query(sj)`, over the state
/// variables (for `k = 0`, `true`: the query itself is unsatisfiable).
pub fn strengthening(ts: &TransitionSystem, k: usize) -> Term {
    let mut conj = vec![];
    for j in 0..k {
        // path of j steps from the (unindexed) state to the query
        let mut parts = vec![];
        for i in 0..j {
            parts.push(ts.at(&ts.trans, i));
        }
        parts.push(ts.at(&ts.query, j));
        let path = mk_and(parts);
        // rename step-0 state variables back to the plain state variables
        let map: rustc_hash::FxHashMap<Var, Term> = ts
            .state_at(0)
            .into_iter()
            .zip(&ts.state)
            .map(|(a, s)| (a, mk_var_of(s)))
            .collect();
        let path = subst(&path, &map);
        let bound: Vec<Var> = free_vars(&path)
            .into_iter()
            .filter(|v| !ts.state.contains(v))
            .collect();
        conj.push(mk_not(mk_exists_elim(bound, path)));
    }
    mk_and(conj)
}

impl TsEngine for KInduction {
    fn name(&self) -> &'static str {
        "kind"
    }

    fn solve(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> TsAnswer {
        self.run(ts, smt).unwrap_or_else(TsAnswer::Unknown)
    }

    /// Every sort, arrays included (BMC, k-induction and PDR's projection work over arrays).
    fn supports(&self, _f: &crate::chc::Features) -> Result<(), &'static str> {
        Ok(())
    }

    fn stats(&self) -> crate::engine::EngineStats {
        crate::engine::EngineStats::new(self.smt, vec![("k", self.k.into())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{Backend, InterpConfig, Interpolator};
    use crate::testing::solver;
    use crate::testing::ts::inductive_failure;

    fn var(n: &str) -> Term {
        mk_var(n, Sort::Int)
    }

    /// `a = b = 0; a' = b, b' = a`, query `a != 0`: `a = 0` is 2-inductive, not 1-inductive.
    fn swap() -> TransitionSystem {
        let vars = |ns: &[&str]| -> Vec<Var> {
            ns.iter()
                .map(|n| Var {
                    name: (*n).into(),
                    sort: Sort::Int,
                })
                .collect()
        };
        TransitionSystem {
            state: vars(&["a", "b"]),
            next: vars(&["a'", "b'"]),
            init: mk_and(vec![mk_eq(var("a"), mk_int(0)), mk_eq(var("b"), mk_int(0))]),
            trans: mk_and(vec![mk_eq(var("a'"), var("b")), mk_eq(var("b'"), var("a"))]),
            query: mk_not(mk_eq(var("a"), mk_int(0))),
        }
    }

    /// The answer carries the k-inductive property; the run makes it inductive and
    /// quantifier-free only when a model is wanted (with [`kinductive::to_inductive`], here
    /// through the core-generalized interpolants alone).
    #[test]
    fn the_property_of_a_k_inductive_answer_becomes_a_quantifier_free_model() {
        let Some(z3) = solver(crate::smt::SolverKind::Z3) else {
            return;
        };
        let ts = swap();
        let mut e = KInduction::new(Config::default());
        let TsAnswer::SafeKInductive {
            k,
            property,
            strengthening,
        } = e.solve(&ts, &z3)
        else {
            panic!("not a k-inductive answer");
        };
        assert_eq!(k, 2);
        assert_eq!(inductive_failure(&z3, &ts, &strengthening), None);
        let kill = crate::smt::KillSwitch::default();
        let mut itp = Interpolator::new(InterpConfig::for_engine(&[Backend::Cores], &z3));
        let inv = super::super::kinductive::to_inductive(&ts, &property, k, &mut itp, &kill)
            .expect("an interpolated strengthening");
        assert!(!has_quantifier(&inv), "{inv:?}");
        assert_eq!(inductive_failure(&z3, &ts, &inv), None, "{inv:?}");
    }
}
