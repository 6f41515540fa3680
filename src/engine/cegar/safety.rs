//! Universal safety interpolants (Tian et al., ASE 2017, Sect. III.A), made sound for the clause
//! graph: per location `l` a formula `S(l)` over `l`'s variables from which the error location is
//! unreachable, so that a node whose state implies `S(l)` needs no successors (it is *cut*).
//!
//! Invariant: for every edge `e: l -> l'`, `S(l) /\ op(e) => S(l')`, and `S(error) = false`
//! (every `S` starts `false`). Then no path from a state in `S(l)` reaches the error
//! location, and `S` may be added to any inductive model: [`super::model`] does.
//!
//! The paper's *full* flag (a location's interpolant holds once every successor's does) is
//! the ARG's closed part ([`Arg::closed`]): live nodes expanded along every edge, covered or
//! cut, none at the error location, whose successors (and coverers) are closed too. Before a
//! refinement prunes the ARG, [`SafetyItps::learn`] takes the states `C(l)` of the closed
//! expanded nodes at each location (they satisfy the invariant together with `S`, since the
//! abstraction over-approximates every edge) and generalizes them by one Craig interpolant
//! per location, as the paper's update does:
//!
//! `S(l) := craig(S(l) \/ C(l),  \/_{e: l -> l'} op(e) /\ not (S(l') \/ C(l')))`
//!
//! (`A` implies the interpolant, which contradicts taking any edge out of the safe sets).
//! When interpolation fails, `S(l) \/ C(l)` itself, after checking that it contradicts `B`;
//! when that check fails too, the whole update is dropped (the invariant never rests on an
//! unchecked claim). The paper checks `pf(path) => IS(l)`; we check the node's abstract state,
//! which the path implies, so the check is one small query.

use super::arg::Arg;
use super::cfa::{Cfa, Loc};
use super::domain::{sat, Domain};
use crate::engine::Stop;
use crate::interp::{Interp, Interpolator};
use crate::logic::*;
use crate::smt::Smt;
use rustc_hash::{FxHashMap, FxHashSet};

/// The safe sets `S(l)`, one formula per location.
pub struct SafetyItps {
    enabled: bool,
    /// `S(l)` per location (`false` until learned).
    sets: Vec<Term>,
    /// Per location, how often `S(l)` changed (keys the negative cache).
    generation: Vec<usize>,
    /// `expr => S(l)` answers: `(loc, expr) -> (generation, answer)`.
    cache: FxHashMap<(Loc, Term), (usize, bool)>,
    /// Per location, the closed states `S(l)` includes already (`S` only grows).
    absorbed: Vec<FxHashSet<Term>>,
    /// Nodes cut.
    pub cuts: usize,
    /// Locations whose `S` grew, summed over the updates.
    pub learned: usize,
    /// `S(l)` that came from an interpolant (the others from the closed states as they are).
    pub interpolated: usize,
}

impl SafetyItps {
    pub fn new(cfa: &Cfa, enabled: bool) -> SafetyItps {
        SafetyItps {
            enabled,
            sets: vec![mk_false(); cfa.locs()],
            generation: vec![0; cfa.locs()],
            cache: FxHashMap::default(),
            absorbed: vec![FxHashSet::default(); cfa.locs()],
            cuts: 0,
            learned: 0,
            interpolated: 0,
        }
    }

    /// `S(loc)`, over `loc`'s variables.
    pub fn at(&self, loc: Loc) -> &Term {
        &self.sets[loc.idx()]
    }

    /// `S(l)` for every location.
    pub fn sets(&self) -> &[Term] {
        &self.sets
    }

    /// Can a node at `loc` be cut at all (`S(loc)` is not `false`)?
    pub fn active(&self, loc: Loc) -> bool {
        self.enabled && self.sets[loc.idx()].as_bool() != Some(false)
    }

    /// Does the state `expr` (over `loc`'s variables) lie inside `S(loc)`? Then the node
    /// needs no successors: every path from it is safe.
    pub fn cuts(&mut self, smt: &mut Smt, loc: Loc, expr: &Term) -> Result<bool, Stop> {
        if !self.enabled || loc == Loc::INIT || loc == Loc::ERROR {
            return Ok(false);
        }
        let s = &self.sets[loc.idx()];
        if s.as_bool() == Some(false) {
            return Ok(false);
        }
        let generation = self.generation[loc.idx()];
        let key = (loc, expr.clone());
        if let Some(&(g, r)) = self.cache.get(&key) {
            if r || g == generation {
                if r {
                    self.cuts += 1;
                }
                return Ok(r);
            }
        }
        let r = s.as_bool() == Some(true) || !sat(smt, &[expr.clone(), mk_not(s.clone())])?;
        self.cache.insert(key, (generation, r));
        if r {
            self.cuts += 1;
        }
        Ok(r)
    }

    /// The update before a refinement prunes `arg`: the closed expanded nodes' states,
    /// generalized by interpolation, join `S`.
    pub fn learn<D: Domain>(
        &mut self,
        arg: &Arg<D::State>,
        dom: &D,
        cfa: &Cfa,
        smt: &mut Smt,
        itp: &mut Interpolator,
    ) -> Result<(), Stop> {
        if !self.enabled {
            return Ok(());
        }
        // C(l): the states of the closed expanded nodes, not absorbed by S(l) already
        let closed = arg.closed();
        let mut new: Vec<Vec<Term>> = vec![vec![]; cfa.locs()];
        for (i, &c) in closed.iter().enumerate() {
            let x = arg.node(super::arg::NodeId(i as u32));
            if !c || !x.expanded || x.loc == Loc::INIT || x.loc == Loc::ERROR {
                continue;
            }
            let e = dom.expr(cfa, x.loc, &x.state);
            let n = &mut new[x.loc.idx()];
            if e.as_bool() == Some(false)
                || self.absorbed[x.loc.idx()].contains(&e)
                || n.contains(&e)
            {
                continue;
            }
            n.push(e);
        }
        if new.iter().all(Vec::is_empty) {
            return Ok(());
        }
        // S'(l) = S(l) \/ C(l): closed under every edge, by the ARG
        let widened: Vec<Term> = (0..cfa.locs())
            .map(|l| {
                let mut ds = vec![self.sets[l].clone()];
                ds.extend(new[l].iter().cloned());
                mk_or(ds)
            })
            .collect();
        let mut updates = vec![];
        for l in 0..cfa.locs() {
            if new[l].is_empty() {
                continue;
            }
            let loc = Loc(l as u32);
            let a = cfa.state_at(loc, &widened[l], 0);
            let b = mk_or(
                cfa.out[l]
                    .iter()
                    .map(|&e| {
                        let to = cfa.edge(e).to;
                        let safe = cfa.state_at(to, &widened[to.idx()], 1);
                        mk_and2(cfa.op_at(e, 1), mk_not(safe))
                    })
                    .collect(),
            );
            let s = match itp.binary(&a, &b) {
                Interp::Interpolant(is) => {
                    self.interpolated += 1;
                    cfa.state_from(loc, &is[0], 0)
                }
                Interp::Sat(_) => {
                    log::warn!("cegar: the closed ARG states at {loc:?} are not safe; dropped");
                    return Ok(());
                }
                Interp::Unknown(why) => {
                    log::debug!("cegar: no safety interpolant at {loc:?} ({why})");
                    if sat(smt, &[a, b])? {
                        log::warn!("cegar: the closed ARG states at {loc:?} are not safe");
                        return Ok(());
                    }
                    widened[l].clone()
                }
            };
            // the interpolant is over `l`'s variables and implied by S(l) \/ C(l)
            updates.push((l, s));
        }
        for (l, s) in updates {
            self.absorbed[l].extend(new[l].drain(..));
            log::debug!("cegar: safety interpolant at location {l}: {s}");
            self.sets[l] = s;
            self.generation[l] += 1;
            self.learned += 1;
        }
        Ok(())
    }
}
