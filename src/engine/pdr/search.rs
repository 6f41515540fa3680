//! The PDR loop: frames of lemmas, proof obligations, blocking and propagation.

use super::cex::replay;
use super::context::{Context, Cube, Pred};
use super::ctg::CtgBlocking;
use super::generalize::{generalize, second_cube};
use super::{Config, Counters};
use crate::engine::obligations::Queue;
use crate::engine::{log_progress, Stop, TsAnswer};
use crate::logic::*;
use crate::smt::{SmtStats, SolverConfig};

/// A lemma `not cube`, stored at the highest level where it is known to hold (delta
/// encoding: it belongs to every frame `F_1 .. F_level`).
struct Lemma {
    cube: Cube,
    level: usize,
}

/// A proof obligation: every state of `cube` reaches the query in `depth` steps, and must be
/// shown unreachable in `level` steps (its depth and level are kept by the [`Queue`]).
struct Obligation {
    cube: Cube,
    /// The obligation this one is a predecessor of.
    parent: Option<usize>,
}

pub struct Search<'a> {
    pub cfg: &'a Config,
    pub ctx: Context<'a>,
    pub smt_cfg: &'a SolverConfig,
    pub counters: &'a mut Counters,
    /// SMT counters of the counterexample solver.
    pub cex_smt: SmtStats,
    lemmas: Vec<Lemma>,
    /// The frontier `N`: frames `F_0 .. F_N` exist.
    n: usize,
    /// Obligations: an arena (for the chains back to the query) and a queue by level, then
    /// depth.
    queue: Queue<Obligation>,
    /// Interpolation for [`Config::interp`], started on first use.
    pub(super) itp: Option<crate::interp::Interpolator>,
    /// When the search started (for [`Config::interp_share`]).
    pub(super) started: std::time::Instant,
}

impl<'a> Search<'a> {
    pub fn new(
        cfg: &'a Config,
        ctx: Context<'a>,
        smt_cfg: &'a SolverConfig,
        counters: &'a mut Counters,
    ) -> Search<'a> {
        Search {
            cfg,
            ctx,
            smt_cfg,
            counters,
            cex_smt: SmtStats::default(),
            lemmas: vec![],
            n: 0,
            queue: Queue::default(),
            itp: None,
            started: std::time::Instant::now(),
        }
    }

    /// The main loop: strengthen `F_N` until it excludes the query, open `F_{N+1}`, propagate.
    pub fn run(&mut self) -> Result<TsAnswer, Stop> {
        if self.ctx.init_meets_query()? {
            return self.counterexample(0, None);
        }
        self.new_level()?;
        for cube in self.cfg.seeds.clone() {
            self.add_lemma(cube, 1)?;
            self.counters.seeds += 1;
        }
        loop {
            if let Some(cex) = self.strengthen()? {
                return Ok(cex);
            }
            self.new_level()?;
            if let Some(inv) = self.propagate()? {
                return Ok(TsAnswer::Safe(inv));
            }
        }
    }

    fn new_level(&mut self) -> Result<(), Stop> {
        if self.cfg.max_frames.is_some_and(|m| self.n >= m) {
            return Err(Stop::Bound(self.n));
        }
        self.n += 1;
        self.counters.frames = self.n;
        log_progress("pdr: frame", self.n);
        self.ctx.add_level()
    }

    /// Blocks every state of `F_N` that satisfies the query; a counterexample if one cannot be.
    fn strengthen(&mut self) -> Result<Option<TsAnswer>, Stop> {
        while let Some(cube) = self.ctx.bad_cube(self.n)? {
            self.queue = Queue::default();
            self.queue
                .push(self.n, 0, Obligation { cube, parent: None });
            if let Some(cex) = self.block()? {
                return Ok(Some(cex));
            }
        }
        Ok(None)
    }

    /// Processes obligations, lowest level first, until none is left or one reaches `init`.
    fn block(&mut self) -> Result<Option<TsAnswer>, Stop> {
        while let Some(id) = self.queue.pop() {
            self.counters.obligations += 1;
            let (level, depth) = (self.queue.level(id), self.queue.depth(id));
            let cube = self.queue[id].cube.clone();
            // re-enqueued after being blocked at a lower level
            if self.queue.requeued(id)
                && (self.subsumed(level, &cube) || self.ctx.blocked(level, &cube)?)
            {
                if level < self.n {
                    self.queue.requeue(id, level + 1);
                }
                continue;
            }
            let trans_core = match self.ctx.predecessor(level, &cube)? {
                Pred::Found(pre) => {
                    if level == 1 {
                        // the predecessor's model state is initial
                        return self.counterexample(1, Some(id)).map(Some);
                    }
                    self.queue.requeue(id, level);
                    self.queue.push(
                        level - 1,
                        depth + 1,
                        Obligation {
                            cube: pre,
                            parent: Some(id),
                        },
                    );
                    continue;
                }
                Pred::Blocked(core) => core,
            };
            let Some(init_core) = self.ctx.init_core(&cube)? else {
                // an initial state in the cube reaches the query
                return self.counterexample(0, Some(id)).map(Some);
            };
            let steps = self.cfg.steps();
            let g = generalize(
                &mut self.blocking(),
                &steps,
                level,
                &cube,
                &trans_core,
                init_core,
            )?;
            let mut top = self.add_lemma(g.clone(), level)?;
            if self.cfg.second_lemma && top < self.n {
                top = top.max(self.second_lemma(level, &cube, &g)?);
            }
            if self.cfg.interp && top < self.n {
                top = top.max(self.interp_lemmas(level, &g)?);
            }
            if self.cfg.requeue && top < self.n {
                self.queue.requeue(id, top + 1);
            }
        }
        Ok(None)
    }

    /// The checks of generalization, which block counterexamples to generalization when
    /// [`Config::ctg`] is on.
    fn blocking(&mut self) -> CtgBlocking<'_, 'a> {
        CtgBlocking {
            search: self,
            depth: 0,
        }
    }

    /// Is `cube` blocked at `level` by a lemma whose cube is a subset of its literals?
    fn subsumed(&self, level: usize, cube: &[Term]) -> bool {
        self.lemmas
            .iter()
            .any(|l| l.level >= level && l.cube.iter().all(|lit| cube.contains(lit)))
    }

    /// A second lemma from `cube` besides `not g` ([`second_cube`]); returns its level (0 if
    /// none).
    fn second_lemma(&mut self, level: usize, cube: &[Term], g: &[Term]) -> Result<usize, Stop> {
        let steps = self.cfg.steps();
        match second_cube(&mut self.blocking(), &steps, level, cube, g)? {
            Some(g2) => self.add_lemma(g2, level),
            None => Ok(0),
        }
    }

    /// Adds `not cube` to `F_1 .. F_level`, pushes it as far as it goes, and drops the lemmas
    /// it subsumes. Returns its final level.
    pub(super) fn add_lemma(&mut self, cube: Cube, level: usize) -> Result<usize, Stop> {
        self.counters.lemmas += 1;
        let mut level = level;
        self.ctx.assert_lemma(&cube, level)?;
        while self.cfg.push_lemmas && level < self.n && !self.ctx.reaches(level, &cube)? {
            level += 1;
            self.ctx.assert_lemma(&cube, level)?;
        }
        // a lemma with a sub-cube of an older lemma's cube, at a level at least as high, implies it
        self.lemmas
            .retain(|l| l.level > level || !cube.iter().all(|lit| l.cube.contains(lit)));
        self.lemmas.push(Lemma { cube, level });
        Ok(level)
    }

    /// Pushes lemmas of `F_i` to `F_{i+1}` when `F_i /\ trans => lemma'`, for `i < N`. When a
    /// level ends up with no lemma of its own, `F_i = F_{i+1}` is an inductive invariant.
    fn propagate(&mut self) -> Result<Option<Term>, Stop> {
        for i in 1..self.n {
            for j in 0..self.lemmas.len() {
                if self.lemmas[j].level != i {
                    continue;
                }
                let cube = self.lemmas[j].cube.clone();
                if !self.ctx.reaches(i, &cube)? {
                    self.ctx.assert_lemma(&cube, i + 1)?;
                    self.lemmas[j].level = i + 1;
                }
            }
            if self.lemmas.iter().all(|l| l.level != i) {
                log::info!("pdr: F_{i} = F_{} after {} frames", i + 1, self.n);
                return Ok(Some(self.frame_formula(i + 1)));
            }
        }
        Ok(None)
    }

    /// `F_i` for `i >= 1`: the conjunction of the lemmas stored at level `i` or above.
    pub(super) fn frame_formula(&self, i: usize) -> Term {
        let lemmas: Vec<Term> = self
            .lemmas
            .iter()
            .filter(|l| l.level >= i)
            .map(|l| mk_not(mk_and(l.cube.clone())))
            .collect();
        mk_and(lemmas)
    }

    /// The counterexample through obligation `id` and its ancestors, placed from step
    /// `first` on (0 when `id`'s cube meets `init`, 1 when its predecessor is initial).
    fn counterexample(&mut self, first: usize, id: Option<usize>) -> Result<TsAnswer, Stop> {
        let mut cubes = vec![];
        let mut step = first;
        let mut cur = id;
        while let Some(i) = cur {
            let ob = &self.queue[i];
            cubes.push((step, ob.cube.clone()));
            step += 1;
            cur = ob.parent;
        }
        let k = match id {
            Some(i) => first + self.queue.depth(i),
            None => 0,
        };
        log::info!("pdr: counterexample of length {k}");
        let vals = replay(self.ctx.ts, self.smt_cfg, k, &cubes, &mut self.cex_smt)?;
        Ok(TsAnswer::Unsafe { k, vals })
    }
}
