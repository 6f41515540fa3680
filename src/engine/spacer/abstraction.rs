//! Proof-based abstraction and counterexample-based refinement around Spacer: Komuravelli,
//! Gurfinkel, Chaki, Clarke, *Automatic Abstraction in SMT-Based Unbounded Software Model
//! Checking* (CAV 2013), on the clause graph.
//!
//! Σ has one assumption literal per conjunct of each clause's constraint. A subset Σ̂ keeps
//! those conjuncts and drops the others: the abstraction `A(Σ̂)`, an over-approximation of the
//! system `P` (`A(Σ) = P`). Every predicate on a cycle of the clause graph (a *loop head*)
//! gets a counter argument (Sect. 5): reset to 0 by the clauses that enter its strongly
//! connected component, one more than the counters of the body applications in the component
//! along the clauses that stay in it, and bounded by `b` at the heads: `U(Σ̂, b)`, an
//! under-approximation of `A(Σ̂)` whose derivations have bounded height within every loop.
//! It is solved by the plain Spacer ([`Spacer::run`] on the transformed system, a fresh
//! search each iteration, as the paper's μZ calls).
//!
//! | the paper (Fig. 5, Sect. 5) | here |
//! | --- | --- |
//! | SPACER, the main loop | [`run`] |
//! | the transformation of Sect. 5 (counters, bounds; Σ per conjunct) | [`Prep::new`], [`Prep::under`] |
//! | `U(Σ̂, bvals)`, solved by SOLVE | [`Prep::under`], then [`Spacer::run`] |
//! | NEXTU: all bounds one higher | `bound += 1` in [`run`] |
//! | ABSTRACT: an unsat core over Σ of "π is not a proof of `U(Σ, bvals)`", minimized | [`Global::abstract_core`] |
//! | EXTRACTINVS (Fig. 7, MIS by Houdini): the lemmas without counters, dropped until mutually inductive | [`Global::extract_invs`] |
//! | the safety check on the invariants at the error location | [`Global::excludes_queries`] |
//! | REFINE / ISFEASIBLE: the derivation's clause tree unrolled on the original clauses, one query assuming Σ; its unsat core joins Σ̂ | [`feasible::is_feasible`] |
//!
//! ABSTRACT and EXTRACTINVS share one incremental solver ([`Global`]) kept across
//! iterations: each clause once, its variables renamed apart, behind a selector `E_i`, each
//! conjunct behind its Σ literal and `E_i`; a clause's counter bound `k <= bnd` behind `E_i`,
//! and `bnd <= v` behind a literal per bound value. The lemmas of an iteration (literals
//! `A_l` assuming lemma `l` at body applications, `B_l` asking whether it fails at a head)
//! live in a scope popped after it, with a literal `H` assuming the invariants known so far
//! at body applications and heads (the paper's *Invars*: `U_I` is `U` strengthened by them
//! on both sides of every clause). EXTRACTINVS checks inductiveness against all of Σ (the
//! paper's *Concrete*), which is inductiveness on `P`; so the invariants, which accumulate
//! across iterations, are invariants of `P` (conjoining them keeps every derivation of `P`
//! in `U_I`), and when they exclude the queries they are the model returned.
//!
//! Deviation: the conjuncts REFINE adds stay in Σ̂ when ABSTRACT computes a new one
//! ([`STICKY_REFINEMENTS`]; without it Σ̂ oscillated and the same spurious counterexamples
//! came back at every bound, e.g. on `swimmingpool_7`: 28 instead of 27 of 40 files).
//!
//! Simplifications: one bound for all loops (the paper's implementation too); the proof's
//! lemmas are the conjuncts of Spacer's model (the frame at its fixpoint), not the
//! disjunction over the unrolled copies of a location (our `U` is not unrolled); ABSTRACT's
//! core is minimized by deletion (one query per literal of the solver's core).

mod feasible;
#[cfg(test)]
mod tests;

use super::{Answer, Config, Spacer};
use crate::chc::Model;
use crate::chc::{ChcSystem, Clause, PredApp, PredDecl, PredId};
use crate::engine::{log_progress, Stop};
use crate::logic::*;
use crate::smt::{SatResult, Smt, SolverConfig};
use feasible::is_feasible;
use rustc_hash::{FxHashMap, FxHashSet};

/// Counters for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct AbsCounters {
    /// Under-approximations solved.
    pub iterations: usize,
    /// `|Σ|`.
    pub sigma: usize,
    /// `|Σ̂|` now.
    pub sigma_hat: usize,
    /// The largest `|Σ̂|` solved.
    pub sigma_hat_max: usize,
    /// The bound of the last under-approximation.
    pub bound: usize,
    /// Spurious counterexamples refuted (REFINE).
    pub refinements: usize,
    /// Invariants of `P` known (EXTRACTINVS).
    pub invariants: usize,
}

/// The system with its constraints split into conjuncts and its loop heads.
pub struct Prep<'s> {
    sys: &'s ChcSystem,
    /// Per clause, the conjuncts of its constraint.
    conj: Vec<Vec<Term>>,
    /// Per predicate: on a cycle of the clause graph.
    loop_head: Vec<bool>,
    /// Per predicate, its strongly connected component (an arbitrary id).
    scc: Vec<usize>,
}

/// Whether `U` states that body counters are non-negative (an invariant of the counters).
/// With it, the plain Spacer no longer regresses forever through negative counters (as on
/// `barthe2-big`), but it finds lemmas over the counters more readily, which EXTRACTINVS must
/// drop: on 40 CHC-COMP files it solved 25 instead of 27.
const NON_NEGATIVE_COUNTERS: bool = false;

/// Whether the conjuncts REFINE adds stay in Σ̂ when ABSTRACT computes a new one (not in
/// the paper, where ABSTRACT may drop them again and the same spurious counterexamples
/// come back at the next bound).
const STICKY_REFINEMENTS: bool = true;

/// The counter at body application `j` and at the head of a transformed clause.
fn counter(j: Option<usize>) -> Var {
    let name = match j {
        Some(j) => format!("abs!k{j}"),
        None => "abs!kh".to_string(),
    };
    Var {
        name: name.into(),
        sort: Sort::Int,
    }
}

impl<'s> Prep<'s> {
    pub fn new(sys: &'s ChcSystem) -> Prep<'s> {
        let n = sys.preds.len();
        let mut succ: Vec<Vec<usize>> = vec![vec![]; n];
        for c in &sys.clauses {
            if let Some(h) = &c.head {
                for b in &c.body {
                    succ[b.pred.idx()].push(h.pred.idx());
                }
            }
        }
        // reach[p]: the predicates reachable from p by at least one edge
        let reach: Vec<FxHashSet<usize>> = (0..n)
            .map(|p| {
                let mut seen = FxHashSet::default();
                let mut stack: Vec<usize> = succ[p].clone();
                while let Some(q) = stack.pop() {
                    if seen.insert(q) {
                        stack.extend(succ[q].iter().copied());
                    }
                }
                seen
            })
            .collect();
        let loop_head: Vec<bool> = (0..n).map(|p| reach[p].contains(&p)).collect();
        let scc: Vec<usize> = (0..n)
            .map(|p| {
                (0..n)
                    .find(|&q| q == p || (reach[p].contains(&q) && reach[q].contains(&p)))
                    .unwrap_or(p)
            })
            .collect();
        Prep {
            sys,
            conj: sys
                .clauses
                .iter()
                .map(|c| conjuncts(&c.constraint))
                .collect(),
            loop_head,
            scc,
        }
    }

    fn is_loop_head(&self, p: PredId) -> bool {
        self.loop_head[p.idx()]
    }

    /// All of Σ: every conjunct of every clause.
    pub fn all(&self) -> Vec<Vec<bool>> {
        self.conj.iter().map(|c| vec![true; c.len()]).collect()
    }

    /// Clause `i` of `U`, without its conjuncts: its applications with counters, and the
    /// counter constraints (reset on entering the head's component, one more than the
    /// component's body counters otherwise; body counters are non-negative); plus the head
    /// counter when the head is a loop head.
    fn counted(&self, i: usize) -> (Vec<PredApp>, Option<PredApp>, Term, Option<Term>) {
        let c = &self.sys.clauses[i];
        let mut cnt = vec![];
        let body: Vec<PredApp> = c
            .body
            .iter()
            .enumerate()
            .map(|(j, b)| {
                let mut args = b.args.clone();
                if self.is_loop_head(b.pred) {
                    let k = mk_var_of(&counter(Some(j)));
                    if NON_NEGATIVE_COUNTERS {
                        cnt.push(mk_ge(k.clone(), mk_int(0)));
                    }
                    args.push(k);
                }
                PredApp { pred: b.pred, args }
            })
            .collect();
        let mut kh = None;
        let head = c.head.as_ref().map(|h| {
            let mut args = h.args.clone();
            if self.is_loop_head(h.pred) {
                let k = mk_var_of(&counter(None));
                let inside: Vec<usize> = (0..c.body.len())
                    .filter(|&j| {
                        let b = c.body[j].pred;
                        self.is_loop_head(b) && self.scc[b.idx()] == self.scc[h.pred.idx()]
                    })
                    .collect();
                if inside.is_empty() {
                    cnt.push(mk_eq(k.clone(), mk_int(0)));
                } else if inside.len() == 1 {
                    let kb = mk_var_of(&counter(Some(inside[0])));
                    cnt.push(mk_eq(k.clone(), mk_add(vec![kb, mk_int(1)])));
                } else {
                    for j in inside {
                        let kb = mk_var_of(&counter(Some(j)));
                        cnt.push(mk_ge(k.clone(), mk_add(vec![kb, mk_int(1)])));
                    }
                }
                args.push(k.clone());
                kh = Some(k);
            }
            PredApp { pred: h.pred, args }
        });
        (body, head, mk_and(cnt), kh)
    }

    /// `U_I(Σ̂, bound)`: clause `i` keeps the conjuncts `sel[i]` selects, with counters
    /// bounded by `bound` at loop heads, and the invariants `invs` (of `P`) at its body
    /// applications and head; same predicates (loop heads with one more, last, argument for
    /// the counter) and clauses in the same order.
    pub fn under(&self, sel: &[Vec<bool>], bound: usize, invs: &[(PredId, Term)]) -> ChcSystem {
        let preds = self
            .sys
            .preds
            .iter()
            .enumerate()
            .map(|(p, d)| {
                let mut sorts = d.sorts.clone();
                if self.loop_head[p] {
                    sorts.push(Sort::Int);
                }
                PredDecl {
                    name: d.name.clone(),
                    sorts,
                }
            })
            .collect();
        let clauses = (0..self.sys.clauses.len())
            .map(|i| {
                let (body, head, cnt, kh) = self.counted(i);
                let mut parts: Vec<Term> = self.conj[i]
                    .iter()
                    .zip(&sel[i])
                    .filter(|(_, &s)| s)
                    .map(|(t, _)| t.clone())
                    .collect();
                parts.push(cnt);
                let c = &self.sys.clauses[i];
                for a in c.body.iter().chain(c.head.iter()) {
                    for (p, f) in invs {
                        if *p == a.pred {
                            parts.push(at(f, &a.args));
                        }
                    }
                }
                if let Some(k) = kh {
                    parts.push(mk_le(k, mk_int(bound as i64)));
                }
                Clause {
                    body,
                    constraint: mk_and(parts),
                    head,
                    line: self.sys.clauses[i].line,
                }
            })
            .collect();
        ChcSystem {
            preds,
            clauses,
            records: None,
            bitvecs: None,
            adt: None,
        }
    }
}

/// `x{i}`, the `i`-th parameter of a predicate in models.
fn param(i: usize, sort: Sort) -> Var {
    Var {
        name: format!("x{i}").into(),
        sort,
    }
}

/// A formula over parameters `x0 ..` instantiated at the arguments `args`.
fn at(f: &Term, args: &[Term]) -> Term {
    let map: FxHashMap<Var, Term> = args
        .iter()
        .enumerate()
        .map(|(i, a)| (param(i, a.sort()), a.clone()))
        .collect();
    subst(f, &map)
}

/// Spacer with abstraction: the main loop of Fig. 5 of the paper.
pub fn run(sp: &mut Spacer, sys: &ChcSystem, smt_cfg: &SolverConfig) -> Result<Answer, Stop> {
    let prep = Prep::new(sys);
    let mut sel = prep.all();
    let n_sigma: usize = prep.conj.iter().map(|c| c.len()).sum();
    sp.abs.sigma = n_sigma;
    let mut global = Global::new(&prep, smt_cfg)?;
    let mut inner_cfg: Config = sp.cfg.clone();
    inner_cfg.abstraction = false;
    let mut invariants: Vec<(PredId, Term)> = vec![];
    let mut bound = 0usize;
    let mut refined: Vec<(usize, usize)> = vec![];
    loop {
        if sp.cfg.max_level.is_some_and(|m| bound > m) {
            return Err(Stop::Bound(bound));
        }
        sp.abs.iterations += 1;
        sp.abs.bound = bound;
        let size = sel.iter().flatten().filter(|&&s| s).count();
        sp.abs.sigma_hat = size;
        sp.abs.sigma_hat_max = sp.abs.sigma_hat_max.max(size);
        log_progress("spacer abstraction: iteration", sp.abs.iterations);
        log::debug!("spacer abstraction: bound {bound}, |Σ̂| = {size} of {n_sigma}");
        let u = prep.under(&sel, bound, &invariants);
        log::trace!("spacer abstraction: U =\n{u}");
        let mut inner = Spacer::new(inner_cfg.clone());
        let answer = inner.run(&u, smt_cfg);
        sp.smt += inner.smt;
        sp.counters.levels = sp.counters.levels.max(inner.counters.levels);
        sp.counters.lemmas += inner.counters.lemmas;
        sp.counters.must_summaries += inner.counters.must_summaries;
        sp.counters.obligations += inner.counters.obligations;
        sp.counters.mbp_substitutions += inner.counters.mbp_substitutions;
        match answer? {
            Answer::Unknown(stop) => return Err(stop),
            Answer::UnsafeAccel(_)
            | Answer::SafeKInductive { .. }
            | Answer::UnsafeInput(_)
            | Answer::SafeInput { .. } => {
                return Err(Stop::Bug(
                    "spacer answered with accelerated segments, k-induction or the input's clauses"
                        .into(),
                ))
            }
            Answer::Unsafe(cex) => match is_feasible(&prep, &cex, smt_cfg, &mut sp.smt)? {
                Ok(cex) => return Ok(Answer::Unsafe(cex)),
                Err(core) => {
                    sp.abs.refinements += 1;
                    let mut grew = false;
                    for (i, k) in core {
                        grew |= !sel[i][k];
                        sel[i][k] = true;
                        if STICKY_REFINEMENTS {
                            refined.push((i, k));
                        }
                    }
                    if !grew {
                        return Err(Stop::Bug(
                            "spacer abstraction: a spurious counterexample of U(Σ̂) is \
                             infeasible only by Σ̂"
                                .into(),
                        ));
                    }
                }
            },
            Answer::Safe(model) => {
                let lemmas: Vec<(PredId, Term)> = u
                    .pred_ids()
                    .flat_map(|p| {
                        let f = model.get(&p).cloned().unwrap_or_else(mk_true);
                        conjuncts(&f).into_iter().map(move |l| (p, l))
                    })
                    .collect();
                if let Some(new) = global.abstract_core(&lemmas, &invariants, bound)? {
                    sel = new;
                    for &(i, k) in &refined {
                        sel[i][k] = true;
                    }
                }
                sp.abs.sigma_hat = sel.iter().flatten().filter(|&&s| s).count();
                let mut cands = invariants.clone();
                for (p, l) in &lemmas {
                    let n = sys.pred(*p).sorts.len();
                    let counted =
                        prep.is_loop_head(*p) && free_vars(l).contains(&param(n, Sort::Int));
                    if !counted && !cands.contains(&(*p, l.clone())) {
                        cands.push((*p, l.clone()));
                    }
                }
                invariants = global.extract_invs(&cands)?;
                sp.abs.invariants = invariants.len();
                if global.excludes_queries(&invariants)? {
                    let model: Model = sys
                        .pred_ids()
                        .map(|p| {
                            let f = invariants
                                .iter()
                                .filter(|(q, _)| *q == p)
                                .map(|(_, l)| l.clone())
                                .collect();
                            (p, mk_and(f))
                        })
                        .collect();
                    sp.smt += global.smt.stats();
                    return Ok(Answer::Safe(model));
                }
                bound += 1;
            }
        }
    }
}

/// Clause `i` in the global context: renamed apart, with counters.
struct GClause {
    body: Vec<PredApp>,
    head: Option<PredApp>,
}

/// The incremental solver of ABSTRACT and EXTRACTINVS, kept across iterations.
pub struct Global {
    pub smt: Smt,
    /// Σ: `sigma[i][k]` guards conjunct `k` of clause `i`.
    sigma: Vec<Vec<Term>>,
    /// `E_i`.
    select: Vec<Term>,
    clauses: Vec<GClause>,
    bnd: Term,
    /// `bnd <= v` behind a literal, per bound value `v`.
    bound_lits: FxHashMap<usize, Term>,
    fresh: usize,
}

/// The lemmas of one check, asserted in a scope.
struct Scope {
    /// Assumes the invariants of `U_I` at body applications and heads.
    h: Term,
    a: Vec<Term>,
    b: Vec<Term>,
    /// Per non-query clause `i`, `(l, viol)`: `viol => not lemma_l(head_i)`.
    viol: Vec<Vec<(usize, Term)>>,
    /// Some non-query clause breaks a lemma `B_l` asks about.
    ind: Term,
    /// Some query clause applies.
    qry: Term,
    /// Either.
    any: Term,
}

impl Global {
    pub fn new(prep: &Prep, smt_cfg: &SolverConfig) -> Result<Global, Stop> {
        let mut g = Global {
            smt: Smt::new(smt_cfg, "spacer-abs")?,
            sigma: vec![],
            select: vec![],
            clauses: vec![],
            bnd: mk_true(),
            bound_lits: FxHashMap::default(),
            fresh: 0,
        };
        let bnd = g.lit("bnd", Sort::Int)?;
        g.bnd = bnd.clone();
        for i in 0..prep.sys.clauses.len() {
            let (body, head, cnt, kh) = prep.counted(i);
            let mut vars: Vec<Var> = vec![];
            let mut seen = FxHashSet::default();
            let mut note = |t: &Term| {
                for v in free_vars(t) {
                    if seen.insert(v.clone()) {
                        vars.push(v);
                    }
                }
            };
            for a in body.iter().chain(head.iter()) {
                a.args.iter().for_each(&mut note);
            }
            prep.conj[i].iter().for_each(&mut note);
            note(&cnt);
            let map: FxHashMap<Var, Term> = vars
                .into_iter()
                .map(|v| {
                    let w = Var {
                        name: format!("abs!c{i}!{}", v.name).into(),
                        sort: v.sort,
                    };
                    (v, mk_var_of(&w))
                })
                .collect();
            let app = |a: &PredApp| PredApp {
                pred: a.pred,
                args: a.args.iter().map(|t| subst(t, &map)).collect(),
            };
            let e = g.lit(&format!("E{i}_"), Sort::Bool)?;
            let mut lits = vec![];
            for (k, part) in prep.conj[i].iter().enumerate() {
                let s = g.lit(&format!("s{i}_{k}_"), Sort::Bool)?;
                let guard = mk_and(vec![s.clone(), e.clone()]);
                g.smt.assert(&mk_implies(guard, subst(part, &map)))?;
                lits.push(s);
            }
            g.smt.assert(&mk_implies(e.clone(), subst(&cnt, &map)))?;
            if let Some(k) = kh {
                let k = subst(&k, &map);
                g.smt
                    .assert(&mk_implies(e.clone(), mk_le(k, bnd.clone())))?;
            }
            g.sigma.push(lits);
            g.select.push(e);
            g.clauses.push(GClause {
                body: body.iter().map(app).collect(),
                head: head.as_ref().map(app),
            });
        }
        Ok(g)
    }

    fn lit(&mut self, what: &str, sort: Sort) -> Result<Term, Stop> {
        let v = Var {
            name: format!("abs!{what}{}", self.fresh).into(),
            sort,
        };
        self.fresh += 1;
        self.smt.declare(&v)?;
        Ok(mk_var_of(&v))
    }

    fn all_sigma(&self) -> Vec<Term> {
        self.sigma.iter().flatten().cloned().collect()
    }

    fn bound_lit(&mut self, v: usize) -> Result<Term, Stop> {
        if let Some(l) = self.bound_lits.get(&v) {
            return Ok(l.clone());
        }
        let l = self.lit("b", Sort::Bool)?;
        self.smt.assert(&mk_implies(
            l.clone(),
            mk_le(self.bnd.clone(), mk_int(v as i64)),
        ))?;
        self.bound_lits.insert(v, l.clone());
        Ok(l)
    }

    /// Opens a scope with `lemmas`: `A_l /\ E_i => lemma_l(body)` at every body application
    /// of its predicate, and the violation literals at every head.
    #[allow(clippy::needless_range_loop)]
    fn open(
        &mut self,
        lemmas: &[(PredId, Term)],
        assumed: &[(PredId, Term)],
    ) -> Result<Scope, Stop> {
        self.smt.push()?;
        let h = self.lit("H", Sort::Bool)?;
        for i in 0..self.clauses.len() {
            let g = mk_and(vec![h.clone(), self.select[i].clone()]);
            let c = &self.clauses[i];
            let mut parts = vec![];
            for a in c.body.iter().chain(c.head.iter()) {
                for (p, f) in assumed {
                    if *p == a.pred {
                        parts.push(at(f, &a.args));
                    }
                }
            }
            if !parts.is_empty() {
                self.smt.assert(&mk_implies(g, mk_and(parts)))?;
            }
        }
        let mut a = vec![];
        let mut b = vec![];
        for _ in lemmas {
            a.push(self.lit("A", Sort::Bool)?);
            b.push(self.lit("B", Sort::Bool)?);
        }
        let mut viol = vec![vec![]; self.clauses.len()];
        let mut ind_parts = vec![];
        let mut qry_parts = vec![];
        for i in 0..self.clauses.len() {
            let e = self.select[i].clone();
            for (l, (p, f)) in lemmas.iter().enumerate() {
                for app in &self.clauses[i].body {
                    if app.pred == *p {
                        let g = mk_and(vec![a[l].clone(), e.clone()]);
                        let t = mk_implies(g, at(f, &app.args));
                        self.smt.assert(&t)?;
                    }
                }
            }
            let Some(h) = self.clauses[i].head.clone() else {
                qry_parts.push(e);
                continue;
            };
            let mut breaks = vec![];
            for (l, (p, f)) in lemmas.iter().enumerate() {
                if *p == h.pred {
                    let v = self.lit("v", Sort::Bool)?;
                    self.smt
                        .assert(&mk_implies(v.clone(), mk_not(at(f, &h.args))))?;
                    breaks.push(mk_and(vec![b[l].clone(), v.clone()]));
                    viol[i].push((l, v));
                }
            }
            if !breaks.is_empty() {
                ind_parts.push(mk_and(vec![e, mk_or(breaks)]));
            }
        }
        let (d_ind, d_qry) = (mk_or(ind_parts), mk_or(qry_parts));
        let ind = self.lit("ind", Sort::Bool)?;
        let qry = self.lit("qry", Sort::Bool)?;
        let any = self.lit("any", Sort::Bool)?;
        self.smt.assert(&mk_implies(ind.clone(), d_ind.clone()))?;
        self.smt.assert(&mk_implies(qry.clone(), d_qry.clone()))?;
        self.smt
            .assert(&mk_implies(any.clone(), mk_or(vec![d_ind, d_qry])))?;
        Ok(Scope {
            h,
            a,
            b,
            viol,
            ind,
            qry,
            any,
        })
    }

    fn check(&mut self, lits: &[Term]) -> Result<bool, Stop> {
        match self.smt.check_sat_assuming(lits)? {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => Err(Stop::SolverUnknown),
        }
    }

    /// ABSTRACT: the lemmas of a proof of `U_I(Σ̂, bound)` prove `U_I(Σ, bound)` too; a minimal
    /// subset of Σ (deletion-based, from the solver's core) for which they still do. `None`
    /// when they are no proof (then Σ̂ stays).
    pub fn abstract_core(
        &mut self,
        lemmas: &[(PredId, Term)],
        invs: &[(PredId, Term)],
        bound: usize,
    ) -> Result<Option<Vec<Vec<bool>>>, Stop> {
        let beta = self.bound_lit(bound)?;
        let sc = self.open(lemmas, invs)?;
        let mut fixed: Vec<Term> = sc.a.iter().chain(&sc.b).cloned().collect();
        fixed.push(sc.any.clone());
        fixed.push(sc.h.clone());
        fixed.push(beta);
        let all = self.all_sigma();
        let sigma_set: FxHashSet<Term> = all.iter().cloned().collect();
        let mut lits = fixed.clone();
        lits.extend(all);
        let result = if self.check(&lits)? {
            log::debug!("spacer abstraction: the proof of U fails on U(Σ) (ignored)");
            None
        } else {
            let mut core: Vec<Term> = self
                .smt
                .unsat_assumptions()?
                .into_iter()
                .filter(|t| sigma_set.contains(t))
                .collect();
            let first = core.len();
            let mut k = 0;
            while k < core.len() {
                let mut lits = fixed.clone();
                lits.extend(
                    core.iter()
                        .enumerate()
                        .filter(|&(j, _)| j != k)
                        .map(|(_, t)| t.clone()),
                );
                if self.check(&lits)? {
                    k += 1;
                } else {
                    let smaller: FxHashSet<Term> =
                        self.smt.unsat_assumptions()?.into_iter().collect();
                    let drop = core[k].clone();
                    core.retain(|t| *t != drop && smaller.contains(t));
                }
            }
            log::debug!(
                "spacer abstraction: {} lemmas prove U with {first} of Σ, minimized to {}",
                lemmas.len(),
                core.len()
            );
            let keep: FxHashSet<Term> = core.into_iter().collect();
            Some(
                self.sigma
                    .iter()
                    .map(|c| c.iter().map(|s| keep.contains(s)).collect())
                    .collect(),
            )
        };
        self.smt.pop()?;
        Ok(result)
    }

    /// EXTRACTINVS: the largest subset of `cands` that is mutually inductive on `P` (all of
    /// Σ, no bound), by Houdini: while some clause instance satisfies the lemmas at its body
    /// and breaks one at its head, drop every lemma its model breaks.
    pub fn extract_invs(&mut self, cands: &[(PredId, Term)]) -> Result<Vec<(PredId, Term)>, Stop> {
        let sc = self.open(cands, &[])?;
        let mut alive = vec![true; cands.len()];
        let sigma = self.all_sigma();
        loop {
            let mut lits = sigma.clone();
            for (l, &al) in alive.iter().enumerate() {
                if al {
                    lits.push(sc.a[l].clone());
                    lits.push(sc.b[l].clone());
                } else {
                    lits.push(mk_not(sc.b[l].clone()));
                }
            }
            lits.push(sc.ind.clone());
            lits.push(mk_not(sc.h.clone()));
            if !self.check(&lits)? {
                break;
            }
            let mut ask: Vec<Var> = vec![];
            let mut which = vec![];
            for (i, vs) in sc.viol.iter().enumerate() {
                for (l, v) in vs {
                    if alive[*l] {
                        if let TermNode::Var(x) = v.get() {
                            ask.push(x.clone());
                            which.push((i, *l));
                        }
                    }
                }
            }
            let mut sel_vars = vec![];
            for e in &self.select {
                if let TermNode::Var(x) = e.get() {
                    sel_vars.push(x.clone());
                }
            }
            let sel_vals = self.smt.get_values(&sel_vars)?;
            let vals = self.smt.get_values(&ask)?;
            let mut dropped = false;
            for ((i, l), v) in which.into_iter().zip(vals) {
                if v == Value::Bool(true) && sel_vals[i] == Value::Bool(true) {
                    dropped |= alive[l];
                    alive[l] = false;
                }
            }
            if !dropped {
                self.smt.pop()?;
                return Err(Stop::Bug(
                    "spacer abstraction: Houdini found no broken lemma in a model".into(),
                ));
            }
        }
        self.smt.pop()?;
        Ok(cands
            .iter()
            .zip(alive)
            .filter(|(_, a)| *a)
            .map(|(c, _)| c.clone())
            .collect())
    }

    /// Do the invariants `invs` (at body applications) make every query clause of `P`
    /// unsatisfiable?
    pub fn excludes_queries(&mut self, invs: &[(PredId, Term)]) -> Result<bool, Stop> {
        let sc = self.open(invs, &[])?;
        let mut lits = self.all_sigma();
        lits.extend(sc.a.iter().cloned());
        lits.push(sc.qry.clone());
        lits.push(mk_not(sc.h.clone()));
        let reached = self.check(&lits)?;
        self.smt.pop()?;
        Ok(!reached)
    }
}
