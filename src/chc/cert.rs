//! Certificates of a clause system's answer: a [`Model`] (an interpretation of the
//! predicates), a [`Cex`] (a derivation of `false`), and an [`AccelCex`] (a linear
//! derivation where some links stand for many runs of a cycle of clauses).

use super::{ClauseId, PredId};
use crate::logic::{Assignment, Term, Value, Var};
use num_bigint::BigInt;
use rustc_hash::FxHashMap;

/// An interpretation of predicates: a formula over the predicate's [`params`](super::PredDecl::params).
/// A predicate without an entry is interpreted as `false`.
///
/// A model in a [`Verdict::Sat`](crate::Verdict::Sat) satisfies every original clause: the
/// validator checked each clause with a fresh z3 process before it was returned.
pub type Model = FxHashMap<PredId, Term>;

/// One clause application of a counterexample: the clause, values for (some of) its
/// variables, and the steps that derived its body applications.
#[derive(Clone, Debug)]
pub struct CexStep {
    pub clause: ClauseId,
    pub vals: Assignment,
    /// For each body application of the clause, in body order, the index of the earlier
    /// step whose head instance it is.
    pub premises: Vec<usize>,
}

/// A derivation of `false`: steps in an order where premises come first, the query last.
/// A linear counterexample is a chain: a fact first, each later step's only premise the
/// step before it. A non-linear one is a tree (or a DAG, when an instance is reused).
///
/// A counterexample in a [`Verdict::Unsat`](crate::Verdict::Unsat) is complete (every
/// variable of every step has a value) and was replayed by exact evaluation: each step's
/// constraint holds, each body application equals the head of its premise step, and the
/// last step is a query.
pub type Cex = Vec<CexStep>;

/// The chain `steps[0] <- steps[1] <- ..`: each step but the first has the step before it as
/// its premise (a linear counterexample; the first step must be a fact).
pub fn chain(steps: Vec<(ClauseId, Assignment)>) -> Cex {
    steps
        .into_iter()
        .enumerate()
        .map(|(i, (clause, vals))| CexStep {
            clause,
            vals,
            premises: if i == 0 { vec![] } else { vec![i - 1] },
        })
        .collect()
}

/// Is the counterexample a chain (see [`chain`])?
pub fn is_chain(cex: &Cex) -> bool {
    cex.iter().enumerate().all(|(i, s)| {
        if i == 0 {
            s.premises.is_empty()
        } else {
            s.premises == [i - 1]
        }
    })
}

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
