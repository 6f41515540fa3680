//! Quantifier elimination (above the term layer: it starts solver processes) for linear integer and real arithmetic with Booleans (and
//! `div`/`mod` by constants, `to_real`, `to_int`, `is_int`): the one place that turns
//! `exists` into a quantifier-free formula. `Int`, `Real` and `Bool` variables are
//! eliminated alike, by the projections of [`crate::logic::mbp`].
//!
//! [`Qe::eliminate`] replaces every `exists` of a term, innermost first, by an equivalent
//! quantifier-free formula. Each `exists xs. phi` (with `phi` quantifier-free) goes through:
//!
//! 1. variables that a conjunct of `phi` defines are substituted away
//!    ([`mk_exists_elim`](crate::logic::mk_exists_elim)), and the quantifier is distributed over a
//!    top-level disjunction;
//! 2. **QE by model-based projection** ([`crate::logic::mbp`]): while `phi /\ not R` has a model
//!    `M` (`R` starts as `false`), the projection `psi` of `phi` under `M` is added to `R`.
//!    Every `psi` implies `exists xs. phi` and `M` satisfies it, so when the loop ends
//!    (`phi => R`), `R` is equivalent to `exists xs. phi`. It ends because a formula has
//!    finitely many projections (Loos–Weispfenning with divisibility). The models come from
//!    the SMT solver the caller names (any of them);
//! 3. only when the loop needs more than [`MAX_PROJECTIONS`] projections, or fails, z3's
//!    `qe` tactic (`(apply (then qe simplify))`, then `qe2`) is asked, and its answer is read
//!    back into our terms; an answer outside the fragment (a quantifier left, say) is an
//!    error. [`QeStats::fallbacks`] counts these.
//!
//! Array variables are first removed exactly where [`crate::logic::array_elim`]'s rules apply (store
//! equations, arrays that are only read); a quantifier over an array that neither removes
//! stays in place (the validator's z3 reads it).
//!
//! Nothing here is trusted by the caller: a model made quantifier-free is still checked by
//! the validator like any other.

use crate::logic::*;
use crate::smt::{parse_goals, SatResult, Smt, SmtError, SolverConfig};
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};

/// Most projections the MBP loop collects for one quantifier before it hands over to z3.
pub const MAX_PROJECTIONS: usize = 256;

/// Counters of a [`Qe`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QeStats {
    /// Quantifiers `exists xs. phi` eliminated (after splitting disjunctions).
    pub quantifiers: u64,
    /// Quantifiers that definitions alone eliminated.
    pub by_definitions: u64,
    /// Quantifiers eliminated by the MBP loop, and the projections it took.
    pub by_mbp: u64,
    pub projections: u64,
    /// Quantifiers the MBP loop could not finish, handed to z3's `qe`.
    pub fallbacks: u64,
    /// Quantifiers neither could eliminate.
    pub failures: u64,
    /// Quantifiers over arrays, left in place.
    pub kept_arrays: u64,
    /// Array variables removed exactly (store equations, arrays only read: [`crate::logic::array_elim`]).
    pub array_rewrites: u64,
}

/// A quantifier eliminator: solver processes (started on first use, reused) and counters.
pub struct Qe {
    smt_cfg: SolverConfig,
    z3_cfg: Option<SolverConfig>,
    deadline: Option<Instant>,
    smt: Option<Smt>,
    z3: Option<Smt>,
    /// Above this many projections the MBP loop gives up (default [`MAX_PROJECTIONS`]).
    pub max_projections: usize,
    pub stats: QeStats,
}

/// The most Boolean variables split into cases (`2^n` copies of the body) beside arrays that
/// stay quantified.
const MAX_BOOL_SPLIT: usize = 4;

impl Qe {
    /// `smt` gives the models of the MBP loop; `z3`, when given, is the fallback; nothing
    /// runs past `deadline`.
    pub fn new(smt: SolverConfig, z3: Option<SolverConfig>, deadline: Option<Instant>) -> Qe {
        Qe {
            smt_cfg: smt,
            z3_cfg: z3,
            deadline,
            smt: None,
            z3: None,
            max_projections: MAX_PROJECTIONS,
            stats: QeStats::default(),
        }
    }

    fn remaining(&self) -> Result<Option<Duration>, String> {
        match self.deadline {
            None => Ok(None),
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    Err("quantifier elimination: out of time".into())
                } else {
                    Ok(Some(left))
                }
            }
        }
    }

    /// `t` with every `exists` replaced by an equivalent quantifier-free formula.
    pub fn eliminate(&mut self, t: &Term) -> Result<Term, String> {
        if !has_quantifier(t) {
            return Ok(t.clone());
        }
        let mut memo = FxHashMap::default();
        self.rebuild(t, &mut memo)
    }

    fn rebuild(&mut self, t: &Term, memo: &mut FxHashMap<u64, Term>) -> Result<Term, String> {
        if let Some(r) = memo.get(&t.uid()) {
            return Ok(r.clone());
        }
        if !has_quantifier(t) {
            return Ok(t.clone());
        }
        let r = match t.get() {
            TermNode::Var(_) | TermNode::Bool(_) | TermNode::Int(_) | TermNode::Real(_) => {
                t.clone()
            }
            TermNode::Not(a) => mk_not(self.rebuild(a, memo)?),
            TermNode::And(ts) => mk_and(self.rebuild_all(ts, memo)?),
            TermNode::Or(ts) => mk_or(self.rebuild_all(ts, memo)?),
            TermNode::Ite(c, a, b) => {
                let c = self.rebuild(c, memo)?;
                let a = self.rebuild(a, memo)?;
                mk_ite(c, a, self.rebuild(b, memo)?)
            }
            TermNode::Iff(a, b) => {
                let a = self.rebuild(a, memo)?;
                mk_eq(a, self.rebuild(b, memo)?)
            }
            TermNode::Lin(l) => mk_lin(self.rebuild_lin(l, memo)?),
            TermNode::Le(l) => mk_le_lin(self.rebuild_lin(l, memo)?),
            TermNode::EqZ(l) => mk_eqz_lin(self.rebuild_lin(l, memo)?),
            TermNode::Div(a, d) => mk_div(self.rebuild(a, memo)?, d.clone()),
            TermNode::Mod(a, d) => mk_mod(self.rebuild(a, memo)?, d.clone()),
            TermNode::Exists(vs, body) => {
                let body = self.rebuild(body, memo)?;
                self.exists(vs, &body)?
            }
            // an `ite` atom of a real expression may hold one
            TermNode::RLin(l) => mk_rlin(self.rebuild_rlin(l, memo)?),
            TermNode::RLe(l) => mk_rle_lin(self.rebuild_rlin(l, memo)?),
            TermNode::RLt(l) => mk_rlt_lin(self.rebuild_rlin(l, memo)?),
            TermNode::REqZ(l) => mk_reqz_lin(self.rebuild_rlin(l, memo)?),
            TermNode::ToReal(a) => mk_to_real(self.rebuild(a, memo)?),
            TermNode::ToInt(a) => mk_to_int(self.rebuild(a, memo)?),
            TermNode::IsInt(a) => mk_is_int(self.rebuild(a, memo)?),
            TermNode::Select(a, i) => {
                let a = self.rebuild(a, memo)?;
                mk_select(a, self.rebuild(i, memo)?)
            }
            TermNode::Store(a, i, v) => {
                let a = self.rebuild(a, memo)?;
                let i = self.rebuild(i, memo)?;
                mk_store(a, i, self.rebuild(v, memo)?)
            }
            TermNode::ConstArray(s, v) => mk_const_array(*s, self.rebuild(v, memo)?),
            TermNode::ArrEq(a, b) => {
                let a = self.rebuild(a, memo)?;
                mk_arr_eq(a, self.rebuild(b, memo)?)
            }
        };
        memo.insert(t.uid(), r.clone());
        Ok(r)
    }

    fn rebuild_all(
        &mut self,
        ts: &[Term],
        memo: &mut FxHashMap<u64, Term>,
    ) -> Result<Vec<Term>, String> {
        ts.iter().map(|s| self.rebuild(s, memo)).collect()
    }

    fn rebuild_lin(&mut self, l: &Lin, memo: &mut FxHashMap<u64, Term>) -> Result<Lin, String> {
        let mut acc = Lin::constant(l.k.clone());
        for (t, c) in &l.terms {
            acc = acc.add(&Lin::of(&self.rebuild(t, memo)?).scale(c));
        }
        Ok(acc)
    }

    fn rebuild_rlin(&mut self, l: &RLin, memo: &mut FxHashMap<u64, Term>) -> Result<RLin, String> {
        let mut acc = RLin::constant(l.k.clone());
        for (t, c) in &l.terms {
            acc = acc.add(&RLin::of(&self.rebuild(t, memo)?).scale(c));
        }
        Ok(acc)
    }

    /// A quantifier-free formula equivalent to `exists vars. body`, for a quantifier-free
    /// `body`.
    pub fn exists(&mut self, vars: &[Var], body: &Term) -> Result<Term, String> {
        let q = mk_exists_elim(vars.to_vec(), body.clone());
        let TermNode::Exists(vars, body) = q.get() else {
            self.stats.quantifiers += 1;
            self.stats.by_definitions += 1;
            return Ok(q);
        };
        if let TermNode::Or(ds) = body.get() {
            let mut out = vec![];
            for d in ds {
                out.push(self.exists(vars, d)?);
            }
            return Ok(mk_or(out));
        }
        if vars.iter().any(|v| v.sort.is_array()) {
            if let Some(e) = crate::logic::array_elim::eliminate(vars, body) {
                self.stats.array_rewrites += 1;
                return self.exists(&e.vars, &e.body);
            }
        }
        let arrays = vars.iter().any(|v| v.sort.is_array());
        if arrays {
            let bools: Vec<&Var> = vars.iter().filter(|v| v.sort == Sort::Bool).collect();
            if !bools.is_empty() && bools.len() <= MAX_BOOL_SPLIT {
                // `exists b. f` is `f[true/b] \/ f[false/b]`: exact, and what stays quantified
                // is arrays only, which a model may keep (CHC-COMP's validators read it)
                let mut cases = vec![body.clone()];
                for b in bools {
                    let (b, mut next) = ((*b).clone(), vec![]);
                    for f in &cases {
                        for v in [mk_true(), mk_false()] {
                            let map: FxHashMap<Var, Term> = [(b.clone(), v)].into_iter().collect();
                            next.push(subst(f, &map));
                        }
                    }
                    cases = next;
                }
                let rest: Vec<Var> = vars
                    .iter()
                    .filter(|v| v.sort != Sort::Bool)
                    .cloned()
                    .collect();
                let mut out = vec![];
                for f in &cases {
                    out.push(self.exists(&rest, f)?);
                }
                return Ok(mk_or(out));
            }
        }
        self.stats.quantifiers += 1;
        if arrays {
            // projection by model values would enumerate array values without end, and z3's
            // `qe` rarely eliminates arrays: the quantifier stays (the validator's z3 reads it)
            self.stats.kept_arrays += 1;
            return Ok(q);
        }
        let own = self.by_mbp(vars, body);
        match own {
            Ok(Some(r)) => {
                self.stats.by_mbp += 1;
                return Ok(r);
            }
            Ok(None) => {}
            Err(e) => log::debug!("qe: projection loop failed: {e}"),
        }
        self.stats.fallbacks += 1;
        match self.by_z3(vars, body) {
            Ok(r) => Ok(r),
            Err(e) => {
                self.stats.failures += 1;
                Err(format!("quantifier elimination failed: {e}"))
            }
        }
    }

    /// The MBP loop; `None` when it needs more than `max_projections` projections.
    fn by_mbp(&mut self, vars: &[Var], body: &Term) -> Result<Option<Term>, String> {
        let limit = self.remaining()?;
        if self.smt.as_ref().is_none_or(|s| !s.is_alive()) {
            self.smt = Some(Smt::new(&self.smt_cfg, "qe").map_err(|e| e.to_string())?);
        }
        let smt = self.smt.as_mut().unwrap();
        let guard = limit.map(|l| smt.deadline(l));
        let r = mbp_loop(smt, vars, body, self.max_projections);
        if guard.is_some_and(|g| g.fired()) {
            self.smt = None;
            return Err("quantifier elimination: out of time".into());
        }
        let r = r.map_err(|e| e.to_string());
        if r.is_err() {
            self.smt = None; // a failed process is not reused
        }
        let (ds, done) = r?;
        self.stats.projections += ds.len() as u64;
        Ok(done.then(|| mk_or(ds)))
    }

    /// z3's `qe` tactic, then `qe2`.
    fn by_z3(&mut self, vars: &[Var], body: &Term) -> Result<Term, String> {
        let Some(cfg) = self.z3_cfg.clone() else {
            return Err("no z3 for the fallback".into());
        };
        let mut last = String::new();
        for tactic in ["(then qe simplify)", "(then qe2 simplify)"] {
            let limit = self.remaining()?;
            if self.z3.as_ref().is_none_or(|s| !s.is_alive()) {
                self.z3 = Some(Smt::new(&cfg, "qe-z3").map_err(|e| e.to_string())?);
            }
            let z3 = self.z3.as_mut().unwrap();
            let guard = limit.map(|l| z3.deadline(l));
            let r = z3_tactic(z3, vars, body, tactic);
            if guard.is_some_and(|g| g.fired()) {
                self.z3 = None;
                return Err("out of time".into());
            }
            match r {
                Ok(Ok(t)) => return Ok(t),
                Ok(Err(e)) => last = format!("{tactic}: {e}"),
                Err(e) => {
                    self.z3 = None;
                    last = format!("{tactic}: {e}");
                }
            }
        }
        Err(last)
    }
}

/// The projections of `body` onto its variables other than `vars`, one per model outside
/// the earlier ones, and whether the loop finished (their disjunction is then equivalent to
/// `exists vars. body`) before `max` projections.
pub fn mbp_loop(
    smt: &mut Smt,
    vars: &[Var],
    body: &Term,
    max: usize,
) -> Result<(Vec<Term>, bool), SmtError> {
    let fv = free_vars(body);
    smt.push()?;
    let r = (|| {
        for v in &fv {
            smt.declare(v)?;
        }
        smt.assert(body)?;
        let mut ds = vec![];
        loop {
            match smt.check_sat()? {
                SatResult::Unsat => return Ok((ds, true)),
                SatResult::Unknown => return Ok((ds, false)),
                SatResult::Sat => {}
            }
            if ds.len() >= max {
                return Ok((ds, false));
            }
            let model = smt.get_model(&fv)?;
            let psi = match mbp::project(std::slice::from_ref(body), &model, vars) {
                Ok(p) => mk_and(p.lits),
                Err(e) => return Err(SmtError::Solver(format!("projection failed: {e}"))),
            };
            smt.assert(&mk_not(psi.clone()))?;
            ds.push(psi);
        }
    })();
    let popped = smt.pop();
    let r = r?;
    popped?;
    Ok(r)
}

/// `exists vars. body` through z3's `tactic`; the inner result is an answer z3 gave that we
/// cannot use.
fn z3_tactic(
    z3: &mut Smt,
    vars: &[Var],
    body: &Term,
    tactic: &str,
) -> Result<Result<Term, String>, SmtError> {
    let q = mk_exists(vars.to_vec(), body.clone());
    let free = free_vars(&q);
    z3.push()?;
    let r = (|| {
        for v in &free {
            z3.declare(v)?;
        }
        z3.assert(&q)?;
        z3.raw_query(&format!("(apply {tactic})"))
    })();
    let popped = z3.pop();
    let text = r?;
    popped?;
    let names: FxHashMap<String, Var> = free
        .iter()
        .map(|v| (v.name.to_string(), v.clone()))
        .collect();
    Ok(parse_goals(&text, &names).and_then(|t| {
        if has_quantifier(&t) {
            Err("z3 left a quantifier".into())
        } else {
            Ok(t)
        }
    }))
}

#[cfg(test)]
mod array_tests;
#[cfg(test)]
mod tests;
