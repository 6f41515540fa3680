//! The abstract domains' common interface (Hajdu & Micskei, Sect. 2.2.1: states, a partial order,
//! an expression function and a transfer function under a precision), the precision with
//! its granularity, and the satisfiability helpers the domains share.

use super::cfa::{Cfa, EdgeId, Loc};
use super::{Granularity, Refutation};
use crate::engine::Stop;
use crate::logic::*;
use crate::smt::{SatResult, Smt};

/// An abstract domain with locations (Hajdu & Micskei's `D_L`): the ARG keeps the location, the
/// domain the data state.
pub trait Domain {
    type State: Clone + std::fmt::Debug;

    /// The top state at the initial location.
    fn init(&self) -> Self::State;

    /// The transfer function `T(s, op, pi(to))`: the successors of `s` (a state at the
    /// edge's source) along edge `e`, under the precision of the edge's target. Empty when
    /// `expr(s) /\ op` is unsatisfiable.
    fn post(
        &mut self,
        smt: &mut Smt,
        cfa: &Cfa,
        s: &Self::State,
        e: EdgeId,
    ) -> Result<Vec<Self::State>, Stop>;

    /// The partial order `a ⊑ b` of two states at the same location.
    fn leq(&mut self, smt: &mut Smt, a: &Self::State, b: &Self::State) -> Result<bool, Stop>;

    /// `expr(s)`: the meaning of `s` at `loc`, over `loc`'s variables.
    fn expr(&self, cfa: &Cfa, loc: Loc, s: &Self::State) -> Term;

    /// Adds the precision that `r` (for a path through `locs`, `locs[0]` the initial
    /// location) asks for; true when something was new.
    fn refine(&mut self, cfa: &Cfa, locs: &[Loc], r: &Refutation) -> Result<bool, Stop>;

    /// Number of precision items.
    fn precision_size(&self) -> usize;
}

/// A precision `pi_L`: per location (local) or one for all (global). Items are stored over
/// the predicates' parameters `x0 ..`, so a global item applies at every location that has
/// the parameters it mentions.
#[derive(Clone, Debug)]
pub struct Precision<T> {
    granularity: Granularity,
    global: Vec<T>,
    local: Vec<Vec<T>>,
}

impl<T: Clone + PartialEq> Precision<T> {
    pub fn new(granularity: Granularity, locs: usize) -> Precision<T> {
        Precision {
            granularity,
            global: vec![],
            local: vec![vec![]; locs],
        }
    }

    /// Adds `item` at `loc` (everywhere when global); true when it was new.
    pub fn add(&mut self, loc: Loc, item: T) -> bool {
        let set = match self.granularity {
            Granularity::Global => &mut self.global,
            Granularity::Local => &mut self.local[loc.idx()],
        };
        if set.contains(&item) {
            return false;
        }
        set.push(item);
        true
    }

    /// The items at `loc` (global items still have to fit the location).
    pub fn at(&self, loc: Loc) -> &[T] {
        match self.granularity {
            Granularity::Global => &self.global,
            Granularity::Local => &self.local[loc.idx()],
        }
    }

    /// Number of items, over all locations.
    pub fn size(&self) -> usize {
        self.global.len() + self.local.iter().map(Vec::len).sum::<usize>()
    }
}

/// Is the conjunction of `fs` satisfiable? (Unknown is a stop, not an answer.)
pub fn sat(smt: &mut Smt, fs: &[Term]) -> Result<bool, Stop> {
    smt.push()?;
    for f in fs {
        smt.assert(f)?;
    }
    let r = smt.check_sat()?;
    smt.pop()?;
    match r {
        SatResult::Sat => Ok(true),
        SatResult::Unsat => Ok(false),
        SatResult::Unknown => Err(Stop::SolverUnknown),
    }
}

/// `check-sat` in the current scope.
pub fn check(smt: &mut Smt) -> Result<bool, Stop> {
    match smt.check_sat()? {
        SatResult::Sat => Ok(true),
        SatResult::Unsat => Ok(false),
        SatResult::Unknown => Err(Stop::SolverUnknown),
    }
}

/// `v != val`.
pub fn differs(v: &Var, val: &Value) -> Term {
    mk_not(mk_eq(mk_var_of(v), val.to_term()))
}

/// The atoms of `f`: its maximal subterms under the Boolean connectives.
pub fn atoms(f: &Term, out: &mut Vec<Term>) {
    match f.get() {
        TermNode::Not(a) => atoms(a, out),
        TermNode::And(ts) | TermNode::Or(ts) => ts.iter().for_each(|t| atoms(t, out)),
        TermNode::Iff(a, b) => {
            atoms(a, out);
            atoms(b, out);
        }
        TermNode::Ite(c, a, b) if a.sort() == Sort::Bool => {
            atoms(c, out);
            atoms(a, out);
            atoms(b, out);
        }
        TermNode::Bool(_) => {}
        _ => {
            if !out.contains(f) {
                out.push(f.clone())
            }
        }
    }
}
