//! Existential error interpolants (Tian et al., ASE 2017, Sect. III.B), made checkable: per
//! location a few error suffixes, each a path of edges from the location to the error location that
//! is feasible from some state, with a Craig interpolant that over-approximates those states.
//!
//! Update (after a spurious counterexample `l0 -e1-> .. -em-> lm`, ops `o1 .. om` at their
//! positions, see [`Cfa::op_at`]): the maximal feasible suffix `o(i+1) .. om` (the least
//! `i` with it satisfiable; `o1 .. om` is not, so `i >= 1`) starts at `li`, and
//!
//! `E(li) += (craig(o(i+1) /\ .. /\ om,  o1 /\ .. /\ oi),  e(i+1) .. em)`
//!
//! the paper's `e-interp(si) := e-interp(si) \/ craig(pf(si .. sn), pf(s0 .. si))`, keeping
//! the suffix with the disjunct. Use: the paper concludes *unsafe* when the path to a node
//! implies `E(l)`; an interpolant over-approximates, so here a node whose abstract state
//! meets an entry's interpolant is a candidate, and the path to it followed by the entry's
//! suffix is checked concretely ([`ErrorItps::jump`]): a model is the chain of clause
//! applications of a real counterexample, found without the abstraction unrolling the
//! suffix. Every `unsat` is such a chain, which the validator replays.
//!
//! Costs are bounded: suffixes of one edge (the query alone) are not kept, since the
//! abstraction takes that edge itself; at most [`MAX_ENTRIES`] suffixes per location (the
//! oldest goes), and
//! an entry is retired after [`MAX_FAILURES`] concrete checks that failed; a path prefix is
//! never checked twice with the same entry.

use super::arg::{Arg, NodeId};
use super::cfa::{Cfa, EdgeId, Loc};
use super::domain::{check, sat, Domain};
use super::refine::{concrete, feasible};
use crate::chc::Cex;
use crate::engine::Stop;
use crate::interp::{Interp, Interpolator};
use crate::logic::*;
use crate::smt::Smt;
use rustc_hash::FxHashSet;

/// Suffixes kept per location.
pub const MAX_ENTRIES: usize = 8;
/// Failed concrete checks before an entry is retired.
pub const MAX_FAILURES: usize = 16;

/// An error suffix from a location.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Over the location's variables: implied by every state from which `suffix` is feasible.
    pub itp: Term,
    /// Edges from the location to the error location.
    pub suffix: Vec<EdgeId>,
    failures: usize,
    /// The path prefixes (edge sequences) checked with this entry.
    tried: FxHashSet<Vec<EdgeId>>,
}

/// The error suffixes per location.
pub struct ErrorItps {
    enabled: bool,
    entries: Vec<Vec<Entry>>,
    /// Entries learned.
    pub learned: usize,
    /// Concrete checks of a prefix and a suffix.
    pub tried: usize,
    /// Counterexamples found by a jump.
    pub jumps: usize,
}

impl ErrorItps {
    pub fn new(cfa: &Cfa, enabled: bool) -> ErrorItps {
        ErrorItps {
            enabled,
            entries: vec![vec![]; cfa.locs()],
            learned: 0,
            tried: 0,
            jumps: 0,
        }
    }

    /// The entries at `loc`.
    pub fn at(&self, loc: Loc) -> &[Entry] {
        &self.entries[loc.idx()]
    }

    /// The update for the infeasible counterexample along `edges` (from the initial to the
    /// error location).
    pub fn learn(
        &mut self,
        smt: &mut Smt,
        itp: &mut Interpolator,
        cfa: &Cfa,
        edges: &[EdgeId],
    ) -> Result<(), Stop> {
        if !self.enabled || edges.len() < 2 {
            return Ok(());
        }
        let m = edges.len();
        let ops: Vec<Term> = (1..=m).map(|j| cfa.op_at(edges[j - 1], j)).collect();
        // the least i with o(i+1) .. om satisfiable
        smt.push()?;
        let i: Result<Option<usize>, Stop> = (|| {
            for j in (1..=m).rev() {
                smt.assert(&ops[j - 1])?;
                if !check(smt)? {
                    return Ok(Some(j));
                }
            }
            Ok(None)
        })();
        smt.pop()?;
        let Some(i) = i? else {
            // the ops alone are satisfiable: the refiner's trace check decides, not us
            return Ok(());
        };
        if i + 1 >= m {
            // no suffix, or the query alone: the abstraction takes that one edge itself
            return Ok(());
        }
        let loc = cfa.edge(edges[i - 1]).to;
        let suffix = edges[i..].to_vec();
        if self.entries[loc.idx()].iter().any(|e| e.suffix == suffix) {
            return Ok(());
        }
        let a = mk_and(ops[i..].to_vec());
        let b = mk_and(ops[..i].to_vec());
        let f = match itp.binary(&a, &b) {
            Interp::Interpolant(is) => cfa.state_from(loc, &is[0], i),
            other => {
                log::debug!("cegar: no error interpolant ({other:?})");
                return Ok(());
            }
        };
        log::debug!(
            "cegar: error interpolant at {loc:?}: {f}, a suffix of {} edges",
            suffix.len()
        );
        let es = &mut self.entries[loc.idx()];
        if es.len() >= MAX_ENTRIES {
            es.remove(0);
        }
        es.push(Entry {
            itp: f,
            suffix,
            failures: 0,
            tried: FxHashSet::default(),
        });
        self.learned += 1;
        Ok(())
    }

    /// The jump from node `n`: for an entry at its location whose interpolant its state
    /// meets, the path to `n` followed by the entry's suffix, checked concretely; a model
    /// gives the counterexample.
    pub fn jump<D: Domain>(
        &mut self,
        arg: &Arg<D::State>,
        dom: &D,
        cfa: &Cfa,
        smt: &mut Smt,
        n: NodeId,
    ) -> Result<Option<Cex>, Stop> {
        let x = arg.node(n);
        if !self.enabled || self.entries[x.loc.idx()].is_empty() {
            return Ok(None);
        }
        let expr = dom.expr(cfa, x.loc, &x.state);
        let (_, prefix) = arg.path(n);
        for k in 0..self.entries[x.loc.idx()].len() {
            let e = &self.entries[x.loc.idx()][k];
            if e.failures >= MAX_FAILURES || e.tried.contains(&prefix) {
                continue;
            }
            if !sat(smt, &[expr.clone(), e.itp.clone()])? {
                continue;
            }
            let all: Vec<EdgeId> = prefix.iter().chain(&e.suffix).copied().collect();
            let parts: Vec<Term> = (1..=all.len()).map(|j| cfa.op_at(all[j - 1], j)).collect();
            self.tried += 1;
            if let Some(model) = feasible(smt, &parts)? {
                self.jumps += 1;
                log::debug!(
                    "cegar: jump from a node at depth {} along a suffix of {} edges",
                    prefix.len(),
                    e.suffix.len()
                );
                return Ok(Some(concrete(cfa, &all, &model)?));
            }
            let e = &mut self.entries[x.loc.idx()][k];
            e.failures += 1;
            e.tried.insert(prefix.clone());
        }
        Ok(None)
    }
}
