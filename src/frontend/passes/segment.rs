//! Counterexamples with accelerated segments: a chain of clause applications where some
//! links stand for `n` runs of a cycle of clauses at once, and their back-translation.

use super::{cex_back, chain, BackTranslate, CexStep};
use crate::frontend::chc::{ChcSystem, ClauseId, PredId};
use crate::logic::{Assignment, Term, Value, Var};
use num_bigint::BigInt;

/// `count` runs of `cycle`, a chain of linear clauses from `pred` back to `pred`, from the
/// arguments `from` to the arguments `to`. `tau` is a formula over `pre`, `post` (one
/// variable per argument of `pred` each) and `n`, claimed to imply `n` runs of the cycle for
/// every `n >= 1`; the validator proves that claim by induction and checks
/// `tau(from, to, count)` by evaluation.
#[derive(Clone, Debug)]
pub struct Segment {
    pub pred: PredId,
    pub cycle: Vec<ClauseId>,
    pub pre: Vec<Var>,
    pub post: Vec<Var>,
    pub n: Var,
    pub tau: Term,
    pub count: BigInt,
    pub from: Vec<Value>,
    pub to: Vec<Value>,
}

/// A link of an [`AccelCex`].
#[derive(Clone, Debug)]
pub enum Link {
    /// One clause application (its `premises` are not used: the chain is in order).
    Step(CexStep),
    Segment(Segment),
}

/// A linear counterexample in order, a fact first and a query last, each link deriving the
/// body application of the next; segments stand for many clause applications.
///
/// One in a [`Verdict::UnsatAccelerated`](crate::Verdict::UnsatAccelerated) was checked by
/// the validator: every step replayed exactly, every segment's formula proven to imply its
/// cycle's runs (by induction on `n`, with z3) and evaluated at its ends.
pub type AccelCex = Vec<Link>;

/// Number of clause applications `cex` stands for.
pub fn accel_cex_len(cex: &AccelCex) -> BigInt {
    cex.iter()
        .map(|l| match l {
            Link::Step(_) => BigInt::from(1),
            Link::Segment(s) => &s.count * BigInt::from(s.cycle.len()),
        })
        .sum()
}

/// Applies back-translators in reverse order to a counterexample with segments: runs of
/// steps are translated as chains; a segment's cycle is translated clause by clause (its
/// ends are arguments of a predicate, which keeps its id and arity through every pass).
/// `None` when a cycle does not come back as a chain from `pred` to `pred`.
pub fn accel_cex_back(
    backs: &[Box<dyn BackTranslate>],
    orig: &ChcSystem,
    cex: AccelCex,
) -> Option<AccelCex> {
    let mut out: AccelCex = vec![];
    let mut run: Vec<(ClauseId, Assignment)> = vec![];
    let flush = |run: &mut Vec<(ClauseId, Assignment)>, out: &mut AccelCex| {
        if !run.is_empty() {
            let steps = cex_back(backs, chain(std::mem::take(run)));
            out.extend(steps.into_iter().map(Link::Step));
        }
    };
    for l in cex {
        match l {
            Link::Step(s) => run.push((s.clause, s.vals)),
            Link::Segment(mut seg) => {
                flush(&mut run, &mut out);
                let ids = seg
                    .cycle
                    .iter()
                    .map(|&c| (c, Assignment::default()))
                    .collect();
                seg.cycle = cex_back(backs, chain(ids))
                    .into_iter()
                    .map(|s| s.clause)
                    .collect();
                let cls: Vec<_> = seg.cycle.iter().map(|c| &orig.clauses[c.idx()]).collect();
                let linear = cls.iter().all(|c| c.body.len() == 1 && c.head.is_some());
                if !linear
                    || cls.first()?.body[0].pred != seg.pred
                    || cls.last()?.head.as_ref()?.pred != seg.pred
                {
                    return None;
                }
                out.push(Link::Segment(seg));
            }
        }
    }
    flush(&mut run, &mut out);
    // one chain again
    for (i, l) in out.iter_mut().enumerate() {
        if let Link::Step(s) = l {
            s.premises = if i == 0 || orig.clauses[s.clause.idx()].body.is_empty() {
                vec![]
            } else {
                vec![i - 1]
            };
        }
    }
    Some(out)
}
