//! Spacer's incremental solvers and the queries it asks.
//!
//! The clauses defining one predicate share a solver (up to [`super::Config::solvers`]
//! solvers, shared round-robin beyond), which holds what concerns those clauses. Asserted
//! once, each behind an activation literal: every clause's constraint
//! (`act_c => constraint_c`); every lemma at every *slot* of its predicate (a body
//! application; with joint queries, the applications at one position of a predicate's
//! clauses share one: [`super::encode`]), with a literal per slot and level
//! (`act_{s,l} => not cube(b_s)`, delta encoding: frame `F(P, l)` at `b_s` is assumed as
//! `act_{s,l} .. act_{s,N}`, and `act_{s,0} => false` makes `F(P, 0)` empty; so one
//! application can be asked in its frame and another in the must-summaries); the
//! must-summaries of a predicate at each of its slots (`must_s => \/_i summary_i(b_s)`, a new
//! literal whenever a summary is added, chained to the previous one); and each literal of an
//! obligation's cube at the head of a clause (`a => lit(h)`, so unsat cores name cube
//! literals).
//!
//! *Joint queries* ([`Context::may_any`]): with `joint`, a question about a predicate with
//! several defining clauses is one query, not one per clause, as z3 asks it (one solver per
//! predicate, its rules as a tagged disjunction). A selector literal implies the
//! disjunction of the clauses' literals (`sel => act_c1 \/ .. \/ act_cn`); the frames at a
//! slot hold only when one of its clauses does (`act_{s,l} /\ g_s => not cube(b_s)` and
//! `act_{s,0} => not g_s`, where `act_c => g_s` for each clause `c` of the slot), so assuming
//! every clause's frames constrains the clauses the solver leaves off by nothing; and a cube
//! literal is one literal at the predicate's shared head. A blocked cube then costs one
//! query and gives one core, instead of one of each per clause (the llreve and nay-horn
//! files of the LIA track define a predicate by up to 82 clauses).

use super::encode::{App, Encoded};
use crate::chc::PredId;
use crate::engine::pdr::generalize::Blocking;
use crate::engine::Stop;
use crate::logic::*;
use crate::smt::{SatResult, Smt, SmtStats, SolverConfig};
use rustc_hash::{FxHashMap, FxHashSet};

pub struct Context<'a> {
    pub enc: &'a Encoded,
    /// The solvers; clause `c` lives in `smts[solver[c]]`.
    pub smts: Vec<Smt>,
    solver: Vec<usize>,
    act_clause: Vec<Term>,
    /// `act_level[s][l]` guards the lemmas stored at level `l` at slot `s` (a body
    /// application, shared by a joint predicate's clauses: [`super::encode`]).
    act_level: Vec<Vec<Term>>,
    /// Per slot, the literal of the current disjunction of must-summaries.
    act_must: Vec<Option<Term>>,
    /// Per slot of a joint predicate's clauses, the literal under which its frames and
    /// must-summaries hold: its clause's literal, or one that each of its clauses' literals
    /// implies.
    slot_guard: Vec<Option<Term>>,
    /// Per solver, the variables declared in it (clauses share the names of slots).
    declared: Vec<FxHashSet<Var>>,
    /// The activation literal of a cube literal (over parameters) at the head of a clause.
    lit_acts: FxHashMap<(usize, Term), Term>,
    /// The cube literal behind each activation literal.
    act_lits: FxHashMap<Term, Term>,
    n_acts: usize,
    /// Joint queries (module doc): per clause, whether its head predicate has several
    /// defining clauses and they are asked together.
    joint: Vec<bool>,
    /// The selector of a set of clauses (all of one predicate).
    selectors: FxHashMap<Vec<usize>, Term>,
    /// The activation literal of a cube literal at the heads of all of a predicate's clauses.
    pred_lit_acts: FxHashMap<(PredId, Term), Term>,
}

/// Which of a predicate's defining clauses a joint query ranges over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clauses {
    /// The facts (no body).
    Facts,
    /// The clauses with a body.
    Rules,
    All,
}

impl<'a> Context<'a> {
    /// Declares every clause variable and asserts every clause behind its literal, the
    /// clauses defining one predicate in one solver, at most `max_solvers` solvers (the
    /// predicates share them round-robin).
    pub fn new(
        enc: &'a Encoded,
        cfg: &SolverConfig,
        max_solvers: usize,
        joint: bool,
    ) -> Result<Context<'a>, Stop> {
        let heads: Vec<usize> = (0..enc.params.len())
            .filter(|&p| !enc.defining[p].is_empty())
            .collect();
        let n = heads.len().clamp(1, max_solvers.max(1));
        let mut solver = vec![0; enc.clauses.len()];
        for (k, &p) in heads.iter().enumerate() {
            for &c in &enc.defining[p] {
                solver[c] = k % n;
            }
        }
        let mut smts = vec![];
        for _ in 0..n {
            smts.push(Smt::new(cfg, "spacer")?);
        }
        let mut ctx = Context {
            enc,
            smts,
            solver,
            act_clause: vec![],
            act_level: vec![vec![]; enc.slots.len()],
            act_must: vec![None; enc.slots.len()],
            slot_guard: vec![None; enc.slots.len()],
            declared: vec![FxHashSet::default(); n],
            lit_acts: FxHashMap::default(),
            act_lits: FxHashMap::default(),
            n_acts: 0,
            joint: enc
                .clauses
                .iter()
                .map(|c| joint && enc.defining[c.head.pred.idx()].len() > 1)
                .collect(),
            selectors: FxHashMap::default(),
            pred_lit_acts: FxHashMap::default(),
        };
        for (ci, c) in enc.clauses.iter().enumerate() {
            let s = ctx.solver[ci];
            for v in &c.vars {
                if ctx.declared[s].insert(v.clone()) {
                    ctx.smts[s].declare(v)?;
                }
            }
            let a = ctx.fresh_act(ci, "c")?;
            ctx.smts[s].assert(&mk_implies(a.clone(), c.constraint.clone()))?;
            ctx.act_clause.push(a);
        }
        for (s, slot) in enc.slots.iter().enumerate() {
            let c0 = slot.users[0];
            if !ctx.joint[c0] {
                continue;
            }
            ctx.slot_guard[s] = Some(if slot.users.len() == 1 {
                ctx.act_clause[c0].clone()
            } else {
                let g = ctx.fresh_act(c0, "g")?;
                for &c in &slot.users {
                    let on = mk_implies(ctx.act_clause[c].clone(), g.clone());
                    ctx.smt(c).assert(&on)?;
                }
                g
            });
        }
        // level 0: every frame is empty
        ctx.add_level()?;
        for s in 0..enc.slots.len() {
            let empty = ctx.guarded(s, mk_false());
            let a = ctx.act_level[s][0].clone();
            ctx.slot_smt(s).assert(&mk_implies(a, empty))?;
        }
        Ok(ctx)
    }

    /// A new activation literal in the solver of clause `c`.
    fn fresh_act(&mut self, c: usize, what: &str) -> Result<Term, Stop> {
        let v = Var {
            name: format!("spacer!{what}{}", self.n_acts).into(),
            sort: Sort::Bool,
        };
        self.n_acts += 1;
        self.smts[self.solver[c]].declare(&v)?;
        Ok(mk_var_of(&v))
    }

    /// `t` at slot `s`: `guard_s => t` when its clauses are asked jointly with others (so
    /// that `t` constrains nothing while they are off), else `t`.
    fn guarded(&self, s: usize, t: Term) -> Term {
        match &self.slot_guard[s] {
            Some(g) => mk_implies(g.clone(), t),
            None => t,
        }
    }

    /// The solver of clause `c`.
    fn smt(&mut self, c: usize) -> &mut Smt {
        &mut self.smts[self.solver[c]]
    }

    /// The solver of slot `s`'s clauses.
    fn slot_smt(&mut self, s: usize) -> &mut Smt {
        let c = self.enc.slots[s].users[0];
        self.smt(c)
    }

    /// The distinct slots of the body applications of the clauses `set`.
    fn slots_of(&self, set: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = set
            .iter()
            .flat_map(|&c| self.enc.slot_of[c].iter().copied())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The SMT counters of all solvers.
    pub fn stats(&self) -> SmtStats {
        let mut out = SmtStats::default();
        for s in &self.smts {
            out += s.stats();
        }
        out
    }

    /// Opens a new top level at every slot.
    pub fn add_level(&mut self) -> Result<(), Stop> {
        for s in 0..self.act_level.len() {
            let a = self.fresh_act(self.enc.slots[s].users[0], "F")?;
            self.act_level[s].push(a);
        }
        Ok(())
    }

    /// Adds `not cube` to `F(p, 1) .. F(p, level)` at every slot of `p`.
    pub fn assert_lemma(&mut self, p: PredId, cube: &[Term], level: usize) -> Result<(), Stop> {
        let lemma = mk_not(mk_and(cube.to_vec()));
        for &s in &self.enc.pred_slots[p.idx()] {
            let a = self.act_level[s][level].clone();
            let inst = self.guarded(s, self.enc.at(&lemma, &self.enc.slots[s].app));
            self.slot_smt(s).assert(&mk_implies(a, inst))?;
        }
        Ok(())
    }

    /// Adds a must-summary of `p` (a formula over its parameters) at its body applications:
    /// `must'_s => summary(b_s) \/ must_s`, so the new literal stands for the
    /// disjunction of all of `p`'s summaries.
    pub fn add_must(&mut self, p: PredId, summary: &Term) -> Result<(), Stop> {
        for &s in &self.enc.pred_slots[p.idx()] {
            let inst = self.enc.at(summary, &self.enc.slots[s].app);
            let disj = match &self.act_must[s] {
                Some(prev) => mk_or(vec![inst, prev.clone()]),
                None => inst,
            };
            let a = self.fresh_act(self.enc.slots[s].users[0], "m")?;
            let disj = self.guarded(s, disj);
            self.slot_smt(s).assert(&mk_implies(a.clone(), disj))?;
            self.act_must[s] = Some(a);
        }
        Ok(())
    }

    /// The activation literals of the cube's literals at the head of clause `c`.
    fn head_acts(&mut self, c: usize, cube: &[Term]) -> Result<Vec<Term>, Stop> {
        let mut out = Vec::with_capacity(cube.len());
        for lit in cube {
            if let Some(a) = self.lit_acts.get(&(c, lit.clone())) {
                out.push(a.clone());
                continue;
            }
            let a = self.fresh_act(c, "l")?;
            let inst = self.enc.at(lit, &self.enc.clauses[c].head);
            self.smt(c).assert(&mk_implies(a.clone(), inst))?;
            self.lit_acts.insert((c, lit.clone()), a.clone());
            self.act_lits.insert(a.clone(), lit.clone());
            out.push(a);
        }
        Ok(out)
    }

    /// Checks the solver of clause `c` under `assumptions`.
    fn check(&mut self, c: usize, assumptions: &[Term]) -> Result<bool, Stop> {
        match self.smt(c).check_sat_assuming(assumptions)? {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => Err(Stop::SolverUnknown),
        }
    }

    /// After unsat in the solver of clause `c`: the cube literals in the core.
    fn core(&mut self, c: usize) -> Result<Vec<Term>, Stop> {
        let core = self.smt(c).unsat_assumptions()?;
        Ok(core
            .iter()
            .filter_map(|a| self.act_lits.get(a))
            .cloned()
            .collect())
    }

    /// The assumptions of clause `c` with its body applications in `F(., level)`.
    fn may_assumptions(&self, c: usize, level: usize) -> Vec<Term> {
        let mut assume = vec![self.act_clause[c].clone()];
        for &s in &self.enc.slot_of[c] {
            assume.extend(self.act_level[s][level..].iter().cloned());
        }
        assume
    }

    /// `constraint_c /\ F(body, level) /\ cube(head)`: a model of the clause's variables, or
    /// the core.
    pub fn may(&mut self, c: usize, level: usize, cube: &[Term]) -> Result<Query, Stop> {
        let mut assume = self.may_assumptions(c, level);
        assume.extend(self.head_acts(c, cube)?);
        if !self.check(c, &assume)? {
            return Ok(Query::Unsat(self.core(c)?));
        }
        let vars = self.enc.clauses[c].vars.clone();
        Ok(Query::Sat(self.smt(c).get_model(&vars)?))
    }

    /// `constraint_c /\ must(b{j}) for j < k /\ F(b{j}, level) for j >= k /\ cube(head)`: a
    /// model, if the first `k` body predicates have must-summaries and the query is
    /// satisfiable.
    pub fn mixed(
        &mut self,
        c: usize,
        level: usize,
        k: usize,
        cube: &[Term],
    ) -> Result<Option<Assignment>, Stop> {
        let mut assume = vec![self.act_clause[c].clone()];
        for (j, &s) in self.enc.slot_of[c].iter().enumerate() {
            if j >= k {
                assume.extend(self.act_level[s][level..].iter().cloned());
                continue;
            }
            match &self.act_must[s] {
                Some(a) => assume.push(a.clone()),
                None => return Ok(None),
            }
        }
        assume.extend(self.head_acts(c, cube)?);
        if !self.check(c, &assume)? {
            return Ok(None);
        }
        let vars = self.enc.clauses[c].vars.clone();
        Ok(Some(self.smt(c).get_model(&vars)?))
    }

    /// `constraint_c /\ /\_j summary_j(b{j}) /\ head = values`, for rebuilding a derivation: a
    /// model of the clause's variables (`None` if unsatisfiable, which is a bug).
    pub fn concrete(
        &mut self,
        c: usize,
        summaries: &[Term],
        head: Option<&Assignment>,
    ) -> Result<Option<Assignment>, Stop> {
        let cl = &self.enc.clauses[c];
        let mut conj: Vec<Term> = summaries
            .iter()
            .zip(&cl.body)
            .map(|(s, b)| self.enc.at(s, b))
            .collect();
        if let Some(vals) = head {
            for (p, v) in self.enc.params[cl.head.pred.idx()]
                .iter()
                .zip(&cl.head.vars)
            {
                conj.push(mk_eq(mk_var_of(v), vals[p].to_term()));
            }
        }
        let vars = cl.vars.clone();
        let a = self.act_clause[c].clone();
        self.smt(c).push()?;
        self.smt(c).assert(&mk_and(conj))?;
        let r = match self.check(c, &[a]) {
            Ok(true) => self.smt(c).get_model(&vars).map(Some).map_err(Stop::from),
            Ok(false) => Ok(None),
            Err(e) => Err(e),
        };
        self.smt(c).pop()?;
        r
    }

    /// Would `not cube` hold at level `level + 1` of `p`: is `constraint_c /\ F(body, level)
    /// /\ cube(head)` unsatisfiable for every clause `c` defining `p`?
    pub fn pushable(&mut self, p: PredId, level: usize, cube: &[Term]) -> Result<bool, Stop> {
        if self.is_joint(p) {
            return Ok(matches!(
                self.may_any(p, Clauses::All, level, cube)?,
                Joint::Unsat(_)
            ));
        }
        for c in self.enc.defining[p.idx()].clone() {
            let mut assume = self.may_assumptions(c, level);
            assume.extend(self.head_acts(c, cube)?);
            if self.check(c, &assume)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Are `p`'s clauses asked together (module doc, joint queries)?
    pub fn is_joint(&self, p: PredId) -> bool {
        self.enc.defining[p.idx()]
            .first()
            .is_some_and(|&c| self.joint[c])
    }

    /// The clauses of `which` defining `p`.
    fn clauses_of(&self, p: PredId, which: Clauses) -> Vec<usize> {
        self.enc.defining[p.idx()]
            .iter()
            .copied()
            .filter(|&c| match which {
                Clauses::Facts => self.enc.clauses[c].body.is_empty(),
                Clauses::Rules => !self.enc.clauses[c].body.is_empty(),
                Clauses::All => true,
            })
            .collect()
    }

    /// The selector of the clauses `set` (of one predicate, so in one solver):
    /// `sel => \/_{c in set} act_c`, asserted once.
    fn selector(&mut self, set: &[usize]) -> Result<Term, Stop> {
        if let Some(s) = self.selectors.get(set) {
            return Ok(s.clone());
        }
        let sel = self.fresh_act(set[0], "s")?;
        let disj = mk_or(set.iter().map(|&c| self.act_clause[c].clone()).collect());
        self.smt(set[0]).assert(&mk_implies(sel.clone(), disj))?;
        self.selectors.insert(set.to_vec(), sel.clone());
        Ok(sel)
    }

    /// The activation literals of the cube's literals at the heads of all of `p`'s clauses.
    fn pred_head_acts(&mut self, p: PredId, cube: &[Term]) -> Result<Vec<Term>, Stop> {
        let defining = &self.enc.defining[p.idx()];
        let mut out = Vec::with_capacity(cube.len());
        for lit in cube {
            if let Some(a) = self.pred_lit_acts.get(&(p, lit.clone())) {
                out.push(a.clone());
                continue;
            }
            let a = self.fresh_act(defining[0], "l")?;
            let mut insts: Vec<Term> = defining
                .iter()
                .map(|&c| self.enc.at(lit, &self.enc.clauses[c].head))
                .collect();
            // with shared slots, every clause has the same head
            insts.dedup();
            let inst = mk_and(insts);
            self.smt(defining[0]).assert(&mk_implies(a.clone(), inst))?;
            self.pred_lit_acts.insert((p, lit.clone()), a.clone());
            self.act_lits.insert(a.clone(), lit.clone());
            out.push(a);
        }
        Ok(out)
    }

    /// After sat in the solver of the clauses `set`: the first of them the model turns on.
    fn active(&mut self, set: &[usize]) -> Result<usize, Stop> {
        let acts: Vec<Var> = set
            .iter()
            .filter_map(|&c| self.act_clause[c].as_var().cloned())
            .collect();
        let vals = self.smt(set[0]).get_values(&acts)?;
        set.iter()
            .zip(vals)
            .find(|(_, v)| matches!(v, Value::Bool(true)))
            .map(|(&c, _)| c)
            .ok_or_else(|| Stop::Bug("spacer: a joint model turns no clause on".into()))
    }

    /// One query for the clauses `set` of `p` under `assume` (beside the selector and the
    /// cube at the heads): the active clause and its model, or the core.
    fn check_joint(
        &mut self,
        p: PredId,
        set: &[usize],
        mut assume: Vec<Term>,
        cube: &[Term],
    ) -> Result<Joint, Stop> {
        assume.push(self.selector(set)?);
        assume.extend(self.pred_head_acts(p, cube)?);
        let c0 = set[0];
        if !self.check(c0, &assume)? {
            return Ok(Joint::Unsat(self.core(c0)?));
        }
        let c = self.active(set)?;
        let vars = self.enc.clauses[c].vars.clone();
        Ok(Joint::Sat(c, self.smt(c).get_model(&vars)?))
    }

    /// `constraint_c /\ F(body, level) /\ cube(head)` for some clause `c` of `which`
    /// defining `p`, in one query when `p` is joint (else one per clause): a clause with
    /// its model, or the union of the cores.
    pub fn may_any(
        &mut self,
        p: PredId,
        which: Clauses,
        level: usize,
        cube: &[Term],
    ) -> Result<Joint, Stop> {
        let set = self.clauses_of(p, which);
        if set.len() > 1 && self.is_joint(p) {
            let assume = self
                .slots_of(&set)
                .into_iter()
                .flat_map(|s| self.act_level[s][level..].iter().cloned())
                .collect();
            return self.check_joint(p, &set, assume, cube);
        }
        let mut core = vec![];
        for c in set {
            match self.may(c, level, cube)? {
                Query::Sat(m) => return Ok(Joint::Sat(c, m)),
                Query::Unsat(k) => core.extend(k),
            }
        }
        Ok(Joint::Unsat(core))
    }

    /// A clause `c` with a body defining `p` whose every body application the
    /// must-summaries give, with `constraint_c /\ must(body) /\ cube(head)` satisfiable:
    /// `c` and its model (one query when `p` is joint, else one per clause).
    pub fn reach_any(
        &mut self,
        p: PredId,
        cube: &[Term],
    ) -> Result<Option<(usize, Assignment)>, Stop> {
        let set: Vec<usize> = self
            .clauses_of(p, Clauses::Rules)
            .into_iter()
            .filter(|&c| {
                self.enc.slot_of[c]
                    .iter()
                    .all(|&s| self.act_must[s].is_some())
            })
            .collect();
        if set.len() > 1 && self.is_joint(p) {
            let assume: Vec<Term> = self
                .slots_of(&set)
                .into_iter()
                .flat_map(|s| self.act_must[s].clone())
                .collect();
            return Ok(match self.check_joint(p, &set, assume, cube)? {
                Joint::Sat(c, m) => Some((c, m)),
                Joint::Unsat(_) => None,
            });
        }
        for c in set {
            let n = self.enc.clauses[c].body.len();
            if let Some(m) = self.mixed(c, 0, n, cube)? {
                return Ok(Some((c, m)));
            }
        }
        Ok(None)
    }

    /// The checks of [`Blocking`] for predicate `p`.
    pub fn blocking(&mut self, p: PredId) -> PredBlocking<'_, 'a> {
        PredBlocking { ctx: self, pred: p }
    }
}

/// The answer to a query with a cube at the head.
pub enum Query {
    Sat(Assignment),
    /// The cube literals of an unsat core.
    Unsat(Vec<Term>),
}

/// The answer to a query over several clauses.
pub enum Joint {
    /// A clause with a model of its variables.
    Sat(usize, Assignment),
    /// The cube literals of an unsat core.
    Unsat(Vec<Term>),
}

/// Blocking checks for one predicate: "init" is its facts, "trans" its other clauses.
pub struct PredBlocking<'c, 'a> {
    ctx: &'c mut Context<'a>,
    pred: PredId,
}

impl Blocking for PredBlocking<'_, '_> {
    /// `constraint_c /\ cube(head)` for every fact `c` defining the predicate.
    fn init_core(&mut self, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        self.may_cores(true, 0, cube)
    }

    /// `constraint_c /\ F(body, level - 1) /\ not cube(b{j}) /\ cube(head)` for every other
    /// clause `c` defining the predicate, `not cube` at each body application `b{j}` of the
    /// predicate itself (relative induction).
    fn inductive_core(&mut self, level: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        let ctx = &mut *self.ctx;
        if ctx.is_joint(self.pred) {
            return self.joint_inductive_core(level, cube);
        }
        let mut core = vec![];
        for c in ctx.enc.defining[self.pred.idx()].clone() {
            let cl = &ctx.enc.clauses[c];
            if cl.body.is_empty() {
                continue;
            }
            let selfs: Vec<&App> = cl.body.iter().filter(|b| b.pred == self.pred).collect();
            let not_cube = mk_not(mk_and(cube.to_vec()));
            let strengthen = mk_and(selfs.iter().map(|b| ctx.enc.at(&not_cube, b)).collect());
            let mut assume = ctx.may_assumptions(c, level - 1);
            assume.extend(ctx.head_acts(c, cube)?);
            ctx.smt(c).push()?;
            ctx.smt(c).assert(&strengthen)?;
            let sat = ctx.check(c, &assume);
            let r = match sat {
                Ok(false) => ctx.core(c).map(Some),
                Ok(true) => Ok(None),
                Err(e) => Err(e),
            };
            ctx.smt(c).pop()?;
            match r? {
                Some(k) => core.extend(k),
                None => return Ok(None),
            }
        }
        Ok(Some(core))
    }

    /// `constraint_c /\ F(body, level - 1) /\ cube(head)` for every clause `c` defining the
    /// predicate that has a body (no `not cube`).
    fn trans_core(&mut self, level: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        self.may_cores(false, level - 1, cube)
    }
}

impl PredBlocking<'_, '_> {
    /// Relative induction over all of the predicate's clauses with a body in one query:
    /// `act_c => not cube(b{j})` at each application of the predicate itself, in a scope.
    fn joint_inductive_core(
        &mut self,
        level: usize,
        cube: &[Term],
    ) -> Result<Option<Vec<Term>>, Stop> {
        let ctx = &mut *self.ctx;
        let set = ctx.clauses_of(self.pred, Clauses::Rules);
        if set.is_empty() {
            return Ok(Some(vec![]));
        }
        let not_cube = mk_not(mk_and(cube.to_vec()));
        let strengthen: Vec<Term> = ctx
            .slots_of(&set)
            .into_iter()
            .filter(|&s| ctx.enc.slots[s].app.pred == self.pred)
            .map(|s| ctx.guarded(s, ctx.enc.at(&not_cube, &ctx.enc.slots[s].app)))
            .collect();
        // the selector and the cube's literals outlive the scope
        if set.len() > 1 {
            ctx.selector(&set)?;
            ctx.pred_head_acts(self.pred, cube)?;
        } else {
            ctx.head_acts(set[0], cube)?;
        }
        let c0 = set[0];
        ctx.smt(c0).push()?;
        ctx.smt(c0).assert(&mk_and(strengthen))?;
        let r = ctx.may_any(self.pred, Clauses::Rules, level - 1, cube);
        ctx.smt(c0).pop()?;
        Ok(match r? {
            Joint::Sat(..) => None,
            Joint::Unsat(core) => Some(core),
        })
    }

    /// [`Context::may_any`] at `level` over the predicate's facts (or, with `facts` false,
    /// its clauses with a body): `None` when one has a model, else the core.
    fn may_cores(
        &mut self,
        facts: bool,
        level: usize,
        cube: &[Term],
    ) -> Result<Option<Vec<Term>>, Stop> {
        let which = if facts {
            Clauses::Facts
        } else {
            Clauses::Rules
        };
        Ok(match self.ctx.may_any(self.pred, which, level, cube)? {
            Joint::Sat(..) => None,
            Joint::Unsat(core) => Some(core),
        })
    }
}

#[cfg(test)]
#[path = "context_tests.rs"]
mod tests;
