//! The integer plug-in of the projection: purification of `ite`, `div` and `mod` atoms and
//! the elimination of integer variables from `lin <= 0`, `lin = 0` and `d | lin` (step 3 of
//! the documentation of [`super`]).

use super::*;
use crate::logic::eval::smt_div;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// A constraint over integers: `lin <= 0`, `lin = 0`, or `d | lin` (`d > 0`).
#[derive(Clone, Debug)]
pub(super) enum Con {
    Le(Lin),
    Eq(Lin),
    Dvd(BigInt, Lin),
}

impl Con {
    pub(super) fn lin(&self) -> &Lin {
        match self {
            Con::Le(l) | Con::Eq(l) | Con::Dvd(_, l) => l,
        }
    }

    /// The same kind of constraint on another expression.
    fn with(&self, l: Lin) -> Con {
        match self {
            Con::Le(_) => Con::Le(l),
            Con::Eq(_) => Con::Eq(l),
            Con::Dvd(d, _) => Con::Dvd(d.clone(), l),
        }
    }

    pub(super) fn to_term(&self) -> Term {
        match self {
            Con::Le(l) => mk_le_lin(l.clone()),
            Con::Eq(l) => mk_eqz_lin(l.clone()),
            Con::Dvd(d, l) => mk_eqz_lin(Lin::of(&mk_mod(mk_lin(l.clone()), d.clone()))),
        }
    }
}

/// The integer plug-in: linear integer literals, `div`, `mod`, and the elimination of
/// integer variables.
pub(super) struct Ints;

impl Plugin for Ints {
    fn owns(&self, sort: Sort) -> bool {
        sort == Sort::Int
    }

    fn add_lit(&self, p: &mut Projector, lit: &Term) -> Result<bool, String> {
        let con = match lit.get() {
            TermNode::Le(l) => Con::Le(p.purify(l)?),
            TermNode::EqZ(l) => Con::Eq(p.purify(l)?),
            // l != 0 becomes l <= -1 or -l <= -1, whichever the model satisfies
            TermNode::Not(s) => match s.get() {
                TermNode::EqZ(l) => {
                    let mut l = p.purify(l)?;
                    if !p.value(&l)?.is_negative() {
                        l = l.neg();
                    }
                    l.k += 1;
                    Con::Le(l)
                }
                _ => return Ok(false),
            },
            _ => return Ok(false),
        };
        let eliminated = |t: &Term| t.as_var().is_some_and(|v| p.elim.contains(v));
        if con.lin().terms.iter().any(|(t, _)| eliminated(t)) {
            p.cons.push(con);
        } else {
            p.kept.push(con.to_term());
        }
        Ok(true)
    }

    fn eliminate(&self, p: &mut Projector, vars: Vec<Term>) -> Result<(), String> {
        while let Some(x) = p.pick(&vars) {
            p.eliminate(&x)?;
        }
        Ok(())
    }
}

impl Projector {
    pub(super) fn value(&self, l: &Lin) -> Result<BigInt, String> {
        self.sum_value(l, eval_int)
    }

    /// `l` with its atoms that mention eliminated variables or contain an `ite` replaced.
    pub(super) fn purify(&mut self, l: &Lin) -> Result<Lin, String> {
        self.purify_sum(l, Self::purify_atom)
    }

    fn purify_atom(&mut self, a: &Term) -> Result<Lin, String> {
        if a.as_var().is_some() || !self.impure(a) {
            return Ok(Lin::of(a));
        }
        if let Some(l) = self.atoms.get(&a.uid()) {
            return Ok(l.clone());
        }
        let l = match a.get() {
            TermNode::Ite(c, x, y) => {
                let b = self.take_branch(c, x, y)?;
                self.purify(&Lin::of(b))?
            }
            TermNode::Div(t, d) => self.quotient(t, d)?.0,
            TermNode::Mod(t, d) => {
                let (q, lt) = self.quotient(t, d)?;
                lt.sub(&q.scale(d))
            }
            TermNode::ToInt(t) => self.floor(t)?,
            _ => return Err(format!("mbp: unexpected integer atom {}", SmtTerm(a))),
        };
        self.atoms.insert(a.uid(), l.clone());
        Ok(l)
    }

    /// A fresh variable `q` for `div t d`, constrained by `0 <= t - d*q <= |d| - 1`; returns
    /// `q` and the purified `t`.
    fn quotient(&mut self, t: &Term, d: &BigInt) -> Result<(Lin, Lin), String> {
        let lt = self.purify(&Lin::of(t))?;
        if let Some(q) = self.quotients.get(&(t.uid(), d.clone())) {
            return Ok((q.clone(), lt));
        }
        let value = smt_div(&self.value(&lt)?, d);
        let q = Lin::of(&self.fresh_int("q", value));
        let r = lt.sub(&q.scale(d));
        self.cons.push(Con::Le(r.neg()));
        let mut upper = r.clone();
        upper.k -= d.abs() - 1;
        self.cons.push(Con::Le(upper));
        self.quotients.insert((t.uid(), d.clone()), q.clone());
        Ok((q, lt))
    }

    /// The next variable to eliminate: one with a unit-coefficient equality if any, else the
    /// first that occurs.
    fn pick(&self, vars: &[Term]) -> Option<Term> {
        // One pass over the constraints: for each term that occurs, whether some equality
        // has it with coefficient +-1 (asking each variable to eliminate against each
        // constraint was quadratic, and most of Spacer's own time on lustre's DRAGON files).
        let mut occurs: FxHashMap<u64, bool> = FxHashMap::default();
        for c in &self.cons {
            let eq = matches!(c, Con::Eq(_));
            for (t, a) in &c.lin().terms {
                if a.is_zero() {
                    continue;
                }
                let unit = occurs.entry(t.uid()).or_insert(false);
                *unit |= eq && a.abs().is_one();
            }
        }
        let mut first = None;
        for t in vars {
            match occurs.get(&t.uid()) {
                Some(true) => return Some(t.clone()),
                Some(false) => {
                    first.get_or_insert(t);
                }
                None => {}
            }
        }
        first.cloned()
    }

    /// Simplifies a constraint; `None` when it is trivially true.
    fn simplify(&self, c: Con) -> Result<Option<Con>, String> {
        let c = match c {
            Con::Dvd(d, l) => {
                let d = d.abs();
                let mut terms = vec![];
                let mut g = d.clone();
                for (t, a) in &l.terms {
                    let a = a.mod_floor(&d);
                    if !a.is_zero() {
                        g = g.gcd(&a);
                        terms.push((t.clone(), a));
                    }
                }
                let k = l.k.mod_floor(&d);
                g = g.gcd(&k);
                let l = Lin { terms, k };
                let (d, l) = if g.is_one() {
                    (d, l)
                } else {
                    let terms = l.terms.iter().map(|(t, a)| (t.clone(), a / &g)).collect();
                    (
                        &d / &g,
                        Lin {
                            terms,
                            k: &l.k / &g,
                        },
                    )
                };
                Con::Dvd(d, l)
            }
            // divide by the gcd g of the coefficients: sum g*c_i x_i + k <= 0 iff
            // sum c_i x_i + ceil(k / g) <= 0, and an equality needs g | k
            Con::Le(l) if !l.is_constant() => {
                let g = l.coef_gcd();
                let k = l.k.div_ceil(&g);
                Con::Le(Lin {
                    terms: l.terms.iter().map(|(t, a)| (t.clone(), a / &g)).collect(),
                    k,
                })
            }
            Con::Eq(l) if !l.is_constant() => {
                let g = l.coef_gcd();
                if !l.k.is_multiple_of(&g) {
                    return Err("mbp: an equality became false".into());
                }
                Con::Eq(Lin {
                    terms: l.terms.iter().map(|(t, a)| (t.clone(), a / &g)).collect(),
                    k: &l.k / &g,
                })
            }
            c => c,
        };
        let l = c.lin();
        if !l.is_constant() && !matches!(&c, Con::Dvd(d, _) if d.is_one()) {
            return Ok(Some(c));
        }
        let holds = match &c {
            Con::Le(l) => !l.k.is_positive(),
            Con::Eq(l) => l.k.is_zero(),
            Con::Dvd(d, l) => d.is_one() || l.k.is_zero(),
        };
        if holds {
            Ok(None)
        } else {
            Err("mbp: a constraint became false (the model does not satisfy the input)".into())
        }
    }

    pub(super) fn push(&mut self, c: Con) -> Result<(), String> {
        if let Some(c) = self.simplify(c)? {
            self.cons.push(c);
        }
        Ok(())
    }

    /// Eliminates `x` from the constraints (step 3 of the module documentation).
    fn eliminate(&mut self, xt: &Term) -> Result<(), String> {
        let (with, without): (Vec<Con>, Vec<Con>) = std::mem::take(&mut self.cons)
            .into_iter()
            .partition(|c| !c.lin().coef(xt).is_zero());
        self.cons = without;
        if with.is_empty() {
            return Ok(());
        }
        let eq = with
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c, Con::Eq(_)))
            .min_by_key(|(_, c)| c.lin().coef(xt).abs())
            .map(|(i, _)| i);
        if let Some(i) = eq {
            return self.eliminate_by_equality(xt, with, i);
        }
        let mut lcm = BigInt::one();
        for c in &with {
            lcm = lcm.lcm(&c.lin().coef(xt));
        }
        let xm = eval_int(xt, &self.model)?;
        if lcm > BigInt::from(MAX_LCM) {
            self.substitutions += 1;
            let e = Lin::constant(xm);
            for c in with {
                let (a, rest) = c.lin().split(xt);
                self.push(c.with(rest.add(&e.scale(&a))))?;
            }
            return Ok(());
        }
        // Scale to y = lcm*x: each constraint becomes (sign*y + rest) with a multiplied divisor.
        let ym = &lcm * &xm;
        let mut ys: Vec<(Con, bool, Lin)> = vec![];
        for c in &with {
            let (a, rest) = c.lin().split(xt);
            let f = &lcm / a.abs();
            let c = match c {
                Con::Dvd(d, _) => Con::Dvd(d * &f, Lin::zero()),
                c => c.with(Lin::zero()),
            };
            ys.push((c, a.is_positive(), rest.scale(&f)));
        }
        if !lcm.is_one() {
            ys.push((Con::Dvd(lcm.clone(), Lin::zero()), true, Lin::zero()));
        }
        let mut lowers = vec![];
        let mut uppers = vec![];
        let mut modulus = BigInt::one();
        for (i, (c, pos, rest)) in ys.iter().enumerate() {
            match c {
                // -y + rest <= 0: y >= rest
                Con::Le(_) if !pos => lowers.push((i, self.value(rest)?)),
                // y + rest <= 0: y <= -rest
                Con::Le(_) => uppers.push((i, -self.value(rest)?)),
                Con::Dvd(d, _) => modulus = modulus.lcm(d),
                Con::Eq(_) => unreachable!("equalities are eliminated first"),
            }
        }
        let e = if lowers.is_empty() || uppers.is_empty() {
            // The bounds hold for y far enough, in the residue class of M(y) modulo every
            // divisor: keep the divisibilities at y := M(y) mod D and drop the bounds.
            let k = Lin::constant(ym.mod_floor(&modulus));
            for (c, pos, rest) in ys {
                if matches!(c, Con::Dvd(..)) {
                    let ey = if pos { k.clone() } else { k.neg() };
                    self.push(c.with(rest.add(&ey)))?;
                }
            }
            return Ok(());
        } else if lowers.len() <= uppers.len() {
            let (i, tm) = lowers.iter().max_by(|a, b| a.1.cmp(&b.1)).unwrap();
            let mut e = ys[*i].2.clone();
            e.k += (&ym - tm).mod_floor(&modulus);
            e
        } else {
            let (i, um) = uppers.iter().min_by(|a, b| a.1.cmp(&b.1)).unwrap();
            let mut e = ys[*i].2.neg();
            e.k -= (um - &ym).mod_floor(&modulus);
            e
        };
        for (c, pos, rest) in ys {
            let ey = if pos { e.clone() } else { e.neg() };
            self.push(c.with(rest.add(&ey)))?;
        }
        Ok(())
    }

    /// Eliminates `x` with the equality `with[i]`: `a*x + t = 0`.
    fn eliminate_by_equality(&mut self, xt: &Term, with: Vec<Con>, i: usize) -> Result<(), String> {
        let (a, t) = with[i].lin().split(xt);
        let abs = a.abs();
        let sign = BigInt::from(if a.is_positive() { 1 } else { -1 });
        for (j, c) in with.into_iter().enumerate() {
            if j == i {
                continue;
            }
            let (b, s) = c.lin().split(xt);
            if abs.is_one() {
                // x = -a*t
                self.push(c.with(s.add(&t.scale(&-(&b * &a)))))?;
            } else {
                // |a|*(b*x + s) = b*sign*(a*x) + |a|*s = -b*sign*t + |a|*s
                let l = t.scale(&-(&b * &sign)).add(&s.scale(&abs));
                let c = match c {
                    Con::Dvd(d, _) => Con::Dvd(d * &abs, l),
                    c => c.with(l),
                };
                self.push(c)?;
            }
        }
        if !abs.is_one() {
            self.push(Con::Dvd(abs, t))?;
        }
        Ok(())
    }
}
