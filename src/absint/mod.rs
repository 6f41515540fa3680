//! Invariants by abstract interpretation over the clause graph, checked by the SMT solver and
//! offered to every engine.
//!
//! Four analyses run over the (preprocessed) clause graph, linear or not, each to a
//! fixpoint by chaotic iteration over the clauses ([`fixpoint`]): affine equalities between
//! a predicate's arguments ([`karr`]), the same modulo 2 and 3 (Karr's algorithm over the
//! integers modulo a prime, [`field`]: relations such as `x + y = 1 mod 2`), congruences of
//! each argument ([`congruence`]) and intervals with widening ([`interval`]). The transformer of a clause reads only the
//! linear part of its constraint ([`clause`]); the rest is dropped (havoc). What they
//! find are only *candidates*: [`houdini`] keeps those that the solver proves inductive
//! together. Then:
//! - when they already make every query unsatisfiable, their conjunction per predicate is a
//!   model of the system, returned as an answer (validated and judged like every other);
//! - otherwise they are lemmas for PDR (at level 1 of its frames, over the transition
//!   system's slots) and Spacer (at level 1 of every predicate's frames).
//!
//! The pass is bounded ([`Config`]): it skips systems with reals or arrays and large ones,
//! and the solver's check has a time limit.

pub mod clause;
pub mod congruence;
pub mod field;
pub mod houdini;
pub mod interval;
pub mod karr;
#[cfg(test)]
mod tests;

use crate::chc::{ChcSystem, Features, PredId};
use crate::logic::*;
use crate::smt::SolverConfig;
use clause::LinClause;
use num_bigint::BigInt;
use std::time::{Duration, Instant};

/// The pass's settings (`--absint`).
#[derive(Clone, Debug)]
pub struct Config {
    /// Run the pass (default: true).
    pub enabled: bool,
    /// Skip systems with more clauses than this after preprocessing (default: 500).
    pub max_clauses: usize,
    /// Skip systems where a clause has more integer columns (arguments and variables) than
    /// this: the rational elimination is cubic in it (default: 150).
    pub max_columns: usize,
    /// Rounds of the chaotic iteration over all clauses (default: 40).
    pub max_rounds: usize,
    /// Time for the whole pass, analyses and solver check (default: 1 s; at most a tenth of
    /// the run's time limit).
    pub budget: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            enabled: true,
            max_clauses: 500,
            max_columns: 150,
            max_rounds: 40,
            budget: Duration::from_secs(1),
        }
    }
}

/// Invariants proven for the engines: per predicate, formulas over its parameters `x0 ..`
/// (for Spacer), and the same as cubes over the transition system's state (for PDR).
#[derive(Clone, Debug, Default)]
pub struct Seeds {
    pub per_pred: Vec<(PredId, Term)>,
    pub ts_cubes: Vec<Vec<Term>>,
    /// Whether an engine takes them when its switch (`--pdr-seeds`, `--spacer-seeds`)
    /// leaves it to the system: only when the input's clauses are linear. On the LIA dev
    /// set (non-linear clauses, inlined or not), one file per run, they cost PDR and Spacer
    /// time and files (2026-12-07, docs/absint.md, "Which engines take the seeds").
    pub by_default: bool,
}

impl Seeds {
    pub fn is_empty(&self) -> bool {
        self.per_pred.is_empty()
    }
}

/// What the pass did, for `--stats`.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Not run, and why.
    Skipped(&'static str),
    /// Ran; `invariants` per predicate survived the check.
    Done {
        invariants: Vec<Vec<Term>>,
        blocks_queries: bool,
        candidates: usize,
        kept: usize,
        queries: usize,
    },
    /// The check gave up (time or solver), and why.
    GaveUp(String),
}

/// Runs the analyses on `sys` and checks their candidates with a solver of `smt_cfg`.
pub fn analyze(
    sys: &ChcSystem,
    features: &Features,
    cfg: &Config,
    smt_cfg: &SolverConfig,
    budget: Duration,
) -> Outcome {
    let start = Instant::now();
    if features.reals || features.arrays {
        return Outcome::Skipped("reals or arrays");
    }
    if sys.clauses.len() > cfg.max_clauses {
        return Outcome::Skipped("too many clauses");
    }
    let clauses: Vec<LinClause> = sys.clauses.iter().map(|c| LinClause::new(sys, c)).collect();
    if clauses.iter().any(|c| c.columns > cfg.max_columns) {
        return Outcome::Skipped("too many columns");
    }
    let deadline = start + budget;
    let cands = candidates(sys, &clauses, cfg.max_rounds, deadline);
    let candidates: usize = cands.iter().map(|c| c.len()).sum();
    if candidates == 0 {
        return Outcome::Skipped("no candidates");
    }
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Outcome::GaveUp("time budget spent in the analyses".into());
    }
    match houdini::houdini(sys, cands, smt_cfg, left) {
        Ok(h) => Outcome::Done {
            kept: h.invariants.iter().map(|c| c.len()).sum(),
            invariants: h.invariants,
            blocks_queries: h.blocks_queries,
            candidates,
            queries: h.queries,
        },
        Err(houdini::Failed::Time) => Outcome::GaveUp("time budget".into()),
        Err(houdini::Failed::Solver(e)) => Outcome::GaveUp(e),
    }
}

/// The candidates of the three analyses, per predicate, without repeats: `false` for a
/// predicate no analysis reached. None for a predicate that no clause mentions (one that
/// preprocessing eliminated: its back-translator defines it).
pub fn candidates(
    sys: &ChcSystem,
    clauses: &[LinClause],
    rounds: usize,
    deadline: Instant,
) -> Vec<Vec<Term>> {
    let arity: Vec<usize> = sys.preds.iter().map(|p| p.sorts.len()).collect();
    let karr: Vec<karr::Affine> = affine(clauses, &arity, rounds, deadline);
    let mod2 = congruences_beyond::<2>(clauses, &karr, rounds, deadline);
    let mod3 = congruences_beyond::<3>(clauses, &karr, rounds, deadline);
    let congs = fixpoint(
        clauses,
        vec![None; arity.len()],
        congruence::transfer,
        |a, b, _| congruence::join(a, b),
        rounds,
        deadline,
    );
    let itvs = fixpoint(
        clauses,
        vec![None; arity.len()],
        interval::transfer,
        |a, b, n| {
            let j = interval::join(a, b);
            if n >= interval::WIDEN_AFTER {
                interval::widen(a, &j)
            } else {
                j
            }
        },
        rounds,
        deadline,
    );
    let mut used = vec![false; arity.len()];
    for c in clauses {
        for b in c.body.iter().chain(c.head.iter()) {
            used[b.pred.idx()] = true;
        }
    }
    let mut out = vec![];
    for (i, p) in sys.preds.iter().enumerate() {
        if !used[i] {
            out.push(vec![]);
            continue;
        }
        let params: Vec<Term> = p.params().iter().map(mk_var_of).collect();
        let int = |j: usize| p.sorts[j] == Sort::Int;
        let mut cs: Vec<Term> = vec![];
        let mut add = |t: Term| {
            if t.as_bool() != Some(true) && !cs.contains(&t) {
                cs.push(t)
            }
        };
        if karr[i].is_bottom() {
            add(mk_false());
        }
        for r in karr[i].equalities() {
            if r.coefs.iter().all(|(j, _)| int(*j)) {
                add(affine_term(&r, &params));
            }
        }
        for (p, rows) in [(2, &mod2[i]), (3, &mod3[i])] {
            for r in rows {
                if r.coefs.iter().all(|(j, _)| int(*j)) {
                    add(congruence_term(p, r, &params));
                }
            }
        }
        for (j, c) in congs[i].iter().flatten().enumerate() {
            if !int(j) || c.is_top() {
                continue;
            }
            let x = params[j].clone();
            if c.m == BigInt::from(0) {
                add(mk_eq(x, mk_int(c.r.clone())));
            } else {
                add(mk_eq(mk_mod(x, c.m.clone()), mk_int(c.r.clone())));
            }
        }
        for (j, v) in itvs[i].iter().flatten().enumerate() {
            if !int(j) {
                continue;
            }
            if let Some(l) = &v.lo {
                add(mk_ge(params[j].clone(), mk_int(l.clone())));
            }
            if let Some(h) = &v.hi {
                add(mk_le(params[j].clone(), mk_int(h.clone())));
            }
        }
        out.push(cs);
    }
    out
}

/// Karr's analysis over the field `F`: per predicate, its affine subspace.
fn affine<F: field::Field>(
    clauses: &[LinClause],
    arity: &[usize],
    rounds: usize,
    deadline: Instant,
) -> Vec<karr::Affine<F>> {
    fixpoint(
        clauses,
        arity.iter().map(|&n| karr::Affine::bottom(n)).collect(),
        |c, b: &[&karr::Affine<F>]| karr::transfer(c, b),
        |a, b, _| a.join(b),
        rounds,
        deadline,
    )
}

/// Karr's analysis modulo the prime `P`: per predicate, its congruences less those that the
/// rational equalities `karr` already imply (read modulo `P`, they would say nothing new).
fn congruences_beyond<const P: u64>(
    clauses: &[LinClause],
    karr: &[karr::Affine],
    rounds: usize,
    deadline: Instant,
) -> Vec<Vec<clause::Row>> {
    let arity: Vec<usize> = karr.iter().map(|k| k.dim).collect();
    let modular = affine::<field::Fp<P>>(clauses, &arity, rounds, deadline);
    let new = |(k, m): (&karr::Affine, &karr::Affine<field::Fp<P>>)| {
        if k.is_bottom() {
            return vec![];
        }
        let mut acc = k.equalities();
        let mut known = karr::Affine::<field::Fp<P>>::of_rows(k.dim, &acc);
        let mut out = vec![];
        for r in m.congruences() {
            acc.push(r.clone());
            let more = karr::Affine::<field::Fp<P>>::of_rows(k.dim, &acc);
            if more != known && !more.is_bottom() {
                out.push(r);
                known = more;
            } else {
                acc.pop();
            }
        }
        out
    };
    karr.iter().zip(&modular).map(new).collect()
}

/// `sum c_i x_i` of a row, over `params`.
fn row_sum(r: &clause::Row, params: &[Term]) -> Vec<Term> {
    r.coefs
        .iter()
        .map(|(j, c)| mk_mul_const(c, params[*j].clone()))
        .collect()
}

/// `(mod (sum c_i x_i) p) = -k mod p` for the row `sum c_i x_i + k = 0 mod p`.
fn congruence_term(p: u64, r: &clause::Row, params: &[Term]) -> Term {
    let p = BigInt::from(p);
    let k = num_integer::Integer::mod_floor(&-&r.k, &p);
    mk_eq(mk_mod(mk_add(row_sum(r, params)), p), mk_int(k))
}

/// `sum c_i x_i + k = 0` over `params`.
fn affine_term(r: &clause::Row, params: &[Term]) -> Term {
    let mut sum = row_sum(r, params);
    sum.push(mk_int(r.k.clone()));
    mk_eq(mk_add(sum), mk_int(0))
}

/// Chaotic iteration over the clauses with heads: each predicate's value starts at
/// `init` and is joined (by `join(old, new, changes so far)`, which may widen) with the
/// transformer's image of each clause defining it, until nothing changes, `rounds` rounds
/// have passed or the deadline. Values that did not settle are still only candidates:
/// [`houdini`] decides.
pub fn fixpoint<D: Clone + PartialEq>(
    clauses: &[LinClause],
    init: Vec<D>,
    transfer: impl Fn(&LinClause, &[&D]) -> D,
    join: impl Fn(&D, &D, usize) -> D,
    rounds: usize,
    deadline: Instant,
) -> Vec<D> {
    let mut vals = init;
    let mut changes = vec![0usize; vals.len()];
    for _ in 0..rounds {
        let mut changed = false;
        for c in clauses {
            let Some(h) = c.head else { continue };
            let image = {
                let bodies: Vec<&D> = c.body.iter().map(|b| &vals[b.pred.idx()]).collect();
                transfer(c, &bodies)
            };
            let p = h.pred.idx();
            let new = join(&vals[p], &image, changes[p]);
            if new != vals[p] {
                vals[p] = new;
                changes[p] += 1;
                changed = true;
            }
        }
        if !changed || Instant::now() >= deadline {
            break;
        }
    }
    vals
}
