//! Linear integer expressions `sum c_i * t_i + k` over big integers.

use super::term::{Term, TermNode};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::cmp::Ordering;

/// `sum c_i * t_i + k`: atoms `t_i` sorted by uid, all distinct, coefficients non-zero.
/// Atoms are integer terms that are not themselves linear expressions or constants:
/// variables, `ite`, `div` and `mod` terms.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Lin {
    pub terms: Vec<(Term, BigInt)>,
    pub k: BigInt,
}

impl Lin {
    pub fn zero() -> Lin {
        Lin {
            terms: vec![],
            k: BigInt::zero(),
        }
    }

    pub fn constant(k: BigInt) -> Lin {
        Lin { terms: vec![], k }
    }

    /// The linear expression of an integer term.
    pub fn of(t: &Term) -> Lin {
        match t.get() {
            TermNode::Int(n) => Lin::constant(n.clone()),
            TermNode::Lin(l) => l.clone(),
            _ => Lin {
                terms: vec![(t.clone(), BigInt::one())],
                k: BigInt::zero(),
            },
        }
    }

    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// The coefficient of atom `t`, zero when absent.
    pub fn coef(&self, t: &Term) -> BigInt {
        self.terms
            .iter()
            .find(|(s, _)| s == t)
            .map(|(_, c)| c.clone())
            .unwrap_or_default()
    }

    pub fn add(&self, other: &Lin) -> Lin {
        Lin {
            terms: merge_terms(&self.terms, &other.terms),
            k: &self.k + &other.k,
        }
    }

    pub fn neg(&self) -> Lin {
        self.scale(&BigInt::from(-1))
    }

    pub fn sub(&self, other: &Lin) -> Lin {
        self.add(&other.neg())
    }

    pub fn scale(&self, c: &BigInt) -> Lin {
        if c.is_zero() {
            return Lin::zero();
        }
        Lin {
            terms: self.terms.iter().map(|(t, d)| (t.clone(), d * c)).collect(),
            k: &self.k * c,
        }
    }

    /// The gcd of the coefficients (1 when there are none).
    pub fn coef_gcd(&self) -> BigInt {
        let mut g = BigInt::zero();
        for (_, c) in &self.terms {
            g = g.gcd(c);
            if g.is_one() {
                break;
            }
        }
        if g.is_zero() {
            BigInt::one()
        } else {
            g
        }
    }
}

/// The sum of two lists of atoms with coefficients, both sorted by uid: merged in order,
/// coefficients of a common atom added, zeros dropped (for integer and rational sums).
pub(super) fn merge_terms<C>(a: &[(Term, C)], b: &[(Term, C)]) -> Vec<(Term, C)>
where
    C: Clone + Zero,
    for<'x> &'x C: std::ops::Add<&'x C, Output = C>,
{
    let mut terms = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, cx) = &a[i];
        let (y, cy) = &b[j];
        match x.uid().cmp(&y.uid()) {
            Ordering::Less => {
                terms.push((x.clone(), cx.clone()));
                i += 1
            }
            Ordering::Greater => {
                terms.push((y.clone(), cy.clone()));
                j += 1
            }
            Ordering::Equal => {
                let c = cx + cy;
                if !c.is_zero() {
                    terms.push((x.clone(), c));
                }
                i += 1;
                j += 1;
            }
        }
    }
    terms.extend_from_slice(&a[i..]);
    terms.extend_from_slice(&b[j..]);
    terms
}
