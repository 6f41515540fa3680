//! Closed forms of the updates of an accelerated loop: the value of each state variable
//! after `i` iterations, affine in `i` with a constant slope from some iteration on. A
//! `Real` variable's slope may be any rational (`x' = x + 1/2` gives `x + (1/2) n`, the
//! counter `n` an `Int` taken as a real); its updates are read as [`RLin`]s, with
//! `to_real(n)` the counter's atom.

use crate::logic::*;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use rustc_hash::{FxHashMap, FxHashSet};

/// The coefficient of `n` in `l` when `l` is affine in `n` (no other atom mentions it).
pub(super) fn affine_slope(l: &Lin, nt: &Term) -> Option<BigInt> {
    let nv = nt.as_var()?;
    for (a, _) in &l.terms {
        if a != nt && free_vars(a).contains(nv) {
            return None;
        }
    }
    Some(l.coef(nt))
}

/// The coefficient of `to_real(n)` in the real expression `l` when `l` is affine in `n`.
pub(super) fn real_affine_slope(l: &RLin, nt: &Term) -> Option<Rat> {
    let nv = nt.as_var()?;
    let atom = mk_to_real(nt.clone());
    for (a, _) in &l.terms {
        if *a != atom && free_vars(a).contains(nv) {
            return None;
        }
    }
    Some(l.coef(&atom))
}

/// Whether `t` (an `Int` or `Real` term) is affine in `n`.
fn affine(t: &Term, nt: &Term) -> bool {
    match t.sort() {
        Sort::Real => real_affine_slope(&RLin::of(t), nt).is_some(),
        _ => affine_slope(&Lin::of(t), nt).is_some(),
    }
}

/// A numeric update `x' = s*x + d` split into the coefficient `s` of `x` (an integer; a
/// `Real` one only when integral) and the rest `d`, over the sort of `x`.
fn split(u: &Term, xt: &Term) -> Option<(BigInt, Term)> {
    if xt.sort() == Sort::Real {
        let mut d = RLin::of(u);
        let s = d.coef(xt);
        d.terms.retain(|(a, _)| a != xt);
        return s.is_integer().then(|| (s.to_integer(), mk_rlin(d)));
    }
    let mut d = Lin::of(u);
    let s = d.coef(xt);
    d.terms.retain(|(a, _)| a != xt);
    Some((s, mk_lin(d)))
}

/// `c * steps` for the constant `c` of the sort of the variable it increments (an `Int`
/// constant, or a `Real` one times `to_real(steps)`); `None` when `c` is not a constant.
fn times(c: &Term, steps: Term) -> Option<Term> {
    match c.get() {
        TermNode::Int(k) => Some(mk_mul_const(k, steps)),
        TermNode::Real(r) => Some(mk_mul_rat(r, mk_to_real(steps))),
        _ => None,
    }
}

/// A closed form: the value at iteration `i` is `term[n := i]` for every `i >= from`.
#[derive(Clone, Debug)]
pub(super) struct Cf {
    pub term: Term,
    pub from: usize,
}

/// Closed forms of the state variables, computed on demand along the dependencies.
pub(super) struct ClosedForms<'a> {
    /// The one-step update of each determined state variable, over the pre-state.
    pub upd: &'a FxHashMap<Var, Term>,
    /// The iteration counter; inside closed forms it stands for the iteration index.
    pub n: Var,
    pub forms: FxHashMap<Var, Cf>,
    pub visiting: FxHashSet<Var>,
    /// `sym[k]`: the state after `k` steps, symbolically over the pre-state (identity
    /// for `k = 0`, represented by an empty map).
    pub sym: Vec<FxHashMap<Var, Term>>,
}

impl ClosedForms<'_> {
    pub fn sym_at(&mut self, k: usize) -> &FxHashMap<Var, Term> {
        while self.sym.len() <= k {
            let prev = self.sym.last().unwrap();
            let next: FxHashMap<Var, Term> = self
                .upd
                .iter()
                .map(|(x, u)| (x.clone(), subst(u, prev)))
                .collect();
            self.sym.push(next);
        }
        &self.sym[k]
    }

    /// `t` with `n` replaced by `n + delta`.
    fn shift(&self, t: &Term, delta: i64) -> Term {
        let mut map = FxHashMap::default();
        let nt = mk_var_of(&self.n);
        map.insert(self.n.clone(), mk_add(vec![nt, mk_int(delta)]));
        subst(t, &map)
    }

    /// The closed forms of the variables of `t` (each with `n` shifted by `delta`) and
    /// the iteration from which they all hold.
    fn deps(&mut self, t: &Term, delta: i64) -> Option<(FxHashMap<Var, Term>, usize)> {
        let mut map = FxHashMap::default();
        let mut from = 0;
        for y in free_vars(t) {
            let c = self.form(&y)?;
            from = from.max(c.from);
            map.insert(y, self.shift(&c.term, delta));
        }
        Some((map, from))
    }

    pub fn form(&mut self, x: &Var) -> Option<Cf> {
        if let Some(c) = self.forms.get(x) {
            return Some(c.clone());
        }
        // A variable without update here is free and was checked not to occur.
        let u = self.upd.get(x)?.clone();
        if !self.visiting.insert(x.clone()) {
            return None; // cyclic dependency: periodic or worse
        }
        let xt = mk_var_of(x);
        let nt = mk_var_of(&self.n);
        let c = if u == xt {
            Cf { term: xt, from: 0 }
        } else if x.sort == Sort::Bool {
            if free_vars(&u).contains(x) {
                return None;
            }
            // x^(i) = u(state^(i-1)): may depend on i (`b' = x <= 0` with `x' = x + 1`);
            // where it is used, the users check that the dependence stays affine.
            let (map, from) = self.deps(&u, -1)?;
            let term = subst(&u, &map);
            Cf {
                term,
                from: from + 1,
            }
        } else {
            let (s, d) = split(&u, &xt)?;
            if free_vars(&d).contains(x) {
                return None;
            }
            if s.is_zero() {
                // x^(i) = d(state^(i-1)) for i >= 1
                let (map, from) = self.deps(&d, -1)?;
                let term = subst(&d, &map);
                if !affine(&term, &nt) {
                    return None;
                }
                Cf {
                    term,
                    from: from + 1,
                }
            } else if s.is_one() {
                // x^(i) = x^(i-1) + d(state^(i-1)); d must be a constant c from some
                // iteration f on, then x^(i) = x^(f) + c*(i - f).
                let (map, f) = self.deps(&d, 0)?;
                let c = subst(&d, &map);
                let base = if f == 0 {
                    xt
                } else {
                    self.sym_at(f)[x].clone()
                };
                let steps = mk_sub(nt, mk_int(f));
                Cf {
                    term: mk_add(vec![base, times(&c, steps)?]),
                    from: f,
                }
            } else {
                return None;
            }
        };
        self.visiting.remove(x);
        self.forms.insert(x.clone(), c.clone());
        Some(c)
    }
}
