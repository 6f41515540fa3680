//! Quantifiers over arithmetic in clause constraints, eliminated before solving.
//!
//! Princess-generated files (Eldarica's front-end) put a `forall` over pure arithmetic in
//! a clause body, e.g. `(not (and (inv x y) (forall ((z Int)) (or ...)))))`. The parser
//! keeps such a quantifier, whose scope holds no predicate application, as a theory
//! constraint with an `exists` (a `forall` as `not exists not`). Here each clause
//! constraint that has one is replaced by an equivalent quantifier-free formula from
//! [`crate::qe::Qe`]: exact for integers (projections with divisibility
//! constraints, z3's `qe` tactic as the fallback). Then z3 confirms it: z3's `qe` tactic
//! eliminates the quantifiers on its own and a fresh z3 process checks that the two
//! quantifier-free formulas are equivalent (or, when z3's `qe` fails, that the original
//! and the elimination are: a query with quantifiers, which z3 may leave undecided). So an
//! elimination bug cannot change an answer: without the confirmation the run's answer is
//! unknown.
//!
//! The clauses are equivalent one by one, so models and counterexamples of the new system
//! are those of the original one: no back-translator is needed.

use crate::chc::ChcSystem;
use crate::logic::{free_vars, has_quantifier, mk_eq, mk_not, Term};
use crate::qe::Qe;
use crate::smt::{SatResult, Smt, SolverConfig};
use std::time::Instant;

/// Replaces every clause constraint of `sys` that has a quantifier by an equivalent
/// quantifier-free one, with models from `smt` and `z3` as the fallback and the checker;
/// returns how many constraints changed. An error says why one could not be eliminated
/// or confirmed (out of time, a solver failure): `sys` is then unusable for solving.
pub fn eliminate_quantifiers(
    sys: &mut ChcSystem,
    smt: &SolverConfig,
    z3: &SolverConfig,
    deadline: Option<Instant>,
) -> Result<usize, String> {
    let quantified: Vec<usize> = (0..sys.clauses.len())
        .filter(|&i| has_quantifier(&sys.clauses[i].constraint))
        .collect();
    if quantified.is_empty() {
        return Ok(0);
    }
    let mut qe = Qe::new(smt.clone(), Some(z3.clone()), deadline);
    // z3's `qe` alone: no projection is enough for its loop
    let mut z3_qe = Qe::new(z3.clone(), Some(z3.clone()), deadline);
    z3_qe.max_projections = 0;
    let mut checker = Smt::new(z3, "qe-check").map_err(|e| e.to_string())?;
    for &i in &quantified {
        let c = &sys.clauses[i];
        let phi = c.constraint.clone();
        let psi = qe.eliminate(&phi)?;
        let reference = z3_qe.eliminate(&phi).unwrap_or_else(|e| {
            log::debug!("qe: z3's qe failed ({e}): checking against the quantified formula");
            phi.clone()
        });
        confirm(&mut checker, &reference, &psi, deadline)
            .map_err(|e| format!("clause at line {}: {e}", c.line))?;
        log::debug!("qe: clause at line {}: {phi} is {psi}", c.line);
        sys.clauses[i].constraint = psi;
    }
    log::info!(
        "eliminated the quantifiers of {} clause constraints ({:?})",
        quantified.len(),
        qe.stats
    );
    Ok(quantified.len())
}

/// Asks z3 whether `phi` (z3's elimination, or the quantified original) and `psi` are
/// equivalent.
fn confirm(z3: &mut Smt, phi: &Term, psi: &Term, deadline: Option<Instant>) -> Result<(), String> {
    let limit = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    if limit.is_some_and(|l| l.is_zero()) {
        return Err("quantifier elimination: out of time".into());
    }
    let guard = limit.map(|l| z3.deadline(l));
    let differ = mk_not(mk_eq(phi.clone(), psi.clone()));
    let r = (|| {
        z3.push()?;
        for v in &free_vars(&differ) {
            z3.declare(v)?;
        }
        z3.assert(&differ)?;
        let r = z3.check_sat()?;
        z3.pop()?;
        Ok::<_, crate::smt::SmtError>(r)
    })();
    if guard.is_some_and(|g| g.fired()) {
        return Err("quantifier elimination: out of time".into());
    }
    match r.map_err(|e| e.to_string())? {
        SatResult::Unsat => Ok(()),
        SatResult::Sat => Err(format!(
            "quantifier elimination is wrong (a bug): `{psi}` is not equivalent to `{phi}`"
        )),
        SatResult::Unknown => Err(format!(
            "z3 could not confirm that `{phi}` is equivalent to its elimination `{psi}`"
        )),
    }
}
