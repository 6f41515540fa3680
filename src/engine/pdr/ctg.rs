//! Counterexamples to generalization (Hassan, Bradley & Somenzi, *Better generalization in
//! IC3*, FMCAD 2013), behind [`super::Config::ctg`].
//!
//! Literal dropping ([`generalize`]) tries a smaller cube `h` at level `i`: `h` must be
//! inductive relative to `F_{i-1}`, `F_{i-1} /\ not h /\ trans /\ h'` unsatisfiable. When it
//! is satisfiable, the model's predecessor state `s` (a counterexample to generalization)
//! is in `F_{i-1}` only because `F_{i-1}` is too weak to exclude it, perhaps. If `s` is not
//! initial and is blocked at `i-1` (`F_{i-2} /\ not s /\ trans /\ s'` unsatisfiable), `s`
//! is generalized like any blocked cube and its lemma added at `i-1` (pushed as far as it
//! holds): a sound frame lemma, since it is disjoint from `init` and inductive relative to
//! `F_{i-2}`. Then `h` is tried again, at most [`super::Config::ctg_max`] times; otherwise
//! the literal stays, as without this. The lemmas of counterexamples are generalized with
//! their own counterexamples down to [`super::Config::ctg_depth`] nestings.

use super::context::Induction;
use super::generalize::{generalize, Blocking};
use super::search::Search;
use crate::engine::Stop;
use crate::logic::*;

/// The checks of [`Blocking`] over PDR's context, with literal dropping that blocks
/// counterexamples to generalization (when `depth < ctg_depth`) into the search's frames.
pub struct CtgBlocking<'s, 'a> {
    pub search: &'s mut Search<'a>,
    /// How many counterexample generalizations this one is nested in (0: an obligation's).
    pub depth: usize,
}

impl Blocking for CtgBlocking<'_, '_> {
    fn init_core(&mut self, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        self.search.ctx.init_core(cube)
    }
    fn inductive_core(&mut self, level: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        self.search.ctx.inductive_core(level, cube)
    }
    fn trans_core(&mut self, level: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        self.search.ctx.trans_core(level, cube)
    }
    fn drop_core(&mut self, level: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        let cfg = self.search.cfg;
        if !cfg.ctg || self.depth >= cfg.ctg_depth || level < 2 {
            return self.inductive_core(level, cube);
        }
        let mut ctgs = 0;
        loop {
            let s = match self.search.ctx.inductive_cti(level, cube)? {
                Induction::Core(core) => return Ok(Some(core)),
                Induction::Cti(Some(s)) if ctgs < cfg.ctg_max => s,
                Induction::Cti(_) => return Ok(None),
            };
            if !self.block_ctg(level - 1, &s)? {
                return Ok(None);
            }
            ctgs += 1;
        }
    }
}

impl CtgBlocking<'_, '_> {
    /// Learns a lemma at `level` (or above) that excludes the state `s`, when `s` is not
    /// initial and is inductive relative to `F_{level-1}`; returns whether it did.
    fn block_ctg(&mut self, level: usize, s: &[Term]) -> Result<bool, Stop> {
        let Some(init_core) = self.search.ctx.init_core(s)? else {
            return Ok(false);
        };
        let Some(core) = self.search.ctx.inductive_core(level, s)? else {
            return Ok(false);
        };
        log::debug!("pdr: blocking a counterexample to generalization at {level}");
        let steps = self.search.cfg.steps();
        // the core of relative induction serves as the trans core: `F /\ not s /\ trans /\
        // core'` is unsat, and each cube between `core` and `s` has `not g => not s`
        let mut nested = CtgBlocking {
            search: &mut *self.search,
            depth: self.depth + 1,
        };
        let g = generalize(&mut nested, &steps, level, s, &core, init_core)?;
        self.search.counters.ctg_lemmas += 1;
        self.search.add_lemma(g, level)?;
        Ok(true)
    }
}
