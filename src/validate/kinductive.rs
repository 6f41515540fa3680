//! Checking a k-inductive invariant against the ORIGINAL clauses, without turning it into
//! an inductive one first.
//!
//! A linear clause system is a transition system whose states are a predicate and its
//! arguments: a fact enters a state, a clause with one body application steps from one
//! state to the next, a query leaves. A formula `F_P` per predicate is **k-inductive**
//! (`k >= 1`) when
//!
//! - base: every state reached by a derivation of fewer than `k` steps (a fact, then at
//!   most `k - 1` clauses with one body application) satisfies `F`;
//! - step: every chain of clause steps `s0 -> s1 -> .. -> sk` with `F` at `s0 .. s(k-1)`
//!   has `F` at `sk`;
//! - safe: no query clause applies to a state of `F` (`F_P(args) /\ constraint` unsat),
//!   and no query clause without body application has a satisfiable constraint.
//!
//! Then every reachable state satisfies `F` (by induction on the length of its derivation)
//! and no derivation of `false` exists: the reachable states are a model of the clauses.
//!
//! Each condition is one query to a fresh z3 process over an unrolling of the clauses. At
//! depth `i`, predicate `P` has argument copies `x_i_P` and a Boolean `r_i_P`, and
//! `r_i_P => \/ (clause instances into P from depth i - 1)` (at depth 0 of the base case:
//! the facts of `P`; at depth 0 of the step: nothing, any state). A model of a query gives a
//! chain of clause instances back to depth 0, so an unsat answer rules out every chain.
//! Non-linear systems are not decided here.

use super::{apply, ModelError};
use crate::chc::{ChcSystem, Clause, Model};
use crate::logic::*;
use crate::smt::{SatResult, Smt, SolverConfig};
use std::time::Duration;

/// Checks that `f` is k-inductive for `sys` and excludes its queries (module docs), with a
/// fresh solver process. `Rejected` names the condition that fails (the formula is not
/// k-inductive: not necessarily a bug, the engine may have proved it on a transformed
/// system); `Undecided` when the system is not linear, `f` has quantifiers, or the solver
/// does not decide.
pub fn check_k_inductive(
    sys: &ChcSystem,
    k: usize,
    f: &Model,
    z3: &SolverConfig,
    timeout: Option<Duration>,
) -> Result<(), ModelError> {
    let undecided = |e: crate::smt::SmtError| ModelError::Undecided(e.to_string());
    let k = k.max(1);
    if let Some(c) = sys.clauses.iter().find(|c| c.body.len() > 1) {
        return Err(ModelError::Undecided(format!(
            "the clause at line {} is not linear",
            c.line
        )));
    }
    for (p, t) in f {
        if p.idx() >= sys.preds.len() {
            return Err(ModelError::Rejected(format!(
                "the invariant interprets predicate {}, the system has {}",
                p.idx(),
                sys.preds.len()
            )));
        }
        let params = sys.pred(*p).params();
        if let Some(v) = free_vars(t).iter().find(|v| !params.contains(v)) {
            return Err(ModelError::Rejected(format!(
                "the invariant of {} has a free variable {}",
                sys.pred(*p).name,
                v.name
            )));
        }
        if has_quantifier(t) {
            return Err(ModelError::Undecided(format!(
                "the invariant of {} has quantifiers",
                sys.pred(*p).name
            )));
        }
    }
    let mut smt = Smt::new(z3, "validate-kinductive").map_err(undecided)?;
    if let Some(t) = timeout {
        smt.raw(&format!("(set-option :timeout {})", t.as_millis().max(1)))
            .map_err(undecided)?;
    }
    let mut u = Unrolling { sys, smt: &mut smt };
    let check = |u: &mut Unrolling, what: String, hyps: Vec<Term>| -> Result<(), ModelError> {
        u.smt.push().map_err(undecided)?;
        for h in &hyps {
            u.smt.assert(h).map_err(undecided)?;
        }
        let r = u.smt.check_sat().map_err(undecided)?;
        u.smt.pop().map_err(undecided)?;
        match r {
            SatResult::Unsat => Ok(()),
            SatResult::Sat => Err(ModelError::Rejected(what)),
            SatResult::Unknown => Err(ModelError::Undecided(format!(
                "the solver could not decide whether {what}"
            ))),
        }
    };
    // safe
    for (ci, c) in sys.clauses.iter().enumerate() {
        if c.head.is_some() {
            continue;
        }
        let (c, _) = u.instance(ci, "q");
        let mut hyps = vec![c.constraint.clone()];
        hyps.extend(c.body.iter().map(|b| apply(sys, f, b)));
        check(
            &mut u,
            format!("the query at line {} applies to the invariant", c.line),
            hyps,
        )?;
    }
    // base: depths 0 .. k-1
    for i in 0..k {
        u.layer("b", i, true)?;
        let bad = u.violated("b", i, f);
        check(
            &mut u,
            format!("a state reached in {i} steps violates the invariant"),
            vec![bad],
        )?;
    }
    // step: depths 0 .. k, the invariant at 0 .. k-1
    for i in 0..=k {
        u.layer("s", i, false)?;
        if i < k {
            for p in sys.pred_ids() {
                let holds = mk_implies(u.reached("s", i, p.idx()), u.holds("s", i, p.idx(), f));
                u.smt.assert(&holds).map_err(undecided)?;
            }
        }
    }
    let bad = u.violated("s", k, f);
    check(
        &mut u,
        format!("the invariant is not {k}-inductive: {k} steps within it leave it"),
        vec![bad],
    )
}

struct Unrolling<'a> {
    sys: &'a ChcSystem,
    smt: &'a mut Smt,
}

impl Unrolling<'_> {
    fn undecided(e: crate::smt::SmtError) -> ModelError {
        ModelError::Undecided(e.to_string())
    }

    /// Clause `ci` with its variables renamed apart for the copy `tag`.
    fn instance(&self, ci: usize, tag: &str) -> (Clause, Vec<Var>) {
        let mut vars = vec![];
        let r = self.sys.clauses[ci].rename(&mut |v| {
            let w = Var {
                name: format!("__k{tag}c{ci}_{}", vars.len()).into(),
                sort: v.sort,
            };
            vars.push(w.clone());
            w
        });
        (r, vars)
    }

    /// The arguments of predicate `p` at depth `i` of unrolling `tag`.
    fn state(&self, tag: &str, i: usize, p: usize) -> Vec<Term> {
        self.sys.preds[p]
            .sorts
            .iter()
            .enumerate()
            .map(|(j, s)| mk_var(&format!("__k{tag}{i}_{p}_{j}"), *s))
            .collect()
    }

    fn reached(&self, tag: &str, i: usize, p: usize) -> Term {
        mk_var(&format!("__k{tag}{i}_{p}_r"), Sort::Bool)
    }

    fn holds(&self, tag: &str, i: usize, p: usize, f: &Model) -> Term {
        let Some(body) = f.get(&crate::chc::PredId(p as u32)) else {
            return mk_false();
        };
        let params = self.sys.preds[p].params();
        let map = params.into_iter().zip(self.state(tag, i, p)).collect();
        subst(body, &map)
    }

    /// Some predicate reached at depth `i` whose state violates `f`.
    fn violated(&self, tag: &str, i: usize, f: &Model) -> Term {
        mk_or(
            (0..self.sys.preds.len())
                .map(|p| {
                    mk_and(vec![
                        self.reached(tag, i, p),
                        mk_not(self.holds(tag, i, p, f)),
                    ])
                })
                .collect(),
        )
    }

    /// Depth `i` of unrolling `tag`: `r_i_P => \/ (instances of the clauses into P)`, from
    /// the facts at depth 0 when `facts`, from depth `i - 1` after it.
    fn layer(&mut self, tag: &str, i: usize, facts: bool) -> Result<(), ModelError> {
        if i == 0 && !facts {
            return Ok(());
        }
        let mut into: Vec<Vec<Term>> = vec![vec![]; self.sys.preds.len()];
        for ci in 0..self.sys.clauses.len() {
            let c = &self.sys.clauses[ci];
            let Some(h) = &c.head else { continue };
            if (i == 0) != c.body.is_empty() {
                continue;
            }
            let hp = h.pred.idx();
            let (c, _) = self.instance(ci, &format!("{tag}{i}_"));
            let h = c.head.as_ref().expect("a head");
            let mut conj = vec![c.constraint.clone()];
            for (a, x) in h.args.iter().zip(self.state(tag, i, hp)) {
                conj.push(mk_eq(x, a.clone()));
            }
            if let Some(b) = c.body.first() {
                let bp = b.pred.idx();
                conj.push(self.reached(tag, i - 1, bp));
                for (a, x) in b.args.iter().zip(self.state(tag, i - 1, bp)) {
                    conj.push(mk_eq(x, a.clone()));
                }
            }
            into[hp].push(mk_and(conj));
        }
        for (p, ds) in into.into_iter().enumerate() {
            let t = mk_implies(self.reached(tag, i, p), mk_or(ds));
            self.smt.assert(&t).map_err(Self::undecided)?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "kinductive_tests.rs"]
mod tests;
