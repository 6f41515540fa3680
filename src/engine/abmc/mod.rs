//! Accelerated bounded model checking with blocking clauses: Alg. 3 of Frohn & Giesl,
//! *Accelerated Bounded Model Checking* (arXiv, 2024).
//!
//! BMC over `init@0 /\ step@0 .. step@(b-1)`, where step `j` is either the transition
//! formula (`id@j = 0`) or a learned transition (`id@j = l`). From each model of the
//! unrolling we read the trace of syntactic implicants, extend the dependency graph with its
//! consecutive pairs, and accelerate the shortest cyclic suffix that `should_accel` admits
//! (Sect. 3.3), once per cycle (the cache of Sect. 4).
//!
//! Unlike Alg. 3, a learned transition is made available at every step, earlier ones
//! included (its implication `id@j = l -> tau_l@j` is asserted for every `j`, and the range
//! of `id@j` is asserted per check). This keeps one argument for the blocking clauses simple:
//! for an exact `tau_l = accel(pi)` (`tau_l` is `pi^n` for every `n >= 1`), every path can be
//! rewritten into one that is shorter, or as long with learned transitions in place of
//! original ones, as long as it
//! - runs `pi` at steps `s .. s+|pi|-1` (replace by `tau_l` at `s`),
//! - runs `tau_l` then `pi` (replace both by `tau_l`),
//! - runs `tau_l` twice (replace by one `tau_l`).
//!
//! A path minimal in (length, then the most learned steps) does none of these, so the three
//! blocking clauses, asserted at every position, keep a shortest path to every reachable
//! state. When the unrolling with them becomes unsatisfiable at bound `b`, every reachable
//! state is reached in fewer than `b` steps, so the union of the states reachable in
//! `0 .. b-1` steps (with the blocking clauses) is exactly the reachable set: an inductive
//! invariant. We compute it without quantifiers by model-based projection and hand it to
//! the validator, which checks it like any other invariant and trusts none of this.
//!
//! A counterexample keeps its learned steps as accelerated segments, which the validator
//! certifies without expanding them (`cex.rs`); on demand it is expanded into concrete
//! steps (exact evaluation where the steps are determined, a solver query per iteration
//! otherwise, `expand.rs`) and replayed.

pub mod accel;
mod cex;
mod closed;
mod compose;
mod expand;

use cex::Table;
use compose::compose;

use super::learn::{
    id_range, implicant_key, plain::PlainBmc, prefix, reach::reachable_states, step_id, Implicants,
};
use super::{log_progress, Stop, TsAnswer, TsEngine, Unroller};
use crate::logic::*;
use crate::smt::{SatResult, Smt, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;
use rustc_hash::{FxHashMap, FxHashSet};
use std::time::Instant;

/// ABMC settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Give up after this bound (default: none).
    pub max_depth: Option<usize>,
    /// Assert blocking clauses for exact accelerations (default: true).
    pub blocking: bool,
    /// At most this many cubes in the invariant built from a safe unrolling.
    pub max_cubes: usize,
    /// Accelerate cyclic suffixes of at most this many steps (default: 6). Longer cycles
    /// of big transition formulas are costly to compose and rarely accelerate.
    pub max_cycle: usize,
    /// Give up on a trace after this many failed accelerations (default: 2).
    pub max_failures: usize,
    /// Also run a plain BMC unrolling in a second solver, given as much time as the
    /// accelerated one (default: true). Learned transitions, available at every step, can
    /// make the accelerated unrolling slow on big transition formulas (lustre `metros`:
    /// plain BMC finds depth 42 in 0.3 s, the accelerated unrolling stalls near 20), and
    /// this keeps ABMC's counterexamples a superset of BMC's at half its speed.
    pub plain_bmc: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_depth: None,
            blocking: true,
            max_cubes: 2000,
            max_cycle: 6,
            max_failures: 2,
            plain_bmc: true,
        }
    }
}

/// A vertex of the dependency graph: an implicant of the transition formula, or a learned
/// transition (index into `learned`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Tr {
    Orig(usize),
    Learned(usize),
}

/// A transition learned by accelerating `cycle`.
#[derive(Clone)]
struct Learned {
    cycle: Vec<Tr>,
    /// The values of the cycle's steps on the trace it was learned from (state, next,
    /// locals per step): they name the clauses of the cycle.
    sample: Vec<Assignment>,
    /// Literals over state, next, `n` (named `abmc.n<id>`).
    lits: Vec<Term>,
    n: Var,
    exact: bool,
}

#[derive(Default, Clone, Copy)]
struct Counters {
    depth: usize,
    learned: usize,
    exact: usize,
    failed: usize,
    blocking: usize,
    cex_steps: usize,
    inv_cubes: usize,
    plain_depth: usize,
}

pub struct Abmc {
    cfg: Config,
    c: Counters,
    smt: SmtStats,
}

impl Abmc {
    pub fn new(cfg: Config) -> Abmc {
        Abmc {
            cfg,
            c: Counters::default(),
            smt: SmtStats::default(),
        }
    }
}

impl TsEngine for Abmc {
    fn name(&self) -> &'static str {
        "abmc"
    }

    fn solve(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> TsAnswer {
        let r = match Smt::new(smt, "abmc") {
            Ok(s) => {
                let mut run = Run::new(ts, &self.cfg, Unroller::new(s), smt);
                let r = run.main();
                self.c = run.c;
                self.smt = run.u.smt.stats();
                self.smt += run.plain.stats();
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
                ("learned", c.learned.into()),
                ("learned exact", c.exact.into()),
                ("acceleration failures", c.failed.into()),
                ("blocking clauses", c.blocking.into()),
                ("counterexample steps", c.cex_steps.into()),
                ("invariant cubes", c.inv_cubes.into()),
                ("plain bmc depth", c.plain_depth.into()),
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
    /// Step-local variables of `trans`.
    locals: Vec<Var>,
    id: Var,
    /// Implicants of `trans` seen on traces, by their sorted literals.
    orig: Implicants,
    learned: Vec<Learned>,
    /// Cycles tried already, with the learned transition if acceleration succeeded.
    cache: FxHashMap<Vec<Tr>, Option<usize>>,
    edges: FxHashSet<(Tr, Tr)>,
    /// Number of steps asserted.
    bound: usize,
    /// Every formula asserted outside push scopes, with the highest step it mentions
    /// (for projecting the reachable states at a depth).
    asserted: Vec<(usize, Term)>,
    plain: PlainBmc,
    /// Seconds spent on the accelerated unrolling.
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
                name: "abmc.id".into(),
                sort: Sort::Int,
            },
            orig: Implicants::default(),
            learned: vec![],
            cache: FxHashMap::default(),
            edges: FxHashSet::default(),
            bound: 0,
            asserted: vec![],
            plain: PlainBmc::new("abmc-bmc"),
            seconds: 0.0,
        }
    }

    /// Advances the plain BMC unrolling until it has had as much time as the accelerated
    /// one. Returns a counterexample if it finds one.
    fn plain_bmc(&mut self) -> Result<Option<TsAnswer>, Stop> {
        if !self.cfg.plain_bmc {
            return Ok(None);
        }
        let r = self.plain.advance(self.ts, self.smt_cfg, self.seconds)?;
        self.c.plain_depth = self.plain.depth;
        if let Some(TsAnswer::Unsafe { k, .. }) = &r {
            self.c.cex_steps = *k;
        }
        Ok(r)
    }

    fn id_at(&self, j: usize) -> Term {
        mk_var_of(&self.ts.at_var(&self.id, j))
    }

    fn id_is(&self, j: usize, l: usize) -> Term {
        mk_eq(self.id_at(j), mk_int(l as i64))
    }

    /// Asserts `t` for good; `top` is the highest step whose variables it mentions.
    fn assert(&mut self, top: usize, t: Term) -> Result<(), Stop> {
        self.u.assert(&t)?;
        self.asserted.push((top, t));
        Ok(())
    }

    /// The range of `id@j` for the steps `j < steps`, and `id@j = -1` for the later ones,
    /// which switches them off (asserted inside a push scope, as the range grows with
    /// learning).
    fn assert_ranges(&mut self, steps: usize) -> Result<(), Stop> {
        for j in 0..self.bound {
            let r = self.range(j, j < steps);
            self.u.assert(&r)?;
        }
        Ok(())
    }

    /// `0 <= id@j <= (number learned)` if step `j` is on, else `id@j = -1`.
    fn range(&self, j: usize, on: bool) -> Term {
        id_range(self.id_at(j), self.learned.len(), on)
    }

    /// `tau_l` at step `j`.
    fn learned_at(&self, l: usize, j: usize) -> Term {
        mk_implies(
            self.id_is(j, l + 1),
            self.ts.at(&mk_and(self.learned[l].lits.clone()), j),
        )
    }

    fn main(&mut self) -> Result<TsAnswer, Stop> {
        let init = self.ts.at(&self.ts.init, 0);
        self.assert(0, init)?;
        // the query is checked at depths `checked ..= bound`; learning resets it to 0, as a
        // learned transition is available at every step
        let mut checked = 0;
        loop {
            if let Some(cex) = self.plain_bmc()? {
                return Ok(cex);
            }
            let t0 = Instant::now();
            let b = self.bound;
            if self.cfg.max_depth.is_some_and(|m| b > m) {
                return Err(Stop::Bound(b - 1));
            }
            self.c.depth = b;
            log_progress("abmc: bound", b);
            for i in checked..=b {
                // init /\ step@0 .. step@(i-1) /\ query@i, steps from i on switched off
                self.u.push()?;
                self.assert_ranges(i)?;
                self.u.assert_at(self.ts, &self.ts.query, i)?;
                match self.u.check()? {
                    SatResult::Sat => {
                        let model = self.u.model()?;
                        self.u.pop()?;
                        return self.counterexample(i, &model);
                    }
                    SatResult::Unknown => return Err(Stop::SolverUnknown),
                    SatResult::Unsat => {}
                }
                self.u.pop()?;
            }
            checked = b + 1;
            self.add_step()?;
            // the unrolling without the query: unsat means every reachable state is reached
            // within b steps
            self.u.push()?;
            self.assert_ranges(b + 1)?;
            let r = self.u.check()?;
            let model = match r {
                SatResult::Sat => Some(self.u.model()?),
                SatResult::Unknown => return Err(Stop::SolverUnknown),
                SatResult::Unsat => None,
            };
            self.u.pop()?;
            match model {
                Some(m) => {
                    if self.learn(&m)? {
                        checked = 0;
                    }
                }
                None => return self.invariant(b + 1),
            }
            self.seconds += t0.elapsed().as_secs_f64();
        }
    }

    /// Adds step `bound` (the transition formula and every learned transition) and the
    /// blocking clauses that end at it.
    fn add_step(&mut self) -> Result<(), Stop> {
        let j = self.bound;
        let orig = mk_implies(self.id_is(j, 0), self.ts.at(&self.ts.trans, j));
        self.assert(j + 1, orig)?;
        for l in 0..self.learned.len() {
            let t = self.learned_at(l, j);
            self.assert(j + 1, t)?;
        }
        self.bound += 1;
        for l in 0..self.learned.len() {
            self.block(l, j, j)?;
        }
        Ok(())
    }

    /// Does step `j` run `t`?
    fn runs(&self, t: Tr, j: usize) -> Term {
        match t {
            Tr::Orig(o) => {
                let mut c = vec![self.id_is(j, 0)];
                c.extend(self.orig.all[o].iter().map(|l| self.ts.at(l, j)));
                mk_and(c)
            }
            Tr::Learned(l) => self.id_is(j, l + 1),
        }
    }

    /// Asserts the blocking clauses of learned transition `l` whose last step lies in
    /// `lo ..= hi` (and below the bound).
    fn block(&mut self, l: usize, lo: usize, hi: usize) -> Result<(), Stop> {
        if !self.cfg.blocking || !self.learned[l].exact {
            return Ok(());
        }
        let cycle = self.learned[l].cycle.clone();
        let k = cycle.len();
        for last in lo..=hi.min(self.bound.saturating_sub(1)) {
            let mut clauses = vec![];
            // pi at last-k+1 .. last
            if last + 1 >= k {
                let s = last + 1 - k;
                let m: Vec<Term> = (0..k).map(|i| self.runs(cycle[i], s + i)).collect();
                clauses.push(mk_not(mk_and(m)));
            }
            // tau_l then pi
            if last >= k {
                let s = last - k;
                let mut m = vec![self.id_is(s, l + 1)];
                m.extend((0..k).map(|i| self.runs(cycle[i], s + 1 + i)));
                clauses.push(mk_not(mk_and(m)));
            }
            // tau_l twice
            if last >= 1 {
                clauses.push(mk_not(mk_and(vec![
                    self.id_is(last - 1, l + 1),
                    self.id_is(last, l + 1),
                ])));
            }
            for c in clauses {
                self.c.blocking += 1;
                self.assert(last + 1, c)?;
            }
        }
        Ok(())
    }

    /// The values of step `j` of `model` under the unindexed names of `trans`.
    fn step_values(&self, model: &Assignment, j: usize) -> Assignment {
        let ts = self.ts;
        let ns = self.learned.iter().map(|l| &l.n);
        ts.state
            .iter()
            .chain(&ts.next)
            .chain(&self.locals)
            .chain(ns)
            .filter_map(|v| model.get(&ts.at_var(v, j)).map(|x| (v.clone(), x.clone())))
            .collect()
    }

    /// The trace of `model` over steps `0 .. len`.
    fn trace(&mut self, model: &Assignment, len: usize) -> Result<Vec<Tr>, Stop> {
        let mut out = vec![];
        for j in 0..len {
            let id = step_id(self.ts, &self.id, model, j);
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

    /// Reads the trace of `model`, extends the dependency graph and accelerates the shortest
    /// cyclic suffix that qualifies. Returns whether it learned a transition.
    fn learn(&mut self, model: &Assignment) -> Result<bool, Stop> {
        let trace = self.trace(model, self.bound)?;
        for w in trace.windows(2) {
            self.edges.insert((w[0], w[1]));
        }
        let Some(&last) = trace.last() else {
            return Ok(false);
        };
        let mut failures = 0;
        let shortest = trace.len().saturating_sub(self.cfg.max_cycle);
        for s in (shortest..trace.len()).rev() {
            let suffix = &trace[s..];
            if !self.edges.contains(&(last, suffix[0])) || !self.should_accel(suffix) {
                continue;
            }
            if self.cache.contains_key(suffix) {
                continue;
            }
            let sample = (s..trace.len())
                .map(|j| self.step_values(model, j))
                .collect();
            let l = self.accelerate(suffix, sample)?;
            self.cache.insert(suffix.to_vec(), l);
            if l.is_some() {
                return Ok(true);
            }
            failures += 1;
            if failures >= self.cfg.max_failures {
                break;
            }
        }
        Ok(false)
    }

    /// Sect. 3.3: Requirements 1 to 6.
    fn should_accel(&self, cycle: &[Tr]) -> bool {
        if cycle.len() == 1 {
            // Req. 1 and 2: original transitions only
            return matches!(cycle[0], Tr::Orig(_));
        }
        // Req. 6: no square
        if has_square(cycle) {
            return false;
        }
        // Req. 3 and 4: not a conjugate of a learned transition followed by its cycle,
        // nor of a cycle accelerated already
        for (l, lt) in self.learned.iter().enumerate() {
            let mut with = vec![Tr::Learned(l)];
            with.extend(&lt.cycle);
            if conjugate(cycle, &with) || (cycle != lt.cycle && conjugate(cycle, &lt.cycle)) {
                return false;
            }
        }
        // Req. 5: everything else
        true
    }

    /// The literals of `t` over state, next and other variables.
    fn lits(&self, t: Tr) -> Vec<Term> {
        match t {
            Tr::Orig(o) => self.orig.all[o].clone(),
            Tr::Learned(l) => self.learned[l].lits.clone(),
        }
    }

    /// Composes `cycle` into one conjunctive transition and accelerates it; the new
    /// learned transition is asserted at every step, with its blocking clauses.
    fn accelerate(&mut self, cycle: &[Tr], sample: Vec<Assignment>) -> Result<Option<usize>, Stop> {
        let composed = compose(
            self.ts,
            &cycle.iter().map(|&t| self.lits(t)).collect::<Vec<_>>(),
        );
        let l = self.learned.len();
        let n = Var {
            name: format!("abmc.n{}", l + 1).into(),
            sort: Sort::Int,
        };
        let Some(acc) = accel::accelerate(&composed, &self.ts.state, &self.ts.next, &n) else {
            self.c.failed += 1;
            log::debug!("abmc: cannot accelerate a cycle of {} steps", cycle.len());
            return Ok(None);
        };
        log::debug!(
            "abmc: learned {} ({} steps, {}): {}",
            l + 1,
            cycle.len(),
            if acc.exact { "exact" } else { "approximate" },
            SmtTerm(&mk_and(acc.lits.clone()))
        );
        self.c.learned += 1;
        self.c.exact += usize::from(acc.exact);
        self.learned.push(Learned {
            cycle: cycle.to_vec(),
            sample,
            lits: acc.lits,
            n,
            exact: acc.exact,
        });
        for j in 0..self.bound {
            let t = self.learned_at(l, j);
            self.assert(j + 1, t)?;
        }
        if self.bound > 0 {
            self.block(l, 0, self.bound - 1)?;
        }
        Ok(Some(l))
    }

    /// The states reachable in fewer than `b` steps, as a quantifier-free formula over the
    /// state variables, built from model-based projections of the unrollings.
    fn invariant(&mut self, b: usize) -> Result<TsAnswer, Stop> {
        log::info!("abmc: the unrolling is unsatisfiable at bound {b}; building the invariant");
        let phi = |i: usize| prefix(&self.asserted, i, |j| self.range(j, true));
        let (inv, cubes) = reachable_states(
            self.ts,
            self.smt_cfg,
            "abmc-inv",
            b,
            self.cfg.max_cubes,
            &phi,
        )?;
        self.c.inv_cubes = cubes;
        Ok(TsAnswer::Safe(inv))
    }
}

/// Does `w` contain two adjacent copies of a non-empty word?
fn has_square(w: &[Tr]) -> bool {
    let n = w.len();
    (0..n).any(|i| (1..=(n - i) / 2).any(|len| w[i..i + len] == w[i + len..i + 2 * len]))
}

/// Is `a` a rotation of `b`?
fn conjugate(a: &[Tr], b: &[Tr]) -> bool {
    a.len() == b.len()
        && (0..b.len()).any(|r| a.iter().zip(b.iter().cycle().skip(r)).all(|(x, y)| x == y))
}
