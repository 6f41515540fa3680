//! Intervals `lo <= x <= hi` of each argument (Cousot and Cousot, POPL 1977), with
//! widening.
//!
//! The transformer of a clause starts from the body values and tightens bounds through the
//! clause's linear rows (`= 0` as two inequalities, `<= 0`) for a few rounds of bound
//! propagation: in `sum c_i x_i + k <= 0`, `c_j x_j <= -(k + min of the rest)`. The join is
//! the hull; after [`WIDEN_AFTER`] changes at one predicate a bound that still moves goes to
//! infinity.

use super::clause::{LinClause, Row};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::Signed;

/// `[lo, hi]`, `None` an infinite bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Itv {
    pub lo: Option<BigInt>,
    pub hi: Option<BigInt>,
}

impl Itv {
    pub fn top() -> Itv {
        Itv { lo: None, hi: None }
    }

    fn hull(&self, o: &Itv) -> Itv {
        Itv {
            lo: min_opt(&self.lo, &o.lo),
            hi: max_opt(&self.hi, &o.hi),
        }
    }

    /// `self` widened by `next`: a bound that moved out goes to infinity.
    fn widen(&self, next: &Itv) -> Itv {
        Itv {
            lo: self
                .lo
                .clone()
                .filter(|l| next.lo.as_ref().is_some_and(|n| n >= l)),
            hi: self
                .hi
                .clone()
                .filter(|h| next.hi.as_ref().is_some_and(|n| n <= h)),
        }
    }

    /// The least value of `c * x`, `None` when unbounded.
    fn min_times(&self, c: &BigInt) -> Option<BigInt> {
        if c.is_positive() {
            self.lo.as_ref().map(|l| l * c)
        } else {
            self.hi.as_ref().map(|h| h * c)
        }
    }
}

fn min_opt(a: &Option<BigInt>, b: &Option<BigInt>) -> Option<BigInt> {
    Some(a.as_ref()?.min(b.as_ref()?).clone())
}

fn max_opt(a: &Option<BigInt>, b: &Option<BigInt>) -> Option<BigInt> {
    Some(a.as_ref()?.max(b.as_ref()?).clone())
}

/// Per argument intervals of a predicate, or `None` (no value reached yet).
pub type Itvs = Option<Vec<Itv>>;

/// Changes at one predicate after which its value is widened.
pub const WIDEN_AFTER: usize = 3;

pub fn join(a: &Itvs, b: &Itvs) -> Itvs {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.iter().zip(y).map(|(p, q)| p.hull(q)).collect()),
        (None, v) | (v, None) => v.clone(),
    }
}

/// `old` widened by `next` (which contains it).
pub fn widen(old: &Itvs, next: &Itvs) -> Itvs {
    match (old, next) {
        (Some(x), Some(y)) => Some(x.iter().zip(y).map(|(p, q)| p.widen(q)).collect()),
        (_, v) => v.clone(),
    }
}

const ROUNDS: usize = 3;

/// The head's intervals after clause `c` from the bodies' (`None` when the clause is found
/// infeasible or a body has no value).
pub fn transfer(c: &LinClause, bodies: &[&Itvs]) -> Itvs {
    let head = c.head.expect("a clause with a head");
    let mut vals = vec![Itv::top(); c.columns];
    for (b, v) in c.body.iter().zip(bodies) {
        let v = v.as_ref()?;
        vals[b.first..b.first + b.arity].clone_from_slice(v);
    }
    let negated: Vec<Row> = c
        .eqs
        .iter()
        .map(|r| Row {
            coefs: r.coefs.iter().map(|(i, x)| (*i, -x)).collect(),
            k: -&r.k,
        })
        .collect();
    for _ in 0..ROUNDS {
        let mut changed = false;
        for r in c.eqs.iter().chain(&negated).chain(&c.les) {
            changed |= tighten(r, &mut vals)?;
        }
        if !changed {
            break;
        }
    }
    Some(vals[head.first..head.first + head.arity].to_vec())
}

/// Tightens the bounds of each column of `sum c_i x_i + k <= 0`; `None` when a bound
/// crosses its opposite (the row cannot hold), else whether a bound moved.
fn tighten(r: &Row, vals: &mut [Itv]) -> Option<bool> {
    // the sum of the finite least values, and the columns whose least value is infinite
    let mut finite = r.k.clone();
    let mut infinite = vec![];
    for (i, c) in &r.coefs {
        match vals[*i].min_times(c) {
            Some(m) => finite += m,
            None => infinite.push(*i),
        }
    }
    let mut changed = false;
    for (j, c) in &r.coefs {
        let rest = match infinite.as_slice() {
            [] => &finite - vals[*j].min_times(c).expect("finite"),
            [i] if i == j => finite.clone(),
            _ => continue,
        };
        // c * x_j <= -rest
        let bound = -rest;
        let v = &mut vals[*j];
        if c.is_positive() {
            let hi = bound.div_floor(c);
            if v.hi.as_ref().is_none_or(|h| hi < *h) {
                v.hi = Some(hi);
                changed = true;
            }
        } else {
            let lo = -(-bound).div_floor(c);
            if v.lo.as_ref().is_none_or(|l| lo > *l) {
                v.lo = Some(lo);
                changed = true;
            }
        }
        if let (Some(l), Some(h)) = (&v.lo, &v.hi) {
            if l > h {
                return None;
            }
        }
    }
    Some(changed)
}
