//! Interpolation-based lemma strengthening, behind [`super::Config::interp`] (the idea of
//! CTIGAR: Birgmeier, Bradley & Weissenbacher, *Counterexample to induction-guided
//! abstraction-refinement*, CAV 2014, where interpolants supply what cube generalization
//! does not propose).
//!
//! When the lemma `not g` learned from a blocked cube stops below the frontier (it, and
//! the second lemma, cannot be pushed), the cube generalizers may simply not have the
//! vocabulary of the invariant (`x = y`, `x + y <= 10`). An interpolant of
//!
//! ```text
//!   A = (F_{i-1} /\ trans) \/ init'        B = g'
//! ```
//!
//! over the next-state variables is implied by every state of `F_i` the frames must
//! contain, and excludes `g`. Each of its conjuncts `c`, moved back to the state variables,
//! is a candidate lemma `not (not c)`. The interpolant is checked by the interpolation
//! layer, and each candidate again here by PDR's own solver before it is used: `init /\
//! not c` and `F_{i-1} /\ trans /\ (not c)'` must be unsatisfiable, which makes it a sound
//! lemma of `F_i` (pushed as far as it holds, like any other). A candidate that fails is
//! dropped. At most [`super::Config::interp_max`] interpolation queries per run.

use super::context::cube_of;
use super::search::Search;
use crate::engine::Stop;
use crate::interp::{Interp, InterpConfig, Interpolator};
use crate::logic::*;

impl Search<'_> {
    /// Strengthens `F_level` by the checked conjuncts of an interpolant that separates the
    /// frame's successors from `g` (see the module's text). Returns the highest level one of
    /// them reached (0 if none was learned).
    pub(super) fn interp_lemmas(&mut self, level: usize, g: &[Term]) -> Result<usize, Stop> {
        if self.counters.interp_queries >= self.cfg.interp_max
            || (self.counters.interp_queries > 0
                && self.counters.interp_time.as_secs_f64()
                    > self.cfg.interp_share * self.started.elapsed().as_secs_f64())
        {
            return Ok(0);
        }
        self.counters.interp_queries += 1;
        let ts = self.ctx.ts;
        let frame = if level == 1 {
            ts.init.clone()
        } else {
            self.frame_formula(level - 1)
        };
        let a = mk_or(vec![
            mk_and(vec![frame, ts.trans.clone()]),
            ts.prime(&ts.init),
        ]);
        // every next-state variable is shared (through a copy local to B), so that the
        // interpolant may relate variables the cube does not mention
        let mut b = vec![ts.prime(&mk_and(g.to_vec()))];
        for n in &ts.next {
            let copy = Var {
                name: format!("pdr!itp!{}", n.name).into(),
                sort: n.sort,
            };
            b.push(mk_eq(mk_var_of(n), mk_var_of(&copy)));
        }
        let b = mk_and(b);
        let t = std::time::Instant::now();
        let itp = self.interpolator().binary(&a, &b);
        self.counters.interp_time += t.elapsed();
        let i = match itp {
            Interp::Interpolant(mut v) if v.len() == 1 => v.pop().unwrap(),
            other => {
                log::debug!("pdr: no interpolant for strengthening: {other:?}");
                return Ok(0);
            }
        };
        let i = ts.unprime(&i);
        log::debug!("pdr: interpolant at {level} for {g:?}: {i:?}");
        let mut top = 0;
        for c in conjuncts(&i) {
            if c.as_bool().is_some() {
                continue;
            }
            let cube = cube_of(vec![mk_not(c)]);
            if self.ctx.init_core(&cube)?.is_none() || self.ctx.trans_core(level, &cube)?.is_none()
            {
                log::debug!("pdr: an interpolant conjunct failed its check at {level}");
                continue;
            }
            if self.ctx.blocked(level, &cube)? {
                continue;
            }
            self.counters.interp_lemmas += 1;
            top = top.max(self.add_lemma(cube, level)?);
        }
        Ok(top)
    }

    /// The interpolator, started on first use with [`super::Config::interp_backends`].
    fn interpolator(&mut self) -> &mut Interpolator {
        if self.itp.is_none() {
            let mut icfg = InterpConfig::for_engine(&self.cfg.interp_backends, self.smt_cfg);
            icfg.timeout = self.cfg.interp_timeout;
            self.itp = Some(Interpolator::new(icfg));
        }
        self.itp.as_mut().unwrap()
    }
}
