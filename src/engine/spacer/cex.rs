//! The derivation tree behind a must-summary of the query.
//!
//! Each must-summary was projected from `constraint /\ premises(body)` of its clause, so every
//! valuation in it has a derivation: starting at the query's summary, solve its clause with
//! its premises' summaries at the body applications (and the head fixed to the valuation the
//! parent chose), then do the same for each premise with the values found.

use super::context::Context;
use super::search::Must;
use crate::chc::{Cex, CexStep};
use crate::engine::Stop;
use crate::logic::*;

/// The counterexample rooted at must-summary `root` (of the query predicate), premises first.
pub fn derivation(ctx: &mut Context, musts: &[Must], root: usize) -> Result<Cex, Stop> {
    let mut out = vec![];
    build(ctx, musts, root, None, &mut out)?;
    Ok(out)
}

/// Adds the steps deriving a valuation `head` (any, for the root) of must-summary `m`;
/// returns the index of its last step.
fn build(
    ctx: &mut Context,
    musts: &[Must],
    m: usize,
    head: Option<&Assignment>,
    out: &mut Cex,
) -> Result<usize, Stop> {
    let must = &musts[m];
    let summaries: Vec<Term> = must
        .premises
        .iter()
        .map(|&p| mk_and(musts[p].cube.clone()))
        .collect();
    let Some(model) = ctx.concrete(must.clause, &summaries, head)? else {
        return Err(Stop::Bug("spacer: a must-summary has no derivation".into()));
    };
    let enc = ctx.enc;
    let cl = &enc.clauses[must.clause];
    let mut premises = vec![];
    for (b, &p) in cl.body.iter().zip(&must.premises) {
        let vals = enc
            .values_at(b, &model)
            .ok_or_else(|| Stop::SolverError("spacer: incomplete model".into()))?;
        premises.push(build(ctx, musts, p, Some(&vals), out)?);
    }
    let mut vals = Assignment::default();
    for (v, w) in &cl.orig {
        if let Some(x) = model.get(w) {
            vals.insert(v.clone(), x.clone());
        }
    }
    out.push(CexStep {
        clause: cl.id,
        vals,
        premises,
    });
    Ok(out.len() - 1)
}
