//! Model-based projection (MBP) for linear integer and real arithmetic with Booleans.
//!
//! Given a conjunction `phi`, a model `M` of it and variables `xs`, [`project`] returns a
//! conjunction `psi` of literals over the other variables with `M |= psi` and
//! `psi |= exists xs. phi`: the disjunct of a quantifier elimination that `M` selects. This is
//! the projection of Komuravelli, Gurfinkel, Chaki (*SMT-based model checking for recursive
//! programs*, CAV 2014) and Bjørner, Janota (*Playing with quantified satisfaction*, LPAR
//! 2015), on top of Loos–Weispfenning virtual substitution:
//!
//! 0. Top-level equalities `x = y` and `x = not y` between Booleans, `x` eliminated, are
//!    solved by substitution ([`bool_eq`]).
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
//! Real variables, real literals (`<=`, `<`, `=`, `is_int`), `to_real` and `to_int` have
//! their own plug-in ([`real`]): purification creates a fresh integer for each `to_int` of
//! an impure term, the real variables are eliminated first (Loos–Weispfenning with strict
//! bounds), and the real constraints left on eliminated integers become integer constraints
//! over `to_int` of the kept part, before step 3 runs on all integers, fresh ones included.
//!
//! Step 3 and the real plug-in are exact, so a variable is replaced by its model value (an
//! under-approximation that `M` still satisfies) only when the lcm `L` grows past
//! [`MAX_LCM`]; such replacements are counted in [`Projection::model_substitutions`].

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
/// Each is a Boolean variable, `lin <= 0`, `lin = 0`, a real `lin <= 0`, `lin < 0`,
/// `lin = 0`, `is_int t`, or the negation of one of these.
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
    let ext;
    let (phi, model, elim) = match array::exact(phi, model, elim)? {
        Some(e) => {
            ext = e;
            (&ext.0[..], &ext.2, &ext.1[..])
        }
        None => (phi, model, elim),
    };
    let (phi, elim, replaced) = array::substitute(phi, model, elim)?;
    let (phi, elim) = (&phi[..], &elim[..]);
    let mut p = Projector {
        model: model.clone(),
        elim: elim.iter().cloned().collect(),
        impure_memo: FxHashMap::default(),
        atoms: FxHashMap::default(),
        quotients: FxHashMap::default(),
        int_elim: vec![],
        real_elim: vec![],
        ratoms: FxHashMap::default(),
        floors: FxHashMap::default(),
        rcons: vec![],
        pending: vec![],
        kept: vec![],
        cons: vec![],
        fresh: 0,
        substitutions: replaced,
    };
    for v in elim {
        match v.sort {
            Sort::Int => p.int_elim.push(mk_var_of(v)),
            Sort::Real => p.real_elim.push(mk_var_of(v)),
            Sort::Bool | Sort::Array(_) => {}
        }
    }
    for f in bool_eq::solve_bool_equalities(phi, &p.elim) {
        let lits = implicant(&f, model)?;
        p.pending.extend(lits.into_iter().rev());
    }
    while let Some(lit) = p.pending.pop() {
        p.add_lit(lit)?;
    }
    p.eliminate_reals()?;
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
    /// Real variables to eliminate, as terms.
    real_elim: Vec<Term>,
    /// Purified real atoms that mention eliminated variables.
    ratoms: FxHashMap<u64, RLin>,
    /// The fresh integer variable of `to_int t`, by `t`.
    floors: FxHashMap<u64, Lin>,
    /// Real constraints that may mention eliminated variables.
    rcons: Vec<real::RCon>,
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
            // opaque atoms: eliminated variables under them were replaced (array::substitute)
            _ if array::is_array_op(t) => free_vars(t).iter().any(|v| self.elim.contains(v)),
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
        let inner = match lit.get() {
            TermNode::Not(s) => s,
            _ => &lit,
        };
        if array::is_array_op(inner) && !self.impure(inner) {
            self.kept.push(lit);
            return Ok(());
        }
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
            TermNode::RLe(_) | TermNode::RLt(_) | TermNode::REqZ(_) | TermNode::IsInt(_) => {
                return self.add_real_lit(&lit, &lit, true)
            }
            TermNode::Not(s) => match s.get() {
                TermNode::REqZ(_) | TermNode::IsInt(_) => return self.add_real_lit(&lit, s, false),
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

    /// A fresh integer variable `mbp!<prefix><n>` with model value `value`, to eliminate.
    fn fresh_int(&mut self, prefix: &str, value: BigInt) -> Term {
        let var = loop {
            let v = Var {
                name: format!("mbp!{prefix}{}", self.fresh).into(),
                sort: Sort::Int,
            };
            self.fresh += 1;
            if !self.model.contains_key(&v) {
                break v;
            }
        };
        self.model.insert(var.clone(), Value::Int(value));
        self.elim.insert(var.clone());
        let t = mk_var_of(&var);
        self.int_elim.push(t.clone());
        t
    }

    /// The next variable to eliminate: one with a unit-coefficient equality if any, else the
    /// first that occurs.
    fn pick(&self) -> Option<Term> {
        // One pass over the constraints: for each term that occurs, whether some equality
        // has it with coefficient +-1 (asking each variable of `int_elim` against each
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
        for t in &self.int_elim {
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

mod array;
#[cfg(test)]
mod array_tests;
mod bool_eq;
mod real;
#[cfg(test)]
mod real_tests;
#[cfg(test)]
mod tests;
