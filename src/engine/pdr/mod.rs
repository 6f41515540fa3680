//! Property-directed reachability (IC3/PDR) for linear integer arithmetic: Hoder & Bjørner,
//! *Generalized property directed reachability* (SAT 2012), with predecessors generalized by
//! model-based projection as in Komuravelli, Gurfinkel & Chaki, *SMT-based model checking
//! for recursive programs* (CAV 2014).
//!
//! Frames `F_0 = init`, `F_1 .. F_N` are sets of lemmas over the state variables (which
//! include `loc`, so a lemma that mentions `loc` is about one predicate). They satisfy
//! `init => F_i`, `F_i => F_{i+1}` and `F_i /\ trans => F_{i+1}'`.
//! The paper's rules map to functions as follows:
//!
//! | GPDR rule | here |
//! | --- | --- |
//! | *Initialize*, *Unfold* (open `F_{N+1}`) | [`search::Search::run`] |
//! | *Candidate*: a state of `F_N` satisfies the query | [`context::Context::bad_cube`], [`search::Search::strengthen`] |
//! | *Decide*: a predecessor of an obligation in `F_{i-1}`, generalized by MBP | [`context::Context::predecessor`] |
//! | *Conflict*: the obligation is blocked, learn a lemma | `search::Search::block`, [`generalize::generalize`] |
//! | *Induction* / propagation: push lemmas forward | `search::Search::propagate` |
//! | *Valid*: `F_i = F_{i+1}` | `search::Search::propagate` (the invariant is `F_{i+1}`) |
//! | *Model*: an obligation reaches `init` | `search::Search::counterexample`, [`cex::replay`] |
//!
//! One incremental solver holds `init`, `trans` and `query` behind activation literals and
//! lemmas behind one literal per frame (see [`context`]); every query is a
//! `check-sat-assuming` (relative induction adds its clause `not g` under a push). Blocked
//! cubes are generalized by unsat cores, variable elimination, sums of bounds and literal
//! dropping (see [`generalize`]), optionally blocking counterexamples to generalization first
//! (see [`ctg`]). A counterexample is re-solved as a BMC path of the obligation
//! chain's length in a fresh solver, so it is over step-indexed variables as BMC gives it.

mod cex;
pub mod context;
mod ctg;
#[cfg(test)]
mod ctg_tests;
pub mod generalize;
mod interp;
#[cfg(test)]
mod interp_tests;
mod search;
#[cfg(test)]
mod tests;

use super::{Stop, TsAnswer, TsEngine};
use crate::smt::{Smt, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;
use context::Context;
use search::Search;

/// PDR settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// After the unsat cores, try to eliminate each variable with both an upper and a lower
    /// bound from a blocked cube (its real shadow, a larger cube), keeping the cube disjoint
    /// from `init` and inductive relative to the previous frame (default: true).
    pub eliminate_vars: bool,
    /// Then try to replace a blocked cube by the pairwise sums of its bounds, a larger cube
    /// (default: true).
    pub pair_sums: bool,
    /// Then try to drop each literal of a blocked cube, keeping the cube
    /// disjoint from `init` and inductive relative to the previous frame (default: true).
    pub drop_literals: bool,
    /// Finally raise each bound of the cube as far as it stays blocked (default: false: on
    /// every 7th problem of CHC-COMP 2025 LIA-Lin it solved 47 safe problems instead of 53,
    /// spending its queries on lemmas that literal dropping already makes general enough).
    pub weaken_bounds: bool,
    /// When a new lemma cannot be pushed to the frontier, also try to learn one from the
    /// blocked cube without that lemma's literals (default: true).
    pub second_lemma: bool,
    /// Push a new lemma to the highest frame where it holds (default: true).
    pub push_lemmas: bool,
    /// Re-enqueue a blocked obligation one level above its lemma, which finds deeper
    /// counterexamples sooner (default: true).
    pub requeue: bool,
    /// Counterexamples to generalization (Hassan, Bradley & Somenzi, *Better generalization
    /// in IC3*, FMCAD 2013): when literal dropping cannot drop a literal because a state `s`
    /// of `F_{i-1}` outside the smaller cube has a successor in it, and `s` is not initial
    /// but is blocked at `i-1`, generalize `s`, learn its lemma at `i-1` (pushed as far as it
    /// holds) and try the same literal again ([`ctg`]; default: false).
    pub ctg: bool,
    /// At most this many counterexamples to generalization blocked per literal tried
    /// (default: 3, the paper's).
    pub ctg_max: usize,
    /// How deep counterexamples to generalization nest: 1 blocks those of the blocked
    /// cube's generalization, whose own lemmas are generalized without them; 2 also blocks
    /// theirs, and so on (default: 1, the paper's).
    pub ctg_depth: usize,
    /// Interpolation-based strengthening (the CTIGAR idea, Birgmeier, Bradley &
    /// Weissenbacher, CAV 2014): when a new lemma (and the second) stops below the frontier,
    /// the conjuncts of an interpolant of `(F_{i-1} /\ trans) \/ init'` and the generalized
    /// cube, each checked, become lemmas of `F_i` ([`interp`]; default: false).
    pub interp: bool,
    /// At most this many interpolation queries per run (default: 32).
    pub interp_max: usize,
    /// Limit on one interpolation query (default: 1 s).
    pub interp_timeout: std::time::Duration,
    /// Most of the run's time so far that interpolation may have taken when a query starts
    /// (default: 0.1; the first query always starts). Without it the strengthening slowed
    /// PDR on large systems (lustre DRAGON: 10 files lost at 5 s, measured 2026-11-27 for
    /// fa9a4aa, the commit that added this limit).
    pub interp_share: f64,
    /// Interpolation backends, in order (default: our Farkas interpolants, then yices; our
    /// own projection gives the exact image of the frame, one disjunction, no lemma worth
    /// pushing).
    pub interp_backends: Vec<crate::interp::Backend>,
    /// Give up after this many frames (default: none, run until killed).
    pub max_frames: Option<usize>,
    /// Cubes whose negations are known inductive invariants ([`crate::absint`]'s, checked by
    /// the solver): lemmas of `F_1` from the start, pushed like the others (default: none).
    pub seeds: Vec<Vec<crate::logic::Term>>,
    /// Take the seeds the portfolio offers ([`TsEngine::seed`]); by default (`None`) as
    /// [`crate::absint::Seeds::by_default`] says (not when the input's clauses are
    /// non-linear: with the seed `x0 = x25` PDR misses kind2's `microwave33` counterexample,
    /// found in 0.6 s without it).
    pub use_seeds: Option<bool>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            eliminate_vars: true,
            pair_sums: true,
            drop_literals: true,
            weaken_bounds: false,
            second_lemma: true,
            push_lemmas: true,
            requeue: true,
            ctg: false,
            ctg_max: 3,
            ctg_depth: 1,
            interp: false,
            interp_max: 32,
            interp_timeout: std::time::Duration::from_secs(1),
            interp_share: 0.1,
            interp_backends: vec![
                crate::interp::Backend::Farkas,
                crate::interp::Backend::Yices,
            ],
            max_frames: None,
            seeds: vec![],
            use_seeds: None,
        }
    }
}

impl Config {
    /// The generalization steps this configuration runs.
    pub fn steps(&self) -> generalize::Steps {
        generalize::Steps {
            eliminate_vars: self.eliminate_vars,
            pair_sums: self.pair_sums,
            drop_literals: self.drop_literals,
            weaken_bounds: self.weaken_bounds,
        }
    }
}

/// Counters for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    /// The frontier `N`.
    pub frames: usize,
    /// Lemmas learned.
    pub lemmas: usize,
    /// Proof obligations processed.
    pub obligations: usize,
    /// Variables that projections replaced by their model value.
    pub mbp_substitutions: usize,
    /// Seed lemmas ([`Config::seeds`]) put in the first frame.
    pub seeds: usize,
    /// Lemmas learned from counterexamples to generalization (also counted in `lemmas`).
    pub ctg_lemmas: usize,
    /// Interpolation queries of [`Config::interp`], and the lemmas their conjuncts gave
    /// (also counted in `lemmas`).
    pub interp_queries: usize,
    pub interp_lemmas: usize,
    /// Time the interpolation queries took.
    pub interp_time: std::time::Duration,
}

pub struct Pdr {
    cfg: Config,
    counters: Counters,
    smt: SmtStats,
}

impl Pdr {
    pub fn new(cfg: Config) -> Pdr {
        Pdr {
            cfg,
            counters: Counters::default(),
            smt: SmtStats::default(),
        }
    }

    fn run(&mut self, ts: &TransitionSystem, smt_cfg: &SolverConfig) -> Result<TsAnswer, Stop> {
        let ctx = Context::new(ts, Smt::new(smt_cfg, "pdr")?)?;
        let mut search = Search::new(&self.cfg, ctx, smt_cfg, &mut self.counters);
        let r = search.run();
        let mut smt = search.ctx.smt.stats();
        smt += search.cex_smt;
        let substitutions = search.ctx.mbp_substitutions;
        self.smt = smt;
        self.counters.mbp_substitutions = substitutions;
        r
    }
}

impl TsEngine for Pdr {
    fn name(&self) -> &'static str {
        "pdr"
    }

    fn solve(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> TsAnswer {
        self.run(ts, smt).unwrap_or_else(TsAnswer::Unknown)
    }

    fn seed(&mut self, seeds: &crate::absint::Seeds) {
        if self.cfg.use_seeds.unwrap_or(seeds.by_default) && !seeds.ts_cubes.is_empty() {
            self.cfg.seeds = seeds.ts_cubes.clone();
        }
    }

    /// Every sort, arrays included (BMC, k-induction and PDR's projection work over arrays).
    fn supports(&self, _f: &crate::chc::Features) -> Result<(), &'static str> {
        Ok(())
    }

    fn stats(&self) -> crate::engine::EngineStats {
        let c = &self.counters;
        let counters = vec![
            ("frames", c.frames.into()),
            ("lemmas", c.lemmas.into()),
            ("seeds", c.seeds.into()),
            ("obligations", c.obligations.into()),
            ("mbp-model-substitutions", c.mbp_substitutions.into()),
            ("ctg-lemmas", c.ctg_lemmas.into()),
            ("interp-queries", c.interp_queries.into()),
            ("interp-lemmas", c.interp_lemmas.into()),
        ];
        crate::engine::EngineStats::new(self.smt, counters)
    }
}
