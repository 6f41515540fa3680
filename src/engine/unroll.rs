//! Incremental unrolling of a transition system into one solver, declaring step-indexed variables on demand.

use super::Stop;
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
) -> Result<Option<Assignment>, Stop> {
    u.push()?;
    u.assert_at(ts, &ts.query, k)?;
    match u.check()? {
        SatResult::Sat => return Ok(Some(u.model()?)),
        SatResult::Unknown => return Err(Stop::SolverUnknown),
        SatResult::Unsat => {}
    }
    u.pop()?;
    Ok(None)
}

/// Plain BMC in one incremental solver: `init@0 /\ trans@0 .. trans@(k-1)` asserted for
/// good, and at each depth `k` the query `query@k` checked under a push ([`bmc_query`]).
/// The unrolling is extended only when a deeper query is asked, so the solver sees the same
/// commands as a loop that adds `trans@k` after the query at `k`.
pub struct BmcSteps {
    pub u: Unroller,
    /// `init@0` is asserted.
    init: bool,
    /// `trans@0 .. trans@(depth-1)` are asserted.
    depth: usize,
}

impl BmcSteps {
    pub fn new(u: Unroller) -> BmcSteps {
        BmcSteps {
            u,
            init: false,
            depth: 0,
        }
    }

    /// Is `init@0 /\ trans@0 .. trans@(k-1) /\ query@k` satisfiable? Its model when it is.
    /// Unrolls up to `k` first; `k` is at least every depth checked before.
    pub fn check(&mut self, ts: &TransitionSystem, k: usize) -> Result<Option<Assignment>, Stop> {
        debug_assert!(k >= self.depth, "bmc: depth {k} after {}", self.depth);
        if !self.init {
            self.u.assert_at(ts, &ts.init, 0)?;
            self.init = true;
        }
        while self.depth < k {
            self.u.assert_at(ts, &ts.trans, self.depth)?;
            self.depth += 1;
        }
        bmc_query(ts, &mut self.u, k)
    }

    pub fn stats(&self) -> crate::smt::SmtStats {
        self.u.smt.stats()
    }
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
) -> (Result<super::TsAnswer, Stop>, crate::smt::SmtStats) {
    use super::TsAnswer;
    let mut stats = crate::smt::SmtStats::default();
    let label = format!("{engine}-bmc");
    let mut at_k = || -> Result<Option<TsAnswer>, Stop> {
        let mut b = BmcSteps::new(Unroller::new(Smt::new(smt, &label)?));
        let r = b.check(ts, k);
        stats += b.stats();
        Ok(r?.map(|vals| TsAnswer::Unsafe { k, vals }))
    };
    let up_to_bound = || -> Result<TsAnswer, Stop> {
        log::error!(
            "{engine}: no counterexample of {k} steps, as {engine} claims (a bug); trying every depth up to {bound}"
        );
        let mut b = BmcSteps::new(Unroller::new(Smt::new(smt, &label)?));
        for j in 0..=bound {
            if let Some(vals) = b.check(ts, j)? {
                return Ok(TsAnswer::Unsafe { k: j, vals });
            }
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
