//! Linear real arithmetic: rational linear expressions, their comparisons, and the
//! conversions between `Int` and `Real` (`to_real`, `to_int`, `is_int`).
//!
//! Real expressions are kept apart from the integer ones ([`super::Lin`]) so that the
//! integer normal forms (rounding of bounds, `x < y` as `x + 1 <= y`) never touch a real
//! term. A real expression is an [`RLin`]: `sum c_i * t_i + k` with exact rational
//! coefficients over *atoms* of sort `Real` (variables, `ite` terms, `to_real` of an integer
//! atom). A comparison is `lin <= 0`, `lin < 0` or `lin = 0` with the denominators cleared
//! and the coefficients and constant divided by their gcd (for `=`, the first coefficient
//! positive), so equal comparisons are equal terms. `to_real` distributes over an integer
//! expression, so `to_real(x + 2y + 1)` is `to_real(x) + 2 to_real(y) + 1`.

use super::linear::{Lin, LinearSum};
use super::term::{mk_bool, mk_int, mk_node, Term, TermNode};
use super::Sort;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// An exact rational number.
pub type Rat = BigRational;

/// The rational of an integer.
pub fn rat(n: impl Into<BigInt>) -> Rat {
    Rat::from_integer(n.into())
}

/// `sum c_i * t_i + k` over real atoms sorted by uid, all distinct, coefficients non-zero:
/// the linear sum of `linear.rs` with rational coefficients.
pub type RLin = LinearSum<Rat>;

impl RLin {
    /// The linear expression of a term of sort `Real`, or of an `Int` term taken as a real
    /// (`to_real` of it).
    pub fn of(t: &Term) -> RLin {
        match t.get() {
            TermNode::Real(r) => RLin::constant(r.clone()),
            TermNode::RLin(l) => l.clone(),
            _ if t.sort() == Sort::Int => RLin::of_int(&Lin::of(t)),
            _ => RLin::atom(t),
        }
    }

    /// `to_real` of an integer expression: each integer atom `a` becomes `to_real(a)`.
    pub fn of_int(l: &Lin) -> RLin {
        let mut acc = RLin::constant(Rat::from_integer(l.k.clone()));
        for (a, c) in &l.terms {
            let atom = mk_node(TermNode::ToReal(a.clone()));
            acc = acc.add(&RLin::atom(&atom).scale(&Rat::from_integer(c.clone())));
        }
        acc
    }

    /// The same comparison with integer coefficients and constant whose gcd is 1 (the
    /// expression multiplied by a positive rational).
    pub(crate) fn normalized(&self) -> RLin {
        let mut l = BigInt::one();
        for c in self.terms.iter().map(|(_, c)| c).chain([&self.k]) {
            l = l.lcm(c.denom());
        }
        let mut g = BigInt::zero();
        for c in self.terms.iter().map(|(_, c)| c).chain([&self.k]) {
            g = g.gcd(&(c.numer() * (&l / c.denom())));
        }
        if g.is_zero() {
            return self.clone();
        }
        self.scale(&Rat::new(l, g))
    }
}

// ---------------------------------------------------------------- constructors

/// A real constant.
pub fn mk_real(r: Rat) -> Term {
    mk_node(TermNode::Real(r))
}

/// The term of a real expression: a constant, a single atom, or an `RLin` node.
pub fn mk_rlin(l: RLin) -> Term {
    if l.terms.is_empty() {
        return mk_real(l.k);
    }
    if l.k.is_zero() && l.terms.len() == 1 && l.terms[0].1.is_one() {
        return l.terms[0].0.clone();
    }
    mk_node(TermNode::RLin(l))
}

/// `lin <= 0` over the reals.
pub fn mk_rle_lin(l: RLin) -> Term {
    if l.terms.is_empty() {
        return mk_bool(!l.k.is_positive());
    }
    mk_node(TermNode::RLe(l.normalized()))
}

/// `lin < 0` over the reals.
pub fn mk_rlt_lin(l: RLin) -> Term {
    if l.terms.is_empty() {
        return mk_bool(l.k.is_negative());
    }
    mk_node(TermNode::RLt(l.normalized()))
}

/// `lin = 0` over the reals, the first coefficient positive.
pub fn mk_reqz_lin(l: RLin) -> Term {
    if l.terms.is_empty() {
        return mk_bool(l.k.is_zero());
    }
    let mut l = l.normalized();
    if l.terms[0].1.is_negative() {
        l = l.neg();
    }
    mk_node(TermNode::REqZ(l))
}

/// `to_real t` for an integer term (distributed over its linear expression).
pub fn mk_to_real(t: Term) -> Term {
    match t.sort() {
        Sort::Real => t,
        _ => match t.get() {
            TermNode::Int(n) => mk_real(Rat::from_integer(n.clone())),
            TermNode::ToInt(r) if is_integral(r) => r.clone(),
            _ => mk_rlin(RLin::of_int(&Lin::of(&t))),
        },
    }
}

/// True when the real term is integral for every value of its variables: a constant with
/// denominator 1, `to_real` of an integer atom, or an integer combination of those.
fn is_integral(t: &Term) -> bool {
    match t.get() {
        TermNode::Real(r) => r.is_integer(),
        TermNode::ToReal(_) => true,
        TermNode::RLin(l) => {
            l.k.is_integer()
                && l.terms
                    .iter()
                    .all(|(a, c)| c.is_integer() && matches!(a.get(), TermNode::ToReal(_)))
        }
        _ => false,
    }
}

/// `to_int t`: the floor of a real term.
pub fn mk_to_int(t: Term) -> Term {
    if t.sort() == Sort::Int {
        return t;
    }
    match t.get() {
        TermNode::Real(r) => mk_int(r.floor().to_integer()),
        TermNode::ToReal(i) => i.clone(),
        _ if is_integral(&t) => {
            // an integer combination of integer atoms
            let l = RLin::of(&t);
            let mut acc = Lin::constant(l.k.to_integer());
            for (a, c) in &l.terms {
                let TermNode::ToReal(i) = a.get() else {
                    unreachable!("is_integral")
                };
                acc = acc.add(&Lin::of(i).scale(&c.to_integer()));
            }
            super::arith::mk_lin(acc)
        }
        _ => mk_node(TermNode::ToInt(t)),
    }
}

/// `is_int t`.
pub fn mk_is_int(t: Term) -> Term {
    if t.sort() == Sort::Int || is_integral(&t) {
        return mk_bool(true);
    }
    match t.get() {
        TermNode::Real(r) => mk_bool(r.is_integer()),
        _ => mk_node(TermNode::IsInt(t)),
    }
}

/// `c * t` for a real constant `c` and a real (or integer, taken as real) term.
pub fn mk_mul_rat(c: &Rat, t: Term) -> Term {
    mk_rlin(RLin::of(&t).scale(c))
}

/// The SMT-LIB text of a rational constant of sort `Real`: `2.0`, `(- 2.0)`, `(/ 1 2)`,
/// `(- (/ 3 4))`.
pub fn rat_smtlib(r: &Rat) -> String {
    let body = |n: &BigInt, d: &BigInt| {
        if d.is_one() {
            format!("{n}.0")
        } else {
            format!("(/ {n} {d})")
        }
    };
    if r.is_negative() {
        format!("(- {})", body(&-r.numer(), r.denom()))
    } else {
        body(r.numer(), r.denom())
    }
}
