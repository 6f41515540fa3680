//! Checking counterexamples with accelerated segments, against the original clauses,
//! without expanding the segments.
//!
//! A segment claims `count` runs of a cycle of clauses `c_0 .. c_(k-1)` (a chain from a
//! predicate `P` back to `P`) from `P(from)` to `P(to)`, with a formula `tau(x, y, n)`.
//! With `T(x, y)` the composition of the cycle's clauses (built here from the original
//! clauses, every clause variable existential), a fresh z3 process proves
//!
//! * `tau(x, y, 1) => T(x, y)` and
//! * `n >= 1 /\ tau(x, y, n + 1) => exists z. tau(x, z, n) /\ T(z, y)`,
//!
//! so by induction `tau(x, y, n) => T^n(x, y)` for every `n >= 1`; then `count >= 1` and
//! `tau(from, to, count)` by exact evaluation give a derivation of `P(to)` from `P(from)`
//! by `count` runs of the cycle. Steps are replayed as in [`super::check_cex`]. This module
//! shares no code with the acceleration that produced `tau`.

use super::ModelError;
use crate::chc::{AccelCex, Link, Segment};
use crate::chc::{ChcSystem, ClauseId, PredId};
use crate::logic::*;
use crate::smt::{SatResult, Smt, SolverConfig};
use num_bigint::BigInt;
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};

/// The longest z3 may take over one query of a segment's proof; past it the segment is
/// undecided (and the caller expands the counterexample instead).
pub const PROOF_LIMIT: Duration = Duration::from_secs(10);

/// What a check of an [`AccelCex`] established.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccelReport {
    /// Clause applications replayed one by one.
    pub steps: usize,
    /// Segments certified.
    pub segments: usize,
    /// Different (cycle, formula) pairs proven by z3.
    pub proofs: usize,
    /// The largest `count` of a segment.
    pub max_count: BigInt,
    /// Clause applications the counterexample stands for.
    pub length: BigInt,
}

/// Checks `cex` on `sys`: see the module documentation. Rejected when something is wrong,
/// undecided when z3 cannot prove a segment's formula within `timeout`.
pub fn check_accel_cex(
    sys: &ChcSystem,
    cex: &AccelCex,
    z3: &SolverConfig,
    timeout: Option<Duration>,
) -> Result<AccelReport, ModelError> {
    let rej = |m: String| ModelError::Rejected(m);
    if cex.is_empty() {
        return Err(rej("empty counterexample".into()));
    }
    let deadline = timeout.map(|t| Instant::now() + t);
    let mut rep = AccelReport::default();
    let mut proven: FxHashMap<(PredId, Vec<ClauseId>, Vec<Var>, Vec<Var>, Var, Term), ()> =
        FxHashMap::default();
    let mut smt: Option<Smt> = None;
    // the head derived by the link before: predicate and argument values
    let mut prev: Option<(PredId, Vec<Value>)> = None;
    for (i, link) in cex.iter().enumerate() {
        let last = i + 1 == cex.len();
        match link {
            Link::Step(step) => {
                let c = sys
                    .clauses
                    .get(step.clause.idx())
                    .ok_or_else(|| rej(format!("link {i}: no clause {}", step.clause.0)))?;
                let at = |what: &str| rej(format!("link {i} (clause at line {}): {what}", c.line));
                for v in c.vars() {
                    if !step.vals.contains_key(&v) {
                        return Err(at(&format!("no value for {}", v.name)));
                    }
                }
                if !eval_bool(&c.constraint, &step.vals).map_err(|e| at(&e))? {
                    return Err(at("constraint is false"));
                }
                match (c.body.as_slice(), &prev) {
                    ([], None) if i == 0 => {}
                    ([b], Some((p, vals))) => {
                        if b.pred != *p {
                            return Err(at("body predicate differs from the head before"));
                        }
                        for (a, v) in b.args.iter().zip(vals) {
                            if eval(a, &step.vals).map_err(|e| at(&e))? != *v {
                                return Err(at("body arguments differ from the head before"));
                            }
                        }
                    }
                    _ => return Err(at("not a chain: body does not match the link before")),
                }
                prev = match &c.head {
                    Some(h) => Some((
                        h.pred,
                        h.args
                            .iter()
                            .map(|a| eval(a, &step.vals))
                            .collect::<Result<Vec<_>, _>>()
                            .map_err(|e| at(&e))?,
                    )),
                    None if last => None,
                    None => return Err(at("a query before the last link")),
                };
                rep.steps += 1;
                rep.length += 1;
            }
            Link::Segment(seg) => {
                let at = |what: &str| rej(format!("link {i} (segment): {what}"));
                if last {
                    return Err(at("a segment cannot be the query"));
                }
                match &prev {
                    Some((p, vals)) if *p == seg.pred && *vals == seg.from => {}
                    _ => return Err(at("its start differs from the head before")),
                }
                check_ends(sys, seg).map_err(|e| at(&e))?;
                let key = (
                    seg.pred,
                    seg.cycle.clone(),
                    seg.pre.clone(),
                    seg.post.clone(),
                    seg.n.clone(),
                    seg.tau.clone(),
                );
                if !proven.contains_key(&key) {
                    // each proof at most PROOF_LIMIT (a quantified query can run long)
                    let left = Some(
                        deadline
                            .map(|d| d.saturating_duration_since(Instant::now()))
                            .map_or(PROOF_LIMIT, |l| l.min(PROOF_LIMIT)),
                    );
                    if smt.is_none() {
                        let mut s = Smt::new(z3, "validate-segment")
                            .map_err(|e| ModelError::Undecided(e.to_string()))?;
                        if let Some(t) = left {
                            s.raw(&format!("(set-option :timeout {})", t.as_millis().max(1)))
                                .map_err(|e| ModelError::Undecided(e.to_string()))?;
                        }
                        smt = Some(s);
                    }
                    prove(sys, seg, smt.as_mut().unwrap()).map_err(|e| match e {
                        ModelError::Rejected(m) => at(&m),
                        ModelError::Undecided(m) => {
                            ModelError::Undecided(format!("link {i} (segment): {m}"))
                        }
                    })?;
                    proven.insert(key, ());
                    rep.proofs += 1;
                }
                prev = Some((seg.pred, seg.to.clone()));
                rep.segments += 1;
                rep.max_count = rep.max_count.clone().max(seg.count.clone());
                rep.length += &seg.count * BigInt::from(seg.cycle.len());
            }
        }
    }
    if prev.is_some() {
        return Err(rej("the last link is not a query".into()));
    }
    Ok(rep)
}

/// The shape of `seg` and `tau(from, to, count)` by exact evaluation.
fn check_ends(sys: &ChcSystem, seg: &Segment) -> Result<(), String> {
    let sorts = &sys
        .preds
        .get(seg.pred.idx())
        .ok_or("no such predicate")?
        .sorts;
    let k = sorts.len();
    if seg.pre.len() != k || seg.post.len() != k || seg.from.len() != k || seg.to.len() != k {
        return Err("arity differs from its predicate's".into());
    }
    for (i, s) in sorts.iter().enumerate() {
        if seg.pre[i].sort != *s || seg.post[i].sort != *s {
            return Err("a variable's sort differs from its argument's".into());
        }
        if seg.from[i].sort() != *s || seg.to[i].sort() != *s {
            return Err("a value's sort differs from its argument's".into());
        }
    }
    if seg.n.sort != Sort::Int {
        return Err("the count variable is not an Int".into());
    }
    let mut all: Vec<&Var> = seg.pre.iter().chain(&seg.post).collect();
    all.push(&seg.n);
    let distinct: rustc_hash::FxHashSet<&Var> = all.iter().copied().collect();
    if distinct.len() != all.len() {
        return Err("its variables are not distinct".into());
    }
    if let Some(v) = free_vars(&seg.tau).iter().find(|v| !distinct.contains(v)) {
        return Err(format!("its formula has a free variable {}", v.name));
    }
    if seg.count < BigInt::from(1) {
        return Err(format!("count {} < 1", seg.count));
    }
    if seg.cycle.is_empty() {
        return Err("an empty cycle".into());
    }
    let mut a = Assignment::default();
    for (v, x) in seg.pre.iter().zip(&seg.from) {
        a.insert(v.clone(), x.clone());
    }
    for (v, x) in seg.post.iter().zip(&seg.to) {
        a.insert(v.clone(), x.clone());
    }
    a.insert(seg.n.clone(), Value::Int(seg.count.clone()));
    if !eval_bool(&seg.tau, &a)? {
        return Err(format!(
            "its formula is false at its ends with n = {}",
            seg.count
        ));
    }
    Ok(())
}

fn var(name: String, sort: Sort) -> Var {
    Var {
        name: name.into(),
        sort,
    }
}

/// `T(x, y)`: the cycle's clauses composed, with the clause variables renamed apart and
/// returned (to quantify), or why the cycle is not a chain from `seg.pred` to itself.
fn composition(
    sys: &ChcSystem,
    seg: &Segment,
    x: &[Term],
    y: &[Term],
) -> Result<(Term, Vec<Var>), String> {
    let mut conj = vec![];
    let mut bound = vec![];
    // the arguments flowing into the next clause's body
    let mut into: Vec<Term> = x.to_vec();
    let mut pred = seg.pred;
    for (i, id) in seg.cycle.iter().enumerate() {
        let c = sys.clauses.get(id.idx()).ok_or("no such clause")?;
        let (Some(h), [b]) = (&c.head, c.body.as_slice()) else {
            return Err(format!(
                "clause at line {} is not linear with a head",
                c.line
            ));
        };
        if b.pred != pred || b.args.len() != into.len() {
            return Err(format!(
                "clause at line {} does not continue the cycle",
                c.line
            ));
        }
        let mut map: FxHashMap<Var, Term> = FxHashMap::default();
        for (j, v) in c.vars().into_iter().enumerate() {
            let w = var(format!("__k{i}_{j}"), v.sort);
            map.insert(v, mk_var_of(&w));
            bound.push(w);
        }
        conj.push(subst(&c.constraint, &map));
        for (a, t) in b.args.iter().zip(&into) {
            conj.push(mk_eq(subst(a, &map), t.clone()));
        }
        into = h.args.iter().map(|a| subst(a, &map)).collect();
        pred = h.pred;
    }
    if pred != seg.pred {
        return Err("the cycle does not come back to its predicate".into());
    }
    for (a, t) in into.iter().zip(y) {
        conj.push(mk_eq(a.clone(), t.clone()));
    }
    Ok((mk_and(conj), bound))
}

/// Proves the base case and the induction step (see the module documentation).
fn prove(sys: &ChcSystem, seg: &Segment, smt: &mut Smt) -> Result<(), ModelError> {
    let und = |e: crate::smt::SmtError| ModelError::Undecided(e.to_string());
    let xs: Vec<Var> = seg
        .pre
        .iter()
        .enumerate()
        .map(|(i, v)| var(format!("__x{i}"), v.sort))
        .collect();
    let ys: Vec<Var> = seg
        .pre
        .iter()
        .enumerate()
        .map(|(i, v)| var(format!("__y{i}"), v.sort))
        .collect();
    let zs: Vec<Var> = seg
        .pre
        .iter()
        .enumerate()
        .map(|(i, v)| var(format!("__z{i}"), v.sort))
        .collect();
    let nv = var("__n".into(), Sort::Int);
    let terms = |vs: &[Var]| -> Vec<Term> { vs.iter().map(mk_var_of).collect() };
    let tau = |pre: &[Var], post: &[Var], n: Term| -> Term {
        let mut m: FxHashMap<Var, Term> = FxHashMap::default();
        for (v, w) in seg.pre.iter().zip(pre) {
            m.insert(v.clone(), mk_var_of(w));
        }
        for (v, w) in seg.post.iter().zip(post) {
            m.insert(v.clone(), mk_var_of(w));
        }
        m.insert(seg.n.clone(), n);
        subst(&seg.tau, &m)
    };
    let n = mk_var_of(&nv);
    // base: tau(x, y, 1) /\ not exists k. T(x, y)
    let (t_xy, k1) =
        composition(sys, seg, &terms(&xs), &terms(&ys)).map_err(ModelError::Rejected)?;
    let base = vec![tau(&xs, &ys, mk_int(1)), mk_not(mk_exists_elim(k1, t_xy))];
    // step: n >= 1 /\ tau(x, y, n + 1) /\ not exists z, k. tau(x, z, n) /\ T(z, y)
    let (t_zy, mut k2) =
        composition(sys, seg, &terms(&zs), &terms(&ys)).map_err(ModelError::Rejected)?;
    k2.extend(zs.iter().cloned());
    let step = vec![
        mk_ge(n.clone(), mk_int(1)),
        tau(&xs, &ys, mk_add(vec![n.clone(), mk_int(1)])),
        mk_not(mk_exists_elim(
            k2,
            mk_and(vec![tau(&xs, &zs, n.clone()), t_zy]),
        )),
    ];
    for (what, hyp) in [("base case (n = 1)", base), ("induction step", step)] {
        smt.push().map_err(und)?;
        let mut vars: Vec<Var> = xs.iter().chain(&ys).cloned().collect();
        vars.push(nv.clone());
        for v in &vars {
            smt.declare(v).map_err(und)?;
        }
        for h in &hyp {
            smt.assert(h).map_err(und)?;
        }
        let r = smt.check_sat().map_err(und)?;
        smt.pop().map_err(und)?;
        match r {
            SatResult::Unsat => {}
            SatResult::Sat => {
                return Err(ModelError::Rejected(format!(
                    "its formula does not imply its cycle's runs: the {what} fails"
                )))
            }
            SatResult::Unknown => {
                return Err(ModelError::Undecided(format!(
                    "z3 could not decide the {what} of its formula"
                )))
            }
        }
    }
    Ok(())
}

/// Fills in values the steps of `cex` lack (variables eliminated by preprocessing) by
/// solving the formula of its steps: each step's constraint, each body application equal
/// to the head before it (a step's or a segment's end), each head before a segment equal
/// to the segment's start, with the known values fixed. Segments are taken as they are. The
/// result still has to pass [`check_accel_cex`]; this only finds values, it proves nothing.
/// Rejected when a step names no clause or the formula is unsat; undecided when the solver
/// fails or answers `unknown`.
pub fn complete_accel_cex(
    sys: &ChcSystem,
    cex: AccelCex,
    smt_cfg: &SolverConfig,
) -> Result<AccelCex, ModelError> {
    let incomplete = |s: &crate::chc::CexStep| match sys.clauses.get(s.clause.idx()) {
        Some(c) => c.vars().iter().any(|v| !s.vals.contains_key(v)),
        None => false,
    };
    let any = cex
        .iter()
        .any(|l| matches!(l, Link::Step(s) if incomplete(s)));
    if !any {
        return Ok(cex);
    }
    let err = |e: crate::smt::SmtError| ModelError::Undecided(e.to_string());
    let mut smt = Smt::new(smt_cfg, "complete-accel-cex").map_err(err)?;
    // per step link: its clause renamed to step-indexed variables
    let mut renamed: Vec<Option<(crate::chc::Clause, Vec<(Var, Var)>)>> = vec![];
    let consts = |vals: &[Value]| -> Vec<Term> { vals.iter().map(|v| v.to_term()).collect() };
    // the head before the current link, as terms
    let mut prev: Option<Vec<Term>> = None;
    for (i, l) in cex.iter().enumerate() {
        match l {
            Link::Segment(seg) => {
                if let Some(h) = &prev {
                    for (a, b) in h.iter().zip(consts(&seg.from)) {
                        smt.assert(&mk_eq(a.clone(), b)).map_err(err)?;
                    }
                }
                prev = Some(consts(&seg.to));
                renamed.push(None);
            }
            Link::Step(s) => {
                let c = sys.clauses.get(s.clause.idx()).ok_or_else(|| {
                    ModelError::Rejected(format!("link {i}: no clause {}", s.clause.0))
                })?;
                let mut pairs = vec![];
                let r = c.rename(&mut |v| {
                    let w = var(format!("{}@{i}", v.name), v.sort);
                    pairs.push((v.clone(), w.clone()));
                    w
                });
                for (v, w) in &pairs {
                    smt.declare(w).map_err(err)?;
                    if let Some(x) = s.vals.get(v) {
                        smt.assert(&mk_eq(mk_var_of(w), x.to_term())).map_err(err)?;
                    }
                }
                smt.assert(&r.constraint).map_err(err)?;
                if let (Some(b), Some(h)) = (r.body.first(), &prev) {
                    for (a, t) in b.args.iter().zip(h) {
                        smt.assert(&mk_eq(a.clone(), t.clone())).map_err(err)?;
                    }
                }
                prev = r.head.as_ref().map(|h| h.args.clone());
                renamed.push(Some((r, pairs)));
            }
        }
    }
    match smt.check_sat().map_err(err)? {
        SatResult::Sat => {}
        SatResult::Unsat => {
            return Err(ModelError::Rejected(
                "the counterexample's step formula is unsat".into(),
            ))
        }
        SatResult::Unknown => {
            return Err(ModelError::Undecided(
                "the solver answered unknown on the counterexample's step formula".into(),
            ))
        }
    }
    let mut out = vec![];
    for (l, r) in cex.into_iter().zip(renamed) {
        match (l, r) {
            (Link::Step(s), Some((_, pairs))) => {
                let ws: Vec<Var> = pairs.iter().map(|(_, w)| w.clone()).collect();
                let vals = smt.get_values(&ws).map_err(err)?;
                out.push(Link::Step(crate::chc::CexStep {
                    clause: s.clause,
                    vals: pairs.iter().map(|(v, _)| v.clone()).zip(vals).collect(),
                    premises: s.premises,
                }));
            }
            (l, _) => out.push(l),
        }
    }
    Ok(out)
}
