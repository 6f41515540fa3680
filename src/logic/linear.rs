//! Linear expressions `sum c_i * t_i + k` over integer or rational coefficients.

use super::term::{Term, TermNode};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

/// A coefficient of a linear sum: an integer ([`Lin`]) or an exact rational
/// ([`super::RLin`]). The arithmetic that integer and real sums share is written once, on
/// [`LinearSum`], over this trait.
pub trait Coef: Clone + Zero + One + Signed + Eq + std::hash::Hash + std::fmt::Debug {}

impl Coef for BigInt {}
impl Coef for num_rational::BigRational {}

/// `sum c_i * t_i + k`: atoms `t_i` sorted by uid, all distinct, coefficients non-zero.
/// The integer ([`Lin`]) and real ([`super::RLin`]) expressions are this type with integer
/// and rational coefficients; what differs between them (which terms are atoms, rounding)
/// lives in `impl Lin` below and `impl RLin` in `real.rs`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct LinearSum<C> {
    pub terms: Vec<(Term, C)>,
    pub k: C,
}

/// A linear integer expression. Atoms are integer terms that are not themselves linear
/// expressions or constants: variables, `ite`, `div` and `mod` terms.
pub type Lin = LinearSum<BigInt>;

impl<C: Coef> LinearSum<C> {
    pub fn zero() -> Self {
        LinearSum {
            terms: vec![],
            k: C::zero(),
        }
    }

    pub fn constant(k: C) -> Self {
        LinearSum { terms: vec![], k }
    }

    /// The atom `t` with coefficient one.
    pub fn atom(t: &Term) -> Self {
        LinearSum {
            terms: vec![(t.clone(), C::one())],
            k: C::zero(),
        }
    }

    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// The coefficient of atom `t`, zero when absent.
    pub fn coef(&self, t: &Term) -> C {
        self.terms
            .iter()
            .find(|(s, _)| s == t)
            .map(|(_, c)| c.clone())
            .unwrap_or_else(C::zero)
    }

    pub fn add(&self, other: &Self) -> Self {
        LinearSum {
            terms: merge_terms(&self.terms, &other.terms),
            k: self.k.clone() + other.k.clone(),
        }
    }

    pub fn neg(&self) -> Self {
        LinearSum {
            terms: self
                .terms
                .iter()
                .map(|(t, c)| (t.clone(), -c.clone()))
                .collect(),
            k: -self.k.clone(),
        }
    }

    pub fn sub(&self, other: &Self) -> Self {
        self.add(&other.neg())
    }

    pub fn scale(&self, c: &C) -> Self {
        if c.is_zero() {
            return Self::zero();
        }
        LinearSum {
            terms: (self.terms.iter())
                .map(|(t, d)| (t.clone(), d.clone() * c.clone()))
                .collect(),
            k: self.k.clone() * c.clone(),
        }
    }

    /// `(c, rest)` with `self = c*x + rest`.
    pub fn split(&self, x: &Term) -> (C, Self) {
        let c = self.coef(x);
        let rest = LinearSum {
            terms: self.terms.iter().filter(|(t, _)| t != x).cloned().collect(),
            k: self.k.clone(),
        };
        (c, rest)
    }
}

impl Lin {
    /// The linear expression of an integer term.
    pub fn of(t: &Term) -> Lin {
        match t.get() {
            TermNode::Int(n) => Lin::constant(n.clone()),
            TermNode::Lin(l) => l.clone(),
            _ => Lin::atom(t),
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
fn merge_terms<C: Coef>(a: &[(Term, C)], b: &[(Term, C)]) -> Vec<(Term, C)> {
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
                let c = cx.clone() + cy.clone();
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
