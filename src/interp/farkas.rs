//! Interpolants from Farkas certificates, for linear integer arithmetic with Booleans: the
//! weak, linear interpolants that proof-based solvers (OpenSMT, which Golem's IMC and TPA
//! use) give, where [`super::own`]'s projection gives the strongest one, often a disjunction
//! too large to converge.
//!
//! `I` is built as a disjunction over cubes of `A` of conjunctions over cubes of `B`:
//!
//! - while `A /\ not I` has a model `M`, the literals of `A` true in `M` form a cube `a`
//!   ([`mbp::implicant`]) that implies `A`. If `a /\ B` is satisfiable, so is `A /\ B`:
//!   answer `sat`. Else `J` (below) is added to `I`: `a => J` and `J /\ B` unsatisfiable;
//! - `J` starts `true`; while `J /\ B` has a model `N`, the cube `b` of `B` under `N` is
//!   unsatisfiable with `a` (it implies `B`). Then either a Boolean literal of `a` clashes
//!   with one of `b` (it is shared: `J` takes it), or the linear literals clash over the
//!   rationals: a Farkas certificate ([`crate::logic::farkas`]) combines them to `0 < 0`,
//!   and the sum of `a`'s part, `f <= 0`, tightened over the integers, is implied by `a`,
//!   mentions only shared symbols (`a`'s own variables cancel, `b` has none of them) and
//!   contradicts `b`. `J` takes it; `N` falsifies it, so no cube of `B` comes twice;
//! - when `a /\ b` clash only over the integers (parity, `2x = 1`), `J` is the exact
//!   projection `exists (vars(A) \ vars(B)). a` ([`crate::qe::mbp_loop`]), which implies
//!   `not B` because `a /\ B` is unsatisfiable.
//!
//! Over the reals, the cubes' real comparisons (strict ones too) are combined the same way,
//! without tightening ([`super::farkas_real`]); a pair of cubes that clashes in neither
//! arithmetic alone (an integer atom compared in both) takes the projection fallback.
//!
//! Both loops are bounded ([`MAX_A_CUBES`], [`MAX_B_CUBES`]); past the bound, or on a literal
//! it cannot read (arrays), it answers unknown and the next backend is asked. Every
//! interpolant is checked by the [`super::Interpolator`] like any other.

use super::backend::Answer;
use super::farkas_real::{self, RRow};
use crate::logic::farkas::{self, Row};
use crate::logic::mbp::implicant;
use crate::logic::{
    eval_int, free_vars, mk_and, mk_le_lin, mk_lin, mk_not, mk_or, Assignment, Lin, Rat, Sort,
    Term, TermNode, Var,
};
use crate::qe;
use crate::smt::{SatResult, Smt, SmtError};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use rustc_hash::{FxHashMap, FxHashSet};

/// Most cubes of `A` (disjuncts of the interpolant).
pub const MAX_A_CUBES: usize = 32;
/// Most cubes of `B` per cube of `A` (conjuncts of one disjunct).
pub const MAX_B_CUBES: usize = 64;
/// Largest simplex tableau, in entries.
const MAX_CELLS: usize = 400_000;
/// Most disjuncts of the projection fallback.
const MAX_PROJECTIONS: usize = 16;

/// A cube's literals, read for the certificate.
struct Cube {
    rows: Vec<(Lin, bool)>,
    real_rows: Vec<RRow>,
    bools: Vec<Term>,
}

/// What one cube of `A` gives.
enum Cover {
    Itp(Term),
    Sat,
    Unknown(String),
}

/// The Farkas interpolant of `(a, b)`, with `smt` (any solver) for the models.
pub(super) fn interpolate(smt: &mut Smt, a: &Term, b: &Term) -> Result<Answer, SmtError> {
    let va = free_vars(a);
    let vb = free_vars(b);
    let vbs: FxHashSet<&Var> = vb.iter().collect();
    let a_local: Vec<Var> = va.iter().filter(|v| !vbs.contains(v)).cloned().collect();
    if va
        .iter()
        .chain(&vb)
        .any(|v| !matches!(v.sort, Sort::Int | Sort::Real | Sort::Bool))
    {
        return Ok(Answer::Unknown(
            "farkas: only Int, Real and Bool variables".into(),
        ));
    }
    smt.push()?;
    let r = (|| {
        for v in va.iter().chain(&vb) {
            smt.declare(v)?;
        }
        let mut disj: Vec<Term> = vec![];
        loop {
            smt.push()?;
            smt.assert(a)?;
            smt.assert(&mk_not(mk_or(disj.clone())))?;
            let r = smt.check_sat()?;
            let m = if r == SatResult::Sat {
                Some(smt.get_model(&va)?)
            } else {
                None
            };
            smt.pop()?;
            let m = match (r, m) {
                (SatResult::Unsat, _) => break,
                (SatResult::Sat, Some(m)) => m,
                _ => return Ok(Answer::Unknown("farkas: unknown on A /\\ not I".into())),
            };
            if disj.len() >= MAX_A_CUBES {
                return Ok(Answer::Unknown(format!(
                    "farkas: more than {MAX_A_CUBES} cubes of A"
                )));
            }
            let lits = match implicant(a, &m) {
                Ok(l) => l,
                Err(e) => return Ok(Answer::Unknown(format!("farkas: {e}"))),
            };
            match cover(smt, &lits, &m, b, &vb, &a_local)? {
                Cover::Itp(j) => disj.push(j),
                Cover::Sat => return Ok(Answer::Sat),
                Cover::Unknown(e) => return Ok(Answer::Unknown(format!("farkas: {e}"))),
            }
        }
        Ok(Answer::Interpolants(vec![mk_or(disj)]))
    })();
    let popped = smt.pop();
    let r = r?;
    popped?;
    Ok(r)
}

/// `J` for the cube `lits` of `A` (true in `m`): implied by it, unsatisfiable with `b`.
fn cover(
    smt: &mut Smt,
    lits: &[Term],
    m: &Assignment,
    b: &Term,
    vb: &[Var],
    a_local: &[Var],
) -> Result<Cover, SmtError> {
    let cube = mk_and(lits.to_vec());
    smt.push()?;
    smt.assert(&cube)?;
    smt.assert(b)?;
    let r = smt.check_sat()?;
    smt.pop()?;
    match r {
        SatResult::Sat => return Ok(Cover::Sat),
        SatResult::Unknown => return Ok(Cover::Unknown("unknown on a /\\ B".into())),
        SatResult::Unsat => {}
    }
    let ca = match read(lits, m) {
        Ok(c) => c,
        Err(e) => return Ok(Cover::Unknown(e)),
    };
    // `B` stays asserted while `J` grows (one conjunct asserted per round)
    smt.push()?;
    let r = smt.assert(b).and_then(|()| conjoin(smt, &ca, b, vb));
    let popped = smt.pop();
    let r = r?;
    popped?;
    match r {
        Some(c) => Ok(c),
        // an integer-only clash: the exact projection of the cube
        None => Ok(match qe::mbp_loop(smt, a_local, &cube, MAX_PROJECTIONS) {
            Ok((ds, true)) => Cover::Itp(mk_or(ds)),
            Ok((_, false)) => Cover::Unknown("projection fallback gave up".into()),
            Err(SmtError::Solver(e)) if e.starts_with("projection failed") => Cover::Unknown(e),
            Err(e) => return Err(e),
        }),
    }
}

/// The loop of [`cover`] over the cubes of `B` (asserted in `smt`): `None` when a pair of
/// cubes clashes in neither arithmetic alone.
fn conjoin(smt: &mut Smt, ca: &Cube, b: &Term, vb: &[Var]) -> Result<Option<Cover>, SmtError> {
    let mut conj: Vec<Term> = vec![];
    loop {
        let r = smt.check_sat()?;
        let n = match r {
            SatResult::Unsat => return Ok(Some(Cover::Itp(mk_and(conj)))),
            SatResult::Sat => smt.get_model(vb)?,
            SatResult::Unknown => return Ok(Some(Cover::Unknown("unknown on J /\\ B".into()))),
        };
        if conj.len() >= MAX_B_CUBES {
            return Ok(Some(Cover::Unknown(format!(
                "more than {MAX_B_CUBES} cubes of B"
            ))));
        }
        let cb = match implicant(b, &n).and_then(|l| read(&l, &n)) {
            Ok(c) => c,
            Err(e) => return Ok(Some(Cover::Unknown(e))),
        };
        let f = if let Some(l) = ca
            .bools
            .iter()
            .find(|l| cb.bools.contains(&mk_not((*l).clone())))
        {
            l.clone()
        } else {
            let clash = combine(&ca.rows, &cb.rows)
                .or_else(|| farkas_real::combine(&ca.real_rows, &cb.real_rows));
            match clash {
                Some(f) => f,
                None => return Ok(None),
            }
        };
        smt.assert(&f)?;
        conj.push(f);
    }
}

/// The literals of an implicant as rows `lin <= 0` / `lin = 0` (`true`) and Boolean literals;
/// a disequality becomes the strict side `m` satisfies.
fn read(lits: &[Term], m: &Assignment) -> Result<Cube, String> {
    let mut c = Cube {
        rows: vec![],
        real_rows: vec![],
        bools: vec![],
    };
    let one = || Lin::constant(BigInt::one());
    // the literals, and those of the conditions of the real `ite`s they resolve
    let mut todo: Vec<Term> = lits.iter().rev().cloned().collect();
    let mut seen: FxHashSet<Term> = FxHashSet::default();
    while let Some(l) = todo.pop() {
        if !seen.insert(l.clone()) {
            continue;
        }
        let l = &l;
        if let Some(row) = farkas_real::read_literal(l, m) {
            let mut conds = vec![];
            c.real_rows.push(farkas_real::purify(row?, m, &mut conds)?);
            todo.extend(conds);
            continue;
        }
        let (atom, pos) = match l.get() {
            TermNode::Not(s) => (s, false),
            _ => (l, true),
        };
        let purified;
        let atom = match atom.get() {
            TermNode::Le(lin) | TermNode::EqZ(lin) => {
                let mut conds = vec![];
                let p = purify(lin, m, &mut conds)?;
                todo.extend(conds);
                purified = if matches!(atom.get(), TermNode::Le(_)) {
                    crate::logic::TermNode::Le(p)
                } else {
                    crate::logic::TermNode::EqZ(p)
                };
                &purified
            }
            a => a,
        };
        match (atom, pos) {
            (TermNode::Var(v), _) if v.sort == Sort::Bool => c.bools.push(l.clone()),
            (TermNode::Le(lin), true) => c.rows.push((lin.clone(), false)),
            // not (lin <= 0)  <=>  1 - lin <= 0
            (TermNode::Le(lin), false) => c.rows.push((one().sub(lin), false)),
            (TermNode::EqZ(lin), true) => c.rows.push((lin.clone(), true)),
            (TermNode::EqZ(lin), false) => {
                let v = eval_int(&mk_lin(lin.clone()), m)?;
                c.rows.push(if v.is_negative() {
                    (lin.add(&one()), false)
                } else {
                    (one().sub(lin), false)
                });
            }
            _ => {
                return Err(format!(
                    "a literal it cannot read: {}",
                    crate::logic::SmtTerm(l)
                ))
            }
        }
    }
    Ok(c)
}

/// `lin` with every `ite` atom replaced by the branch `m` takes; the literals of the
/// conditions that choose them (true in `m`) are appended to `conds`.
pub(super) fn purify(lin: &Lin, m: &Assignment, conds: &mut Vec<Term>) -> Result<Lin, String> {
    if !lin
        .terms
        .iter()
        .any(|(t, _)| matches!(t.get(), TermNode::Ite(..)))
    {
        return Ok(lin.clone());
    }
    let mut out = Lin::constant(lin.k.clone());
    for (t, c) in &lin.terms {
        let l = match t.get() {
            TermNode::Ite(cond, x, y) => {
                let cv = crate::logic::eval_bool(cond, m)?;
                let chosen = if cv {
                    cond.clone()
                } else {
                    mk_not(cond.clone())
                };
                conds.extend(implicant(&chosen, m)?);
                purify(&Lin::of(if cv { x } else { y }), m, conds)?
            }
            _ => Lin::of(t),
        };
        out = out.add(&l.scale(c));
    }
    Ok(out)
}

/// `f <= 0` from a certificate of `a /\ b` over the rationals: the sum of `a`'s rows.
fn combine(a: &[(Lin, bool)], b: &[(Lin, bool)]) -> Option<Term> {
    let mut index: FxHashMap<Term, usize> = FxHashMap::default();
    let mut atoms: Vec<Term> = vec![];
    let mut rows = vec![];
    for (lin, eq) in a.iter().chain(b) {
        let coefs = lin
            .terms
            .iter()
            .map(|(t, c)| {
                let n = atoms.len();
                let i = *index.entry(t.clone()).or_insert(n);
                if i == n {
                    atoms.push(t.clone());
                }
                (i, c.clone())
            })
            .collect();
        rows.push(Row {
            coefs,
            k: lin.k.clone(),
            eq: *eq,
        });
    }
    let lambda = farkas::certificate(&rows, MAX_CELLS)?;
    // sum of a's rows, scaled to integers
    let mut sum: Vec<Rat> = vec![Rat::zero(); atoms.len()];
    let mut k = Rat::zero();
    for (row, l) in rows[..a.len()].iter().zip(&lambda) {
        if l.is_zero() {
            continue;
        }
        for (i, c) in &row.coefs {
            sum[*i] += l * Rat::from_integer(c.clone());
        }
        k += l * Rat::from_integer(row.k.clone());
    }
    let den = sum
        .iter()
        .chain(std::iter::once(&k))
        .fold(BigInt::one(), |d, r| d.lcm(r.denom()));
    let scale = |r: &Rat| (r * Rat::from_integer(den.clone())).to_integer();
    let mut f = Lin::constant(scale(&k));
    for (t, c) in atoms.iter().zip(&sum) {
        if !c.is_zero() {
            f = f.add(&Lin::of(t).scale(&scale(c)));
        }
    }
    Some(mk_le_lin(f))
}
