//! Spacer over the clause graph: Komuravelli, Gurfinkel, Chaki, *SMT-based model checking
//! for recursive programs* (CAV 2014), the algorithm behind z3's `fp.engine=spacer`, here
//! for clauses with any number of body predicates.
//!
//! Every predicate `P` has frames of lemmas `F(P, 0) = false, F(P, 1), .., F(P, N)`
//! (over-approximations of the valuations derivable by derivations of height at most the
//! level; delta encoding, a lemma stored at level `l` belongs to `F(P, 1) .. F(P, l)`) and
//! must-summaries (under-approximations: every valuation in one is derivable). Queries
//! derive a pseudo-predicate `false` without parameters ([`encode`]). The paper's rules map
//! to functions as follows:
//!
//! | Spacer (Fig. 2 of the paper) | here |
//! | --- | --- |
//! | *Unfold*: a new level, the query as an obligation at it | [`search::Search::run`] |
//! | *Candidate*/*Decide*: a clause has a model with bodies in `F(., l-1)`; a child obligation for the first body valuation outside the must-summaries, by MBP of the model | `search::Search::expand` |
//! | *Successor*: the bodies lie in must-summaries; a must-summary for the head by MBP | `search::Search::expand`, `search::Search::add_must` |
//! | *Conflict*: no clause has a model; a lemma, generalized by unsat cores, relative induction and literal dropping (PDR's [`generalize`](crate::engine::pdr::generalize)) | `search::Search::process`, [`context::PredBlocking`] |
//! | *Induction*/propagation: push lemmas forward | `search::Search::add_lemma`, `search::Search::propagate` |
//! | *Safe*: a level without lemmas of its own; the model is the frame above it | `search::Search::propagate`, [`Spacer::model`] |
//! | *Unsafe*: `false` gets a must-summary; its derivation tree | [`cex::derivation`] |
//!
//! Incremental solvers, one per predicate (up to [`Config::solvers`]), hold its clauses and
//! the lemmas and must-summaries at their body applications behind activation literals
//! ([`context`]); a question about a predicate with several clauses is one joint query
//! over all of them ([`Config::joint`]). Global guidance ([`global`]) proposes guesses
//! after each lemma; they are obligations like the others, except that reaching one is not
//! a counterexample.
//! With [`Config::abstraction`], [`Spacer::solve`] runs the proof-based abstraction and
//! counterexample-based refinement of Komuravelli et al. (CAV 2013) around the search
//! ([`abstraction`], which maps that paper's functions to ours).

mod abstraction;
mod cex;
mod context;
mod encode;
pub mod global;
mod search;
#[cfg(test)]
pub(crate) mod tests;

use crate::chc::ChcSystem;
use crate::chc::Model;
use crate::engine::pdr::generalize::Steps;
use crate::engine::Stop;
use crate::logic::*;
use crate::smt::{SmtStats, SolverConfig};
use context::Context;
use encode::Encoded;
use search::{Outcome, Search};

/// Spacer settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// How blocked cubes are generalized (default: as PDR's default: unsat cores, variable
    /// elimination, pairwise sums, literal dropping; no bound weakening).
    pub generalize: Steps,
    /// When a new lemma stops below the frontier, also learn one from the blocked cube
    /// without its literals or from sums of their bounds
    /// ([`second_cube`](crate::engine::pdr::generalize::second_cube)), as PDR does (default: true).
    pub second_lemma: bool,
    /// PDR's bound weakening ([`Steps::weaken_bounds`]) in the lane with global guidance:
    /// `None` (the default) on systems with arrays only, where the projection's last resort
    /// puts model values in the cubes (`x >= 11799`, blocked one value per lemma without
    /// it); Spacer without global guidance never weakens (the two lanes differ).
    pub weaken: Option<bool>,
    /// Push a new lemma to the highest level where it holds (default: true).
    pub push_lemmas: bool,
    /// Queue a blocked obligation again one level above its lemma (default: true).
    pub requeue: bool,
    /// Give up after this many levels (default: none, run until killed).
    pub max_level: Option<usize>,
    /// At most this many solver processes; the clauses defining one predicate share one, so
    /// each query sees only the clauses it is about (default: 8).
    pub solvers: usize,
    /// Global guidance (Vediramana Krishnan et al., CAV 2020): lemmas clustered by pattern,
    /// and the subsume, concretize and conjecture rules ([`global`]) (default: true: 546
    /// against 536 of the 666 LIA-Lin dev files at 5 s; docs/engines.md, "`spacer`: Spacer on the
    /// clause graph").
    pub global: bool,
    /// The proof-based abstraction and counterexample-based refinement
    /// (Komuravelli et al., CAV 2013) around the search.
    pub abstraction: bool,
    /// Ask about a predicate with several defining clauses in one query over all of them
    /// (the context's joint queries), not one per clause (default: true).
    pub joint: bool,
    /// Known inductive invariants ([`crate::absint`]'s, checked by the solver), per
    /// predicate over its parameters: lemmas of `F(P, 1)` from the start, pushed like the
    /// others; not used with [`Config::abstraction`] (default: none).
    pub seeds: Vec<(crate::chc::PredId, Term)>,
    /// Take the seeds of the [`crate::engine::Problem`]; by default (`None`) as
    /// [`crate::absint::Seeds::by_default`] says (not when the input's clauses are
    /// non-linear: on the 269 LIA dev files that stay non-linear they cost Spacer time,
    /// `graham-scan.30` 4.6 s with them and 1.1 s without, and no file).
    pub use_seeds: Option<bool>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            generalize: crate::engine::pdr::Config::default().steps(),
            second_lemma: true,
            weaken: None,
            push_lemmas: true,
            requeue: true,
            max_level: None,
            solvers: 8,
            global: true,
            abstraction: false,
            joint: true,
            seeds: vec![],
            use_seeds: None,
        }
    }
}

/// Counters for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    /// The frontier `N`.
    pub levels: usize,
    pub lemmas: usize,
    pub must_summaries: usize,
    /// Proof obligations processed.
    pub obligations: usize,
    /// Variables that projections replaced by their model value.
    pub mbp_substitutions: usize,
    /// Seed lemmas ([`Config::seeds`]) put in the first level.
    pub seeds: usize,
    /// Queries made to build the counterexample step by step ([`cex`]: 0 when its path
    /// formula was solved in one query).
    pub cex_step_queries: usize,
    /// Global guidance: clusters of two or more lemmas, and the guesses of each rule.
    pub global: global::GlobalCounters,
}

pub use crate::engine::Answer;

pub struct Spacer {
    cfg: Config,
    counters: Counters,
    smt: SmtStats,
    abs: abstraction::AbsCounters,
}

impl crate::engine::Engine for Spacer {
    fn name(&self) -> &'static str {
        "spacer"
    }

    /// On the clause graph; with [`crate::absint`]'s invariants as first lemmas unless the
    /// abstraction runs.
    fn solve(&mut self, problem: &crate::engine::Problem, smt: &SolverConfig) -> Answer {
        let take = self.cfg.use_seeds.unwrap_or(problem.seeds.by_default);
        if take && !self.cfg.abstraction {
            self.cfg.seeds = problem.seeds.per_pred.clone();
        }
        self.cfg.weaken.get_or_insert(problem.features.arrays);
        Spacer::solve(self, &problem.graph, smt)
    }

    /// Every system: the clause graph, non-linear clauses and arrays included.
    fn supports(&self, _f: &crate::chc::Features) -> Result<(), &'static str> {
        Ok(())
    }

    fn stats(&self) -> crate::engine::EngineStats {
        self.counters()
    }
}

impl Spacer {
    pub fn new(cfg: Config) -> Spacer {
        Spacer {
            cfg,
            counters: Counters::default(),
            smt: SmtStats::default(),
            abs: abstraction::AbsCounters::default(),
        }
    }

    /// Solves `sys`; the solver processes die with `smt.kill` (the caller's timeout).
    pub fn solve(&mut self, sys: &ChcSystem, smt: &SolverConfig) -> Answer {
        self.run(sys, smt).unwrap_or_else(Answer::Unknown)
    }

    fn run(&mut self, sys: &ChcSystem, smt_cfg: &SolverConfig) -> Result<Answer, Stop> {
        if self.cfg.abstraction {
            return abstraction::run(self, sys, smt_cfg);
        }
        if self.cfg.global
            && self
                .cfg
                .weaken
                .unwrap_or_else(|| crate::chc::Features::of(sys).arrays)
        {
            self.cfg.generalize.weaken_bounds = true;
        }
        let enc = Encoded::new(sys, self.cfg.joint);
        let mut ctx = Context::new(&enc, smt_cfg, self.cfg.solvers, self.cfg.joint)?;
        let mut search = Search::new(&self.cfg, &mut ctx, &mut self.counters);
        let r = search.run();
        let lemmas = std::mem::take(&mut search.lemmas);
        let musts = std::mem::take(&mut search.musts);
        let gg = search.global.as_ref().map(|g| g.counters);
        drop(search);
        if let Some(gg) = gg {
            self.counters.global = gg;
        }
        let answer = match r {
            Ok(Outcome::Safe(level)) => Ok(Answer::Safe(Self::model(sys, &lemmas, level))),
            Ok(Outcome::Unsafe(m)) => {
                cex::derivation(&mut ctx, sys, smt_cfg, &musts, m).map(|(cex, queries)| {
                    self.counters.cex_step_queries = queries;
                    Answer::Unsafe(cex)
                })
            }
            Err(e) => Err(e),
        };
        self.smt = ctx.stats();
        answer
    }

    /// `F(P, level)` for every predicate `P`: the conjunction of its lemmas stored at
    /// `level` or above.
    fn model(sys: &ChcSystem, lemmas: &[search::Lemma], level: usize) -> Model {
        sys.pred_ids()
            .map(|p| {
                let f = mk_and(
                    lemmas
                        .iter()
                        .filter(|l| l.pred == p && l.level >= level)
                        .map(|l| mk_not(mk_and(l.cube.clone())))
                        .collect(),
                );
                (p, f)
            })
            .collect()
    }

    /// Engine-specific counters for `--stats`, plus the SMT counters.
    fn counters(&self) -> crate::engine::EngineStats {
        let c = &self.counters;
        let mut counters = vec![
            ("levels", c.levels.into()),
            ("lemmas", c.lemmas.into()),
            ("seeds", c.seeds.into()),
            ("must-summaries", c.must_summaries.into()),
            ("obligations", c.obligations.into()),
            ("mbp-model-substitutions", c.mbp_substitutions.into()),
            ("cex-step-queries", c.cex_step_queries.into()),
        ];
        if self.cfg.global {
            counters.push(("gg-clusters", c.global.clusters.into()));
            counters.push(("gg-subsume", c.global.subsume.into()));
            counters.push(("gg-conjecture", c.global.conjecture.into()));
            counters.push(("gg-concretize", c.global.concretize.into()));
        }
        if self.cfg.abstraction {
            let a = &self.abs;
            counters.extend([
                ("abstraction-iterations", a.iterations.into()),
                ("abstraction-sigma", a.sigma.into()),
                ("abstraction-sigma-hat", a.sigma_hat.into()),
                ("abstraction-sigma-hat-max", a.sigma_hat_max.into()),
                ("abstraction-bound", a.bound.into()),
                ("abstraction-refinements", a.refinements.into()),
                ("abstraction-invariants", a.invariants.into()),
            ]);
        }
        crate::engine::EngineStats::new(self.smt, counters)
    }
}
