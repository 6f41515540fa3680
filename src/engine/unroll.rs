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
