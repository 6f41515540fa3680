//! Refinement (Hajdu & Micskei, Alg. 2) in three steps: the trace check of an abstract
//! counterexample, its refutation turned into new precision (by the domain), and the node to
//! prune from.
//!
//! For a path `l0 -e1-> l1 .. -em-> lm` (`l0` initial, `lm` the error location) with states
//! `s0 .. sm`, the trace is `A1 .. Am` with `Aj = op_j@j /\ s_j@j` (`op_j@j`: `l(j-1)`'s
//! variables at version `j - 1`, `lj`'s at version `j`, see [`Cfa::op_at`]). A model is a
//! concrete counterexample; otherwise the refutation is
//! - `seq-itp`: a sequence interpolant `I1 .. I(m-1)` of `A1 .. Am`;
//! - `fw-bin-itp`: for the least `k` with `A1 .. Ak` unsatisfiable, a binary interpolant of
//!   `(A1 .. A(k-1), Ak)` at position `k - 1`;
//! - `bw-bin-itp`: for the greatest `j` with `Aj .. Am` unsatisfiable, the negation of a
//!   binary interpolant of `(A(j+1) .. Am, s(j-1)@(j-1) /\ Aj)` at position `j` (Hajdu &
//!   Micskei, Sect. 3.2.1);
//! - `unsat-core`: the variables of version `j` in an unsat core of the trace's conjuncts;
//! - `expl-itp`: Beyer & Löwe's Alg. 4 (FASE 2013) with the explicit strongest post computed
//!   by satisfiability checks ([`sp`]); when explicit values do not refute the path, the
//!   unsat core's variables.
//!
//! - `multi-seq`: every path to an error node of the fully expanded ARG, each with sequence
//!   interpolants, the ones whose first refined node lies below another's left for later
//!   (Hajdu & Micskei, Sect. 3.2.2, Alg. 5).
//!
//! When a strategy other than `seq-itp` yields only precision that is there already (binary
//! interpolants refine one location, variable sets may be tracked already), sequence
//! interpolants of the same trace are tried before giving up.

use super::arg::{Arg, NodeId};
use super::cfa::{Cfa, EdgeId, Loc};
use super::domain::{check, differs, Domain};
use super::expl::{expr_over, ExplState};
use super::{Config, Refinement, Refutation};
use crate::chc::{chain, Cex};
use crate::engine::Stop;
use crate::interp::{Interp, Interpolator};
use crate::logic::*;
use crate::smt::{SatResult, Smt};
use rustc_hash::FxHashSet;

/// The result of a refinement.
pub enum Outcome {
    /// The counterexample is feasible.
    Cex(Cex),
    /// New precision; prune from these nodes.
    Refined { prune_at: Vec<NodeId> },
}

pub struct Refiner {
    refinement: Refinement,
    /// Refinements where the strategy's refutation added nothing and sequence interpolants
    /// were used instead.
    pub fallbacks: usize,
    /// The edges of the infeasible counterexamples of the last call (for the error
    /// interpolants, [`super::error`]).
    pub infeasible: Vec<Vec<EdgeId>>,
}

impl Refiner {
    pub fn new(cfg: &Config) -> Refiner {
        Refiner {
            refinement: cfg.refinement,
            fallbacks: 0,
            infeasible: vec![],
        }
    }

    /// Checks the paths to the error nodes `errs` (one, or all of the ARG's for
    /// `multi-seq`); refines `dom` when every one is infeasible.
    pub fn refine<D: Domain>(
        &mut self,
        arg: &mut Arg<D::State>,
        dom: &mut D,
        cfa: &Cfa,
        smt: &mut Smt,
        itp: &mut Interpolator,
        errs: &[NodeId],
    ) -> Result<Outcome, Stop> {
        let mut traces = vec![];
        self.infeasible.clear();
        for &err in errs {
            let t = Trace::new(arg, dom, cfa, err);
            if let Some(model) = feasible(smt, &t.parts)? {
                return Ok(Outcome::Cex(concrete(cfa, &t.edges, &model)?));
            }
            if t.edges.len() < 2 {
                return Err(Stop::Bug(
                    "cegar: a one-edge counterexample is infeasible".into(),
                ));
            }
            self.infeasible.push(t.edges.clone());
            traces.push(t);
        }
        if self.refinement == Refinement::MultiSeq {
            return self.refine_many(arg, dom, cfa, itp, &traces);
        }
        let Some(t) = traces.first() else {
            return Err(Stop::Bug("cegar: no counterexample to refine".into()));
        };
        let (locs, parts) = (&t.locs, &t.parts);
        let r = match self.refinement {
            Refinement::SeqItp | Refinement::MultiSeq => seq_itp(itp, cfa, locs, parts)?,
            Refinement::FwBinItp => fw_bin_itp(smt, itp, cfa, locs, parts)?,
            Refinement::BwBinItp => bw_bin_itp(smt, itp, cfa, locs, parts, &t.states)?,
            Refinement::UnsatCore => unsat_core(smt, cfa, locs, &t.ops, &t.states)?,
            Refinement::ExplItp => match expl_itp(smt, cfa, locs, &t.edges)? {
                Some(r) => r,
                None => {
                    log::debug!("cegar: explicit values do not refute the path; unsat core");
                    unsat_core(smt, cfa, locs, &t.ops, &t.states)?
                }
            },
        };
        log::debug!(
            "cegar: refutation of a path of {} edges: {r:?}",
            t.edges.len()
        );
        if dom.refine(cfa, locs, &r)? {
            return Ok(Outcome::Refined {
                prune_at: vec![t.nodes[r.prune_index()]],
            });
        }
        if self.refinement == Refinement::SeqItp {
            if let Some(r) = each_backend(dom, cfa, itp, locs, parts)? {
                return Ok(Outcome::Refined {
                    prune_at: vec![t.nodes[r.prune_index()]],
                });
            }
        }
        if self.refinement != Refinement::SeqItp {
            // the strategy's refutation is known already: sequence interpolants instead
            self.fallbacks += 1;
            let r = seq_itp(itp, cfa, locs, parts)?;
            log::debug!("cegar: no new precision; sequence interpolants {r:?}");
            if dom.refine(cfa, locs, &r)? {
                return Ok(Outcome::Refined {
                    prune_at: vec![t.nodes[r.prune_index()]],
                });
            }
        }
        Err(no_progress())
    }

    /// Hajdu & Micskei, Alg. 5: a sequence interpolant per path; the paths whose first node to
    /// refine has a proper ancestor among the others' are left for later; the rest refine
    /// the precision and are pruned.
    fn refine_many<D: Domain>(
        &mut self,
        arg: &Arg<D::State>,
        dom: &mut D,
        cfa: &Cfa,
        itp: &mut Interpolator,
        traces: &[Trace],
    ) -> Result<Outcome, Stop> {
        let mut refs = vec![];
        for t in traces {
            let r = seq_itp(itp, cfa, &t.locs, &t.parts)?;
            let at = t.nodes[r.prune_index()];
            refs.push((t, r, at));
        }
        let firsts: Vec<NodeId> = refs.iter().map(|(_, _, at)| *at).collect();
        let keep = minimal_set(arg, &firsts);
        let mut changed = false;
        let mut prune_at = vec![];
        for (i, (t, r, at)) in refs.iter().enumerate() {
            if !keep.contains(&i) {
                continue;
            }
            changed |= dom.refine(cfa, &t.locs, r)?;
            if !prune_at.contains(at) {
                prune_at.push(*at);
            }
        }
        log::debug!(
            "cegar: {} counterexamples, {} refined",
            traces.len(),
            prune_at.len()
        );
        if !changed {
            for (i, (t, _, at)) in refs.iter().enumerate() {
                if keep.contains(&i) && each_backend(dom, cfa, itp, &t.locs, &t.parts)?.is_some() {
                    return Ok(Outcome::Refined {
                        prune_at: vec![*at],
                    });
                }
            }
            return Err(no_progress());
        }
        Ok(Outcome::Refined { prune_at })
    }
}

/// Alg. 5's minimal set: the indices of the paths whose first node to refine (`firsts`) has
/// no proper ancestor among the others' first nodes.
pub fn minimal_set<S: Clone>(arg: &Arg<S>, firsts: &[NodeId]) -> Vec<usize> {
    (0..firsts.len())
        .filter(|&i| {
            !firsts
                .iter()
                .any(|&f| f != firsts[i] && arg.is_ancestor(f, firsts[i]))
        })
        .collect()
}

/// Interpolants differ between backends, and one backend's may name only what the
/// precision has already (the explicit domain tracks variables) where another's adds to it:
/// refines `dom` with the sequence interpolant of each backend in turn, and returns the first
/// refutation that changed it.
fn each_backend<D: Domain>(
    dom: &mut D,
    cfa: &Cfa,
    itp: &mut Interpolator,
    locs: &[Loc],
    parts: &[Term],
) -> Result<Option<Refutation>, Stop> {
    for i in 0..itp.backends().len() {
        let Ok(r) = seq_refutation(itp.ask(i, parts), cfa, locs, parts.len()) else {
            continue;
        };
        if dom.refine(cfa, locs, &r)? {
            return Ok(Some(r));
        }
    }
    Ok(None)
}

fn no_progress() -> Stop {
    Stop::Unsupported(
        "cegar: the refutation adds no precision (the domain cannot express it)".into(),
    )
}

/// The trace of the path to an error node.
struct Trace {
    nodes: Vec<NodeId>,
    edges: Vec<EdgeId>,
    locs: Vec<Loc>,
    /// `s_j@j`, `j = 0 .. m`.
    states: Vec<Term>,
    /// `op_j@j`, `j = 1 .. m` (at index `j - 1`).
    ops: Vec<Term>,
    /// `A_j`, `j = 1 .. m` (at index `j - 1`).
    parts: Vec<Term>,
}

impl Trace {
    fn new<D: Domain>(arg: &Arg<D::State>, dom: &D, cfa: &Cfa, err: NodeId) -> Trace {
        let (nodes, edges) = arg.path(err);
        let m = edges.len();
        let locs: Vec<Loc> = nodes.iter().map(|&n| arg.node(n).loc).collect();
        let states: Vec<Term> = (0..=m)
            .map(|j| {
                let s = dom.expr(cfa, locs[j], &arg.node(nodes[j]).state);
                cfa.state_at(locs[j], &s, j)
            })
            .collect();
        let ops: Vec<Term> = (1..=m).map(|j| cfa.op_at(edges[j - 1], j)).collect();
        let parts: Vec<Term> = (1..=m)
            .map(|j| mk_and2(ops[j - 1].clone(), states[j].clone()))
            .collect();
        Trace {
            nodes,
            edges,
            locs,
            states,
            ops,
            parts,
        }
    }
}

/// A model of `/\ parts` (every variable), or `None` when unsatisfiable.
pub fn feasible(smt: &mut Smt, parts: &[Term]) -> Result<Option<Assignment>, Stop> {
    let mut vars: Vec<Var> = vec![];
    let mut seen = FxHashSet::default();
    for p in parts {
        for v in free_vars(p) {
            if seen.insert(v.clone()) {
                vars.push(v);
            }
        }
    }
    smt.push()?;
    let r = (|| {
        for p in parts {
            smt.assert(p)?;
        }
        if !check(smt)? {
            return Ok(None);
        }
        Ok(Some(smt.get_model(&vars)?))
    })();
    smt.pop()?;
    r
}

/// The chain of clause applications of a model of the trace along `edges`.
pub fn concrete(cfa: &Cfa, edges: &[EdgeId], model: &Assignment) -> Result<Cex, Stop> {
    let mut steps = vec![];
    for (i, &e) in edges.iter().enumerate() {
        let edge = cfa.edge(e);
        let mut vals = Assignment::default();
        for (orig, renamed) in &edge.aux {
            let v = model.get(&Cfa::versioned(renamed, i + 1)).ok_or_else(|| {
                Stop::SolverError(format!("cegar: no value for {} in the trace", orig.name))
            })?;
            vals.insert(orig.clone(), v.clone());
        }
        steps.push((edge.clause, vals));
    }
    Ok(chain(steps))
}

/// An interpolation answer that must be interpolants.
fn interpolants(r: Interp) -> Result<Vec<Term>, Stop> {
    match r {
        Interp::Interpolant(is) => Ok(is),
        Interp::Sat(_) => Err(Stop::SolverError(
            "cegar: the interpolation backend found the infeasible trace satisfiable".into(),
        )),
        Interp::Unknown(why) => Err(Stop::SolverError(format!("cegar: interpolation: {why}"))),
    }
}

/// `true` everywhere but `I(pos) = f` (over version `pos`) and `Im = false`.
fn single(cfa: &Cfa, locs: &[Loc], pos: usize, f: &Term) -> Refutation {
    let m = locs.len() - 1;
    let mut is = vec![mk_true(); m + 1];
    is[m] = mk_false();
    is[pos] = cfa.state_from(locs[pos], f, pos);
    Refutation::Itp(is)
}

fn seq_itp(
    itp: &mut Interpolator,
    cfa: &Cfa,
    locs: &[Loc],
    parts: &[Term],
) -> Result<Refutation, Stop> {
    seq_refutation(itp.sequence(parts), cfa, locs, parts.len())
}

/// The refutation that a sequence interpolant answer `answer` of `m` parts gives.
fn seq_refutation(answer: Interp, cfa: &Cfa, locs: &[Loc], m: usize) -> Result<Refutation, Stop> {
    let is = interpolants(answer)?;
    if is.len() + 1 != m {
        return Err(Stop::SolverError(
            "cegar: wrong number of interpolants".into(),
        ));
    }
    let mut out = vec![mk_true()];
    for (j, i) in is.iter().enumerate() {
        out.push(cfa.state_from(locs[j + 1], i, j + 1));
    }
    out.push(mk_false());
    Ok(Refutation::Itp(out))
}

fn fw_bin_itp(
    smt: &mut Smt,
    itp: &mut Interpolator,
    cfa: &Cfa,
    locs: &[Loc],
    parts: &[Term],
) -> Result<Refutation, Stop> {
    // the least k with A1 .. Ak unsatisfiable
    smt.push()?;
    let k = (|| {
        for (i, p) in parts.iter().enumerate() {
            smt.assert(p)?;
            if !check(smt)? {
                return Ok(i + 1);
            }
        }
        Err(Stop::SolverError(
            "cegar: the trace became satisfiable".into(),
        ))
    })();
    smt.pop()?;
    let k = k?;
    if k < 2 {
        return Err(Stop::Bug(
            "cegar: an abstract successor contradicts its own edge".into(),
        ));
    }
    let a = mk_and(parts[..k - 1].to_vec());
    let is = interpolants(itp.binary(&a, &parts[k - 1]))?;
    Ok(single(cfa, locs, k - 1, &is[0]))
}

fn bw_bin_itp(
    smt: &mut Smt,
    itp: &mut Interpolator,
    cfa: &Cfa,
    locs: &[Loc],
    parts: &[Term],
    states: &[Term],
) -> Result<Refutation, Stop> {
    let m = parts.len();
    // the greatest j with Aj .. Am unsatisfiable
    smt.push()?;
    let j = (|| {
        for j in (1..=m).rev() {
            smt.assert(&parts[j - 1])?;
            if !check(smt)? {
                return Ok(j);
            }
        }
        Err(Stop::SolverError(
            "cegar: the trace became satisfiable".into(),
        ))
    })();
    smt.pop()?;
    let j = j?;
    if j >= m {
        return Err(Stop::Bug(
            "cegar: the last edge of a counterexample is infeasible".into(),
        ));
    }
    // A is the feasible suffix, B the transition before it (Hajdu & Micskei, Sect. 3.2.1); the
    // interpolant I (A => I, I /\ B unsatisfiable) is over version j, and its negation is
    // implied by the prefix (a predicate and its negation abstract alike)
    let a = mk_and(parts[j..].to_vec());
    let b = mk_and2(states[j - 1].clone(), parts[j - 1].clone());
    let is = interpolants(itp.binary(&a, &b))?;
    Ok(single(cfa, locs, j, &mk_not(is[0].clone())))
}

/// The variables of each position in an unsat core of the trace's conjuncts.
fn unsat_core(
    smt: &mut Smt,
    cfa: &Cfa,
    locs: &[Loc],
    ops: &[Term],
    states: &[Term],
) -> Result<Refutation, Stop> {
    let m = ops.len();
    let mut named: Vec<(Term, Term)> = vec![];
    for j in 1..=m {
        for c in conjuncts(&ops[j - 1])
            .into_iter()
            .chain(conjuncts(&states[j]))
        {
            let a = mk_var(&format!("cg!a{}", named.len()), Sort::Bool);
            named.push((a, c));
        }
    }
    smt.push()?;
    let core = (|| {
        for (a, c) in &named {
            smt.assert(&mk_implies(a.clone(), c.clone()))?;
        }
        let acts: Vec<Term> = named.iter().map(|(a, _)| a.clone()).collect();
        match smt.check_sat_assuming(&acts)? {
            SatResult::Unsat => Ok(smt.unsat_assumptions()?),
            SatResult::Sat => Err(Stop::SolverError(
                "cegar: the trace became satisfiable".into(),
            )),
            SatResult::Unknown => Err(Stop::SolverUnknown),
        }
    })();
    smt.pop()?;
    let core: FxHashSet<Term> = core?.into_iter().collect();
    let mut used: FxHashSet<Var> = FxHashSet::default();
    for (a, c) in &named {
        if core.contains(a) {
            used.extend(free_vars(c));
        }
    }
    let mut vs = vec![vec![]; m + 1];
    for j in 1..m {
        for (k, v) in cfa.vars[locs[j].idx()].iter().enumerate() {
            if used.contains(&Cfa::versioned(v, j)) {
                vs[j].push(k);
            }
        }
    }
    Ok(Refutation::Vars(vs))
}

/// The explicit strongest post of `v` (over `e`'s source) along `e` (Beyer & Löwe): `None`
/// when `expr(v) /\ op` is unsatisfiable; else each variable of the target that `expr(v)
/// /\ op` fixes, with its value.
pub fn sp(smt: &mut Smt, cfa: &Cfa, v: &ExplState, e: EdgeId) -> Result<Option<ExplState>, Stop> {
    let edge = cfa.edge(e);
    let next = &cfa.next[edge.to.idx()];
    smt.push()?;
    let r = (|| {
        smt.assert(&expr_over(&cfa.vars[edge.from.idx()], v))?;
        smt.assert(&edge.op)?;
        if !check(smt)? {
            return Ok(None);
        }
        let model = smt.get_model(next)?;
        let mut out = vec![];
        for x in next {
            smt.push()?;
            smt.assert(&differs(x, &model[x]))?;
            let other = check(smt)?;
            smt.pop()?;
            out.push((!other).then(|| model[x].clone()));
        }
        Ok(Some(out))
    })();
    smt.pop()?;
    r
}

/// Does the explicit strongest post of `v` along `edges` contradict?
fn contradicts(smt: &mut Smt, cfa: &Cfa, v: &ExplState, edges: &[EdgeId]) -> Result<bool, Stop> {
    let mut cur = v.clone();
    for &e in edges {
        match sp(smt, cfa, &cur, e)? {
            None => return Ok(true),
            Some(n) => cur = n,
        }
    }
    Ok(false)
}

/// Beyer & Löwe, Alg. 4 with Alg. 3 as the interpolation: `None` when the explicit strongest
/// post of the whole path does not contradict.
fn expl_itp(
    smt: &mut Smt,
    cfa: &Cfa,
    locs: &[Loc],
    edges: &[EdgeId],
) -> Result<Option<Refutation>, Stop> {
    let m = edges.len();
    if !contradicts(smt, cfa, &vec![], edges)? {
        return Ok(None);
    }
    let mut vs = vec![vec![]; m + 1];
    let mut gamma: ExplState = vec![];
    for j in 1..m {
        // Interpolate(Gamma /\ op_j, op_(j+1) .. op_m)
        let Some(mut v) = sp(smt, cfa, &gamma, edges[j - 1])? else {
            // the prefix already contradicts: nothing more to track
            break;
        };
        for k in 0..v.len() {
            if v[k].is_none() {
                continue;
            }
            let mut w = v.clone();
            w[k] = None;
            if contradicts(smt, cfa, &w, &edges[j..])? {
                v = w;
            }
        }
        vs[j] = (0..v.len()).filter(|&k| v[k].is_some()).collect();
        debug_assert!(locs[j] == cfa.edge(edges[j - 1]).to);
        gamma = v;
    }
    Ok(Some(Refutation::Vars(vs)))
}
