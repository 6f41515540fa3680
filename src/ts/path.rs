//! Counterexample paths of transition-system engines, indexed by step rather than by
//! step-indexed variable names, and paths with accelerated segments.
//!
//! A [`TsPath`] holds, per step, the values of the unindexed variables of `trans` (state,
//! next state, the step's locals), so mapping it back to clauses costs one evaluation per
//! step and never formats a name. An [`AccelPath`] is a path whose steps are concrete steps
//! or accelerated segments: `n` runs of a cycle of transitions described by a formula
//! `tau(s, s', n)`, with the concrete `n` and the states at both ends.

use crate::logic::{Assignment, Term, Var};
use num_bigint::BigInt;
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// A concrete path: `init` holds the values of `init`'s variables (state at step 0 and
/// init's locals), `steps[i]` those of `trans`'s variables at step `i` (state, next,
/// locals, unindexed), `query` those of `query`'s variables at the last state.
#[derive(Clone, Debug, Default)]
pub struct TsPath {
    pub init: Assignment,
    pub steps: Vec<Assignment>,
    pub query: Assignment,
}

/// `count` runs of a cycle of transitions, in one step.
#[derive(Clone, Debug)]
pub struct TsSegment {
    /// `tau(s, s', n)`: conjuncts over the state variables, the next-state variables and
    /// `n`; claimed to imply `n` runs of the cycle for every `n >= 1`.
    pub tau: Vec<Term>,
    pub n: Var,
    pub count: BigInt,
    /// The state at the start (state variables) and at the end (next-state variables).
    pub ends: Assignment,
    /// One run of the cycle seen on a trace, a step's values (state, next, locals) per
    /// transition: names the clauses the cycle takes.
    pub sample: Vec<Assignment>,
    /// The engine's own index of the transition (for expanding it).
    pub learned: usize,
}

/// One step of an [`AccelPath`].
#[derive(Clone, Debug)]
pub enum TsLink {
    Step(Assignment),
    Segment(TsSegment),
}

/// Expands an accelerated path into a concrete one before the deadline.
pub trait Expand: Send + Sync {
    fn expand(&self, path: &AccelPath, deadline: Option<Instant>) -> Result<TsPath, String>;
}

/// A path with accelerated segments, and the way to expand it into concrete steps.
#[derive(Clone)]
pub struct AccelPath {
    pub init: Assignment,
    pub links: Vec<TsLink>,
    pub query: Assignment,
    pub expander: Arc<dyn Expand>,
}

impl fmt::Debug for AccelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AccelPath")
            .field("init", &self.init)
            .field("links", &self.links)
            .field("query", &self.query)
            .finish()
    }
}

impl AccelPath {
    pub fn expand(&self, deadline: Option<Instant>) -> Result<TsPath, String> {
        self.expander.expand(self, deadline)
    }

    /// Number of segments.
    pub fn segments(&self) -> usize {
        self.links
            .iter()
            .filter(|l| matches!(l, TsLink::Segment(_)))
            .count()
    }
}
