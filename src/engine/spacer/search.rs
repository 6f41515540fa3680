//! The Spacer loop: proof obligations over predicates, must-summaries, lemmas and
//! propagation.

use super::context::{Clauses, Context, Joint, Query};
use super::global::Global;
use super::{Config, Counters};
use crate::chc::PredId;
use crate::engine::log_progress;
use crate::engine::obligations::Queue;
use crate::engine::pdr::context::{cube_of, Cube};
use crate::engine::pdr::generalize::{generalize, second_cube};
use crate::engine::Stop;
use crate::logic::mbp::project;
use crate::logic::*;

/// A lemma `not cube` of a predicate, stored at the highest level where it is known to hold
/// (delta encoding: it belongs to `F(pred, 1) .. F(pred, level)`).
pub struct Lemma {
    pub pred: PredId,
    pub cube: Cube,
    pub level: usize,
    /// The last failed attempt to push it: its level then, and [`Search::body_epoch`].
    failed_push: Option<(usize, u64)>,
}

/// A must-summary: every valuation of `cube` (over the predicate's parameters) is derivable,
/// by `clause` from valuations of the must-summaries `premises` (one per body application).
pub struct Must {
    pub pred: PredId,
    pub cube: Cube,
    pub clause: usize,
    pub premises: Vec<usize>,
}

/// A proof obligation: is some valuation of `cube` derivable for `pred` by a derivation of
/// height at most `level`? (Its level and depth are kept by the [`Queue`].)
struct Obligation {
    pred: PredId,
    cube: Cube,
    /// A guess of global guidance or a child of one: blocking it adds a lemma, reaching it
    /// only adds a must-summary, and it is not queued again above its lemma. Guesses take at
    /// most a third of the obligations processed ([`Search::may_budget`]).
    may: bool,
    /// A valuation in the cube, when it came from a model (for global guidance's concretize).
    point: Option<Assignment>,
}

/// How a search ended.
pub enum Outcome {
    /// `F(., level)` is a fixpoint: the lemmas of every real predicate at `level` and above.
    Safe(usize),
    /// The query predicate has this must-summary.
    Unsafe(usize),
}

pub struct Search<'c, 'a> {
    cfg: &'c Config,
    pub ctx: &'c mut Context<'a>,
    counters: &'c mut Counters,
    pub lemmas: Vec<Lemma>,
    pub musts: Vec<Must>,
    /// The frontier `N`: levels `0 ..= N` exist.
    n: usize,
    /// Obligations: an arena and a queue by level, then depth.
    queue: Queue<Obligation>,
    /// Global guidance's clusters, when it is on.
    pub global: Option<Global>,
    /// Obligations processed that are guesses (or their children), and the others.
    may_work: usize,
    normal_work: usize,
    /// Per predicate, how many times a lemma was asserted for it (at any level): a frame
    /// `F(P, i)` is unchanged while this count is.
    epochs: Vec<u64>,
    /// Per predicate, the predicates of the body applications of the clauses defining it.
    body_preds: Vec<Vec<PredId>>,
    /// Some clause has two or more body applications.
    non_linear: bool,
}

impl<'c, 'a> Search<'c, 'a> {
    pub fn new(
        cfg: &'c Config,
        ctx: &'c mut Context<'a>,
        counters: &'c mut Counters,
    ) -> Search<'c, 'a> {
        let enc = ctx.enc;
        Search {
            cfg,
            ctx,
            counters,
            lemmas: vec![],
            musts: vec![],
            n: 0,
            queue: Queue::default(),
            global: cfg.global.then(Global::default),
            may_work: 0,
            normal_work: 0,
            epochs: vec![0; enc.params.len()],
            body_preds: (0..enc.params.len())
                .map(|p| {
                    let mut preds: Vec<PredId> = enc.defining[p]
                        .iter()
                        .flat_map(|&c| enc.clauses[c].body.iter().map(|b| b.pred))
                        .collect();
                    preds.sort_by_key(|q| q.0);
                    preds.dedup();
                    preds
                })
                .collect(),
            non_linear: enc.clauses.iter().any(|c| c.body.len() > 1),
        }
    }

    /// A stamp of the frames that pushing a lemma of `pred` reads: the sum of the epochs of
    /// its body predicates (epochs only grow, so the sum changes when one of them does).
    fn body_epoch(&self, pred: PredId) -> u64 {
        self.body_preds[pred.idx()]
            .iter()
            .map(|q| self.epochs[q.idx()])
            .sum()
    }

    /// Opens level `N + 1`, asks whether the query is derivable at height `N + 1`, blocks or
    /// refutes, propagates; until a fixpoint or a derivation of the query.
    pub fn run(&mut self) -> Result<Outcome, Stop> {
        let query = self.ctx.enc.query_pred;
        loop {
            if self.cfg.max_level.is_some_and(|m| self.n >= m) {
                return Err(Stop::Bound(self.n));
            }
            self.n += 1;
            self.counters.levels = self.n;
            log_progress("spacer: level", self.n);
            self.ctx.add_level()?;
            if self.n == 1 {
                for (p, inv) in self.cfg.seeds.clone() {
                    self.add_lemma(p, vec![mk_not(inv)], 1)?;
                    self.counters.seeds += 1;
                }
            }
            self.queue = Queue::default();
            self.queue.push(
                self.n,
                0,
                Obligation {
                    pred: query,
                    cube: vec![],
                    may: false,
                    point: None,
                },
            );
            if let Some(m) = self.process()? {
                return Ok(Outcome::Unsafe(m));
            }
            if let Some(level) = self.propagate()? {
                return Ok(Outcome::Safe(level));
            }
        }
    }

    /// Processes obligations, lowest level first, until none is left or the query predicate
    /// gets a must-summary (returned).
    fn process(&mut self) -> Result<Option<usize>, Stop> {
        let query = self.ctx.enc.query_pred;
        while let Some(id) = self.queue.pop() {
            self.counters.obligations += 1;
            let (level, depth) = (self.queue.level(id), self.queue.depth(id));
            let ob = &self.queue[id];
            let (pred, cube, may) = (ob.pred, ob.cube.clone(), ob.may);
            if log::log_enabled!(log::Level::Debug) {
                log::debug!(
                    "spacer: obligation {id} P{} level {level}: {}",
                    pred.0,
                    show(&cube)
                );
            }
            if self.subsumed(pred, level, &cube) {
                continue;
            }
            if may {
                if !self.may_budget() {
                    continue;
                }
                self.may_work += 1;
            } else {
                self.normal_work += 1;
                let ob = &self.queue[id];
                if let (Some(g), Some(point)) = (self.global.as_mut(), ob.point.as_ref()) {
                    if let Some(gs) = g.concretize(pred, &cube, point, level) {
                        log::debug!("spacer: global guidance Concretize for P{}", pred.0);
                        self.queue.push(
                            gs.level,
                            depth,
                            Obligation {
                                pred,
                                cube: gs.cube,
                                may: true,
                                point: None,
                            },
                        );
                    }
                }
            }
            match self.expand(id)? {
                Step::Reached(m) => {
                    if pred == query && !may {
                        return Ok(Some(m));
                    }
                    // the parent, queued above this obligation, is asked again
                }
                Step::Child => {}
                Step::Blocked {
                    trans_core,
                    init_core,
                } => {
                    let mut b = self.ctx.blocking(pred);
                    let g = generalize(
                        &mut b,
                        &self.cfg.generalize,
                        level,
                        &cube,
                        &trans_core,
                        init_core,
                    )?;
                    let mut top = self.add_lemma(pred, g.clone(), level)?;
                    if self.cfg.second_lemma && top < self.n {
                        let mut b = self.ctx.blocking(pred);
                        let second = second_cube(&mut b, &self.cfg.generalize, level, &cube, &g)?;
                        if let Some(g2) = second {
                            top = top.max(self.add_lemma(pred, g2, level)?);
                        }
                    }
                    let guess = self
                        .global
                        .as_mut()
                        .and_then(|gl| gl.on_lemma(pred, &g, top, &cube, level));
                    if self.cfg.requeue && !may && top < self.n {
                        self.queue.requeue(id, top + 1);
                    }
                    if let Some(gs) = guess {
                        log::debug!("spacer: global guidance {:?} for P{}", gs.rule, gs.pred.0);
                        self.queue.push(
                            gs.level,
                            depth,
                            Obligation {
                                pred: gs.pred,
                                cube: gs.cube,
                                may: true,
                                point: None,
                            },
                        );
                    }
                }
            }
        }
        Ok(None)
    }

    /// May one more guess (or child of one) be processed? Guesses are evidence-driven but
    /// unbounded: they get at most a third of the work, so that a counterexample search is
    /// slowed down by at most half.
    fn may_budget(&self) -> bool {
        2 * self.may_work <= self.normal_work
    }

    /// Is `cube` blocked at `level` by a lemma whose cube is a subset of its literals?
    fn subsumed(&self, pred: PredId, level: usize, cube: &[Term]) -> bool {
        self.lemmas.iter().any(|l| {
            l.pred == pred && l.level >= level && l.cube.iter().all(|lit| cube.contains(lit))
        })
    }

    /// One step on obligation `id`: each clause defining its predicate is asked, with body
    /// applications in `F(., level - 1)`, for a valuation in the cube.
    ///
    /// With joint queries (a predicate with several clauses, `Config::joint`), the facts are
    /// one query and the other clauses one more; the clause the model turns on is the only
    /// one with a model, and in a non-linear system one query asks whether the
    /// must-summaries give the whole body of any clause.
    /// - No clause has a model: blocked, with the cores of the facts and of the other clauses.
    /// - A clause has a model with every body application in a must-summary: a new
    ///   must-summary for the predicate (*reach*).
    /// - Else, a clause with a model whose body the must-summaries give entirely (one query
    ///   per clause; in a linear system, the first clause only): reach.
    /// - Else, for the first clause with a model, with `k` the longest prefix of body
    ///   applications that the must-summaries can give (the others in their frames), shorter
    ///   than the body: a child obligation for application `k`, the
    ///   projection of that model onto it; the obligation is queued again above it. When the
    ///   child is reached, the prefix grows; when it is blocked, the frame shrinks.
    fn expand(&mut self, id: usize) -> Result<Step, Stop> {
        let (level, depth) = (self.queue.level(id), self.queue.depth(id));
        let ob = &self.queue[id];
        let (pred, cube, may) = (ob.pred, ob.cube.clone(), ob.may);
        let enc = self.ctx.enc;
        let mut trans_core = vec![];
        let mut init_core = vec![];
        let mut open = vec![];
        let joint = self.ctx.is_joint(pred);
        if joint {
            // one query for the facts, one for the other clauses
            let model = match self.ctx.may_any(pred, Clauses::Facts, level - 1, &cube)? {
                Joint::Unsat(core) => {
                    init_core = core;
                    self.ctx.may_any(pred, Clauses::Rules, level - 1, &cube)?
                }
                sat => sat,
            };
            match model {
                Joint::Unsat(core) => trans_core = core,
                Joint::Sat(c, model) => {
                    let covered = self.covering(c, &model);
                    if covered.iter().all(Option::is_some) {
                        return self.reached(c, &model, covered);
                    }
                    open.push((c, model));
                }
            }
        }
        let each = if joint {
            vec![]
        } else {
            enc.defining[pred.idx()].clone()
        };
        for c in each {
            let model = match self.ctx.may(c, level - 1, &cube)? {
                Query::Unsat(core) => {
                    if enc.clauses[c].body.is_empty() {
                        init_core.extend(core);
                    } else {
                        trans_core.extend(core);
                    }
                    continue;
                }
                Query::Sat(m) => m,
            };
            let covered = self.covering(c, &model);
            if covered.iter().all(Option::is_some) {
                return self.reached(c, &model, covered);
            }
            open.push((c, model));
        }
        if open.is_empty() {
            return Ok(Step::Blocked {
                trans_core,
                init_core,
            });
        }
        // Before expanding a body application, a clause whose body the must-summaries can
        // give entirely (as z3's reach assumptions prefer): the cube is reached at once. In
        // a linear system only the first is asked (the extra queries did not pay on
        // LIA-Lin).
        if joint && self.non_linear {
            if let Some((c, model)) = self.ctx.reach_any(pred, &cube)? {
                let covered = self.covering(c, &model);
                return self.reached(c, &model, covered);
            }
        }
        for (i, (c, _)) in open.iter().enumerate() {
            let n_body = enc.clauses[*c].body.len();
            if joint && self.non_linear {
                break;
            }
            if i > 0 && !self.non_linear {
                break;
            }
            if let Some(model) = self.ctx.mixed(*c, level - 1, n_body, &cube)? {
                let covered = self.covering(*c, &model);
                return self.reached(*c, &model, covered);
            }
        }
        let (c, may_model) = open.swap_remove(0);
        let n_body = enc.clauses[c].body.len();
        let mut found = None;
        for k in (1..n_body).rev() {
            if let Some(m) = self.ctx.mixed(c, level - 1, k, &cube)? {
                found = Some((k, m));
                break;
            }
        }
        let (k, model) = found.unwrap_or((0, may_model));
        let covered = self.covering(c, &model);
        let cl = &enc.clauses[c];
        // project constraint /\ cube(head) /\ must(b{j}) for j < k /\ F(b{j}, level - 1)
        // for j > k onto b{k}
        let mut phi = vec![cl.constraint.clone()];
        phi.extend(cube.iter().map(|l| enc.at(l, &cl.head)));
        for (j, b) in cl.body.iter().enumerate() {
            if j < k {
                let m = covered[j].ok_or_else(|| {
                    Stop::Bug("spacer: a must model lies in no must-summary".into())
                })?;
                phi.push(enc.at(&mk_and(self.musts[m].cube.clone()), b));
            } else if j > k {
                phi.push(enc.at(&self.frame(b.pred, level - 1), b));
            }
        }
        let app = &cl.body[k];
        let elim: Vec<Var> = cl
            .vars
            .iter()
            .filter(|v| !app.vars.contains(v))
            .cloned()
            .collect();
        let p = project(&phi, &model, &elim).map_err(Stop::SolverError)?;
        self.counters.mbp_substitutions += p.model_substitutions;
        let child_cube = cube_of(p.lits.iter().map(|l| enc.to_params(l, app)).collect());
        self.queue.requeue(id, level);
        self.queue.push(
            level - 1,
            depth + 1,
            Obligation {
                pred: app.pred,
                cube: child_cube,
                may,
                point: enc.values_at(app, &model),
            },
        );
        Ok(Step::Child)
    }

    /// A model of clause `c` with every body application in a must-summary (`covered`, from
    /// [`Self::covering`]): the head's new must-summary.
    fn reached(
        &mut self,
        c: usize,
        model: &Assignment,
        covered: Vec<Option<usize>>,
    ) -> Result<Step, Stop> {
        if covered.iter().any(|m| m.is_none()) {
            return Err(Stop::Bug(
                "spacer: a model of the must-summaries lies in none of them".into(),
            ));
        }
        let prem: Vec<usize> = covered.into_iter().flatten().collect();
        Ok(Step::Reached(self.add_must(c, model, prem)?))
    }

    /// `F(pred, level)` as a formula over its parameters.
    fn frame(&self, pred: PredId, level: usize) -> Term {
        mk_and(
            self.lemmas
                .iter()
                .filter(|l| l.pred == pred && l.level >= level)
                .map(|l| mk_not(mk_and(l.cube.clone())))
                .collect(),
        )
    }

    /// For each body application of clause `c`, a must-summary that contains its valuation
    /// in `model`, if any.
    fn covering(&self, c: usize, model: &Assignment) -> Vec<Option<usize>> {
        let enc = self.ctx.enc;
        enc.clauses[c]
            .body
            .iter()
            .map(|b| {
                let vals = enc.values_at(b, model)?;
                self.musts.iter().position(|m| {
                    m.pred == b.pred && m.cube.iter().all(|l| eval_bool(l, &vals).unwrap_or(false))
                })
            })
            .collect()
    }

    /// The must-summary of clause `c`'s head from `model`, whose body valuations lie in the
    /// summaries `premises`: the projection of `constraint /\ premises(body)` onto the head.
    fn add_must(
        &mut self,
        c: usize,
        model: &Assignment,
        premises: Vec<usize>,
    ) -> Result<usize, Stop> {
        let enc = self.ctx.enc;
        let cl = &enc.clauses[c];
        let mut phi = vec![cl.constraint.clone()];
        for (m, b) in premises.iter().zip(&cl.body) {
            phi.push(enc.at(&mk_and(self.musts[*m].cube.clone()), b));
        }
        let elim: Vec<Var> = cl
            .vars
            .iter()
            .filter(|v| !cl.head.vars.contains(v))
            .cloned()
            .collect();
        let p = project(&phi, model, &elim).map_err(Stop::SolverError)?;
        self.counters.mbp_substitutions += p.model_substitutions;
        let cube: Cube = p.lits.iter().map(|l| enc.to_params(l, &cl.head)).collect();
        let pred = cl.head.pred;
        if log::log_enabled!(log::Level::Debug) {
            log::debug!("spacer: must P{} from clause {c}: {}", pred.0, show(&cube));
        }
        self.ctx.add_must(pred, &mk_and(cube.clone()))?;
        self.musts.push(Must {
            pred,
            cube,
            clause: c,
            premises,
        });
        self.counters.must_summaries += 1;
        Ok(self.musts.len() - 1)
    }

    /// Adds `not cube` to `F(pred, 1) .. F(pred, level)`, pushes it as far as it goes, and
    /// drops the lemmas it subsumes. Returns its final level.
    fn add_lemma(&mut self, pred: PredId, cube: Cube, level: usize) -> Result<usize, Stop> {
        self.counters.lemmas += 1;
        let first = level;
        let mut level = level;
        self.ctx.assert_lemma(pred, &cube, level)?;
        self.epochs[pred.idx()] += 1;
        while self.cfg.push_lemmas && level < self.n && self.ctx.pushable(pred, level, &cube)? {
            level += 1;
            self.ctx.assert_lemma(pred, &cube, level)?;
        }
        if log::log_enabled!(log::Level::Debug) {
            let p = pred.0;
            log::debug!(
                "spacer: lemma P{p} levels {first}..{level}: not {}",
                show(&cube)
            );
        }
        self.lemmas.retain(|l| {
            l.pred != pred || l.level > level || !cube.iter().all(|lit| l.cube.contains(lit))
        });
        self.lemmas.push(Lemma {
            pred,
            cube,
            level,
            failed_push: None,
        });
        Ok(level)
    }

    /// Pushes lemmas of level `i` to `i + 1` when every clause defining their predicate,
    /// with bodies in `F(., i)`, implies them, for `i < N`. When a level ends up with no lemma
    /// of any predicate, `F(., i) = F(., i + 1)` is a model; returns `i`. A lemma that failed
    /// to leave level `i` is not asked again while no frame of its body predicates changed:
    /// the query would be the same.
    fn propagate(&mut self) -> Result<Option<usize>, Stop> {
        for i in 1..self.n {
            for j in 0..self.lemmas.len() {
                if self.lemmas[j].level != i {
                    continue;
                }
                let (pred, cube) = (self.lemmas[j].pred, self.lemmas[j].cube.clone());
                let stamp = (i, self.body_epoch(pred));
                if self.lemmas[j].failed_push == Some(stamp) {
                    continue;
                }
                if self.ctx.pushable(pred, i, &cube)? {
                    self.ctx.assert_lemma(pred, &cube, i + 1)?;
                    self.epochs[pred.idx()] += 1;
                    self.lemmas[j].level = i + 1;
                } else {
                    self.lemmas[j].failed_push = Some(stamp);
                }
            }
            if self.lemmas.iter().all(|l| l.level != i) {
                log::info!("spacer: F(., {i}) = F(., {}) at level {}", i + 1, self.n);
                return Ok(Some(i + 1));
            }
        }
        Ok(None)
    }
}

/// A cube's literals in SMT-LIB syntax, for the log.
fn show(cube: &[Term]) -> String {
    let c: Vec<String> = cube.iter().map(|l| SmtTerm(l).to_string()).collect();
    c.join(" ")
}

/// What one step on an obligation did.
enum Step {
    /// Its predicate got this must-summary, which meets the cube.
    Reached(usize),
    /// A child obligation was queued.
    Child,
    /// No clause can derive a valuation of the cube from `F(., level - 1)`.
    Blocked {
        trans_core: Vec<Term>,
        init_core: Vec<Term>,
    },
}
