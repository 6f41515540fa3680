//! Our own interpolants, for any solver: the projection of `A` onto the symbols it shares
//! with `B`, by model-based projection ([`crate::logic::mbp`]).
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
use crate::logic::{free_vars, mbp, mk_and, mk_not, mk_or, Term, Var};
use crate::smt::{SatResult, Smt, SmtError};

/// Most disjuncts the projection collects before it gives up.
pub const MAX_DISJUNCTS: usize = 64;

/// The projection interpolant of `(A, B)`, with `smt` (any solver) for the models.
pub(super) fn project(smt: &mut Smt, a: &Term, b: &Term) -> Result<Answer, SmtError> {
    let va = free_vars(a);
    let vb = free_vars(b);
    let elim: Vec<Var> = va.iter().filter(|v| !vb.contains(v)).cloned().collect();
    smt.push()?;
    let r = disjuncts(smt, a, &va, &elim)?;
    smt.pop()?;
    let i = match r {
        Ok(ds) => mk_or(ds),
        Err(why) => return Ok(Answer::Unknown(why)),
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

/// The projections of `a`, one per model of `a` outside the earlier ones.
fn disjuncts(
    smt: &mut Smt,
    a: &Term,
    va: &[Var],
    elim: &[Var],
) -> Result<Result<Vec<Term>, String>, SmtError> {
    smt.assert(a)?;
    let mut ds = vec![];
    loop {
        match smt.check_sat()? {
            SatResult::Unsat => return Ok(Ok(ds)),
            SatResult::Unknown => return Ok(Err("own: unknown on A /\\ not I".into())),
            SatResult::Sat => {}
        }
        if ds.len() == MAX_DISJUNCTS {
            return Ok(Err(format!("own: more than {MAX_DISJUNCTS} projections")));
        }
        let model = smt.get_model(va)?;
        let psi = match mbp::project(std::slice::from_ref(a), &model, elim) {
            Ok(p) => mk_and(p.lits),
            Err(e) => return Ok(Err(format!("own: projection failed: {e}"))),
        };
        smt.assert(&mk_not(psi.clone()))?;
        ds.push(psi);
    }
}
