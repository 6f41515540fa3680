//! Congruences `x = r mod m` of each argument: the non-relational part of Granger,
//! *Static analysis of arithmetical congruences* (IJCM 30, 1989), for the parity and `mod`
//! families.
//!
//! A value is `r + mZ` (`m = 0`: exactly `r`; `m = 1`: any integer). The join is
//! `r1 + gcd(m1, m2, r1 - r2) Z`; a chain from any value goes through divisors only, so no
//! widening is needed. The transformer of a clause starts from the body values, meets the
//! clause's `(mod x m) = r` facts, and then propagates through its equalities: a column with
//! coefficient `+-1` in `sum c_i x_i + k = 0` gets the value of `-(k + the rest)`.

use super::clause::LinClause;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// `r + mZ`, normalized: `m >= 0`, and `0 <= r < m` when `m > 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cong {
    pub m: BigInt,
    pub r: BigInt,
}

impl Cong {
    pub fn new(m: BigInt, r: BigInt) -> Cong {
        let m = m.abs();
        let r = if m.is_zero() { r } else { r.mod_floor(&m) };
        Cong { m, r }
    }

    pub fn top() -> Cong {
        Cong::new(BigInt::one(), BigInt::zero())
    }

    pub fn constant(k: BigInt) -> Cong {
        Cong::new(BigInt::zero(), k)
    }

    pub fn is_top(&self) -> bool {
        self.m.is_one()
    }

    pub fn contains(&self, v: &BigInt) -> bool {
        if self.m.is_zero() {
            *v == self.r
        } else {
            (v - &self.r).mod_floor(&self.m).is_zero()
        }
    }

    pub fn join(&self, o: &Cong) -> Cong {
        let m = self.m.gcd(&o.m).gcd(&(&self.r - &o.r));
        Cong::new(m, self.r.clone())
    }

    pub fn add(&self, o: &Cong) -> Cong {
        Cong::new(self.m.gcd(&o.m), &self.r + &o.r)
    }

    pub fn scale(&self, c: &BigInt) -> Cong {
        Cong::new(&self.m * c, &self.r * c)
    }

    /// The intersection, `None` when empty (the Chinese remainder theorem).
    pub fn meet(&self, o: &Cong) -> Option<Cong> {
        if self.m.is_zero() {
            return o.contains(&self.r).then(|| self.clone());
        }
        if o.m.is_zero() {
            return self.contains(&o.r).then(|| o.clone());
        }
        let e = self.m.extended_gcd(&o.m);
        let d = &o.r - &self.r;
        if !d.is_multiple_of(&e.gcd) {
            return None;
        }
        let lcm = &self.m / &e.gcd * &o.m;
        Some(Cong::new(lcm, &self.r + &self.m * e.x * (d / &e.gcd)))
    }
}

/// Per argument congruences of a predicate, or `None` (no value reached yet).
pub type Congs = Option<Vec<Cong>>;

/// The join of two predicate values.
pub fn join(a: &Congs, b: &Congs) -> Congs {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.iter().zip(y).map(|(p, q)| p.join(q)).collect()),
        (None, v) | (v, None) => v.clone(),
    }
}

/// Rounds of propagation through a clause's equalities.
const ROUNDS: usize = 4;

/// The head's congruences after clause `c` from the bodies' (`None` when the clause is
/// found infeasible or a body has no value).
pub fn transfer(c: &LinClause, bodies: &[&Congs]) -> Congs {
    let head = c.head.expect("a clause with a head");
    let mut vals = vec![Cong::top(); c.columns];
    for (b, v) in c.body.iter().zip(bodies) {
        let v = v.as_ref()?;
        vals[b.first..b.first + b.arity].clone_from_slice(v);
    }
    for (col, r, m) in &c.congs {
        vals[*col] = vals[*col].meet(&Cong::new(m.clone(), r.clone()))?;
    }
    for _ in 0..ROUNDS {
        let mut changed = false;
        for e in &c.eqs {
            for (j, cj) in &e.coefs {
                if !cj.abs().is_one() {
                    continue;
                }
                let mut rest = Cong::constant(e.k.clone());
                for (i, ci) in &e.coefs {
                    if i != j {
                        rest = rest.add(&vals[*i].scale(ci));
                    }
                    if rest.is_top() {
                        break;
                    }
                }
                // x_j = -rest / c_j = -c_j * rest, as c_j = +-1
                let new = vals[*j].meet(&rest.scale(&-cj))?;
                if new != vals[*j] {
                    vals[*j] = new;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Some(vals[head.first..head.first + head.arity].to_vec())
}
