//! The one incremental solver of PDR, and the queries the algorithm asks it.
//!
//! `init`, `trans` and `query` are asserted once, each behind an activation literal; the
//! lemmas of frame `i` sit behind the frame's literal (`act_i => not cube`); each literal of
//! a cube gets an activation literal of its own, unprimed (`a => l`) or primed
//! (`a' => l'`), created on first use and kept. So almost every query is one
//! `check-sat-assuming` of activation literals, and its unsat core names cube literals.
//! Frames use the delta encoding: a lemma stored at level `j` belongs to every `F_i` with
//! `1 <= i <= j`, so `F_i` is assumed as `act_i, .., act_N`, while `F_0` is `init`.

use crate::engine::Stop;
use crate::logic::mbp::project;
use crate::logic::*;
use crate::smt::{SatResult, Smt};
use crate::ts::TransitionSystem;
use rustc_hash::{FxHashMap, FxHashSet};

/// A conjunction of literals over the state variables.
pub type Cube = Vec<Term>;

/// The answer to `F_{i-1} /\ trans /\ cube'`.
pub enum Pred {
    /// A cube of predecessors (the projection of a model), each of which has a successor in
    /// the cube.
    Found(Cube),
    /// Unsatisfiable: the cube literals of the unsat core.
    Blocked(Vec<Term>),
}

pub struct Context<'a> {
    pub ts: &'a TransitionSystem,
    pub smt: Smt,
    act_init: Term,
    act_trans: Term,
    act_query: Term,
    /// `act_levels[i]` guards the lemmas stored at level `i >= 1` (index 0 is unused).
    act_levels: Vec<Term>,
    /// The activation literal of a literal, unprimed (`false`) or primed (`true`).
    lit_acts: FxHashMap<(Term, bool), Term>,
    /// The (unprimed) literal behind each activation literal.
    act_lits: FxHashMap<Term, Term>,
    primes: FxHashMap<Term, Term>,
    n_acts: usize,
    /// Variables a predecessor's projection reads, and those it eliminates.
    trans_vars: Vec<Var>,
    trans_elim: Vec<Var>,
    /// The same for the query.
    query_vars: Vec<Var>,
    query_elim: Vec<Var>,
    /// Variables replaced by model values in projections.
    pub mbp_substitutions: usize,
}

/// The cube of a projection's literals: an equality over variables becomes two bounds, so
/// that generalization can drop either side. A literal may come twice: dropping it drops
/// both copies, and [`super::generalize::generalize`] returns each literal once. (Removing
/// the copies here changed PDR's search on lustre files, `DRAGON_13` from 63 lemmas to 106;
/// left as it was.)
pub fn cube_of(lits: Vec<Term>) -> Cube {
    let mut out = Vec::with_capacity(lits.len());
    for l in lits {
        match l.get() {
            TermNode::EqZ(lin) if lin.terms.iter().all(|(t, _)| t.as_var().is_some()) => {
                out.push(mk_le_lin(lin.clone()));
                out.push(mk_le_lin(lin.neg()));
            }
            _ => out.push(l),
        }
    }
    out
}

fn union(a: &[Var], b: Vec<Var>) -> Vec<Var> {
    let mut out = a.to_vec();
    for v in b {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

impl<'a> Context<'a> {
    /// Asserts `act_init => init`, `act_trans => trans` and `act_query => query`.
    pub fn new(ts: &'a TransitionSystem, smt: Smt) -> Result<Context<'a>, Stop> {
        let state_next: Vec<Var> = union(&ts.state, ts.next.clone());
        let trans_vars = union(&state_next, free_vars(&ts.trans));
        let query_vars = union(&ts.state, free_vars(&ts.query));
        let not_state = |vs: &[Var]| {
            vs.iter()
                .filter(|v| !ts.state.contains(v))
                .cloned()
                .collect()
        };
        let mut ctx = Context {
            ts,
            smt,
            act_init: mk_true(),
            act_trans: mk_true(),
            act_query: mk_true(),
            act_levels: vec![mk_true()],
            lit_acts: FxHashMap::default(),
            act_lits: FxHashMap::default(),
            primes: FxHashMap::default(),
            n_acts: 0,
            trans_elim: not_state(&trans_vars),
            trans_vars,
            query_elim: not_state(&query_vars),
            query_vars,
            mbp_substitutions: 0,
        };
        for v in &state_next {
            ctx.smt.declare(v)?;
        }
        ctx.act_init = ctx.fresh_act("init")?;
        ctx.act_trans = ctx.fresh_act("trans")?;
        ctx.act_query = ctx.fresh_act("query")?;
        for (act, f) in [
            (&ctx.act_init, &ts.init),
            (&ctx.act_trans, &ts.trans),
            (&ctx.act_query, &ts.query),
        ] {
            ctx.smt.assert(&mk_implies(act.clone(), f.clone()))?;
        }
        Ok(ctx)
    }

    fn fresh_act(&mut self, what: &str) -> Result<Term, Stop> {
        let v = Var {
            name: format!("pdr!{what}{}", self.n_acts).into(),
            sort: Sort::Bool,
        };
        self.n_acts += 1;
        self.smt.declare(&v)?;
        Ok(mk_var_of(&v))
    }

    /// Adds the activation literal of a new top frame.
    pub fn add_level(&mut self) -> Result<(), Stop> {
        let a = self.fresh_act("F")?;
        self.act_levels.push(a);
        Ok(())
    }

    /// The assumptions that make `F_i`.
    fn frame(&self, i: usize) -> Vec<Term> {
        if i == 0 {
            vec![self.act_init.clone()]
        } else {
            self.act_levels[i..].to_vec()
        }
    }

    /// `act_level => not cube`.
    pub fn assert_lemma(&mut self, cube: &[Term], level: usize) -> Result<(), Stop> {
        let lemma = mk_not(mk_and(cube.to_vec()));
        let a = self.act_levels[level].clone();
        self.smt.assert(&mk_implies(a, lemma))?;
        Ok(())
    }

    pub fn prime(&mut self, lit: &Term) -> Term {
        if let Some(p) = self.primes.get(lit) {
            return p.clone();
        }
        let p = self.ts.prime(lit);
        self.primes.insert(lit.clone(), p.clone());
        p
    }

    /// The activation literals of the cube's literals, primed or not (outside any push).
    fn acts(&mut self, cube: &[Term], primed: bool) -> Result<Vec<Term>, Stop> {
        let mut out = Vec::with_capacity(cube.len());
        for lit in cube {
            if let Some(a) = self.lit_acts.get(&(lit.clone(), primed)) {
                out.push(a.clone());
                continue;
            }
            let a = self.fresh_act(if primed { "p" } else { "u" })?;
            let body = if primed { self.prime(lit) } else { lit.clone() };
            self.smt.assert(&mk_implies(a.clone(), body))?;
            self.lit_acts.insert((lit.clone(), primed), a.clone());
            self.act_lits.insert(a.clone(), lit.clone());
            out.push(a);
        }
        Ok(out)
    }

    fn check(&mut self, assumptions: &[Term]) -> Result<bool, Stop> {
        match self.smt.check_sat_assuming(assumptions)? {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => Err(Stop::SolverUnknown),
        }
    }

    /// After unsat: the cube literals in the core.
    fn core(&mut self) -> Result<Vec<Term>, Stop> {
        let core = self.smt.unsat_assumptions()?;
        let lits: FxHashSet<Term> = core
            .iter()
            .filter_map(|a| self.act_lits.get(a))
            .cloned()
            .collect();
        Ok(lits.into_iter().collect())
    }

    /// Is `init /\ query` satisfiable (a counterexample of length 0)?
    pub fn init_meets_query(&mut self) -> Result<bool, Stop> {
        let (i, q) = (self.act_init.clone(), self.act_query.clone());
        self.check(&[i, q])
    }

    /// `F_n /\ query`: a cube of states in `F_n` that satisfy the query, if any.
    pub fn bad_cube(&mut self, n: usize) -> Result<Option<Cube>, Stop> {
        let mut assume = self.frame(n);
        assume.push(self.act_query.clone());
        if !self.check(&assume)? {
            return Ok(None);
        }
        let model = self.smt.get_model(&self.query_vars)?;
        let p = project(
            std::slice::from_ref(&self.ts.query),
            &model,
            &self.query_elim,
        )
        .map_err(Stop::SolverError)?;
        self.mbp_substitutions += p.model_substitutions;
        Ok(Some(cube_of(p.lits)))
    }

    /// `F_{i-1} /\ trans /\ cube'`: a projected predecessor cube, or the core.
    pub fn predecessor(&mut self, i: usize, cube: &[Term]) -> Result<Pred, Stop> {
        let mut assume = self.frame(i - 1);
        assume.push(self.act_trans.clone());
        assume.extend(self.acts(cube, true)?);
        if !self.check(&assume)? {
            return Ok(Pred::Blocked(self.core()?));
        }
        let model = self.smt.get_model(&self.trans_vars)?;
        let mut phi = vec![self.ts.trans.clone()];
        phi.extend(cube.iter().map(|l| self.prime(l)));
        let p = project(&phi, &model, &self.trans_elim).map_err(Stop::SolverError)?;
        self.mbp_substitutions += p.model_substitutions;
        Ok(Pred::Found(cube_of(p.lits)))
    }

    /// `F_{i-1} /\ trans /\ cube'`: `None` when satisfiable, else the core.
    pub fn trans_core(&mut self, i: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        let mut assume = self.frame(i - 1);
        assume.push(self.act_trans.clone());
        assume.extend(self.acts(cube, true)?);
        if self.check(&assume)? {
            return Ok(None);
        }
        Ok(Some(self.core()?))
    }

    /// Does some `F_i`-state have a successor in the cube? (`F_i /\ trans /\ cube'`)
    pub fn reaches(&mut self, i: usize, cube: &[Term]) -> Result<bool, Stop> {
        let mut assume = self.frame(i);
        assume.push(self.act_trans.clone());
        assume.extend(self.acts(cube, true)?);
        self.check(&assume)
    }

    /// `init /\ cube`: `None` when satisfiable, else the core.
    pub fn init_core(&mut self, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        let mut assume = vec![self.act_init.clone()];
        assume.extend(self.acts(cube, false)?);
        if self.check(&assume)? {
            return Ok(None);
        }
        Ok(Some(self.core()?))
    }

    /// Is the cube disjoint from `F_i`?
    pub fn blocked(&mut self, i: usize, cube: &[Term]) -> Result<bool, Stop> {
        let mut assume = self.frame(i);
        assume.extend(self.acts(cube, false)?);
        Ok(!self.check(&assume)?)
    }

    /// Relative induction, `F_{i-1} /\ not cube /\ trans /\ cube'`: `None` when satisfiable,
    /// else the core (whose own negation is then inductive relative to `F_{i-1}` too).
    pub fn inductive_core(&mut self, i: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        match self.induction(i, cube, false)? {
            Induction::Core(core) => Ok(Some(core)),
            Induction::Cti(_) => Ok(None),
        }
    }

    /// [`Context::inductive_core`], but when satisfiable, the state of the model's
    /// predecessor (its values of the state variables, as a cube): a counterexample to
    /// induction, a state of `F_{i-1}` outside the cube with a successor in it. `Cti(None)`
    /// when a state variable is not of sort `Int`, `Real` or `Bool`.
    pub fn inductive_cti(&mut self, i: usize, cube: &[Term]) -> Result<Induction, Stop> {
        self.induction(i, cube, true)
    }

    fn induction(&mut self, i: usize, cube: &[Term], cti: bool) -> Result<Induction, Stop> {
        let mut assume = self.frame(i - 1);
        assume.push(self.act_trans.clone());
        assume.extend(self.acts(cube, true)?);
        self.smt.push()?;
        self.smt.assert(&mk_not(mk_and(cube.to_vec())))?;
        let r = match self.check(&assume) {
            Ok(false) => self.core().map(Induction::Core),
            Ok(true) if cti => self.state_cube().map(Induction::Cti),
            Ok(true) => Ok(Induction::Cti(None)),
            Err(e) => Err(e),
        };
        self.smt.pop()?;
        r
    }

    /// After sat: the model's values of the state variables, as a cube (`x = 3` as the two
    /// bounds `x <= 3`, `x >= 3`, see [`cube_of`]); `None` with a state variable of another
    /// sort (arrays).
    fn state_cube(&mut self) -> Result<Option<Cube>, Stop> {
        let state = self.ts.state.clone();
        if state
            .iter()
            .any(|v| !matches!(v.sort, Sort::Int | Sort::Real | Sort::Bool))
        {
            return Ok(None);
        }
        let model = self.smt.get_model(&state)?;
        let lits = state
            .iter()
            .map(|v| {
                let x = mk_var_of(v);
                match &model[v] {
                    Value::Bool(true) => x,
                    Value::Bool(false) => mk_not(x),
                    val => mk_eq(x, val.to_term()),
                }
            })
            .collect();
        Ok(Some(cube_of(lits)))
    }
}

/// The answer to relative induction, `F_{i-1} /\ not cube /\ trans /\ cube'`.
pub enum Induction {
    /// Unsatisfiable: the cube literals of the unsat core.
    Core(Vec<Term>),
    /// Satisfiable: the predecessor state of the model, when asked for and a cube.
    Cti(Option<Cube>),
}
