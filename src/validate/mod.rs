//! The independent checker of final answers, against the ORIGINAL clauses.
//!
//! It shares no code with the engines or the preprocessing: a model is checked clause by
//! clause in a fresh z3 process (`body interpretations /\ constraint /\ not head` must be
//! unsat), and a counterexample is replayed by exact evaluation. Keep it that way, so a
//! bug elsewhere cannot hide in here. A counterexample with accelerated segments is checked
//! without expanding them ([`segment`]).

mod kinductive;
mod segment;

pub use kinductive::check_k_inductive;
pub use segment::{check_accel_cex, complete_accel_cex, AccelReport, PROOF_LIMIT};

use crate::chc::{Cex, CexStep, Model};
use crate::chc::{ChcSystem, Clause, PredApp};
use crate::logic::*;
use crate::smt::{SatResult, Smt, SolverConfig};
use rustc_hash::FxHashMap;
use std::time::Duration;

/// The clause with variables renamed to `__c0, __c1, ..`, so they cannot be captured by
/// quantifiers inside interpretations.
fn fresh_clause(c: &Clause) -> (Clause, Vec<Var>) {
    let mut vars = vec![];
    let r = c.rename(&mut |v| {
        let w = Var {
            name: format!("__c{}", vars.len()).into(),
            sort: v.sort,
        };
        vars.push(w.clone());
        w
    });
    (r, vars)
}

/// The interpretation of `app.pred` applied to `app.args` (`false` when the model has none).
fn apply(sys: &ChcSystem, m: &Model, app: &PredApp) -> Term {
    let Some(body) = m.get(&app.pred) else {
        return mk_false();
    };
    let params = sys.pred(app.pred).params();
    let map: FxHashMap<Var, Term> = params.into_iter().zip(app.args.iter().cloned()).collect();
    subst(body, &map)
}

/// Why a model was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// The model is wrong or malformed: a bug in whatever produced it.
    Rejected(String),
    /// The check did not finish: the solver answered `unknown`, ran out of the time left,
    /// or failed. The model is neither accepted nor known to be wrong.
    Undecided(String),
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::Rejected(e) => write!(f, "{e}"),
            ModelError::Undecided(e) => write!(f, "not decided: {e}"),
        }
    }
}

/// How the validator's z3 decides a clause under a model: its own preprocessing (simplify,
/// propagate the values, solve the equations) before the SMT core. In a scope (`push`) z3
/// runs its incremental solver, which skips these, and the checks of integer-encoded
/// bit-vector clauses need them: on Solidity's `compound_bitwise_and_uint.sol_1` (a 256-bit
/// `bvand`, once encoded a sum over its 256 bits, each a `div` and a `mod`) one clause took
/// z3 7 s with `check-sat` and 0.16 s with this tactic, so the model went unprinted at 5 s
/// while the judge accepted it in 0.07 s (2026-12-06).
const CHECK_TACTIC: &str = "(then simplify propagate-values solve-eqs smt)";

/// Checks that `m` satisfies every clause of `sys`, with a fresh solver process, each
/// clause decided with [`CHECK_TACTIC`] (z3) or `check-sat` (another solver, bounded by a
/// deadline on the process instead of z3's `:timeout`).
/// `z3` should name z3 for quantified interpretations, datatypes and bit-vectors.
pub fn check_model(
    sys: &ChcSystem,
    m: &Model,
    z3: &SolverConfig,
    timeout: Option<Duration>,
) -> Result<(), ModelError> {
    let undecided = |e: crate::smt::SmtError| ModelError::Undecided(e.to_string());
    for (p, f) in m {
        if p.idx() >= sys.preds.len() {
            return Err(ModelError::Rejected(format!(
                "the model interprets predicate {}, the system has {}",
                p.idx(),
                sys.preds.len()
            )));
        }
        let params = sys.pred(*p).params();
        if let Some(v) = free_vars(f).iter().find(|v| !params.contains(v)) {
            return Err(ModelError::Rejected(format!(
                "interpretation of {} has a free variable {}",
                sys.pred(*p).name,
                v.name
            )));
        }
    }
    let mut smt = Smt::new(z3, "validate-model").map_err(undecided)?;
    smt.compact();
    let _guard = match (timeout, smt.kind()) {
        (Some(t), crate::smt::SolverKind::Z3) => {
            smt.raw(&format!("(set-option :timeout {})", t.as_millis().max(1)))
                .map_err(undecided)?;
            None
        }
        (Some(t), _) => Some(smt.deadline(t)),
        (None, _) => None,
    };
    for c in &sys.clauses {
        let (c, vars) = fresh_clause(c);
        let mut hyp: Vec<Term> = c.body.iter().map(|b| apply(sys, m, b)).collect();
        hyp.push(c.constraint.clone());
        if let Some(h) = &c.head {
            hyp.push(mk_not(apply(sys, m, h)));
        }
        smt.push().map_err(undecided)?;
        for v in &vars {
            smt.declare(v).map_err(undecided)?;
        }
        for h in hyp {
            smt.assert(&h).map_err(undecided)?;
        }
        match smt.check_sat_using(CHECK_TACTIC).map_err(undecided)? {
            SatResult::Unsat => {}
            SatResult::Sat => {
                return Err(ModelError::Rejected(format!(
                    "the model violates the clause at line {}",
                    c.line
                )))
            }
            SatResult::Unknown => {
                return Err(ModelError::Undecided(format!(
                    "the solver could not decide the clause at line {} under the model",
                    c.line
                )))
            }
        }
        smt.pop().map_err(undecided)?;
    }
    Ok(())
}

/// [`check_model`] by `quick` first (the engines' yices on a plain arithmetic input: it
/// starts in about 1 ms where z3 takes 14 before its first answer), then by `z3` when
/// `quick` does not accept the model: a clause it cannot decide or finds violated is
/// z3's to decide, so `quick`'s word alone never costs an answer.
pub fn check_model_quick_first(
    sys: &ChcSystem,
    m: &Model,
    quick: Option<&SolverConfig>,
    z3: &SolverConfig,
    timeout: Option<Duration>,
) -> Result<(), ModelError> {
    if let Some(quick) = quick {
        match check_model(sys, m, quick, timeout) {
            Ok(()) => return Ok(()),
            Err(e) => log::info!("validator: {:?} left the model to z3: {e}", quick.kind),
        }
    }
    check_model(sys, m, z3, timeout)
}

/// Replays a counterexample on `sys` by exact evaluation. Every step's constraint is true
/// under its values; each body application has a premise, an earlier step with a head of the
/// same predicate whose argument values equal the body application's; every step but the
/// last is some step's premise; the last step is a query. A linear counterexample (a chain)
/// is the special case of one premise per step, the step before it.
pub fn check_cex(sys: &ChcSystem, cex: &Cex) -> Result<(), String> {
    if cex.is_empty() {
        return Err("empty counterexample".into());
    }
    let mut heads: Vec<Option<(crate::chc::PredId, Vec<Value>)>> = vec![];
    let mut used = vec![false; cex.len()];
    let mut vars_of: Vec<Option<Vec<Var>>> = vec![None; sys.clauses.len()];
    for (i, step) in cex.iter().enumerate() {
        let c = sys
            .clauses
            .get(step.clause.idx())
            .ok_or_else(|| format!("step {i}: no clause {}", step.clause.0))?;
        let at = |what: &str| format!("step {i} (clause at line {}): {what}", c.line);
        for v in vars_of[step.clause.idx()]
            .get_or_insert_with(|| c.vars())
            .iter()
        {
            if !step.vals.contains_key(v) {
                return Err(at(&format!("no value for {}", v.name)));
            }
        }
        if !eval_bool(&c.constraint, &step.vals).map_err(|e| at(&e))? {
            return Err(at("constraint is false"));
        }
        if step.premises.len() != c.body.len() {
            return Err(at(&format!(
                "{} premises for {} body applications",
                step.premises.len(),
                c.body.len()
            )));
        }
        for (b, &p) in c.body.iter().zip(&step.premises) {
            if p >= i {
                return Err(at(&format!("premise {p} is not an earlier step")));
            }
            used[p] = true;
            let Some((q, vals)) = &heads[p] else {
                return Err(at(&format!("premise {p} is a query")));
            };
            if *q != b.pred {
                return Err(at("body predicate differs from its premise's head"));
            }
            for (a, v) in b.args.iter().zip(vals) {
                if eval(a, &step.vals).map_err(|e| at(&e))? != *v {
                    return Err(at("body arguments differ from its premise's head"));
                }
            }
        }
        let head = match &c.head {
            Some(h) => {
                let vals = h
                    .args
                    .iter()
                    .map(|a| eval(a, &step.vals))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| at(&e))?;
                Some((h.pred, vals))
            }
            None if i + 1 == cex.len() => None,
            None => return Err(at("a query before the last step")),
        };
        heads.push(head);
    }
    if heads.last().is_some_and(|h| h.is_some()) {
        return Err("the last step is not a query".into());
    }
    if let Some(i) = used[..cex.len() - 1].iter().position(|u| !u) {
        return Err(format!("step {i} is no step's premise"));
    }
    Ok(())
}

/// Fills in values a counterexample lacks (variables eliminated by preprocessing) by solving
/// the formula of its derivation (each step's constraint, each body application equal to its
/// premise's head), with the known values fixed. The result still
/// has to pass [`check_cex`]; this only finds values, it proves nothing. Rejected when a
/// step names no clause of `sys`, a premise does not derive its body application, or the
/// formula is unsat; undecided when the solver fails or answers `unknown`.
pub fn complete_cex(sys: &ChcSystem, cex: Cex, smt_cfg: &SolverConfig) -> Result<Cex, ModelError> {
    let rej = ModelError::Rejected;
    let undecided = |e: crate::smt::SmtError| ModelError::Undecided(e.to_string());
    if let Some((i, s)) = cex
        .iter()
        .enumerate()
        .find(|(_, s)| s.clause.idx() >= sys.clauses.len())
    {
        return Err(rej(format!("step {i}: no clause {}", s.clause.0)));
    }
    if has_all_values(sys, &cex) {
        return Ok(cex);
    }
    let mut smt = Smt::new(smt_cfg, "complete-cex").map_err(undecided)?;
    let mut steps: Vec<(Clause, Vec<(Var, Var)>)> = vec![];
    for (i, s) in cex.iter().enumerate() {
        let c = &sys.clauses[s.clause.idx()];
        let mut pairs = vec![];
        let r = c.rename(&mut |v| {
            let w = Var {
                name: format!("{}@{i}", v.name).into(),
                sort: v.sort,
            };
            pairs.push((v.clone(), w.clone()));
            w
        });
        for (v, w) in &pairs {
            smt.declare(w).map_err(undecided)?;
            if let Some(x) = s.vals.get(v) {
                smt.assert(&mk_eq(mk_var_of(w), x.to_term()))
                    .map_err(undecided)?;
            }
        }
        smt.assert(&r.constraint).map_err(undecided)?;
        if s.premises.len() != r.body.len() {
            return Err(rej(format!(
                "step {i}: {} premises for {} body applications",
                s.premises.len(),
                r.body.len()
            )));
        }
        for (b, &p) in r.body.iter().zip(&s.premises) {
            let head = steps.get(p).and_then(|(c, _)| c.head.as_ref());
            let Some(h) = head.filter(|h| h.pred == b.pred && h.args.len() == b.args.len()) else {
                return Err(rej(format!(
                    "step {i}: premise {p} does not derive its body"
                )));
            };
            for (x, y) in h.args.iter().zip(&b.args) {
                smt.assert(&mk_eq(x.clone(), y.clone()))
                    .map_err(undecided)?;
            }
        }
        steps.push((r, pairs));
    }
    match smt.check_sat().map_err(undecided)? {
        SatResult::Sat => {}
        SatResult::Unsat => {
            return Err(rej("the counterexample's path formula is unsat".to_string()))
        }
        SatResult::Unknown => {
            return Err(ModelError::Undecided(
                "the solver answered unknown on the counterexample's path formula".into(),
            ))
        }
    }
    let mut out = vec![];
    for ((_, pairs), s) in steps.iter().zip(&cex) {
        let ws: Vec<Var> = pairs.iter().map(|(_, w)| w.clone()).collect();
        let vals = smt.get_values(&ws).map_err(undecided)?;
        out.push(CexStep {
            clause: s.clause,
            vals: pairs.iter().map(|(v, _)| v.clone()).zip(vals).collect(),
            premises: s.premises.clone(),
        });
    }
    Ok(out)
}

/// Whether every step of `cex` names a clause of `sys` and has a value for each of that
/// clause's variables: nothing for [`complete_cex`] to solve.
fn has_all_values(sys: &ChcSystem, cex: &Cex) -> bool {
    let mut vars_of: Vec<Option<Vec<Var>>> = vec![None; sys.clauses.len()];
    cex.iter().all(|s| {
        let (Some(c), Some(vars)) = (
            sys.clauses.get(s.clause.idx()),
            vars_of.get_mut(s.clause.idx()),
        ) else {
            return false;
        };
        vars.get_or_insert_with(|| c.vars())
            .iter()
            .all(|v| s.vals.contains_key(v))
    })
}

/// [`complete_cex`] by `quick` first (the engines' yices on a plain arithmetic input), then by
/// `z3` when `quick` finds no values. The values found are replayed by exact evaluation
/// ([`check_cex`]) and judged, so the solver that finds them decides nothing.
pub fn complete_cex_quick_first(
    sys: &ChcSystem,
    cex: Cex,
    quick: Option<&SolverConfig>,
    z3: &SolverConfig,
) -> Result<Cex, ModelError> {
    // a complete counterexample needs no solver (and no copy)
    if let (Some(quick), false) = (quick, has_all_values(sys, &cex)) {
        match complete_cex(sys, cex.clone(), quick) {
            Ok(done) => return Ok(done),
            Err(e) => log::info!(
                "validator: {:?} left the counterexample to z3: {e}",
                quick.kind
            ),
        }
    }
    complete_cex(sys, cex, z3)
}

#[cfg(test)]
mod tests;
