//! CEGAR over the clause graph with explicit-value and predicate abstraction, refined by
//! interpolation: Hajdu & Micskei, *Efficient strategies for CEGAR-based model checking*
//! (JAR 2020), the algorithms of the Theta framework, on linear clauses; with the
//! explicit-value interpolation of Beyer & Löwe, *Explicit-state software model checking
//! based on CEGAR and interpolation* (FASE 2013, Alg. 3 and 4).
//!
//! | Hajdu & Micskei | here |
//! | --- | --- |
//! | CFA `(L, l0, E)`, error location `lE` | [`cfa::Cfa`]: a location per predicate, [`cfa::Loc::INIT`], [`cfa::Loc::ERROR`]; an edge per clause |
//! | abstract domain `D_L` with `expr`, `⊑`, transfer function `T` | [`domain::Domain`]: [`expl::Expl`], [`pred::Pred`] (Boolean, Cartesian, split) |
//! | precision `pi_L`, local or global | [`domain::Precision`], [`Granularity`] |
//! | ARG `(N, E, C)` with covered-by edges | [`arg::Arg`] |
//! | Alg. 1, abstraction, with a search order | [`arg::Abstractor`], [`search::Waitlist`] ([`Search`]) |
//! | Alg. 2, refinement: trace check, precision adjustment, pruning | [`refine::Refiner`] ([`Refinement`], [`Split`], [`Prune`]) |
//! | Alg. 3, the CEGAR loop | [`Cegar::solve`] |
//! | Sect. 3.1.1, `k`-bounded successor enumeration (`MaxEnum`) | [`expl::Expl`], [`Config::max_enum`] |
//! | Sect. 3.1.2, error-location distance search with weights | [`Search::Err`] |
//! | Sect. 3.1.3, predicate splitting | [`Split`] |
//! | Sect. 3.2.1, backward binary interpolation | [`Refinement::BwBinItp`] |
//! | Sect. 3.2.2, Alg. 5, multiple counterexamples | [`Refinement::MultiSeq`] |
//!
//! With Tian, Duan, Duan & Ong, *More effective interpolations in software model checking*
//! (ASE 2017), switched on by [`Interpolations`]:
//!
//! | Tian et al. | here |
//! | --- | --- |
//! | reachability interpolants (r-interp) | the refinement's, as above |
//! | universal safety interpolant `(F, IS)` at a location, Def. 2 | [`safety::SafetyItps`]: `S(l)`, checked safe (closed under every edge, `false` at the error location) |
//! | `F = full`: every successor's interpolant full | [`arg::Arg::closed`]: the ARG's closed nodes, all successors (or the coverer) closed |
//! | update of `IS` by `craig(pf(s0..si), pf(si, ei, si+1) /\ not IS(si+1))` | [`safety::SafetyItps::learn`]: `craig(S(l) \/ C(l), \/_e op(e) /\ not S'(l'))` over every edge out of `l`, before each pruning |
//! | use: `pf(s0..si) => IS(l)`, the subtree is safe | the node's state implies `S(l)`: cut, not expanded ([`arg::Node::cut`]); `S` joins the model |
//! | existential error interpolant `IE`, Def. 3, from the maximal feasible suffix | [`error::ErrorItps::learn`]: `craig(o(i+1)..om, o1..oi)` at `li`, kept with the suffix `e(i+1)..em` |
//! | use: `pf(s0..si) => IE(l)`, unsafe | the node's state meets the interpolant: the path to it plus the suffix is checked concretely and a model is the counterexample ([`error::ErrorItps::jump`], [`arg::Found::Cex`]) |
//! | Sect. IV, CFG pruning and weight-guided search | not implemented ([`Search::Err`] orders by error distance) |
//!
//! Answers: safe with a model (per predicate, the disjunction of the `expr` of the ARG nodes
//! at its location and of its safety interpolant, a formula over its parameters); unsafe
//! with the chain of clause applications of a feasible trace (one the refiner checked, or
//! a jump's prefix and error suffix, checked the same way). Not implemented: the combined
//! prune-index strategies (Sect. 3.2.3, `MAX_PRUNE`, `MIN_PRUNE`); the command line does not
//! offer them.

pub mod arg;
pub mod cfa;
pub mod domain;
pub mod error;
pub mod expl;
pub mod pred;
pub mod refine;
pub mod safety;
pub mod search;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_itp;

use crate::chc::ChcSystem;
use crate::chc::Model;
use crate::engine::named::named;
pub use crate::engine::Answer;
use crate::engine::Named;
use crate::engine::Stop;
use crate::interp::{Backend, InterpConfig, Interpolator};
use crate::logic::*;
use crate::smt::{Smt, SmtStats, SolverConfig};
use arg::{Abstractor, Arg, Found};
use cfa::{Cfa, Loc};
use domain::Domain;
use error::ErrorItps;
use refine::{Outcome, Refiner};
use safety::SafetyItps;
use std::fmt;
use std::str::FromStr;

/// The abstract domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomainKind {
    /// Explicit values of tracked variables (Hajdu & Micskei, Sect. 2.2.1, with `MaxEnum`).
    Expl,
    /// Boolean predicate abstraction: any Boolean combination of the predicates, by all-SAT.
    PredBool,
    /// Cartesian predicate abstraction: the strongest conjunction of predicates and
    /// negations, one entailment query per predicate (the default, Theta's).
    PredCart,
    /// Boolean predicate abstraction with each disjunct a successor state of its own.
    PredSplit,
}

/// How an infeasible abstract counterexample becomes new precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refinement {
    /// Sequence interpolants along the whole trace (the default).
    SeqItp,
    /// Binary interpolant at the end of the longest feasible prefix.
    FwBinItp,
    /// Binary interpolant at the start of the longest feasible suffix (Hajdu &
    /// Micskei, Sect. 3.2.1).
    BwBinItp,
    /// The variables of an unsat core of the trace (`expl` only).
    UnsatCore,
    /// Sequence interpolants for every counterexample of a fully expanded ARG, refining a
    /// minimal set of them (Hajdu & Micskei, Sect. 3.2.2).
    MultiSeq,
    /// Beyer & Löwe's explicit-value interpolation (FASE 2013, Alg. 4), satisfiability
    /// checks only (`expl` only); where explicit values cannot refute the trace, the
    /// unsat core's variables.
    ExplItp,
}

/// The search order of the waitlist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Breadth first (the default).
    Bfs,
    /// Depth first.
    Dfs,
    /// Least `w_e * d_E(l) + w_d * depth` first, `d_E` the CFA distance to the error
    /// location (Hajdu & Micskei, Sect. 3.1.2); ties breadth first. `err` is `w_e = 1, w_d = 0`.
    Err { w_e: u32, w_d: u32 },
}

impl FromStr for Search {
    type Err = String;
    fn from_str(s: &str) -> Result<Search, String> {
        match s {
            "bfs" => Ok(Search::Bfs),
            "dfs" => Ok(Search::Dfs),
            "err" => Ok(Search::Err { w_e: 1, w_d: 0 }),
            _ => {
                let bad = || format!("expected bfs, dfs, err or err:WE:WD, not `{s}`");
                let rest = s.strip_prefix("err:").ok_or_else(bad)?;
                let (a, b) = rest.split_once(':').ok_or_else(bad)?;
                Ok(Search::Err {
                    w_e: a.parse().map_err(|_| bad())?,
                    w_d: b.parse().map_err(|_| bad())?,
                })
            }
        }
    }
}

impl fmt::Display for Search {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Search::Bfs => write!(f, "bfs"),
            Search::Dfs => write!(f, "dfs"),
            Search::Err { w_e, w_d } => write!(f, "err:{w_e}:{w_d}"),
        }
    }
}

/// How an interpolant becomes predicates (Hajdu & Micskei, Sect. 3.1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// The interpolant as one predicate (the default).
    Whole,
    /// Each conjunct a predicate.
    Conjuncts,
    /// Each atom a predicate.
    Atoms,
}

/// Precision per location or one for all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Granularity {
    /// One precision for every location (items over parameter positions `x0 ..`, applied
    /// wherever the location has those parameters).
    Global,
    /// A precision per location (the default).
    Local,
}

/// What a refinement removes from the ARG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prune {
    /// The subtrees below the parent of the earliest node whose precision the refutation
    /// changes (the default; lazy abstraction).
    Lazy,
    /// Everything but the root.
    Full,
}

/// Tian et al.'s interpolants besides the refinement's (reachability) ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolations {
    /// The refinement's only (the default; Tian et al.'s `R`).
    Plain,
    /// Universal safety interpolants that cut nodes whose subtrees are proven safe (`R+S`).
    Safety,
    /// Existential error interpolants that jump to a counterexample (`R+E`).
    Error,
    /// Both (`R+S+E`).
    SafetyError,
}

// The names `--cegar-*` takes (the variants' docs say what each does).
named!(DomainKind { Expl = "expl", PredBool = "pred-bool", PredCart = "pred-cart", PredSplit = "pred-split" });
named!(Refinement { SeqItp = "seq-itp", FwBinItp = "fw-bin-itp", BwBinItp = "bw-bin-itp", UnsatCore = "unsat-core", MultiSeq = "multi-seq", ExplItp = "expl-itp" });
named!(Split { Whole = "whole", Conjuncts = "conjuncts", Atoms = "atoms" });
named!(Granularity { Global = "global", Local = "local" });
named!(Prune { Lazy = "lazy", Full = "full" });
named!(Interpolations { Plain = "plain", Safety = "safety", Error = "error", SafetyError = "safety-error" });

impl Interpolations {
    fn safety(self) -> bool {
        matches!(self, Interpolations::Safety | Interpolations::SafetyError)
    }

    fn error(self) -> bool {
        matches!(self, Interpolations::Error | Interpolations::SafetyError)
    }
}

/// CEGAR settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Default: `pred-cart`.
    pub domain: DomainKind,
    /// Default: `seq-itp`.
    pub refinement: Refinement,
    /// Default: `bfs`.
    pub search: Search,
    /// Default: `whole`.
    pub split: Split,
    /// Default: `local`.
    pub precision: Granularity,
    /// Default: `lazy`.
    pub prune: Prune,
    /// `expl` only: at most this many successors enumerated per edge before the tracked
    /// variables a transition leaves open become unknown; 0 means no limit (default: 1).
    pub max_enum: usize,
    /// `multi-seq` only: the abstraction stops after this many error nodes; 0 means it
    /// explores everything (default: 16).
    pub max_cex: usize,
    /// Tian et al.'s safety and error interpolants (default: `plain`, none).
    pub itp: Interpolations,
    /// Interpolation backends in order of preference (default: SMTInterpol, z3, yices, own,
    /// cvc5: proof-based interpolants first, which generalize better than projections).
    pub backends: Vec<Backend>,
    /// Give up after this many refinements (default: none).
    pub max_refinements: Option<usize>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            domain: DomainKind::PredCart,
            refinement: Refinement::SeqItp,
            search: Search::Bfs,
            split: Split::Whole,
            precision: Granularity::Local,
            prune: Prune::Lazy,
            max_enum: 1,
            max_cex: 16,
            itp: Interpolations::Plain,
            // SMTInterpol answers a whole sequence in one call, when the user has it; the
            // others by binary calls: Farkas and yices in milliseconds, z3's
            // `get-interpolant` in seconds each (bench-chc/cegar/locs-unsat: 9 z3 queries
            // took 26 s), so z3 and cvc5 come last
            backends: vec![
                Backend::SmtInterpol,
                Backend::Farkas,
                Backend::Yices,
                Backend::Own,
                Backend::Z3,
                Backend::Cvc5,
            ],
            max_refinements: None,
        }
    }
}

impl Config {
    /// Rejects the combinations that do not exist.
    pub fn check(&self) -> Result<(), String> {
        let expl_only = matches!(self.refinement, Refinement::UnsatCore | Refinement::ExplItp);
        if expl_only && self.domain != DomainKind::Expl {
            let name = self.refinement.name();
            return Err(format!(
                "cegar: refinement {name} gives variables, so it needs the expl domain"
            ));
        }
        Ok(())
    }
}

/// What a refinement learned about a path `l0 .. lm` (`l0` initial, `lm` the error):
/// something for each position `1 .. m-1`.
#[derive(Clone, Debug)]
pub enum Refutation {
    /// Formulas `I0 = true, I1 .. I(m-1), Im = false`, `Ij` over `lj`'s variables, each
    /// implied by the path up to `lj` and contradicting the rest.
    Itp(Vec<Term>),
    /// Per position `0 .. m`, the indices of `lj`'s variables to track.
    Vars(Vec<Vec<usize>>),
}

impl Refutation {
    /// The first position whose precision the refutation may change (`1 ..`).
    pub fn prune_index(&self) -> usize {
        let n = match self {
            Refutation::Itp(is) => is.len(),
            Refutation::Vars(vs) => vs.len(),
        };
        (1..n.saturating_sub(1))
            .find(|&j| match self {
                Refutation::Itp(is) => is[j].as_bool() != Some(true),
                Refutation::Vars(vs) => !vs[j].is_empty(),
            })
            .unwrap_or(1)
    }
}

/// Counters for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    pub iterations: usize,
    /// ARG nodes created.
    pub nodes: usize,
    pub covered: usize,
    pub refinements: usize,
    /// Precision items at the end.
    pub precision: usize,
    /// Refinements that fell back to sequence interpolants.
    pub fallbacks: usize,
    /// Tian et al.: safety interpolants learned (per location and update), nodes cut by them.
    pub safety_itps: usize,
    pub cuts: usize,
    /// Tian et al.: error interpolants learned, jumps tried (concrete checks), jumps that found
    /// the counterexample.
    pub error_itps: usize,
    pub jumps_tried: usize,
    pub jumps: usize,
}

pub struct Cegar {
    cfg: Config,
    counters: Counters,
    smt: SmtStats,
    /// The safety interpolants at the end, per location (all `false` unless learned).
    safe_sets: Vec<Term>,
}

impl crate::engine::Engine for Cegar {
    fn name(&self) -> &'static str {
        "cegar"
    }

    fn solve(&mut self, problem: &crate::engine::Problem, smt: &SolverConfig) -> Answer {
        Cegar::solve(self, &problem.graph, smt)
    }

    /// Linear clauses (a control-flow automaton) without arrays (its interpolants).
    fn supports(&self, f: &crate::chc::Features) -> Result<(), &'static str> {
        match f.beyond(false, false) {
            Some(what) => Err(what),
            None => Ok(()),
        }
    }

    fn stats(&self) -> crate::engine::EngineStats {
        self.counters()
    }
}

impl Cegar {
    pub fn new(cfg: Config) -> Cegar {
        Cegar {
            cfg,
            counters: Counters::default(),
            smt: SmtStats::default(),
            safe_sets: vec![],
        }
    }

    /// Solves `sys` (linear clauses only; otherwise unknown); the solver processes die with
    /// `smt.kill`.
    pub fn solve(&mut self, sys: &ChcSystem, smt: &SolverConfig) -> Answer {
        self.run(sys, smt).unwrap_or_else(Answer::Unknown)
    }

    fn run(&mut self, sys: &ChcSystem, smt_cfg: &SolverConfig) -> Result<Answer, Stop> {
        self.cfg.check().map_err(Stop::Unsupported)?;
        let cfa = Cfa::new(sys).ok_or_else(|| Stop::Unsupported("non-linear clauses".into()))?;
        let c = &self.cfg;
        log::info!(
            "cegar: {:?} domain, {:?} refinement, {} search, {:?} split, {:?} precision, {:?} pruning, {:?} interpolations",
            c.domain,
            c.refinement,
            c.search,
            c.split,
            c.precision,
            c.prune,
            c.itp
        );
        let mut smt = Smt::new(smt_cfg, "cegar")?;
        let icfg = InterpConfig::for_engine(&self.cfg.backends, smt_cfg);
        let mut itp = Interpolator::new(icfg);
        let cfg = self.cfg.clone();
        let r = match cfg.domain {
            DomainKind::Expl => {
                let d = expl::Expl::new(&cfa, cfg.precision, cfg.max_enum);
                self.cegar(sys, &cfa, d, &mut smt, &mut itp, smt_cfg)
            }
            DomainKind::PredBool | DomainKind::PredCart | DomainKind::PredSplit => {
                let d = pred::Pred::new(&cfa, cfg.domain, cfg.precision, cfg.split);
                self.cegar(sys, &cfa, d, &mut smt, &mut itp, smt_cfg)
            }
        };
        self.smt = smt.stats();
        r
    }

    /// Alg. 3: abstraction and refinement until a complete ARG or a feasible trace.
    fn cegar<D: Domain>(
        &mut self,
        sys: &ChcSystem,
        cfa: &Cfa,
        mut dom: D,
        smt: &mut Smt,
        itp: &mut Interpolator,
        smt_cfg: &SolverConfig,
    ) -> Result<Answer, Stop> {
        let mut arg = Arg::new(dom.init());
        let safety = SafetyItps::new(cfa, self.cfg.itp.safety());
        let error = ErrorItps::new(cfa, self.cfg.itp.error());
        let mut abstractor = Abstractor::new(self.cfg.search, cfa, safety, error);
        abstractor.restart(&arg);
        let mut refiner = Refiner::new(&self.cfg);
        loop {
            if smt_cfg.kill.is_killed() {
                return Err(Stop::Killed);
            }
            self.counters.iterations += 1;
            crate::engine::log_progress("cegar: iteration", self.counters.iterations);
            let errors = match self.cfg.refinement {
                Refinement::MultiSeq if self.cfg.max_cex == 0 => usize::MAX,
                Refinement::MultiSeq => self.cfg.max_cex,
                _ => 1,
            };
            let found = abstractor.run(&mut arg, &mut dom, cfa, smt, &smt_cfg.kill, errors);
            self.counters.nodes = arg.created();
            self.counters.covered = abstractor.covered;
            self.count(&abstractor);
            let found = match found? {
                Found::Cex(cex) => return Ok(Answer::Unsafe(cex)),
                Found::Errors(found) => found,
            };
            if found.is_empty() {
                self.counters.precision = dom.precision_size();
                return Ok(Answer::Safe(model(
                    sys,
                    cfa,
                    &arg,
                    &dom,
                    &abstractor.safety,
                )));
            }
            if self
                .cfg
                .max_refinements
                .is_some_and(|m| self.counters.refinements >= m)
            {
                return Err(Stop::Bound(self.counters.refinements));
            }
            let refined = refiner.refine(&mut arg, &mut dom, cfa, smt, itp, &found);
            self.counters.fallbacks = refiner.fallbacks;
            match refined? {
                Outcome::Cex(cex) => return Ok(Answer::Unsafe(cex)),
                Outcome::Refined { prune_at } => {
                    self.counters.refinements += 1;
                    // Tian et al.: learn from the ARG before pruning, and from the refuted paths
                    abstractor.safety.learn(&arg, &dom, cfa, smt, itp)?;
                    for edges in &refiner.infeasible {
                        abstractor.error.learn(smt, itp, cfa, edges)?;
                    }
                    self.count(&abstractor);
                    match self.cfg.prune {
                        Prune::Lazy => prune_at.into_iter().for_each(|n| arg.prune_below_parent(n)),
                        Prune::Full => arg.prune_all(),
                    }
                    abstractor.restart(&arg);
                }
            }
        }
    }

    fn count(&mut self, a: &Abstractor) {
        let c = &mut self.counters;
        c.safety_itps = a.safety.learned;
        c.cuts = a.safety.cuts;
        c.error_itps = a.error.learned;
        c.jumps_tried = a.error.tried;
        c.jumps = a.error.jumps;
        self.safe_sets = a.safety.sets().to_vec();
    }

    /// Engine-specific counters for `--stats`, plus the SMT counters.
    fn counters(&self) -> crate::engine::EngineStats {
        let c = &self.counters;
        let mut counters = vec![
            ("iterations", c.iterations.into()),
            ("arg-nodes", c.nodes.into()),
            ("covered", c.covered.into()),
            ("refinements", c.refinements.into()),
            ("precision", c.precision.into()),
            ("seq-itp-fallbacks", c.fallbacks.into()),
        ];
        if self.cfg.itp != Interpolations::Plain {
            counters.extend([
                ("safety-itps", c.safety_itps.into()),
                ("safety-cuts", c.cuts.into()),
                ("error-itps", c.error_itps.into()),
                ("jumps-tried", c.jumps_tried.into()),
                ("jumps", c.jumps.into()),
            ]);
        }
        crate::engine::EngineStats::new(self.smt, counters)
    }
}

/// The model of a complete ARG: per predicate, the disjunction of `expr` of its nodes and
/// of its safety interpolant (closed under every edge), over its parameters (a predicate
/// without nodes or safety interpolant is `false`).
fn model<D: Domain>(
    sys: &ChcSystem,
    cfa: &Cfa,
    arg: &Arg<D::State>,
    dom: &D,
    safety: &SafetyItps,
) -> Model {
    sys.pred_ids()
        .map(|p| {
            let l = Loc::of(p);
            let mut ds: Vec<Term> = arg
                .nodes_at(l)
                .filter(|&n| !arg.node(n).cut)
                .map(|n| dom.expr(cfa, l, &arg.node(n).state))
                .collect();
            ds.push(safety.at(l).clone());
            (p, cfa.to_params(l, &mk_or(ds)))
        })
        .collect()
}
