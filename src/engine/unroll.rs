//! Incremental unrolling of a transition system into one solver, declaring step-indexed variables on demand.

use crate::logic::{Assignment, Term, Var};
use crate::smt::{SatResult, Smt, SmtError};
use crate::ts::TransitionSystem;
use rustc_hash::FxHashSet;

/// A solver plus the step-indexed variables declared in it, scope by scope.
pub struct Unroller {
    pub smt: Smt,
    declared: FxHashSet<Var>,
    /// Variables declared in each open push scope (popped with it).
    scopes: Vec<Vec<Var>>,
}

impl Unroller {
    pub fn new(smt: Smt) -> Unroller {
        Unroller {
            smt,
            declared: FxHashSet::default(),
            scopes: vec![],
        }
    }

    fn declare_all(&mut self, vars: Vec<Var>) -> Result<(), SmtError> {
        for v in vars {
            if self.declared.insert(v.clone()) {
                self.smt.declare(&v)?;
                if let Some(s) = self.scopes.last_mut() {
                    s.push(v);
                }
            }
        }
        Ok(())
    }

    /// Declares the variables of `t` at step `i` (state variables included) and asserts it.
    pub fn assert_at(&mut self, ts: &TransitionSystem, t: &Term, i: usize) -> Result<(), SmtError> {
        let t = ts.at(t, i);
        self.assert(&t)
    }

    /// Declares the free variables of `t` and asserts it.
    pub fn assert(&mut self, t: &Term) -> Result<(), SmtError> {
        self.declare_all(crate::logic::free_vars(t))?;
        self.smt.assert(t)
    }

    pub fn push(&mut self) -> Result<(), SmtError> {
        self.scopes.push(vec![]);
        self.smt.push()
    }

    pub fn pop(&mut self) -> Result<(), SmtError> {
        for v in self.scopes.pop().unwrap_or_default() {
            self.declared.remove(&v);
        }
        self.smt.pop()
    }

    pub fn check(&mut self) -> Result<SatResult, SmtError> {
        self.smt.check_sat()
    }

    /// Values of every declared variable (after `Sat`).
    pub fn model(&mut self) -> Result<Assignment, SmtError> {
        let vars: Vec<Var> = self.declared.iter().cloned().collect();
        self.smt.get_model(&vars)
    }
}

/// `init@0 /\ trans@0..trans@(k-1) /\ query@k`, with the unrolling up to `k` already in
/// `u`: its model when satisfiable. The query is popped again when unsatisfiable.
pub fn bmc_query(
    ts: &TransitionSystem,
    u: &mut Unroller,
    k: usize,
) -> Result<Option<Assignment>, super::Stop> {
    u.push()?;
    u.assert_at(ts, &ts.query, k)?;
    match u.check()? {
        SatResult::Sat => return Ok(Some(u.model()?)),
        SatResult::Unknown => return Err(super::Stop::SolverUnknown),
        SatResult::Unsat => {}
    }
    u.pop()?;
    Ok(None)
}

/// A counterexample of `k` steps that an abstracting engine (`engine`) claims, re-found by
/// plain BMC in a fresh solver, so its model comes from the real unrolling. When there is
/// none at `k` (a bug of the engine, logged), every depth up to `bound` is tried. Returns
/// the answer and the statistics of the solvers it used.
pub fn confirm_cex(
    ts: &TransitionSystem,
    smt: &crate::smt::SolverConfig,
    engine: &str,
    k: usize,
    bound: usize,
) -> (Result<super::TsAnswer, super::Stop>, crate::smt::SmtStats) {
    use super::{Stop, TsAnswer};
    let mut stats = crate::smt::SmtStats::default();
    let label = format!("{engine}-bmc");
    let mut at_k = || -> Result<Option<TsAnswer>, Stop> {
        let mut u = Unroller::new(Smt::new(smt, &label)?);
        let r = (|| {
            u.assert_at(ts, &ts.init, 0)?;
            for j in 0..k {
                u.assert_at(ts, &ts.trans, j)?;
            }
            Ok(bmc_query(ts, &mut u, k)?.map(|vals| TsAnswer::Unsafe { k, vals }))
        })();
        stats += u.smt.stats();
        r
    };
    let up_to_bound = || -> Result<TsAnswer, Stop> {
        log::error!(
            "{engine}: no counterexample of {k} steps, as {engine} claims (a bug); trying every depth up to {bound}"
        );
        let mut u = Unroller::new(Smt::new(smt, &label)?);
        u.assert_at(ts, &ts.init, 0)?;
        for j in 0..=bound {
            if let Some(vals) = bmc_query(ts, &mut u, j)? {
                return Ok(TsAnswer::Unsafe { k: j, vals });
            }
            u.assert_at(ts, &ts.trans, j)?;
        }
        Err(Stop::SolverError(format!(
            "{engine}: no counterexample within {bound} steps, as {engine} claims"
        )))
    };
    let r = match at_k() {
        Ok(Some(a)) => Ok(a),
        Ok(None) => up_to_bound(),
        Err(e) => Err(e),
    };
    (r, stats)
}
