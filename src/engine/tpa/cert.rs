//! TPA's safety certificates: transition invariants among the levels (the fixpoint check),
//! and the inductive invariant over the state variables each one gives, computed by
//! model-based projection and checked before it is returned.

use super::{Search, Stop};
use crate::logic::*;
use crate::smt::SatResult;

/// Which way a level's relation is closed under one more step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    /// `ATr(s0, s1) /\ trans(s1, s2) => ATr(s0, s2)`: the image of `init` is inductive.
    Right,
    /// `trans(s0, s1) /\ ATr(s1, s2) => ATr(s0, s2)`: the states that cannot reach the
    /// query are inductive.
    Left,
}

impl Search<'_> {
    /// Looks for a transition invariant among the levels `1..=top` that makes the system
    /// safe, and returns its checked inductive invariant.
    pub(super) fn fixpoint(&mut self, top: usize) -> Result<Option<Term>, Stop> {
        for i in 1..=top.min(self.levels.len() - 1) {
            let r = self.rel(i);
            if let Some(inv) = self.closure_invariant(&r, i)? {
                return Ok(Some(inv));
            }
        }
        Ok(None)
    }

    /// When `r` (a pure relation over `s, s'` that contains `Id`, level `i`) is a right or
    /// left transition invariant and `init(s0) /\ r(s0, s1) /\ query(s1)` is unsatisfiable:
    /// the checked inductive invariant it gives.
    pub(super) fn closure_invariant(&mut self, r: &Term, i: usize) -> Result<Option<Term>, Stop> {
        let ts = self.ts;
        let (r01, r12, r02) = (
            self.between(r, 0, 1),
            self.between(r, 1, 2),
            self.between(r, 0, 2),
        );
        let init0 = ts.at(&ts.init, 0);
        // init(s0) /\ ATr_i(s0, s1) /\ query(s1): nothing bad in the closure
        let safe = mk_and(vec![init0.clone(), r01.clone(), ts.at(&ts.query, 1)]);
        let not02 = mk_not(r02);
        let right = mk_and(vec![r01.clone(), ts.at(&ts.trans, 1), not02.clone()]);
        if self.unsat(&right)? || self.unsat(&mk_and(vec![init0.clone(), right]))? {
            log::debug!("tpa: level {i} is a right transition invariant");
            if self.unsat(&safe)? {
                self.counters.fixpoints += 1;
                // exists s0. init(s0) /\ ATr(s0, s1), over s1
                let image = mk_and(vec![init0, r01]);
                if let Some(inv) = self.invariant(&image, 1, Side::Right, i)? {
                    return Ok(Some(inv));
                }
            }
        }
        let left = mk_and(vec![ts.at(&ts.trans, 0), r12, not02]);
        let query2 = ts.at(&ts.query, 2);
        if self.unsat(&left)? || self.unsat(&mk_and(vec![query2, left]))? {
            log::debug!("tpa: level {i} is a left transition invariant");
            if self.unsat(&safe)? {
                self.counters.fixpoints += 1;
                // exists s1. ATr(s0, s1) /\ query(s1), over s0 (then negated)
                let pre = mk_and(vec![self.between(r, 0, 1), ts.at(&ts.query, 1)]);
                if let Some(inv) = self.invariant(&pre, 0, Side::Left, i)? {
                    return Ok(Some(inv));
                }
            }
        }
        Ok(None)
    }

    /// A pure relation `r(s, s')` (or `Id`) as `r(s@i, s@j)`.
    pub(super) fn between(&self, r: &Term, i: usize, j: usize) -> Term {
        let ts = self.ts;
        map_vars(r, &mut |v| {
            if let Some(k) = ts.next.iter().position(|n| n == v) {
                Some(mk_var_of(&ts.at_var(&ts.state[k], j)))
            } else {
                Some(mk_var_of(&ts.at_var(v, i)))
            }
        })
    }

    /// `exists others. phi` over the state variables at `step`, renamed to the plain state
    /// variables, as a disjunction of projections; `None` when it needs too many.
    pub(super) fn image(&mut self, phi: &Term, step: usize) -> Result<Option<Term>, Stop> {
        let ts = self.ts;
        let Some(ds) = self.project_all(phi, &ts.state_at(step))? else {
            log::info!(
                "tpa: more than {} projections; no invariant",
                self.cfg.max_disjuncts
            );
            return Ok(None);
        };
        self.counters.invariant_disjuncts = ds.len();
        Ok(Some(self.back(&mk_or(ds), step)))
    }

    /// The invariant `exists others. phi` over the state variables at `step` (`Right`), or
    /// its negation (`Left`), checked; `None` (counted as dropped) when the projection needs
    /// too many disjuncts or the check fails. `i` is the level, for messages.
    pub(super) fn invariant(
        &mut self,
        phi: &Term,
        step: usize,
        side: Side,
        i: usize,
    ) -> Result<Option<Term>, Stop> {
        let Some(image) = self.image(phi, step)? else {
            self.counters.invariants_dropped += 1;
            return Ok(None);
        };
        let inv = match side {
            Side::Right => image,
            Side::Left => mk_not(image),
        };
        if self.cfg.certify && !self.certify(&inv)? {
            log::error!("tpa: the invariant of level {i} ({side:?}) fails its check (a bug)");
            self.counters.invariants_dropped += 1;
            return Ok(None);
        }
        log::info!(
            "tpa: safe: {side:?} fixpoint at level {i}, invariant of {} disjuncts",
            self.counters.invariant_disjuncts
        );
        Ok(Some(inv))
    }

    /// `exists (vars(phi) \ keep). phi` as a disjunction of model-based projections: while
    /// `phi /\ not (d1 \/ ..)` has a model, its projection is one more disjunct. `None`
    /// after `max_disjuncts`, or when the solver says unknown.
    pub(super) fn project_all(
        &mut self,
        phi: &Term,
        keep: &[Var],
    ) -> Result<Option<Vec<Term>>, Stop> {
        let max = self.cfg.max_disjuncts;
        let u = &mut self.check;
        u.push()?;
        let r = (|| {
            u.assert(phi)?;
            let mut ds = vec![];
            loop {
                match u.check()? {
                    SatResult::Unsat => return Ok(Some(ds)),
                    SatResult::Unknown => return Ok(None),
                    SatResult::Sat => {}
                }
                if ds.len() == max {
                    return Ok(None);
                }
                let m = u.model()?;
                let psi = super::project_onto(std::slice::from_ref(phi), &m, keep)?;
                u.assert(&mk_not(psi.clone()))?;
                ds.push(psi);
            }
        })();
        u.pop()?;
        r
    }

    /// `init => inv`, `inv /\ trans => inv'`, `inv /\ query` unsatisfiable.
    pub(super) fn certify(&mut self, inv: &Term) -> Result<bool, Stop> {
        let ts = self.ts;
        let conditions = [
            mk_and(vec![ts.init.clone(), mk_not(inv.clone())]),
            mk_and(vec![inv.clone(), ts.trans.clone(), mk_not(ts.prime(inv))]),
            mk_and(vec![inv.clone(), ts.query.clone()]),
        ];
        for q in &conditions {
            if !self.unsat(q)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Is `q` unsatisfiable? (`unknown` counts as no.)
    pub(super) fn unsat(&mut self, q: &Term) -> Result<bool, Stop> {
        let u = &mut self.check;
        u.push()?;
        u.assert(q)?;
        let r = u.check()?;
        u.pop()?;
        Ok(r == SatResult::Unsat)
    }
}
