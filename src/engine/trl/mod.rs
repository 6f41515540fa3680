//! TRL: Frohn & Giesl, *Infinite State Model Checking by Learning Transitive Relations*
//! (arXiv 2502.04761), the successor of ABMC.
//!
//! The system is extended by transitive relations, each learned from a loop of a trace, until
//! its diameter is finite: BMC over `init@0 /\ step@0 .. step@(d-1)`, where step `j` is the
//! transition formula (`id@j = 0`) or a learned relation (`id@j = l + 1`), with blocking
//! clauses. When the unrolling without the query becomes unsatisfiable at depth `d`, every
//! state the extended system reaches is reached within `d - 1` steps, and the error check
//! at those depths decides safety.
//!
//! | paper | here |
//! | --- | --- |
//! | Alg. 1 `TRL`: the loop of unrolling, error check, trace, loop, learn, backtrack | [`Run::main`] |
//! | the extended transition `tau \/ R_1 \/ .. \/ R_k`, available at every step | [`Run::add_step`], [`Run::learned_at`] |
//! | transitivity: no learned relation twice in a row | [`Run::add_step`] (`id@j <= 0 \/ id@j != id@(j-1)`) |
//! | `trace`: the syntactic implicants (or learned relations) of a model's steps | [`Run::trace`] |
//! | `loop`: the shortest infix whose first step repeats right after it | [`shortest_loop`] |
//! | `TP`, transitive projection (recurrence analysis + conjunctive variable projection) | [`project::transitive_projection`] |
//! | reuse of a learned relation that covers the loop's start and end states | [`Run::covering`] |
//! | blocking clause `not R'(x@s, x@e)` (`R'` the projection of the relation under the model), positional | [`Run::block`] |
//! | backtracking to the loop's start | `d = s` in [`Run::main`] |
//! | diameter `D` found: safe, with the states reachable within `D` steps | [`Run::invariant`] (via [`crate::engine::learn::reach`]) |
//!
//! Certificates. `sat`: the union of the states the blocked unrolling reaches at depths
//! `0 .. d-1`, projected onto the state variables (model-based projection, no quantifier).
//! Every reachable state of the extended system has a shortest path that violates no
//! blocking clause (a blocked pair `(x@s, x@e)` lies in a learned relation `R`, so the path
//! can be shortened, or keep its length with one original step fewer); so this union is the
//! reachable set of the extended system, closed under `trans`: an inductive invariant of the
//! original system, whatever the learned relations are. The validator checks it like any
//! other invariant. `unsat`: an error model whose steps are all original is a real
//! counterexample (re-found by plain BMC at its depth). An error reached through learned
//! relations proves nothing (they over-approximate); then the extended system cannot be
//! proved safe any more, and ABMC takes over ([`Run::hand_over`]): its learned transitions
//! are accelerations, and its counterexamples keep them as segments the validator
//! certifies (the paper instead accelerates TRL's own learned relations; not done here).
//! A plain BMC unrolling runs beside TRL throughout, given as much time, as in ABMC.

mod project;

use super::learn::{
    id_range, implicant_key, plain::PlainBmc, prefix, reach::reachable_states, step_id, Implicants,
};
use super::{confirm_cex, log_progress, Stop, TsAnswer, TsEngine, Unroller};
use crate::logic::*;
use crate::smt::{SatResult, Smt, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;
use rustc_hash::FxHashMap;
use std::time::Instant;

/// TRL settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Give up after this depth (default: none).
    pub max_depth: Option<usize>,
    /// At most this many cubes in the invariant.
    pub max_cubes: usize,
    /// Run a plain BMC unrolling beside it (default: true).
    pub plain_bmc: bool,
    /// Assert the blocking clauses (default: true; off only to test that the diameter
    /// check needs them).
    pub blocking: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_depth: None,
            max_cubes: 2000,
            plain_bmc: true,
            blocking: true,
        }
    }
}

/// A step of a trace: an implicant of the transition formula, or a learned relation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Tr {
    Orig(usize),
    Learned(usize),
}

/// A learned transitive relation over state, next and its counter `n`.
struct Relation {
    lits: Vec<Term>,
    n: Var,
}

#[derive(Default, Clone, Copy)]
struct Counters {
    depth: usize,
    max_depth: usize,
    learned: usize,
    reused: usize,
    blocking: usize,
    inv_cubes: usize,
    plain_depth: usize,
    handed_over: bool,
}

pub struct Trl {
    cfg: Config,
    c: Counters,
    smt: SmtStats,
}

impl Trl {
    pub fn new(cfg: Config) -> Trl {
        Trl {
            cfg,
            c: Counters::default(),
            smt: SmtStats::default(),
        }
    }
}

impl TsEngine for Trl {
    fn name(&self) -> &'static str {
        "trl"
    }

    fn solve(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> TsAnswer {
        let r = match Smt::new(smt, "trl") {
            Ok(s) => {
                let mut run = Run::new(ts, &self.cfg, Unroller::new(s), smt);
                let r = run.main();
                self.c = run.c;
                self.smt = run.u.smt.stats();
                self.smt += run.plain.stats();
                self.smt += run.confirm;
                r
            }
            Err(e) => Err(e.into()),
        };
        r.unwrap_or_else(TsAnswer::Unknown)
    }

    fn stats(&self) -> crate::engine::EngineStats {
        let c = &self.c;
        crate::engine::EngineStats::new(
            self.smt,
            vec![
                ("depth", c.depth.into()),
                ("max depth", c.max_depth.into()),
                ("learned relations", c.learned.into()),
                ("loops covered by a learned relation", c.reused.into()),
                ("blocking clauses", c.blocking.into()),
                ("invariant cubes", c.inv_cubes.into()),
                ("plain bmc depth", c.plain_depth.into()),
                ("handed over to abmc", c.handed_over.into()),
            ],
        )
    }
}

/// The state of one run.
struct Run<'a> {
    ts: &'a TransitionSystem,
    cfg: &'a Config,
    smt_cfg: &'a SolverConfig,
    u: Unroller,
    c: Counters,
    locals: Vec<Var>,
    id: Var,
    /// The implicant of each `Tr::Orig`.
    orig: Implicants,
    learned: Vec<Relation>,
    /// Number of steps asserted (steps at or past the active depth are switched off).
    bound: usize,
    /// Every formula asserted outside push scopes, with the highest step it mentions.
    asserted: Vec<(usize, Term)>,
    plain: PlainBmc,
    confirm: SmtStats,
    seconds: f64,
}

impl<'a> Run<'a> {
    fn new(
        ts: &'a TransitionSystem,
        cfg: &'a Config,
        u: Unroller,
        smt_cfg: &'a SolverConfig,
    ) -> Run<'a> {
        let locals = free_vars(&ts.trans)
            .into_iter()
            .filter(|v| !ts.state.contains(v) && !ts.next.contains(v))
            .collect();
        Run {
            ts,
            cfg,
            smt_cfg,
            u,
            c: Counters::default(),
            locals,
            id: Var {
                name: "trl.id".into(),
                sort: Sort::Int,
            },
            orig: Implicants::default(),
            learned: vec![],
            bound: 0,
            asserted: vec![],
            plain: PlainBmc::new("trl-bmc"),
            confirm: SmtStats::default(),
            seconds: 0.0,
        }
    }

    fn plain_bmc(&mut self, budget: f64) -> Result<Option<TsAnswer>, Stop> {
        if !self.cfg.plain_bmc {
            return Ok(None);
        }
        let r = self.plain.advance(self.ts, self.smt_cfg, budget)?;
        self.c.plain_depth = self.plain.depth;
        Ok(r)
    }

    fn id_at(&self, j: usize) -> Term {
        mk_var_of(&self.ts.at_var(&self.id, j))
    }

    fn id_is(&self, j: usize, l: usize) -> Term {
        mk_eq(self.id_at(j), mk_int(l as i64))
    }

    fn assert(&mut self, top: usize, t: Term) -> Result<(), Stop> {
        self.u.assert(&t)?;
        self.asserted.push((top, t));
        Ok(())
    }

    /// `0 <= id@j <= (number learned)` if step `j` is on, else `id@j = -1`.
    fn range(&self, j: usize, on: bool) -> Term {
        id_range(self.id_at(j), self.learned.len(), on)
    }

    /// Switches steps `0 .. steps` on and the later asserted ones off (in a push scope).
    fn assert_ranges(&mut self, steps: usize) -> Result<(), Stop> {
        for j in 0..self.bound {
            let r = self.range(j, j < steps);
            self.u.assert(&r)?;
        }
        Ok(())
    }

    /// Relation `l` at step `j`.
    fn learned_at(&self, l: usize, j: usize) -> Term {
        mk_implies(
            self.id_is(j, l + 1),
            self.ts.at(&mk_and(self.learned[l].lits.clone()), j),
        )
    }

    /// Asserts step `bound`: the transition formula, every learned relation, transitivity.
    fn add_step(&mut self) -> Result<(), Stop> {
        let j = self.bound;
        let orig = mk_implies(self.id_is(j, 0), self.ts.at(&self.ts.trans, j));
        self.assert(j + 1, orig)?;
        for l in 0..self.learned.len() {
            let t = self.learned_at(l, j);
            self.assert(j + 1, t)?;
        }
        if j > 0 {
            // on steps only: a switched-off step has `id = -1`, as its successors
            let t = mk_or(vec![
                mk_le(self.id_at(j), mk_int(0)),
                mk_not(mk_eq(self.id_at(j), self.id_at(j - 1))),
            ]);
            self.assert(j + 1, t)?;
        }
        self.bound += 1;
        Ok(())
    }

    /// Checks `init /\ steps 0 .. i-1 /\ query@i`. Returns an answer if it decides one:
    /// a real counterexample, or `None` with `self.spoiled` when the error is reached only
    /// through learned relations.
    fn error_at(&mut self, i: usize) -> Result<ErrorCheck, Stop> {
        self.u.push()?;
        self.assert_ranges(i)?;
        self.u.assert_at(self.ts, &self.ts.query, i)?;
        let r = self.u.check()?;
        let out = match r {
            SatResult::Unsat => ErrorCheck::Unreachable,
            SatResult::Unknown => return Err(Stop::SolverUnknown),
            SatResult::Sat => {
                // the same depth with original steps only
                for j in 0..i {
                    let t = self.id_is(j, 0);
                    self.u.assert(&t)?;
                }
                match self.u.check()? {
                    SatResult::Sat => ErrorCheck::Real,
                    SatResult::Unknown => return Err(Stop::SolverUnknown),
                    SatResult::Unsat => ErrorCheck::Spurious,
                }
            }
        };
        self.u.pop()?;
        Ok(out)
    }

    fn main(&mut self) -> Result<TsAnswer, Stop> {
        let init = self.ts.at(&self.ts.init, 0);
        self.assert(0, init)?;
        // the active depth: steps 0 .. d-1 are on
        let mut d = 0;
        // the query is unreachable at depths below `checked` (with the current relations)
        let mut checked = 0;
        loop {
            if let Some(cex) = self.plain_bmc(self.seconds)? {
                return Ok(cex);
            }
            let t0 = Instant::now();
            if self.cfg.max_depth.is_some_and(|m| d > m) {
                return Err(Stop::Bound(d - 1));
            }
            self.c.depth = d;
            self.c.max_depth = self.c.max_depth.max(d);
            log_progress("trl: depth", d);
            for i in checked..=d {
                match self.error_at(i)? {
                    ErrorCheck::Unreachable => {}
                    ErrorCheck::Real => return self.counterexample(i),
                    ErrorCheck::Spurious => return self.hand_over(),
                }
            }
            checked = d + 1;
            while self.bound <= d {
                self.add_step()?;
            }
            self.u.push()?;
            self.assert_ranges(d + 1)?;
            let model = match self.u.check()? {
                SatResult::Sat => Some(self.u.model()?),
                SatResult::Unknown => return Err(Stop::SolverUnknown),
                SatResult::Unsat => None,
            };
            self.u.pop()?;
            let Some(m) = model else {
                // the diameter: every state is reached within d steps
                return self.invariant(d + 1);
            };
            let trace = self.trace(&m, d + 1)?;
            match shortest_loop(&trace) {
                Some((s, e)) => {
                    if self.handle_loop(&trace, &m, s, e)? {
                        checked = 0;
                    }
                    d = s;
                }
                None => d += 1,
            }
            self.seconds += t0.elapsed().as_secs_f64();
        }
    }

    /// The extended system reaches the error through learned relations: it can no longer
    /// be proved safe. Its learned relations over-approximate, so they cannot certify the
    /// path either; ABMC takes over, whose learned transitions are accelerations (exact
    /// or under-approximating) and whose counterexamples keep them as certified segments.
    fn hand_over(&mut self) -> Result<TsAnswer, Stop> {
        log::info!("trl: the error is reachable through learned relations; handing over to abmc");
        self.c.handed_over = true;
        let mut cfg = super::abmc::Config::default();
        cfg.max_depth = self.cfg.max_depth;
        let mut abmc = super::abmc::Abmc::new(cfg);
        let r = abmc.solve(self.ts, self.smt_cfg);
        self.confirm += abmc.stats().smt;
        match r {
            TsAnswer::Unknown(e) => Err(e),
            // ABMC's safety proof is an invariant the validator checks like ours
            r => Ok(r),
        }
    }

    /// A real counterexample of `k` steps: re-found by plain BMC, so the model has no
    /// learned steps in it.
    fn counterexample(&mut self, k: usize) -> Result<TsAnswer, Stop> {
        log::info!("trl: counterexample of {k} steps");
        let (r, stats) = confirm_cex(self.ts, self.smt_cfg, "trl", k, k);
        self.confirm += stats;
        r
    }

    /// The values of step `j` of `model` under the unindexed names of `trans`.
    fn step_values(&self, model: &Assignment, j: usize) -> Assignment {
        let ts = self.ts;
        ts.state
            .iter()
            .chain(&ts.next)
            .chain(&self.locals)
            .filter_map(|v| model.get(&ts.at_var(v, j)).map(|x| (v.clone(), x.clone())))
            .collect()
    }

    fn step_id(&self, model: &Assignment, j: usize) -> usize {
        step_id(self.ts, &self.id, model, j)
    }

    /// The trace of `model` over steps `0 .. len`.
    fn trace(&mut self, model: &Assignment, len: usize) -> Result<Vec<Tr>, Stop> {
        let mut out = vec![];
        for j in 0..len {
            let id = self.step_id(model, j);
            if id > 0 {
                out.push(Tr::Learned(id - 1));
                continue;
            }
            let a = self.step_values(model, j);
            let lits = implicant_key(&self.ts.trans, &a).map_err(Stop::SolverError)?;
            out.push(Tr::Orig(self.orig.intern(lits)));
        }
        Ok(out)
    }

    /// `t` over state and next variables, with state at step `s` and next at step `e`.
    fn span(&self, t: &Term, s: usize, e: usize) -> Term {
        let ts = self.ts;
        map_vars(t, &mut |v| {
            if ts.state.contains(v) {
                return Some(mk_var_of(&ts.at_var(v, s)));
            }
            let k = ts.next.iter().position(|n| n == v)?;
            Some(mk_var_of(&ts.at_var(&ts.state[k], e)))
        })
    }

    /// The loop at steps `s .. e-1` of `model`: blocks it with a learned relation that
    /// covers its start and end states, learning one by transitive projection if none does.
    /// Returns whether it learned a relation.
    fn handle_loop(
        &mut self,
        trace: &[Tr],
        model: &Assignment,
        s: usize,
        e: usize,
    ) -> Result<bool, Stop> {
        let ts = self.ts;
        let vals: Assignment = ts
            .state
            .iter()
            .chain(&ts.next)
            .enumerate()
            .filter_map(|(k, v)| {
                let at = if k < ts.state.len() {
                    ts.at_var(v, s)
                } else {
                    ts.at_var(&ts.state[k - ts.state.len()], e)
                };
                model.get(&at).map(|x| (v.clone(), x.clone()))
            })
            .collect();
        let mut new = false;
        let (l, m) = match self.covering(&vals)? {
            Some(x) => {
                self.c.reused += 1;
                x
            }
            None => {
                let l = self.learn(trace, model, s, e)?;
                new = true;
                match self.relation_model(l, &vals)? {
                    Some(m) => (l, m),
                    None => {
                        return Err(Stop::Bug(
                            "trl: a learned relation does not cover its own loop".into(),
                        ))
                    }
                }
            }
        };
        self.block(l, &m, s, e)?;
        Ok(new)
    }

    /// A learned relation that relates the state and next values of `vals`, with a model.
    fn covering(&mut self, vals: &Assignment) -> Result<Option<(usize, Assignment)>, Stop> {
        for l in 0..self.learned.len() {
            if let Some(m) = self.relation_model(l, vals)? {
                return Ok(Some((l, m)));
            }
        }
        Ok(None)
    }

    /// A model of relation `l` that agrees with `vals` on state and next.
    fn relation_model(&mut self, l: usize, vals: &Assignment) -> Result<Option<Assignment>, Stop> {
        let mut phi = self.learned[l].lits.clone();
        for (v, x) in vals {
            let t = match x {
                Value::Int(_) | Value::Real(_) | Value::Array(_) => {
                    mk_eq(mk_var_of(v), x.to_term())
                }
                Value::Bool(true) => mk_var_of(v),
                Value::Bool(false) => mk_not(mk_var_of(v)),
            };
            phi.push(t);
        }
        let phi = mk_and(phi);
        // in the unrolling's solver, over the unindexed names (no step uses them)
        let aux = &mut self.u;
        aux.push()?;
        aux.assert(&phi)?;
        let r = match aux.check()? {
            SatResult::Sat => {
                let mut m = aux.model()?;
                m.extend(vals.iter().map(|(v, x)| (v.clone(), x.clone())));
                Some(m)
            }
            SatResult::Unsat => None,
            SatResult::Unknown => return Err(Stop::SolverUnknown),
        };
        aux.pop()?;
        Ok(r)
    }

    /// Learns a relation from the loop at steps `s .. e-1` of `model`; it is asserted at
    /// every step.
    fn learn(
        &mut self,
        trace: &[Tr],
        model: &Assignment,
        s: usize,
        e: usize,
    ) -> Result<usize, Stop> {
        let ts = self.ts;
        let mut pi = vec![];
        for (j, t) in trace.iter().enumerate().take(e).skip(s) {
            let lits = match *t {
                Tr::Orig(o) => self.orig.all[o].clone(),
                Tr::Learned(l) => self.learned[l].lits.clone(),
            };
            pi.extend(lits.iter().map(|x| ts.at(x, j)));
        }
        let l = self.learned.len();
        let n = Var {
            name: format!("trl.n{}", l + 1).into(),
            sort: Sort::Int,
        };
        let lits = project::transitive_projection(
            &pi,
            model,
            &ts.state,
            &ts.next,
            &ts.state_at(s),
            &ts.state_at(e),
            &n,
        )
        .map_err(Stop::SolverError)?;
        log::debug!(
            "trl: learned relation {} from a loop of {} steps: {}",
            l + 1,
            e - s,
            SmtTerm(&mk_and(lits.clone()))
        );
        self.learned.push(Relation { lits, n });
        self.c.learned += 1;
        for j in 0..self.bound {
            let t = self.learned_at(l, j);
            self.assert(j + 1, t)?;
        }
        Ok(l)
    }

    /// Blocks the pairs of states at steps `s` and `e` that the projection of relation `l`
    /// under `m` relates (a single original step may still be replaced by a learned one).
    fn block(&mut self, l: usize, m: &Assignment, s: usize, e: usize) -> Result<(), Stop> {
        if !self.cfg.blocking {
            return Ok(());
        }
        let n = self.learned[l].n.clone();
        let p = mbp::project(&self.learned[l].lits, m, &[n]).map_err(Stop::SolverError)?;
        let r = self.span(&mk_and(p.lits), s, e);
        let mut c = vec![mk_not(r)];
        if e == s + 1 {
            c.push(mk_le(mk_int(1), self.id_at(s)));
        }
        self.c.blocking += 1;
        self.assert(e, mk_or(c))
    }

    /// The states reachable within `b - 1` steps: the invariant.
    fn invariant(&mut self, b: usize) -> Result<TsAnswer, Stop> {
        log::info!("trl: the unrolling is unsatisfiable at depth {b}; building the invariant");
        let phi = |i: usize| prefix(&self.asserted, i, |j| self.range(j, true));
        let (inv, cubes) = reachable_states(
            self.ts,
            self.smt_cfg,
            "trl-inv",
            b,
            self.cfg.max_cubes,
            &phi,
        )?;
        self.c.inv_cubes = cubes;
        Ok(TsAnswer::Safe(inv))
    }
}

enum ErrorCheck {
    Unreachable,
    Real,
    Spurious,
}

/// The shortest infix `s .. e-1` of `trace` whose first step comes again right after it
/// (`trace[s] == trace[e]`), the latest among the shortest.
fn shortest_loop(trace: &[Tr]) -> Option<(usize, usize)> {
    let mut last: FxHashMap<Tr, usize> = FxHashMap::default();
    let mut best: Option<(usize, usize)> = None;
    for (i, t) in trace.iter().enumerate() {
        if let Some(&p) = last.get(t) {
            if best.is_none_or(|(s, e)| i - p <= e - s) {
                best = Some((p, i));
            }
        }
        last.insert(*t, i);
    }
    best
}

#[cfg(test)]
mod tests;
