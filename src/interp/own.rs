//! Our own interpolants, for any solver: the projection of `A` onto the symbols it shares
//! with `B`, by model-based projection ([`crate::logic::mbp`]), by the loop of quantifier elimination
//! ([`crate::qe::mbp_loop`]).
//!
//! `I = exists (vars(A) \ vars(B)). A` is the strongest interpolant whenever `A /\ B` is
//! unsatisfiable. It is computed as a disjunction of projections: while `A /\ not I` has a
//! model `M`, the projection `psi` of `A` under `M` is added to `I`. Each `psi` implies
//! `exists ... A` and `M` satisfies it, so the loop only ends with `A => I`, and it ends
//! because the projections of one formula are finitely many (Loos–Weispfenning with
//! divisibility: MBP's `mod`/`div` purification keeps the result exact). Then `I /\ B`
//! decides: unsatisfiable gives the interpolant, satisfiable means `A /\ B` is too (every
//! `psi` implies `exists ... A`).
//!
//! What it handles: any quantifier-free formula of linear integer arithmetic with Booleans,
//! `ite`, and `div`/`mod` by constants. It gives up ([`Answer::Unknown`]) when the loop
//! needs more than [`MAX_DISJUNCTS`] projections, or when the solver answers `unknown`;
//! it never returns a formula that fails `A => I`.

use super::backend::Answer;
use crate::logic::{free_vars, mk_or, Term, Var};
use crate::qe;
use crate::smt::{SatResult, Smt, SmtError};

/// Most disjuncts the projection collects before it gives up.
pub const MAX_DISJUNCTS: usize = 64;

/// The projection interpolant of `(A, B)`, with `smt` (any solver) for the models.
pub(super) fn project(smt: &mut Smt, a: &Term, b: &Term) -> Result<Answer, SmtError> {
    let va = free_vars(a);
    let vb = free_vars(b);
    let elim: Vec<Var> = va.iter().filter(|v| !vb.contains(v)).cloned().collect();
    // the shared loop of quantifier elimination (it scopes its own assertions)
    let i = match qe::mbp_loop(smt, &elim, a, MAX_DISJUNCTS) {
        Ok((ds, true)) => mk_or(ds),
        Ok((_, false)) => {
            return Ok(Answer::Unknown(format!(
                "own: unknown, or more than {MAX_DISJUNCTS} projections"
            )))
        }
        Err(SmtError::Solver(e)) if e.starts_with("projection failed") => {
            return Ok(Answer::Unknown(format!("own: {e}")))
        }
        Err(e) => return Err(e),
    };
    smt.push()?;
    smt.assert(&i)?;
    smt.assert(b)?;
    let r = smt.check_sat()?;
    smt.pop()?;
    Ok(match r {
        SatResult::Unsat => Answer::Interpolants(vec![i]),
        SatResult::Sat => Answer::Sat,
        SatResult::Unknown => Answer::Unknown("own: unknown on I /\\ B".into()),
    })
}
