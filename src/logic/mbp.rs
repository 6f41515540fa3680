//! Model-based projection (MBP) for linear integer arithmetic with Booleans.
//!
//! Given a conjunction `phi`, a model `M` of it and variables `xs`, [`project`] returns a
//! conjunction `psi` of literals over the other variables with `M |= psi` and
//! `psi |= exists xs. phi`: the disjunct of a quantifier elimination that `M` selects. This is
//! the projection of Komuravelli, Gurfinkel, Chaki (*SMT-based model checking for recursive
//! programs*, CAV 2014) and Bjørner, Janota (*Playing with quantified satisfaction*, LPAR
//! 2015), on top of Loos–Weispfenning virtual substitution:
//!
//! 1. [`implicant`] resolves the Boolean structure with the model: literals true in `M`
//!    whose conjunction implies `phi`.
//! 2. Purification: every `ite` term becomes the branch `M` takes (its condition joins the
//!    literals); `div t d` and `mod t d` that mention an eliminated variable (or an `ite`) become `q` and
//!    `t - d*q` for a fresh variable `q` (eliminated too) with `0 <= t - d*q <= |d| - 1`.
//!    A disequality becomes the strict inequality `M` satisfies; literals on eliminated
//!    Booleans are dropped. So the result has no `ite` and no disequality.
//! 3. Each integer variable `x` is eliminated from constraints `lin <= 0`, `lin = 0` and
//!    `d | lin` ([`Projector::eliminate`]):
//!    - with an equality `a*x + t = 0` (smallest `|a|` first): for `|a| = 1`, `x := -a*t`;
//!      else every other constraint is multiplied by `|a|`, `a*x` is replaced by `-t`, and
//!      `|a| | t` is added;
//!    - otherwise, with `L` the lcm of the coefficients of `x`, every constraint is scaled
//!      to mention `y = L*x` with coefficient ±1 and `L | y` is added. If `y` lacks a lower
//!      or an upper bound, its constraints are dropped (a far enough `y` in the residue class
//!      of `M(y)` satisfies them). Else the greatest lower bound `y >= t` under `M` (or the
//!      least upper bound, on the side with fewer bounds) is chosen and `y := t + k` is
//!      substituted, with `k = (M(y) - M(t)) mod D` and `D` the lcm of the divisors on `y`:
//!      `M(t) <= M(t) + k <= M(y)` and `M(t) + k = M(y) (mod D)`, so `M` satisfies the result.
//!
//! Step 3 is exact, so a variable is replaced by its model value (an under-approximation
//! that `M` still satisfies) only when the lcm `L` grows past [`MAX_LCM`]; such
//! replacements are counted in [`Projection::model_substitutions`].

use super::eval::smt_div;
use super::*;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use rustc_hash::{FxHashMap, FxHashSet};

/// Above this lcm of coefficients, a variable is replaced by its model value.
pub const MAX_LCM: u64 = 1 << 40;

/// The result of [`project`].
#[derive(Clone, Debug)]
pub struct Projection {
    /// Literals over the kept variables: the model satisfies them and they imply
    /// `exists xs. phi`.
    pub lits: Vec<Term>,
    /// Variables replaced by their model value instead of being eliminated exactly.
    pub model_substitutions: usize,
}

/// Literals, true in `model`, whose conjunction implies `phi` (which `model` must satisfy).
/// Each is a Boolean variable, `lin <= 0`, `lin = 0`, or the negation of one of these.
pub fn implicant(phi: &Term, model: &Assignment) -> Result<Vec<Term>, String> {
    let mut imp = Implicant {
        model,
        memo: FxHashMap::default(),
        seen: FxHashSet::default(),
        out: vec![],
    };
    imp.visit(phi, true)?;
    Ok(imp.out)
}

/// Projects `exists elim. /\ phi` under `model` (see the module documentation). The
/// formulas in `phi` may have any Boolean structure; `model` must satisfy them and assign
/// every variable they mention.
pub fn project(phi: &[Term], model: &Assignment, elim: &[Var]) -> Result<Projection, String> {
    let mut p = Projector {
        model: model.clone(),
        elim: elim.iter().cloned().collect(),
        impure_memo: FxHashMap::default(),
        atoms: FxHashMap::default(),
        quotients: FxHashMap::default(),
        int_elim: vec![],
        pending: vec![],
        kept: vec![],
        cons: vec![],
        fresh: 0,
        substitutions: 0,
    };
    for v in elim {
        if v.sort == Sort::Int {
            p.int_elim.push(mk_var_of(v));
        }
    }
    for f in phi {
        let lits = implicant(f, model)?;
        p.pending.extend(lits.into_iter().rev());
    }
    while let Some(lit) = p.pending.pop() {
        p.add_lit(lit)?;
    }
    while let Some(x) = p.pick() {
        p.eliminate(&x)?;
    }
    p.finish()
}

// ---------------------------------------------------------------- implicants

struct Implicant<'a> {
    model: &'a Assignment,
    memo: FxHashMap<u64, bool>,
    seen: FxHashSet<(u64, bool)>,
    out: Vec<Term>,
}

impl Implicant<'_> {
    fn value(&mut self, t: &Term) -> Result<bool, String> {
        if let Some(&b) = self.memo.get(&t.uid()) {
            return Ok(b);
        }
        let b = match t.get() {
            TermNode::Bool(b) => *b,
            TermNode::Not(s) => !self.value(s)?,
            TermNode::And(ts) => {
                let mut r = true;
                for s in ts {
                    if !self.value(s)? {
                        r = false;
                        break;
                    }
                }
                r
            }
            TermNode::Or(ts) => {
                let mut r = false;
                for s in ts {
                    if self.value(s)? {
                        r = true;
                        break;
                    }
                }
                r
            }
            TermNode::Ite(c, a, b) => {
                if self.value(c)? {
                    self.value(a)?
                } else {
                    self.value(b)?
                }
            }
            TermNode::Iff(a, b) => self.value(a)? == self.value(b)?,
            _ => eval_bool(t, self.model)?,
        };
        self.memo.insert(t.uid(), b);
        Ok(b)
    }

    /// Adds literals that imply `t` (if `pol`) or `not t`, which the model satisfies.
    fn visit(&mut self, t: &Term, pol: bool) -> Result<(), String> {
        if !self.seen.insert((t.uid(), pol)) {
            return Ok(());
        }
        if self.value(t)? != pol {
            let t = if pol { t.clone() } else { mk_not(t.clone()) };
            return Err(format!("implicant: the model falsifies {}", SmtTerm(&t)));
        }
        match t.get() {
            TermNode::Bool(_) => {}
            TermNode::Not(s) => self.visit(s, !pol)?,
            TermNode::And(ts) | TermNode::Or(ts) => {
                // a true conjunction or a false disjunction needs every part
                if pol == matches!(t.get(), TermNode::And(_)) {
                    for s in ts {
                        self.visit(s, pol)?;
                    }
                } else {
                    let mut pick = None;
                    for s in ts {
                        if self.value(s)? == pol {
                            pick = Some(s);
                            break;
                        }
                    }
                    self.visit(pick.expect("a part with the junction's value"), pol)?;
                }
            }
            TermNode::Ite(c, a, b) => {
                let cv = self.value(c)?;
                self.visit(c, cv)?;
                self.visit(if cv { a } else { b }, pol)?;
            }
            TermNode::Iff(a, b) => {
                // (a = b) = pol, so b takes the value of a iff pol
                let av = self.value(a)?;
                self.visit(a, av)?;
                self.visit(b, av == pol)?;
            }
            _ => self
                .out
                .push(if pol { t.clone() } else { mk_not(t.clone()) }),
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- projection

/// A constraint over integers: `lin <= 0`, `lin = 0`, or `d | lin` (`d > 0`).
#[derive(Clone, Debug)]
enum Con {
    Le(Lin),
    Eq(Lin),
    Dvd(BigInt, Lin),
}

impl Con {
    fn lin(&self) -> &Lin {
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

    fn to_term(&self) -> Term {
        match self {
            Con::Le(l) => mk_le_lin(l.clone()),
            Con::Eq(l) => mk_eqz_lin(l.clone()),
            Con::Dvd(d, l) => mk_eqz_lin(Lin::of(&mk_mod(mk_lin(l.clone()), d.clone()))),
        }
    }
}

/// `(c, rest)` with `l = c*x + rest`.
fn split(l: &Lin, x: &Term) -> (BigInt, Lin) {
    let c = l.coef(x);
    let rest = Lin {
        terms: l.terms.iter().filter(|(t, _)| t != x).cloned().collect(),
        k: l.k.clone(),
    };
    (c, rest)
}

struct Projector {
    /// The model, extended with the values of fresh variables.
    model: Assignment,
    elim: FxHashSet<Var>,
    impure_memo: FxHashMap<u64, bool>,
    /// Purified atoms that mention eliminated variables.
    atoms: FxHashMap<u64, Lin>,
    /// The fresh quotient variable of `div t d`, by `(t, d)`.
    quotients: FxHashMap<(u64, BigInt), Lin>,
    /// Integer variables to eliminate, as terms.
    int_elim: Vec<Term>,
    /// Literals still to classify.
    pending: Vec<Term>,
    /// Literals without eliminated variables.
    kept: Vec<Term>,
    /// Constraints that may mention eliminated integer variables.
    cons: Vec<Con>,
    fresh: usize,
    substitutions: usize,
}

impl Projector {
    /// Does `t` mention an eliminated variable or contain an `ite`?
    fn impure(&mut self, t: &Term) -> bool {
        if let Some(&b) = self.impure_memo.get(&t.uid()) {
            return b;
        }
        let b = match t.get() {
            TermNode::Var(v) => self.elim.contains(v),
            TermNode::Ite(..) => true,
            _ => t.children().into_iter().any(|c| self.impure(c)),
        };
        self.impure_memo.insert(t.uid(), b);
        b
    }

    fn value(&self, l: &Lin) -> Result<BigInt, String> {
        let mut acc = l.k.clone();
        for (t, c) in &l.terms {
            acc += c * eval_int(t, &self.model)?;
        }
        Ok(acc)
    }

    /// Sorts a literal of the implicant: kept, dropped, or a constraint.
    fn add_lit(&mut self, lit: Term) -> Result<(), String> {
        let con = match lit.get() {
            // an eliminated Boolean: exists b. b (or not b) is true
            TermNode::Var(_) | TermNode::Not(_)
                if lit.children().iter().all(|c| c.as_var().is_some()) =>
            {
                if !self.impure(&lit) {
                    self.kept.push(lit);
                }
                return Ok(());
            }
            TermNode::Le(l) => Con::Le(self.purify(l)?),
            TermNode::EqZ(l) => Con::Eq(self.purify(l)?),
            TermNode::Not(s) => match s.get() {
                // l != 0 becomes l <= -1 or -l <= -1, whichever the model satisfies
                TermNode::EqZ(l) => {
                    let mut p = self.purify(l)?;
                    if !self.value(&p)?.is_negative() {
                        p = p.neg();
                    }
                    p.k += 1;
                    Con::Le(p)
                }
                _ => return Err(format!("mbp: unexpected literal {}", SmtTerm(&lit))),
            },
            _ => return Err(format!("mbp: unexpected literal {}", SmtTerm(&lit))),
        };
        let eliminated = |t: &Term| t.as_var().is_some_and(|v| self.elim.contains(v));
        if con.lin().terms.iter().any(|(t, _)| eliminated(t)) {
            self.cons.push(con);
        } else {
            self.kept.push(con.to_term());
        }
        Ok(())
    }

    /// `l` with its atoms that mention eliminated variables or contain an `ite` replaced.
    fn purify(&mut self, l: &Lin) -> Result<Lin, String> {
        let mut acc = Lin::constant(l.k.clone());
        for (a, c) in &l.terms {
            let p = self.purify_atom(a)?;
            acc = acc.add(&p.scale(c));
        }
        Ok(acc)
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
                let cv = eval_bool(c, &self.model)?;
                let cond = if cv { c.clone() } else { mk_not(c.clone()) };
                let lits = implicant(&cond, &self.model)?;
                self.pending.extend(lits);
                self.purify(&Lin::of(if cv { x } else { y }))?
            }
            TermNode::Div(t, d) => self.quotient(t, d)?.0,
            TermNode::Mod(t, d) => {
                let (q, lt) = self.quotient(t, d)?;
                lt.sub(&q.scale(d))
            }
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
        let var = loop {
            let v = Var {
                name: format!("mbp!q{}", self.fresh).into(),
                sort: Sort::Int,
            };
            self.fresh += 1;
            if !self.model.contains_key(&v) {
                break v;
            }
        };
        let value = smt_div(&self.value(&lt)?, d);
        self.model.insert(var.clone(), Value::Int(value));
        self.elim.insert(var.clone());
        let qt = mk_var_of(&var);
        self.int_elim.push(qt.clone());
        let q = Lin::of(&qt);
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
    fn pick(&self) -> Option<Term> {
        let mut first = None;
        for t in &self.int_elim {
            for c in &self.cons {
                let a = c.lin().coef(t);
                if a.is_zero() {
                    continue;
                }
                if matches!(c, Con::Eq(_)) && a.abs().is_one() {
                    return Some(t.clone());
                }
                first.get_or_insert(t);
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

    fn push(&mut self, c: Con) -> Result<(), String> {
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
                let (a, rest) = split(c.lin(), xt);
                self.push(c.with(rest.add(&e.scale(&a))))?;
            }
            return Ok(());
        }
        // Scale to y = lcm*x: each constraint becomes (sign*y + rest) with a multiplied divisor.
        let ym = &lcm * &xm;
        let mut ys: Vec<(Con, bool, Lin)> = vec![];
        for c in &with {
            let (a, rest) = split(c.lin(), xt);
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
        let (a, t) = split(with[i].lin(), xt);
        let abs = a.abs();
        let sign = BigInt::from(if a.is_positive() { 1 } else { -1 });
        for (j, c) in with.into_iter().enumerate() {
            if j == i {
                continue;
            }
            let (b, s) = split(c.lin(), xt);
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

    /// The output: kept literals and remaining constraints, deduplicated, with only the
    /// tightest of upper bounds on the same expression, each checked against the model.
    fn finish(self) -> Result<Projection, String> {
        let mut lits = self.kept;
        for c in &self.cons {
            debug_assert!(c
                .lin()
                .terms
                .iter()
                .all(|(t, _)| t.as_var().is_none_or(|v| !self.elim.contains(v))));
            lits.push(c.to_term());
        }
        let mut out: Vec<Term> = vec![];
        let mut seen = FxHashSet::default();
        let mut bound_of: FxHashMap<Vec<(Term, BigInt)>, usize> = FxHashMap::default();
        for l in lits {
            if l.as_bool() == Some(true) || !seen.insert(l.uid()) {
                continue;
            }
            if eval_bool(&l, &self.model) != Ok(true) {
                return Err(format!(
                    "mbp: the model falsifies the result {}",
                    SmtTerm(&l)
                ));
            }
            if let TermNode::Le(lin) = l.get() {
                if let Some(&j) = bound_of.get(&lin.terms) {
                    // lin.terms + k <= 0: the larger k is the tighter bound
                    if let TermNode::Le(old) = out[j].get() {
                        if lin.k > old.k {
                            out[j] = l.clone();
                        }
                    }
                    continue;
                }
                bound_of.insert(lin.terms.clone(), out.len());
            }
            out.push(l);
        }
        Ok(Projection {
            lits: out,
            model_substitutions: self.substitutions,
        })
    }
}

#[cfg(test)]
mod tests {
    //! Property tests: random conjunctions with a planted model. The result must hold in the
    //! model and imply `exists xs. phi`, checked by enumeration over a bounded domain (exact,
    //! since the domain bounds are part of `phi`) and by z3 when it is found.

    use super::*;
    use crate::smt::{find_solver, SatResult, Smt, SolverConfig, SolverKind};

    /// splitmix64: a small deterministic generator.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        fn range(&mut self, lo: i64, hi: i64) -> i64 {
            lo + self.below((hi - lo + 1) as u64) as i64
        }

        fn chance(&mut self, percent: u64) -> bool {
            self.below(100) < percent
        }
    }

    /// Domain of the bounded problems: every integer variable lies in `[-DOM, DOM]`.
    const DOM: i64 = 3;

    struct Problem {
        ints: Vec<Var>,
        bools: Vec<Var>,
        model: Assignment,
        phi: Vec<Term>,
        elim: Vec<Var>,
        /// Nesting depth of `div`, `mod`, `ite` and Boolean connectives.
        depth: u32,
    }

    fn var(name: &str, sort: Sort) -> Var {
        Var {
            name: name.into(),
            sort,
        }
    }

    impl Problem {
        fn int_term(&self, rng: &mut Rng, depth: u32) -> Term {
            let pick = if depth < self.depth { rng.below(10) } else { 9 };
            match pick {
                0 => {
                    let d = [2, 3, -2][rng.below(3) as usize];
                    mk_div(self.lin(rng, depth + 1), BigInt::from(d))
                }
                1 => {
                    let d = [2, 3][rng.below(2) as usize];
                    mk_mod(self.lin(rng, depth + 1), BigInt::from(d))
                }
                2 => {
                    let c = self.atom(rng, depth + 1);
                    mk_ite(c, self.lin(rng, depth + 1), self.lin(rng, depth + 1))
                }
                _ => mk_var_of(&self.ints[rng.below(self.ints.len() as u64) as usize]),
            }
        }

        fn lin(&self, rng: &mut Rng, depth: u32) -> Term {
            let mut parts = vec![mk_int(rng.range(-4, 4))];
            for _ in 0..rng.range(1, 3) {
                let c = [-3, -2, -1, 1, 1, 2, 3][rng.below(7) as usize];
                parts.push(mk_mul_const(&BigInt::from(c), self.int_term(rng, depth)));
            }
            mk_add(parts)
        }

        fn atom(&self, rng: &mut Rng, depth: u32) -> Term {
            match rng.below(if depth < self.depth { 8 } else { 6 }) {
                0..=2 => mk_le(self.lin(rng, depth), mk_int(rng.range(-3, 3))),
                3 => {
                    // an equality that the model satisfies
                    let t = self.lin(rng, depth);
                    let v = eval_int(&t, &self.model).unwrap();
                    mk_eq(t, mk_int(v))
                }
                4 => mk_eq(self.lin(rng, depth), mk_int(rng.range(-2, 2))),
                5 => mk_var_of(&self.bools[rng.below(self.bools.len() as u64) as usize]),
                6 => mk_or(vec![self.atom(rng, depth + 1), self.atom(rng, depth + 1)]),
                _ => mk_eq(self.atom(rng, depth + 1), self.atom(rng, depth + 1)),
            }
        }

        /// An atom, negated if the model falsifies it.
        fn literal(&self, rng: &mut Rng) -> Term {
            let a = self.atom(rng, 0);
            if eval_bool(&a, &self.model).unwrap() {
                a
            } else {
                mk_not(a)
            }
        }

        fn generate(rng: &mut Rng, n_ints: usize, bounded: bool, depth: u32) -> Problem {
            let ints: Vec<Var> = (0..n_ints)
                .map(|i| var(&format!("x{i}"), Sort::Int))
                .collect();
            let bools: Vec<Var> = (0..2).map(|i| var(&format!("b{i}"), Sort::Bool)).collect();
            let mut model = Assignment::default();
            for v in &ints {
                model.insert(v.clone(), Value::Int(BigInt::from(rng.range(-DOM, DOM))));
            }
            for v in &bools {
                model.insert(v.clone(), Value::Bool(rng.chance(50)));
            }
            let mut p = Problem {
                ints,
                bools,
                model,
                phi: vec![],
                elim: vec![],
                depth,
            };
            for _ in 0..rng.range(2, 6) {
                let l = p.literal(rng);
                p.phi.push(l);
            }
            if bounded {
                for v in &p.ints {
                    let m: i64 = eval_int(&mk_var_of(v), &p.model)
                        .unwrap()
                        .try_into()
                        .unwrap();
                    let lo = rng.range(-DOM, m);
                    let hi = rng.range(m, DOM);
                    p.phi.push(mk_ge(mk_var_of(v), mk_int(lo)));
                    p.phi.push(mk_le(mk_var_of(v), mk_int(hi)));
                }
            }
            let all: Vec<Var> = p.ints.iter().chain(&p.bools).cloned().collect();
            while p.elim.is_empty() {
                p.elim = all.iter().filter(|_| rng.chance(50)).cloned().collect();
            }
            p
        }

        fn kept(&self) -> Vec<Var> {
            let all = self.ints.iter().chain(&self.bools);
            all.filter(|v| !self.elim.contains(v)).cloned().collect()
        }
    }

    /// Every assignment of `vars` over the bounded domain.
    fn assignments(vars: &[Var]) -> Vec<Assignment> {
        let mut out = vec![Assignment::default()];
        for v in vars {
            let vals: Vec<Value> = match v.sort {
                Sort::Int => (-DOM..=DOM).map(|n| Value::Int(BigInt::from(n))).collect(),
                Sort::Bool => vec![Value::Bool(false), Value::Bool(true)],
            };
            out = out
                .into_iter()
                .flat_map(|a| {
                    vals.iter().map(move |x| {
                        let mut a = a.clone();
                        a.insert(v.clone(), x.clone());
                        a
                    })
                })
                .collect();
        }
        out
    }

    fn holds(lits: &[Term], a: &Assignment) -> bool {
        lits.iter().all(|l| eval_bool(l, a).unwrap())
    }

    fn show(p: &Problem, r: &[Term]) -> String {
        let phi: Vec<String> = p.phi.iter().map(|t| SmtTerm(t).to_string()).collect();
        let res: Vec<String> = r.iter().map(|t| SmtTerm(t).to_string()).collect();
        let elim: Vec<&str> = p.elim.iter().map(|v| &*v.name).collect();
        let mut model: Vec<String> = p
            .model
            .iter()
            .map(|(v, x)| format!("{}={x}", v.name))
            .collect();
        model.sort();
        format!(
            "phi: {}\nelim: {elim:?}\nmodel: {}\nresult: {}",
            phi.join(" "),
            model.join(" "),
            res.join(" ")
        )
    }

    fn has_ite(t: &Term) -> bool {
        matches!(t.get(), TermNode::Ite(..)) || t.children().into_iter().any(has_ite)
    }

    /// The model satisfies the result, which mentions only kept variables and has neither
    /// `ite` terms nor disequalities.
    fn check_model(p: &Problem, r: &Projection) {
        let kept = p.kept();
        for l in &r.lits {
            assert!(
                free_vars(l).iter().all(|v| kept.contains(v)),
                "result mentions an eliminated variable\n{}",
                show(p, &r.lits)
            );
            let diseq = matches!(l.get(), TermNode::Not(s) if s.as_var().is_none());
            assert!(
                !diseq && !has_ite(l),
                "result literal {} has an ite or is a disequality",
                SmtTerm(l)
            );
        }
        assert!(
            holds(&r.lits, &p.model),
            "the model falsifies the result\n{}",
            show(p, &r.lits)
        );
        assert_eq!(
            r.model_substitutions,
            0,
            "no fallback on small problems\n{}",
            show(p, &r.lits)
        );
    }

    /// Bounded problems: `result => exists elim. phi` for every kept assignment in the domain.
    fn check_by_enumeration(p: &Problem, r: &Projection) {
        let witnesses = assignments(&p.elim);
        for a in assignments(&p.kept()) {
            if !holds(&r.lits, &a) {
                continue;
            }
            let found = witnesses.iter().any(|w| {
                let mut full = a.clone();
                full.extend(w.iter().map(|(v, x)| (v.clone(), x.clone())));
                holds(&p.phi, &full)
            });
            let mut shown: Vec<String> = a.iter().map(|(v, x)| format!("{}={x}", v.name)).collect();
            shown.sort();
            assert!(
                found,
                "result holds at [{}] but phi has no witness\n{}",
                shown.join(" "),
                show(p, &r.lits)
            );
        }
    }

    /// Is `phi` satisfiable with the kept variables fixed to `a` (a quantifier-free check)?
    fn has_witness(smt: &mut Smt, p: &Problem, a: &Assignment) -> bool {
        smt.push().unwrap();
        for (v, x) in a {
            smt.assert(&mk_eq(mk_var_of(v), x.to_term())).unwrap();
        }
        smt.assert(&mk_and(p.phi.clone())).unwrap();
        let res = smt.check_sat().unwrap();
        smt.pop().unwrap();
        res != SatResult::Unsat
    }

    /// `result /\ not exists elim. phi` is not satisfiable. A `sat` is confirmed at its
    /// point without quantifiers. When z3 gives up on the quantifier, models of `result` are
    /// sampled instead and `phi` must have a witness at each. Returns whether the quantified
    /// check was conclusive.
    fn check_by_solver(smt: &mut Smt, p: &Problem, r: &Projection) -> bool {
        let kept = p.kept();
        smt.push().unwrap();
        for v in &kept {
            smt.declare(v).unwrap();
        }
        smt.assert(&mk_and(r.lits.clone())).unwrap();
        smt.push().unwrap();
        smt.assert(&mk_not(mk_exists(p.elim.clone(), mk_and(p.phi.clone()))))
            .unwrap();
        let res = smt.check_sat().unwrap();
        let point = (res == SatResult::Sat).then(|| smt.get_model(&kept).unwrap());
        smt.pop().unwrap();
        let mut samples = vec![];
        if let Some(a) = point {
            samples.push(a);
        } else if res == SatResult::Unknown {
            for _ in 0..5 {
                if smt.check_sat().unwrap() != SatResult::Sat {
                    break;
                }
                let a = smt.get_model(&kept).unwrap();
                let same: Vec<Term> = a
                    .iter()
                    .map(|(v, x)| mk_eq(mk_var_of(v), x.to_term()))
                    .collect();
                smt.assert(&mk_not(mk_and(same))).unwrap();
                samples.push(a);
            }
        }
        smt.pop().unwrap();
        for a in &samples {
            let mut shown: Vec<String> = a.iter().map(|(v, x)| format!("{}={x}", v.name)).collect();
            shown.sort();
            assert!(
                has_witness(smt, p, a),
                "z3: the result holds at [{}] but phi has no witness\n{}",
                shown.join(" "),
                show(p, &r.lits)
            );
        }
        res == SatResult::Unsat
    }

    fn z3(test: &str) -> Option<Smt> {
        match find_solver(SolverKind::Z3, None) {
            Ok(path) => {
                let mut smt = Smt::new(&SolverConfig::new(SolverKind::Z3, path), test).unwrap();
                // quantifier elimination can blow up: bound each check
                smt.raw("(set-option :timeout 300)").unwrap();
                smt.raw("(set-option :memory_max_size 1000)").unwrap();
                Some(smt)
            }
            Err(e) => {
                eprintln!("skipping the solver checks of {test}: {e}");
                None
            }
        }
    }

    /// Most quantified checks must be conclusive (the others were sampled).
    fn few_unknowns(unknown: usize, of: usize) {
        eprintln!("{unknown} of {of} quantified checks unknown (sampled instead)");
        assert!(
            unknown * 2 < of,
            "too many quantified checks unknown: {unknown} of {of}"
        );
    }

    #[test]
    fn projection_of_random_bounded_conjunctions() {
        let mut rng = Rng(1);
        let mut smt = z3("mbp-bounded");
        let mut unknown = 0;
        for _ in 0..400 {
            let p = Problem::generate(&mut rng, 3, true, 2);
            let r = project(&p.phi, &p.model, &p.elim).unwrap();
            check_model(&p, &r);
            check_by_enumeration(&p, &r);
            if let Some(smt) = smt.as_mut() {
                unknown += usize::from(!check_by_solver(smt, &p, &r));
            }
        }
        few_unknowns(unknown, 400);
    }

    #[test]
    fn projection_of_random_unbounded_conjunctions() {
        let mut rng = Rng(2);
        let Some(mut smt) = z3("mbp-unbounded") else {
            return;
        };
        let mut unknown = 0;
        for _ in 0..400 {
            let p = Problem::generate(&mut rng, 4, false, 2);
            let r = project(&p.phi, &p.model, &p.elim).unwrap();
            check_model(&p, &r);
            unknown += usize::from(!check_by_solver(&mut smt, &p, &r));
        }
        few_unknowns(unknown, 400);
    }

    #[test]
    fn non_unit_equality_leaves_a_divisibility() {
        // exists y. x = 2*y /\ y <= 5 with x = 4: the result must exclude odd x.
        let (x, y) = (var("x", Sort::Int), var("y", Sort::Int));
        let (xt, yt) = (mk_var_of(&x), mk_var_of(&y));
        let phi = vec![
            mk_eq(xt.clone(), mk_mul_const(&BigInt::from(2), yt.clone())),
            mk_le(yt, mk_int(5)),
        ];
        let mut model = Assignment::default();
        model.insert(x.clone(), Value::Int(BigInt::from(4)));
        model.insert(y.clone(), Value::Int(BigInt::from(2)));
        let r = project(&phi, &model, &[y]).unwrap();
        for n in -20..=20 {
            let mut a = Assignment::default();
            a.insert(x.clone(), Value::Int(BigInt::from(n)));
            assert_eq!(holds(&r.lits, &a), n % 2 == 0 && n <= 10, "x = {n}");
        }
    }

    #[test]
    fn implicant_follows_the_model() {
        let a = var("a", Sort::Bool);
        let b = var("b", Sort::Bool);
        let x = var("x", Sort::Int);
        let le = mk_le(mk_var_of(&x), mk_int(0));
        let phi = mk_or(vec![mk_and(vec![mk_var_of(&a), le.clone()]), mk_var_of(&b)]);
        let mut model = Assignment::default();
        model.insert(a.clone(), Value::Bool(true));
        model.insert(b.clone(), Value::Bool(false));
        model.insert(x.clone(), Value::Int(BigInt::from(-1)));
        assert_eq!(implicant(&phi, &model).unwrap(), vec![mk_var_of(&a), le]);
        model.insert(x, Value::Int(BigInt::from(1)));
        assert!(implicant(&phi, &model).is_err());
    }
}
