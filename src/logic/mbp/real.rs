//! The real plug-in of the projection: Loos–Weispfenning virtual substitution for `Real`
//! variables, chosen by the model, and the bridge from real constraints to integer ones for
//! the `Int` variables that occur under `to_real`.
//!
//! What is handled, exactly (no model value is ever substituted here):
//!
//! - **Literals**: `lin <= 0`, `lin < 0`, `lin = 0` over the reals; `lin != 0` becomes the
//!   strict inequality (`lin < 0` or `-lin < 0`) that the model satisfies; `is_int t` and
//!   `not (is_int t)`.
//! - **Atoms** of a real expression: real variables; `ite` terms (the branch the model takes,
//!   its condition joining the literals, as for integers); `to_real a` of an integer atom,
//!   purified by the integer rules (`ite`, `div`, `mod`) and distributed.
//! - **`to_int t`** whose `t` mentions an eliminated variable or an `ite` becomes a fresh
//!   integer variable `n` (eliminated too, `M(n) = floor(M(t))`) with
//!   `to_real(n) <= t < to_real(n) + 1`; then `is_int t` is `t = to_real(n)` and
//!   `not (is_int t)` is `to_real(n) < t`.
//! - **Real variables** `x` ([`Projector::eliminate_real`]), over constraints
//!   `a*x + t (<=, <, =) 0`, with `e = -t/a` the bound on `x`:
//!   - with an equality, `x := e` everywhere;
//!   - if `x` lacks a lower or an upper bound, its constraints are dropped (`x` far enough
//!     satisfies them);
//!   - else, on the side with fewer bounds, the tightest bound `e*` under `M` (the greatest
//!     lower or least upper bound; among equal values a strict one, the epsilon case
//!     `x := e* ± epsilon`) is resolved against every other bound: a bound `e'` on the same
//!     side gives `e' <= e*` (`e' >= e*` for uppers), strict iff `e'` is strict and `e*` is
//!     not; a bound `f` on the other side gives `e* <= f` (`f <= e*`), strict iff either is.
//!     `M` satisfies each: `M(e*)` is between `M(e')` and `M(x)`, `M(x)` between `M(e*)`
//!     and `M(f)`.
//! - **Integer variables under `to_real`** ([`Projector::reals_to_ints`]): once the real
//!   variables are gone, a real constraint that mentions an eliminated integer atom `a_i`
//!   is scaled to integer coefficients, `I + s (<=, <, =) 0` with `I = sum c_i a_i` and `s`
//!   over kept variables, and becomes the integer constraint `I - to_int(-s) <= 0`,
//!   `I + to_int(s) + 1 <= 0`, or `I + to_int(s) = 0` with `is_int s` (kept), equivalent
//!   since `I` is an integer. The integer elimination then takes `to_int(s)` as an atom.
//!
//! Every step is an equivalence (given the model's values of the fresh variables) or a
//! Loos–Weispfenning disjunct that the model selects, so the result implies the existential
//! and the model satisfies it; the only model substitution left is the integer one above
//! [`super::MAX_LCM`].

use super::*;
use crate::logic::eval::eval_real;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// The real plug-in (see the module documentation).
pub(super) struct Reals;

impl Plugin for Reals {
    fn owns(&self, sort: Sort) -> bool {
        sort == Sort::Real
    }

    fn add_lit(&self, p: &mut Projector, lit: &Term) -> Result<bool, String> {
        match lit.get() {
            TermNode::RLe(_) | TermNode::RLt(_) | TermNode::REqZ(_) | TermNode::IsInt(_) => {
                p.add_real_lit(lit, lit, true)?
            }
            TermNode::Not(s) if matches!(s.get(), TermNode::REqZ(_) | TermNode::IsInt(_)) => {
                p.add_real_lit(lit, s, false)?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn eliminate(&self, p: &mut Projector, vars: Vec<Term>) -> Result<(), String> {
        p.eliminate_reals(vars)
    }
}

/// A real constraint: `lin <= 0`, `lin < 0` or `lin = 0`.
#[derive(Clone, Debug)]
pub(super) enum RCon {
    Le(RLin),
    Lt(RLin),
    Eq(RLin),
}

impl RCon {
    fn lin(&self) -> &RLin {
        match self {
            RCon::Le(l) | RCon::Lt(l) | RCon::Eq(l) => l,
        }
    }

    /// The same kind of constraint on another expression.
    fn with(&self, l: RLin) -> RCon {
        match self {
            RCon::Le(_) => RCon::Le(l),
            RCon::Lt(_) => RCon::Lt(l),
            RCon::Eq(_) => RCon::Eq(l),
        }
    }

    fn to_term(&self) -> Term {
        match self {
            RCon::Le(l) => mk_rle_lin(l.clone()),
            RCon::Lt(l) => mk_rlt_lin(l.clone()),
            RCon::Eq(l) => mk_reqz_lin(l.clone()),
        }
    }

    /// Does the constant constraint hold?
    fn holds(&self) -> bool {
        let k = &self.lin().k;
        match self {
            RCon::Le(_) => !k.is_positive(),
            RCon::Lt(_) => k.is_negative(),
            RCon::Eq(_) => k.is_zero(),
        }
    }
}

/// `lhs - rhs <= 0`, or `< 0` when `strict`.
fn cmp(lhs: &RLin, rhs: &RLin, strict: bool) -> RCon {
    let l = lhs.sub(rhs);
    if strict {
        RCon::Lt(l)
    } else {
        RCon::Le(l)
    }
}

/// A bound on the variable being eliminated: its expression, strictness and model value.
struct Bound {
    e: RLin,
    strict: bool,
    value: Rat,
}

impl Projector {
    fn rvalue(&self, l: &RLin) -> Result<Rat, String> {
        self.sum_value(l, eval_real)
    }

    /// Is `a` (a purified real atom) an eliminated variable, or `to_real` of one?
    fn eliminated_atom(&self, a: &Term) -> bool {
        let a = match a.get() {
            TermNode::ToReal(i) => i,
            _ => a,
        };
        a.as_var().is_some_and(|v| self.elim.contains(v))
    }

    /// Sorts a real literal `lit`, which is `atom` if `pol` and its negation otherwise.
    fn add_real_lit(&mut self, lit: &Term, atom: &Term, pol: bool) -> Result<(), String> {
        let con = match (atom.get(), pol) {
            (TermNode::RLe(l), true) => RCon::Le(self.rpurify(l)?),
            (TermNode::RLt(l), true) => RCon::Lt(self.rpurify(l)?),
            (TermNode::REqZ(l), true) => RCon::Eq(self.rpurify(l)?),
            // l != 0 becomes l < 0 or -l < 0, whichever the model satisfies
            (TermNode::REqZ(l), false) => {
                let p = self.rpurify(l)?;
                if self.rvalue(&p)?.is_negative() {
                    RCon::Lt(p)
                } else {
                    RCon::Lt(p.neg())
                }
            }
            (TermNode::IsInt(t), _) if self.impure(t) => {
                // with n = to_int t: is_int t iff t = n, and not (is_int t) iff n < t
                let n = RLin::of_int(&self.floor(t)?);
                let p = self.rpurify(&RLin::of(t))?;
                if pol {
                    RCon::Eq(p.sub(&n))
                } else {
                    RCon::Lt(n.sub(&p))
                }
            }
            (TermNode::IsInt(_), _) => {
                self.kept.push(lit.clone());
                return Ok(());
            }
            _ => return Err(format!("mbp: unexpected literal {}", SmtTerm(lit))),
        };
        if con.lin().terms.iter().any(|(a, _)| self.eliminated_atom(a)) {
            self.rcons.push(con);
        } else {
            self.kept.push(con.to_term());
        }
        Ok(())
    }

    /// `l` with its atoms that mention eliminated variables or contain an `ite` replaced.
    fn rpurify(&mut self, l: &RLin) -> Result<RLin, String> {
        self.purify_sum(l, Self::rpurify_atom)
    }

    fn rpurify_atom(&mut self, a: &Term) -> Result<RLin, String> {
        if a.as_var().is_some() || !self.impure(a) {
            return Ok(RLin::of(a));
        }
        if let Some(l) = self.ratoms.get(&a.uid()) {
            return Ok(l.clone());
        }
        let l = match a.get() {
            TermNode::Ite(c, x, y) => {
                let b = self.take_branch(c, x, y)?;
                self.rpurify(&RLin::of(b))?
            }
            TermNode::ToReal(i) => {
                let li = self.purify(&Lin::of(i))?;
                RLin::of_int(&li)
            }
            _ => return Err(format!("mbp: unexpected real atom {}", SmtTerm(a))),
        };
        self.ratoms.insert(a.uid(), l.clone());
        Ok(l)
    }

    /// A fresh integer variable `n` for `to_int t`, constrained by
    /// `to_real(n) <= t < to_real(n) + 1`.
    pub(super) fn floor(&mut self, t: &Term) -> Result<Lin, String> {
        if let Some(n) = self.floors.get(&t.uid()) {
            return Ok(n.clone());
        }
        let p = self.rpurify(&RLin::of(t))?;
        let value = self.rvalue(&p)?.floor().to_integer();
        let n = Lin::of(&self.fresh_int("f", value));
        let nr = RLin::of_int(&n);
        self.rcons.push(RCon::Le(nr.sub(&p)));
        let mut upper = p.sub(&nr);
        upper.k -= Rat::one();
        self.rcons.push(RCon::Lt(upper));
        self.floors.insert(t.uid(), n.clone());
        Ok(n)
    }

    /// Adds a real constraint unless it is constant (then it must hold).
    fn rpush(&mut self, c: RCon) -> Result<(), String> {
        if !c.lin().is_constant() {
            // integer coefficients with gcd 1: chains of resolvents keep small numbers
            let l = c.lin().normalized();
            self.rcons.push(c.with(l));
            Ok(())
        } else if c.holds() {
            Ok(())
        } else {
            Err("mbp: a real constraint became false (the model does not satisfy the input)".into())
        }
    }

    /// Eliminates every real variable, then turns the real constraints on eliminated
    /// integers into integer constraints (see the module documentation).
    fn eliminate_reals(&mut self, vars: Vec<Term>) -> Result<(), String> {
        for x in vars {
            self.eliminate_real(&x)?;
        }
        self.reals_to_ints()
    }

    /// Eliminates the real variable `x` from the real constraints.
    fn eliminate_real(&mut self, x: &Term) -> Result<(), String> {
        let (with, without): (Vec<RCon>, Vec<RCon>) = std::mem::take(&mut self.rcons)
            .into_iter()
            .partition(|c| !c.lin().coef(x).is_zero());
        self.rcons = without;
        // each constraint as a*x + t
        let split = |c: &RCon| c.lin().split(x);
        if let Some(i) = with.iter().position(|c| matches!(c, RCon::Eq(_))) {
            // x = -t/a
            let (a, t) = split(&with[i]);
            let e = t.scale(&-a.recip());
            for (j, c) in with.iter().enumerate() {
                if j != i {
                    let (b, s) = split(c);
                    self.rpush(c.with(s.add(&e.scale(&b))))?;
                }
            }
            return Ok(());
        }
        let mut lowers = vec![];
        let mut uppers = vec![];
        for c in &with {
            // a*x + t <= 0 (< 0): x <= -t/a if a > 0, x >= -t/a if a < 0
            let (a, t) = split(c);
            let e = t.scale(&-a.recip());
            let value = self.rvalue(&e)?;
            let b = Bound {
                e,
                strict: matches!(c, RCon::Lt(_)),
                value,
            };
            if a.is_positive() {
                uppers.push(b);
            } else {
                lowers.push(b);
            }
        }
        if lowers.is_empty() || uppers.is_empty() {
            return Ok(()); // the infinity case
        }
        let lower_side = lowers.len() <= uppers.len();
        let (side, other) = if lower_side {
            (lowers, uppers)
        } else {
            (uppers, lowers)
        };
        // the tightest bound under the model, a strict one among equal values
        let mut best = 0;
        for (i, b) in side.iter().enumerate() {
            let s = &side[best];
            let tighter = if lower_side {
                b.value > s.value
            } else {
                b.value < s.value
            };
            if tighter || (b.value == s.value && b.strict && !s.strict) {
                best = i;
            }
        }
        let star = &side[best];
        let mut out = vec![];
        for (i, b) in side.iter().enumerate() {
            if i != best {
                // the other bound stays looser: e' <= e* for lowers, e* <= e' for uppers
                let strict = b.strict && !star.strict;
                out.push(if lower_side {
                    cmp(&b.e, &star.e, strict)
                } else {
                    cmp(&star.e, &b.e, strict)
                });
            }
        }
        for b in &other {
            // e* <= u for an upper u, l <= e* for a lower l
            let strict = b.strict || star.strict;
            out.push(if lower_side {
                cmp(&star.e, &b.e, strict)
            } else {
                cmp(&b.e, &star.e, strict)
            });
        }
        for c in out {
            self.rpush(c)?;
        }
        Ok(())
    }

    /// The real constraints without eliminated variables are kept; those on eliminated
    /// integer atoms become integer constraints, scaled so that the integer atoms have
    /// integer coefficients.
    fn reals_to_ints(&mut self) -> Result<(), String> {
        for c in std::mem::take(&mut self.rcons) {
            let l = c.lin();
            if !l.terms.iter().any(|(a, _)| self.eliminated_atom(a)) {
                self.kept.push(c.to_term());
                continue;
            }
            let mut den = BigInt::one();
            for (a, k) in &l.terms {
                if matches!(a.get(), TermNode::ToReal(_)) {
                    den = den.lcm(k.denom());
                }
            }
            let l = l.scale(&Rat::from_integer(den));
            // l = I + s: I over integer atoms (integer coefficients), s over real atoms
            let mut int = Lin::zero();
            let mut s = RLin::constant(l.k.clone());
            for (a, k) in &l.terms {
                match a.get() {
                    TermNode::ToReal(i) => int = int.add(&Lin::of(i).scale(&k.to_integer())),
                    _ => s = s.add(&RLin::of(a).scale(k)),
                }
            }
            let floor_of = |s: &RLin| Lin::of(&mk_to_int(mk_rlin(s.clone())));
            let con = match c {
                // I <= -s iff I <= floor(-s)
                RCon::Le(_) => int::Con::Le(int.sub(&floor_of(&s.neg()))),
                // I < -s iff I <= ceil(-s) - 1 = -floor(s) - 1
                RCon::Lt(_) => {
                    let mut l = int.add(&floor_of(&s));
                    l.k += 1;
                    int::Con::Le(l)
                }
                // I = -s iff s is an integer and I = -floor(s)
                RCon::Eq(_) => {
                    let is_int = mk_is_int(mk_rlin(s.clone()));
                    if is_int.as_bool() == Some(false) {
                        return Err("mbp: a real equality on integers became false".into());
                    }
                    if is_int.as_bool() != Some(true) {
                        self.kept.push(is_int);
                    }
                    int::Con::Eq(int.add(&floor_of(&s)))
                }
            };
            self.push(con)?;
        }
        Ok(())
    }
}
