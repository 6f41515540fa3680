//! The derivation tree behind a must-summary of the query.
//!
//! Each must-summary was projected from `constraint /\ premises(body)` of its clause, so every
//! valuation in it has a derivation: starting at the query's summary, solve its clause with
//! its premises' summaries at the body applications (and the head fixed to the valuation the
//! parent chose), then do the same for each premise with the values found.
//!
//! That takes one query per step, each on a clause's solver full of lemmas, with the head
//! fixed to the values its parent chose (on Solidity's files, store chains of dozens of
//! entries): seconds for a derivation of forty steps. So the tree's shape is built first
//! and its path formula (every step's constraint, every body application equal to its
//! premise's head) solved in one query by [`validate::complete_cex`]; the query per step is
//! the fallback when that query fails.

use super::context::Context;
use super::search::Must;
use crate::chc::ChcSystem;
use crate::chc::{Cex, CexStep};
use crate::engine::Stop;
use crate::logic::*;
use crate::smt::SolverConfig;
use crate::validate;

/// The counterexample rooted at must-summary `root` (of the query predicate), premises first,
/// and the number of queries made step by step (0 when the path formula sufficed).
pub fn derivation(
    ctx: &mut Context,
    sys: &ChcSystem,
    smt_cfg: &SolverConfig,
    musts: &[Must],
    root: usize,
) -> Result<(Cex, usize), Stop> {
    let mut shape = vec![];
    skeleton(ctx, musts, root, &mut shape);
    match validate::complete_cex(sys, shape, smt_cfg) {
        Ok(cex) => return Ok((cex, 0)),
        Err(e) => log::debug!("spacer: the derivation's path formula: {e}; solving step by step"),
    }
    let mut out = vec![];
    build(ctx, musts, root, None, &mut out)?;
    let steps = out.len();
    Ok((out, steps))
}

/// Adds the steps of the derivation tree of must-summary `m`, without values; returns the
/// index of its last step.
fn skeleton(ctx: &Context, musts: &[Must], m: usize, out: &mut Cex) -> usize {
    let must = &musts[m];
    let premises = must
        .premises
        .iter()
        .map(|&p| skeleton(ctx, musts, p, out))
        .collect();
    out.push(CexStep {
        clause: ctx.enc.clauses[must.clause].id,
        vals: Assignment::default(),
        premises,
    });
    out.len() - 1
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
