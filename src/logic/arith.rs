//! Integer and mixed arithmetic constructors: linear expressions, comparisons, `div` and
//! `mod` by constants. A sum, difference or comparison with a `Real` operand is built over
//! the reals ([`super::real`]), its `Int` operands taken as reals (`to_real`).

use super::linear::Lin;
use super::real::*;
use super::term::*;
use super::Sort;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// Two terms of one sort: an `Int` term beside a `Real` one becomes `to_real` of it.
pub fn coerce2(a: Term, b: Term) -> (Term, Term) {
    match (a.sort(), b.sort()) {
        (Sort::Int, Sort::Real) => (mk_to_real(a), b),
        (Sort::Real, Sort::Int) => (a, mk_to_real(b)),
        _ => (a, b),
    }
}

// ---------------------------------------------------------------- arithmetic

/// The term of a linear expression: a constant, a single atom, or a `Lin` node.
pub fn mk_lin(l: Lin) -> Term {
    if l.terms.is_empty() {
        return mk_int(l.k);
    }
    if l.k.is_zero() && l.terms.len() == 1 && l.terms[0].1.is_one() {
        return l.terms[0].0.clone();
    }
    mk_node(TermNode::Lin(l))
}

pub fn mk_add(ts: Vec<Term>) -> Term {
    if ts.iter().any(|t| t.sort() == Sort::Real) {
        let mut acc = RLin::zero();
        for t in &ts {
            acc = acc.add(&RLin::of(t));
        }
        return mk_rlin(acc);
    }
    let mut acc = Lin::zero();
    for t in &ts {
        acc = acc.add(&Lin::of(t));
    }
    mk_lin(acc)
}

/// True when either operand is a real term (the operation is over the reals).
fn real2(a: &Term, b: &Term) -> bool {
    a.sort() == Sort::Real || b.sort() == Sort::Real
}

pub fn mk_sub(a: Term, b: Term) -> Term {
    if real2(&a, &b) {
        return mk_rlin(RLin::of(&a).sub(&RLin::of(&b)));
    }
    mk_lin(Lin::of(&a).sub(&Lin::of(&b)))
}

pub fn mk_neg(a: Term) -> Term {
    if a.sort() == Sort::Real {
        return mk_rlin(RLin::of(&a).neg());
    }
    mk_lin(Lin::of(&a).neg())
}

pub fn mk_mul_const(c: &BigInt, a: Term) -> Term {
    if a.sort() == Sort::Real {
        return mk_rlin(RLin::of(&a).scale(&Rat::from_integer(c.clone())));
    }
    mk_lin(Lin::of(&a).scale(c))
}

/// `lin <= 0`, with the coefficients divided by their gcd and the constant rounded.
pub fn mk_le_lin(mut l: Lin) -> Term {
    if l.terms.is_empty() {
        return mk_bool(!l.k.is_positive());
    }
    let g = l.coef_gcd();
    if !g.is_one() {
        // sum g*c_i x_i + k <= 0  <=>  sum c_i x_i <= floor(-k / g)
        for (_, c) in l.terms.iter_mut() {
            *c = &*c / &g;
        }
        let bound = (-&l.k).div_floor(&g);
        l.k = -bound;
    }
    mk_node(TermNode::Le(l))
}

/// `lin = 0`, normalized so that the first coefficient is positive.
pub fn mk_eqz_lin(mut l: Lin) -> Term {
    if l.terms.is_empty() {
        return mk_bool(l.k.is_zero());
    }
    let g = l.coef_gcd();
    if !(&l.k % &g).is_zero() {
        return mk_false();
    }
    if !g.is_one() {
        for (_, c) in l.terms.iter_mut() {
            *c = &*c / &g;
        }
        l.k = &l.k / &g;
    }
    if l.terms[0].1.is_negative() {
        l = l.neg();
    }
    mk_node(TermNode::EqZ(l))
}

pub fn mk_le(a: Term, b: Term) -> Term {
    if real2(&a, &b) {
        return mk_rle_lin(RLin::of(&a).sub(&RLin::of(&b)));
    }
    mk_le_lin(Lin::of(&a).sub(&Lin::of(&b)))
}

pub fn mk_lt(a: Term, b: Term) -> Term {
    if real2(&a, &b) {
        return mk_rlt_lin(RLin::of(&a).sub(&RLin::of(&b)));
    }
    let mut l = Lin::of(&a).sub(&Lin::of(&b));
    l.k += 1;
    mk_le_lin(l)
}

pub fn mk_ge(a: Term, b: Term) -> Term {
    mk_le(b, a)
}

pub fn mk_gt(a: Term, b: Term) -> Term {
    mk_lt(b, a)
}

/// SMT-LIB `div` by a non-zero constant.
pub fn mk_div(a: Term, d: BigInt) -> Term {
    assert!(!d.is_zero(), "division by zero constant");
    if let Some(n) = a.as_int() {
        return mk_int(super::eval::smt_div(n, &d));
    }
    if d.is_one() {
        return a;
    }
    mk_node(TermNode::Div(a, d))
}

/// SMT-LIB `mod` by a non-zero constant.
pub fn mk_mod(a: Term, d: BigInt) -> Term {
    assert!(!d.is_zero(), "modulo by zero constant");
    if let Some(n) = a.as_int() {
        return mk_int(super::eval::smt_mod(n, &d));
    }
    let d = d.abs();
    if d.is_one() {
        return mk_int(0);
    }
    mk_node(TermNode::Mod(a, d))
}
