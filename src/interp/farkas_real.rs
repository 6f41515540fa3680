//! The Farkas backend's linear real arithmetic ([`super::farkas`]): cubes of `lin <= 0`,
//! `lin < 0` and `lin = 0` over real atoms, and the interpolant of a pair of clashing cubes,
//! as OpenSMT gives for LRA (the interpolants Golem's IMC and `kind` witnesses use).
//!
//! A conjunction of such rows has no real solution exactly when some combination
//! `sum lambda_j lin_j` (`lambda_j >= 0` for the inequalities) has every atom's coefficient
//! zero and a constant `c` with `c > 0`, or `c = 0` and some strict row with `lambda_j > 0`
//! (Motzkin's transposition theorem). [`crate::logic::farkas::certificate`] finds
//! combinations with constant 1 over non-strict rows; strict rows are reduced to that form
//! with one extra column `z`: row `j` gets the coefficient `k_j` on `z` and the constant
//! `k_j + [j strict]`, and one more row `-z <= 0` is added. A certificate then has
//! `sum lambda_j k_j = lambda_0 >= 0` (the `z` column) and
//! `sum lambda_j k_j + sum_(j strict) lambda_j = 1` (the constant): exactly the condition.
//!
//! The interpolant is `A`'s part of the combination, `sum_(j in A) lambda_j lin_j`, `< 0`
//! when a strict row of `A` has `lambda_j > 0`, else `<= 0`: `A` implies it (a non-negative
//! combination of its rows), `A`-local atoms cancel (`B` does not mention them), and with
//! `B`'s part it sums to the constant of the certificate, which contradicts it.

use crate::logic::farkas::{certificate, Row};
use crate::logic::mbp::implicant;
use crate::logic::{eval, mk_not, Assignment, Value};
use crate::logic::{mk_rle_lin, mk_rlin, mk_rlt_lin, RLin, Rat, Term, TermNode};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use rustc_hash::FxHashMap;

/// How a row compares its expression with zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rel {
    Le,
    Lt,
    Eq,
}

/// `lin rel 0`.
#[derive(Clone, Debug)]
pub(super) struct RRow {
    pub lin: RLin,
    pub rel: Rel,
}

/// The row of a real literal (`None`: not a real comparison). A disequality becomes the
/// strict side that `m` satisfies.
pub(super) fn read_literal(l: &Term, m: &Assignment) -> Option<Result<RRow, String>> {
    let (atom, pos) = match l.get() {
        TermNode::Not(s) => (s, false),
        _ => (l, true),
    };
    let row = |lin: RLin, rel| Some(Ok(RRow { lin, rel }));
    match (atom.get(), pos) {
        (TermNode::RLe(lin), true) => row(lin.clone(), Rel::Le),
        // not (lin <= 0)  <=>  -lin < 0
        (TermNode::RLe(lin), false) => row(lin.neg(), Rel::Lt),
        (TermNode::RLt(lin), true) => row(lin.clone(), Rel::Lt),
        // not (lin < 0)  <=>  -lin <= 0
        (TermNode::RLt(lin), false) => row(lin.neg(), Rel::Le),
        (TermNode::REqZ(lin), true) => row(lin.clone(), Rel::Eq),
        (TermNode::REqZ(lin), false) => match eval(&mk_rlin(lin.clone()), m) {
            Ok(Value::Real(v)) if v.is_negative() => row(lin.clone(), Rel::Lt),
            Ok(Value::Real(_)) => row(lin.neg(), Rel::Lt),
            Ok(v) => Some(Err(format!("a real expression of value {v}"))),
            Err(e) => Some(Err(e)),
        },
        _ => None,
    }
}

/// `row` with every `ite` atom replaced by the branch `m` takes; the literals of the
/// conditions that choose them (true in `m`) are appended to `conds`. With those, the row
/// implies the original one.
pub(super) fn purify(row: RRow, m: &Assignment, conds: &mut Vec<Term>) -> Result<RRow, String> {
    let ite = |t: &Term| match t.get() {
        TermNode::Ite(..) => true,
        TermNode::ToReal(i) => matches!(i.get(), TermNode::Ite(..)),
        _ => false,
    };
    if !row.lin.terms.iter().any(|(t, _)| ite(t)) {
        return Ok(row);
    }
    let mut lin = RLin::constant(row.lin.k.clone());
    for (t, c) in &row.lin.terms {
        lin = lin.add(&branch(t, m, conds)?.scale(c));
    }
    Ok(RRow { lin, rel: row.rel })
}

/// The expression of atom `t` with its `ite`s resolved under `m` (see [`purify`]).
fn branch(t: &Term, m: &Assignment, conds: &mut Vec<Term>) -> Result<RLin, String> {
    let (c, x, y) = match t.get() {
        TermNode::Ite(c, x, y) => (c, x, y),
        TermNode::ToReal(i) if matches!(i.get(), TermNode::Ite(..)) => {
            let l = super::farkas::purify(&crate::logic::Lin::of(i), m, conds)?;
            return Ok(RLin::of_int(&l));
        }
        _ => return Ok(RLin::of(t)),
    };
    let cv = match eval(c, m)? {
        Value::Bool(b) => b,
        v => return Err(format!("an ite condition of value {v}")),
    };
    let cond = if cv { c.clone() } else { mk_not(c.clone()) };
    conds.extend(implicant(&cond, m)?);
    let l = RLin::of(if cv { x } else { y });
    let mut out = RLin::constant(l.k.clone());
    for (a, k) in &l.terms {
        out = out.add(&branch(a, m, conds)?.scale(k));
    }
    Ok(out)
}

/// Largest simplex tableau, in entries.
const MAX_CELLS: usize = 400_000;

/// The interpolant of the clashing real cubes `a` and `b` (see the module documentation);
/// `None` when they have a real solution together or the tableau is too large.
pub(super) fn combine(a: &[RRow], b: &[RRow]) -> Option<Term> {
    let mut index: FxHashMap<Term, usize> = FxHashMap::default();
    let strict = a.iter().chain(b).any(|r| r.rel == Rel::Lt);
    // each row with integer coefficients (multiplied by a positive constant)
    let scaled: Vec<RLin> = a.iter().chain(b).map(|r| r.lin.normalized()).collect();
    let int = |r: &Rat| -> BigInt {
        debug_assert!(r.is_integer());
        r.to_integer()
    };
    let mut rows = vec![];
    for (lin, r) in scaled.iter().zip(a.iter().chain(b)) {
        let mut coefs: Vec<(usize, BigInt)> = lin
            .terms
            .iter()
            .map(|(t, c)| {
                let n = index.len();
                (*index.entry(t.clone()).or_insert(n), int(c))
            })
            .collect();
        let mut k = int(&lin.k);
        if strict {
            coefs.push((usize::MAX, k.clone()));
            if r.rel == Rel::Lt {
                k += BigInt::one();
            }
        }
        rows.push(Row {
            coefs,
            k,
            eq: r.rel == Rel::Eq,
        });
    }
    if strict {
        rows.push(Row {
            coefs: vec![(usize::MAX, -BigInt::one())],
            k: BigInt::zero(),
            eq: false,
        });
    }
    for row in &mut rows {
        row.coefs.retain(|(_, c)| !c.is_zero());
    }
    let lambda = certificate(&rows, MAX_CELLS)?;
    let mut sum = RLin::zero();
    let mut lt = false;
    for ((lin, r), l) in scaled.iter().zip(a).zip(&lambda) {
        if l.is_zero() {
            continue;
        }
        sum = sum.add(&lin.scale(l));
        lt |= r.rel == Rel::Lt;
    }
    Some(if lt { mk_rlt_lin(sum) } else { mk_rle_lin(sum) })
}
