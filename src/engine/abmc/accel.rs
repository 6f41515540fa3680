//! Loop acceleration for ABMC: from a conjunctive transition `t(x, x')` to a formula
//! `t^n(x, x')` describing `n >= 1` iterations in one step (Frohn & Giesl, *Accelerated
//! Bounded Model Checking*; the loop-acceleration calculus of Frohn, *A calculus for
//! modular loop acceleration*, TACAS 2020).
//!
//! The fragment is the one where acceleration stays in linear integer arithmetic and
//! needs no approximation:
//!
//! * every state variable's update has a closed form that, from some iteration on, is
//!   affine in the iteration counter with a *constant* slope (unchanged, incremented by
//!   a constant, set to a value that then stays fixed, and acyclic chains of these);
//! * every guard is checked along the iterations with the *monotonicity* argument of the
//!   calculus: an affine function of `i` is `<= 0` (resp. `= 0`) on an interval iff it
//!   is so at the endpoints, so a guard needs at most two instances.
//!
//! Anything else (non-linear or periodic closed forms, guards whose value along the
//! iterations is not affine, temporaries that cannot be eliminated exactly, post
//! variables constrained without being determined) makes [`accelerate`] give up with
//! `None` rather than invent something unsound. The only under-approximation is for a
//! disequality guard whose value moves by steps of two or more (see [`accelerate`]).

use crate::logic::*;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use rustc_hash::{FxHashMap, FxHashSet};

/// The result of accelerating a conjunctive transition.
#[derive(Clone, Debug)]
pub struct Accelerated {
    /// Conjuncts over `pre`, `post` and `n` only (no other variable), with `n >= 1` among
    /// them. Mostly literals (`Le`, `EqZ`, Boolean literals, `Iff`); when some closed
    /// form only holds from iteration 2 on, a few are clauses `n <= k \/ lit` (or
    /// `n <= k-1 \/ n >= k+1 \/ lit`) that switch a literal on for the `n` it is valid for;
    /// an under-approximated disequality guard is a disjunction of two conjunctions.
    pub lits: Vec<Term>,
    /// true iff, for every n >= 1, /\ lits  <=>  exists intermediate states and
    /// temporaries. t^n(pre, post).
    /// false: only  /\ lits  =>  t^n  (an under-approximation; still sound for finding
    /// counterexamples).
    pub exact: bool,
}

/// Accelerates the transition `t` (literals, conjunction) over the state variables `pre`, the
/// next-state variables `post` (same length and order: post[i] is pre[i]'s next value) and
/// possibly other variables (temporaries, existentially quantified afresh in each step).
/// `n` is a fresh Int variable: the number of iterations. None when no (sound) acceleration
/// is found.
///
/// What is handled, and how exactly:
///
/// * Temporaries are eliminated by substitution wherever an equation (or a Boolean
///   literal / `Iff`) defines them; a temporary left over that occurs only in
///   inequalities bounding it from one side is dropped with them (such a system is
///   always satisfiable in that temporary). Both steps are exact; any other left-over
///   temporary gives `None`.
/// * Post variables are determined by Gaussian elimination over the equations that have
///   them with a unit coefficient (Boolean ones by literals and `Iff`s). A post variable
///   that is not determined is fine only if neither it nor its pre variable occurs
///   anywhere else (then it is simply free at the end, exactly); otherwise `None`.
/// * Guards are the remaining literals, post variables replaced by their updates so
///   that each is a condition on the pre-state of its iteration; a literal like
///   `x' <= 10` thus becomes a guard on the pre-state `x + 1 <= 10`.
/// * Closed forms: see the module documentation. A Boolean set from values that move
///   (`b' = x <= 0` with `x' = x + 1`) is fine too as long as wherever it is used the
///   result stays affine in the iteration counter. A closed form that is not affine with
///   a constant slope (`x' = x + y` with `y` changing or merely unchanged, `x' = 2*x`),
///   cyclic dependencies (`x' = y, y' = x`, `b' = not b`), or `div`/`mod`/`ite` atoms
///   whose value changes along the iterations: `None`.
/// * Guards along the iterations: the first few iterations, before every closed form
///   has become affine, are instantiated one by one; from there on a guard that is
///   affine in the iteration counter needs its two endpoints (only the relevant one for
///   an inequality), a guard constant in it one instance. A disequality `e != 0` with
///   `e` affine of slope `+-1` is exact as "same non-zero sign at both endpoints"; with a
///   steeper slope that same condition is only sufficient (`exact = false`).
pub fn accelerate(t: &[Term], pre: &[Var], post: &[Var], n: &Var) -> Option<Accelerated> {
    if pre.len() != post.len() || n.sort != Sort::Int {
        return None;
    }
    let pre_set: FxHashSet<Var> = pre.iter().cloned().collect();
    let post_set: FxHashSet<Var> = post.iter().cloned().collect();
    if pre_set.len() != pre.len()
        || post_set.len() != post.len()
        || pre.iter().zip(post).any(|(x, y)| x.sort != y.sort)
        || pre_set.iter().any(|v| post_set.contains(v))
        || pre_set.contains(n)
        || post_set.contains(n)
    {
        return None;
    }
    let nt = mk_var_of(n);
    let n_ge_1 = mk_ge(nt.clone(), mk_int(1));
    let unsat = || {
        Some(Accelerated {
            lits: vec![n_ge_1.clone(), mk_false()],
            exact: true,
        })
    };

    // The literals, flattened.
    let mut lits: Vec<Term> = vec![];
    for l in t {
        lits.extend(conjuncts(l));
    }
    if lits.iter().any(|l| l.as_bool() == Some(false)) {
        return unsat();
    }
    if lits.iter().any(|l| free_vars(l).contains(n)) {
        return None;
    }
    let is_temp = |v: &Var| !pre_set.contains(v) && !post_set.contains(v);

    // Eliminate temporaries, then post variables, by their definitions.
    let mut defs: Vec<(Var, Term)> = vec![]; // post variable := term
    loop {
        let found = find_definition(&lits, &is_temp)
            .or_else(|| find_definition(&lits, &|v: &Var| post_set.contains(v)));
        let Some((idx, v, rhs)) = found else { break };
        lits.swap_remove(idx);
        let mut map = FxHashMap::default();
        map.insert(v.clone(), rhs.clone());
        let mut next = vec![];
        for l in &lits {
            next.extend(conjuncts(&subst(l, &map)));
        }
        if next.iter().any(|l| l.as_bool() == Some(false)) {
            return unsat();
        }
        lits = next;
        for (_, d) in defs.iter_mut() {
            *d = subst(d, &map);
        }
        if post_set.contains(&v) {
            defs.push((v, rhs));
        }
    }

    // Left-over temporaries: drop those bounded from one side only, else give up.
    if defs
        .iter()
        .any(|(_, d)| free_vars(d).iter().any(|v| is_temp(v)))
    {
        return None;
    }
    loop {
        let temps: Vec<Var> = {
            let mut seen = FxHashSet::default();
            lits.iter()
                .flat_map(free_vars)
                .filter(|v| is_temp(v) && seen.insert(v.clone()))
                .collect()
        };
        if temps.is_empty() {
            break;
        }
        let v = temps.into_iter().find(|v| one_sided(&lits, v))?;
        lits.retain(|l| !free_vars(l).contains(&v));
    }

    // Updates and guards over the pre-state.
    let to_pre: FxHashMap<Var, Var> = post
        .iter()
        .cloned()
        .zip(pre.iter().cloned())
        .collect::<FxHashMap<_, _>>();
    let mut upd: FxHashMap<Var, Term> = FxHashMap::default();
    for (p, d) in &defs {
        if free_vars(d).iter().any(|v| post_set.contains(v)) {
            return None;
        }
        upd.insert(to_pre[p].clone(), d.clone());
    }
    let guards = lits;
    if guards
        .iter()
        .any(|g| free_vars(g).iter().any(|v| post_set.contains(v)))
    {
        return None;
    }
    // Free state variables (post undetermined): their values after the first step are
    // arbitrary, so they must not influence anything.
    for x in pre {
        if upd.contains_key(x) {
            continue;
        }
        if guards.iter().any(|g| free_vars(g).contains(x))
            || upd.values().any(|u| free_vars(u).contains(x))
        {
            return None;
        }
    }

    let mut cf = ClosedForms {
        upd: &upd,
        n: n.clone(),
        forms: FxHashMap::default(),
        visiting: FxHashSet::default(),
        sym: vec![FxHashMap::default()],
    };
    for x in pre {
        if upd.contains_key(x) {
            cf.form(x)?;
        }
    }
    let big_f = cf.forms.values().map(|c| c.from).max().unwrap_or(0);
    cf.sym_at(big_f);

    // `lit` required for every n >= m.
    let when = |m: usize, lit: Term| -> Term {
        if m <= 1 {
            lit
        } else {
            mk_or(vec![mk_le(nt.clone(), mk_int(m - 1)), lit])
        }
    };
    let at = |t: &Term, i: Term| -> Term {
        let mut map = FxHashMap::default();
        map.insert(n.clone(), i);
        subst(t, &map)
    };
    let last = mk_sub(nt.clone(), mk_int(1)); // the last iteration's index, n - 1
    let forms: FxHashMap<Var, Term> = cf
        .forms
        .iter()
        .map(|(v, c)| (v.clone(), c.term.clone()))
        .collect();

    let mut out = vec![n_ge_1.clone()];
    let mut exact = true;
    for g in &guards {
        // Iterations 0 .. big_f - 1 one by one (those that exist: k <= n - 1).
        for k in 0..big_f {
            out.push(when(k + 1, subst(g, &cf.sym[k])));
        }
        // Iterations big_f .. n - 1, where every closed form is affine.
        let gi = subst(g, &forms);
        let first = mk_int(big_f);
        if !free_vars(&gi).contains(n) {
            out.push(when(big_f + 1, at(&gi, first)));
            continue;
        }
        match gi.get() {
            TermNode::Le(l) => {
                let slope = affine_slope(l, &nt)?;
                // The maximum of an affine function on an interval is at one end.
                let end = if slope.is_positive() {
                    last.clone()
                } else {
                    first
                };
                out.push(when(big_f + 1, at(&gi, end)));
            }
            TermNode::EqZ(l) => {
                affine_slope(l, &nt)?;
                out.push(when(big_f + 1, at(&gi, first)));
                out.push(when(big_f + 1, at(&gi, last.clone())));
            }
            TermNode::Not(e) => {
                let TermNode::EqZ(l) = e.get() else {
                    return None;
                };
                let slope = affine_slope(l, &nt)?;
                // Same sign at both ends: the affine function avoids zero in between.
                // Conversely, with slope +-1 it takes every integer value in between.
                exact &= slope.abs().is_one();
                let e = mk_lin(l.clone());
                let (a, b) = (at(&e, first), at(&e, last.clone()));
                let zero = mk_int(0);
                let pos = mk_and(vec![
                    mk_gt(a.clone(), zero.clone()),
                    mk_gt(b.clone(), zero.clone()),
                ]);
                let neg = mk_and(vec![mk_lt(a, zero.clone()), mk_lt(b, zero)]);
                out.push(when(big_f + 1, mk_or(vec![pos, neg])));
            }
            _ => return None,
        }
    }
    for (x, p) in pre.iter().zip(post) {
        let Some(c) = cf.forms.get(x) else { continue };
        let pt = mk_var_of(p);
        for k in 1..c.from {
            out.push(mk_or(vec![
                mk_le(nt.clone(), mk_int(k - 1)),
                mk_ge(nt.clone(), mk_int(k + 1)),
                mk_eq(pt.clone(), cf.sym[k][x].clone()),
            ]));
        }
        out.push(when(c.from, mk_eq(pt, c.term.clone())));
    }

    // Tidy: drop `true`, duplicates.
    let mut seen = FxHashSet::default();
    let mut lits = vec![];
    for l in out {
        for c in conjuncts(&l) {
            if seen.insert(c.uid()) {
                lits.push(c);
            }
        }
    }
    if lits.iter().any(|l| l.as_bool() == Some(false)) {
        return unsat();
    }
    Some(Accelerated { lits, exact })
}

/// The first literal that defines a variable accepted by `ok`, with its index and the
/// defining term (in which the variable does not occur).
fn find_definition(lits: &[Term], ok: &dyn Fn(&Var) -> bool) -> Option<(usize, Var, Term)> {
    for (i, l) in lits.iter().enumerate() {
        if let Some((v, t)) = solve(l, ok) {
            return Some((i, v, t));
        }
    }
    None
}

/// Solves the literal `l` for a variable accepted by `ok`: `b`, `not b`, `b = e`,
/// `not (b = e)`, or `c*v + rest = 0` with `c = +-1` and `v` not in `rest`.
fn solve(l: &Term, ok: &dyn Fn(&Var) -> bool) -> Option<(Var, Term)> {
    // `not (a = b)` defines a Bool as the negation of the other side; every other shape is
    // one of the logic module's definitions
    if let TermNode::Not(b) = l.get() {
        if let TermNode::Iff(x, y) = b.get() {
            for (x, e) in [(x, y), (y, x)] {
                if let Some(v) = x.as_var() {
                    if ok(v) && !free_vars(e).contains(v) {
                        return Some((v.clone(), mk_not(e.clone())));
                    }
                }
            }
            return None;
        }
    }
    definitions(l).into_iter().find(|(v, _)| ok(v))
}

/// Whether every literal mentioning `v` is an inequality with `v` as a plain atom, all
/// with coefficients of the same sign: then `exists v` of them is `true`.
fn one_sided(lits: &[Term], v: &Var) -> bool {
    let vt = mk_var_of(v);
    let mut sign = None;
    for l in lits {
        if !free_vars(l).contains(v) {
            continue;
        }
        let TermNode::Le(lin) = l.get() else {
            return false;
        };
        let c = lin.coef(&vt);
        let mut rest = lin.clone();
        rest.terms.retain(|(s, _)| *s != vt);
        if c.is_zero() || free_vars(&mk_lin(rest)).contains(v) {
            return false;
        }
        let s = c.is_positive();
        if *sign.get_or_insert(s) != s {
            return false;
        }
    }
    true
}

/// The coefficient of `n` in `l` when `l` is affine in `n` (no other atom mentions it).
fn affine_slope(l: &Lin, nt: &Term) -> Option<BigInt> {
    let nv = nt.as_var()?;
    for (a, _) in &l.terms {
        if a != nt && free_vars(a).contains(nv) {
            return None;
        }
    }
    Some(l.coef(nt))
}

/// A closed form: the value at iteration `i` is `term[n := i]` for every `i >= from`.
#[derive(Clone, Debug)]
struct Cf {
    term: Term,
    from: usize,
}

/// Closed forms of the state variables, computed on demand along the dependencies.
struct ClosedForms<'a> {
    /// The one-step update of each determined state variable, over the pre-state.
    upd: &'a FxHashMap<Var, Term>,
    /// The iteration counter; inside closed forms it stands for the iteration index.
    n: Var,
    forms: FxHashMap<Var, Cf>,
    visiting: FxHashSet<Var>,
    /// `sym[k]`: the state after `k` steps, symbolically over the pre-state (identity
    /// for `k = 0`, represented by an empty map).
    sym: Vec<FxHashMap<Var, Term>>,
}

impl ClosedForms<'_> {
    fn sym_at(&mut self, k: usize) -> &FxHashMap<Var, Term> {
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

    fn form(&mut self, x: &Var) -> Option<Cf> {
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
            let l = Lin::of(&u);
            let s = l.coef(&xt);
            let mut d = l;
            d.terms.retain(|(a, _)| *a != xt);
            let d = mk_lin(d);
            if free_vars(&d).contains(x) {
                return None;
            }
            if s.is_zero() {
                // x^(i) = d(state^(i-1)) for i >= 1
                let (map, from) = self.deps(&d, -1)?;
                let term = subst(&d, &map);
                affine_slope(&Lin::of(&term), &nt)?;
                Cf {
                    term,
                    from: from + 1,
                }
            } else if s.is_one() {
                // x^(i) = x^(i-1) + d(state^(i-1)); d must be a constant c from some
                // iteration f on, then x^(i) = x^(f) + c*(i - f).
                let (map, f) = self.deps(&d, 0)?;
                let c = subst(&d, &map).as_int()?.clone();
                let base = if f == 0 {
                    xt
                } else {
                    self.sym_at(f)[x].clone()
                };
                let steps = mk_sub(nt, mk_int(f));
                Cf {
                    term: mk_add(vec![base, mk_mul_const(&c, steps)]),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(name: &str) -> Var {
        Var {
            name: name.into(),
            sort: Sort::Int,
        }
    }

    fn bv(name: &str) -> Var {
        Var {
            name: name.into(),
            sort: Sort::Bool,
        }
    }

    fn t(v: &Var) -> Term {
        mk_var_of(v)
    }

    fn int(k: i64) -> Term {
        mk_int(k)
    }

    fn add(a: Term, k: i64) -> Term {
        mk_add(vec![a, mk_int(k)])
    }

    /// Every assignment of `vars` with integers in `lo..=hi` (Booleans: both values)
    /// satisfying `f`, found by assigning one variable at a time and pruning on `false`.
    fn models(f: &Term, vars: &[Var], lo: i64, hi: i64) -> Vec<Vec<Value>> {
        fn go(
            f: &Term,
            vars: &[Var],
            lo: i64,
            hi: i64,
            cur: &mut Vec<Value>,
            out: &mut Vec<Vec<Value>>,
        ) {
            if f.as_bool() == Some(false) {
                return;
            }
            let Some(v) = vars.first() else {
                let b = eval_bool(f, &Assignment::default()).expect("ground formula");
                if b {
                    out.push(cur.clone());
                }
                return;
            };
            let vt = mk_var_of(v);
            // A conjunct `c*v + k = 0`, `v` or `not v` fixes the value (saves enumerating).
            let fixed = conjuncts(f).iter().find_map(|c| match c.get() {
                TermNode::EqZ(l) if l.terms.len() == 1 && l.terms[0].0 == vt => {
                    let c = &l.terms[0].1;
                    let r = -&l.k;
                    Some(if (&r % c).is_zero() {
                        vec![Value::Int(r / c)]
                    } else {
                        vec![]
                    })
                }
                TermNode::Var(w) if w == v => Some(vec![Value::Bool(true)]),
                TermNode::Not(w) if *w == vt => Some(vec![Value::Bool(false)]),
                _ => None,
            });
            let vals: Vec<Value> = match (fixed, v.sort) {
                (Some(vals), _) => vals,
                (None, Sort::Bool) => vec![Value::Bool(false), Value::Bool(true)],
                (None, Sort::Int) => (lo..=hi).map(|k| Value::Int(k.into())).collect(),
            };
            for val in vals {
                let mut map = FxHashMap::default();
                map.insert(v.clone(), val.to_term());
                let g = subst(f, &map);
                cur.push(val);
                go(&g, &vars[1..], lo, hi, cur, out);
                cur.pop();
            }
        }
        let mut out = vec![];
        go(f, vars, lo, hi, &mut vec![], &mut out);
        out
    }

    fn bind(vars: &[Var], vals: &[Value]) -> FxHashMap<Var, Term> {
        vars.iter()
            .cloned()
            .zip(vals.iter().map(Value::to_term))
            .collect()
    }

    /// A transition system for the enumeration checks.
    struct Sys {
        pre: Vec<Var>,
        post: Vec<Var>,
        temps: Vec<Var>,
    }

    /// Boxes: pre-states in `-pre_r..=pre_r`, post and intermediate states in
    /// `-post_r..=post_r`, temporaries in `-post_r-5..=post_r+5`.
    const KMAX: i64 = 5;

    impl Sys {
        fn new(names: &[(&str, Sort)], temps: &[&str]) -> Sys {
            let mk = |n: &str, s: Sort| Var {
                name: n.into(),
                sort: s,
            };
            Sys {
                pre: names.iter().map(|(n, s)| mk(n, *s)).collect(),
                post: names
                    .iter()
                    .map(|(n, s)| mk(&format!("{n}'"), *s))
                    .collect(),
                temps: temps.iter().map(|n| iv(n)).collect(),
            }
        }

        /// The successors of `s` within the post box.
        fn successors(&self, tr: &Term, s: &[Value], r: i64) -> Vec<Vec<Value>> {
            let f = subst(tr, &bind(&self.pre, s));
            let mut vars = self.post.clone();
            // a temporary that no longer occurs can take any value
            let fv = free_vars(&f);
            vars.extend(self.temps.iter().filter(|v| fv.contains(v)).cloned());
            let mut out: Vec<Vec<Value>> = models(&f, &vars, -r - 5, r + 5)
                .into_iter()
                .map(|mut m| {
                    m.truncate(self.post.len());
                    m
                })
                .filter(|m| {
                    m.iter().all(|v| match v {
                        Value::Int(k) => k.abs() <= BigInt::from(r),
                        Value::Bool(_) => true,
                    })
                })
                .collect();
            out.sort_by_key(|m| format!("{m:?}"));
            out.dedup();
            out
        }

        /// Checks `accelerate` against the k-fold composition, k = 1..=KMAX, on the
        /// boxes; returns `None` when it does not accelerate, else whether it is exact.
        fn check(&self, t: &[Term], pre_r: i64, post_r: i64) -> Option<bool> {
            let n = iv("n");
            let acc = accelerate(t, &self.pre, &self.post, &n)?;
            let allowed: FxHashSet<Var> = self
                .pre
                .iter()
                .chain(&self.post)
                .cloned()
                .chain([n.clone()])
                .collect();
            for l in &acc.lits {
                for v in free_vars(l) {
                    assert!(allowed.contains(&v), "{v:?} in {l:?}");
                }
            }
            assert!(acc.lits.contains(&mk_ge(t_(&n), int(1))));
            let tr = mk_and(t.to_vec());
            let acc_f = mk_and(acc.lits.clone());
            let mut succ: FxHashMap<Vec<Value>, Vec<Vec<Value>>> = FxHashMap::default();
            let pres = models(&mk_true(), &self.pre, -pre_r, pre_r);
            for s0 in &pres {
                let mut reach: FxHashSet<Vec<Value>> = [s0.clone()].into_iter().collect();
                for k in 1..=KMAX {
                    let mut next = FxHashSet::default();
                    for s in &reach {
                        let ss = succ
                            .entry(s.clone())
                            .or_insert_with(|| self.successors(&tr, s, post_r));
                        next.extend(ss.iter().cloned());
                    }
                    reach = next;
                    let mut map = bind(&self.pre, s0);
                    map.insert(n.clone(), int(k));
                    let f = subst(&acc_f, &map);
                    let got: FxHashSet<Vec<Value>> = models(&f, &self.post, -post_r, post_r)
                        .into_iter()
                        .collect();
                    if acc.exact {
                        assert_eq!(
                            got, reach,
                            "t = {t:?}\nlits = {:?}\nfrom {s0:?}, n = {k}",
                            acc.lits
                        );
                    } else {
                        assert!(
                            got.is_subset(&reach),
                            "t = {t:?}\nlits = {:?}\nfrom {s0:?}, n = {k}",
                            acc.lits
                        );
                    }
                }
            }
            Some(acc.exact)
        }
    }

    fn t_(v: &Var) -> Term {
        t(v)
    }

    fn xy() -> Sys {
        Sys::new(&[("x", Sort::Int), ("y", Sort::Int)], &[])
    }

    fn sorted(mut v: Vec<Term>) -> Vec<Term> {
        v.sort_by_key(|t| t.uid());
        v
    }

    #[test]
    fn increment_under_bound_is_exact() {
        let (x, x1, n) = (iv("x"), iv("x'"), iv("n"));
        let tr = vec![mk_lt(t(&x), int(1000)), mk_eq(t(&x1), add(t(&x), 1))];
        let acc = accelerate(&tr, &[x.clone()], &[x1.clone()], &n).unwrap();
        assert!(acc.exact);
        let expected = vec![
            mk_ge(t(&n), int(1)),
            mk_lt(mk_add(vec![t(&x), t(&n), int(-1)]), int(1000)),
            mk_eq(t(&x1), mk_add(vec![t(&x), t(&n)])),
        ];
        assert_eq!(sorted(acc.lits), sorted(expected));
    }

    #[test]
    fn nested_loop_shape_is_exact() {
        let n = iv("n");
        let names = ["j", "c", "i", "loc"];
        let pre: Vec<Var> = names.iter().map(|s| iv(s)).collect();
        let post: Vec<Var> = names.iter().map(|s| iv(&format!("{s}'"))).collect();
        let (j, c, i, loc) = (t(&pre[0]), t(&pre[1]), t(&pre[2]), t(&pre[3]));
        let (j1, c1, i1, loc1) = (t(&post[0]), t(&post[1]), t(&post[2]), t(&post[3]));
        let tr = vec![
            mk_lt(j.clone(), int(4)),
            mk_eq(j1.clone(), add(j.clone(), 1)),
            mk_eq(c1.clone(), add(c.clone(), 1)),
            mk_eq(i1.clone(), i.clone()),
            mk_eq(loc1.clone(), loc.clone()),
        ];
        let acc = accelerate(&tr, &pre, &post, &n).unwrap();
        assert!(acc.exact);
        let nt = t(&n);
        let expected = vec![
            mk_ge(nt.clone(), int(1)),
            mk_lt(mk_add(vec![j.clone(), nt.clone(), int(-1)]), int(4)),
            mk_eq(j1, mk_add(vec![j, nt.clone()])),
            mk_eq(c1, mk_add(vec![c, nt])),
            mk_eq(i1, i),
            mk_eq(loc1, loc),
        ];
        assert_eq!(sorted(acc.lits), sorted(expected));
    }

    #[test]
    fn chain_copy_of_incremented_variable() {
        // y' = x, x' = x + 1, x < 2: y^(n) = x + n - 1
        let (x, y, x1, y1, n) = (iv("x"), iv("y"), iv("x'"), iv("y'"), iv("n"));
        let tr = vec![
            mk_lt(t(&x), int(2)),
            mk_eq(t(&y1), t(&x)),
            mk_eq(t(&x1), add(t(&x), 1)),
        ];
        let acc = accelerate(&tr, &[x.clone(), y.clone()], &[x1.clone(), y1.clone()], &n).unwrap();
        assert!(acc.exact);
        let nt = t(&n);
        assert!(acc
            .lits
            .contains(&mk_eq(t(&y1), mk_add(vec![t(&x), nt.clone(), int(-1)]))));
        assert!(acc.lits.contains(&mk_eq(t(&x1), mk_add(vec![t(&x), nt]))));
        assert_eq!(xy().check(&tr, 3, 16), Some(true));
    }

    #[test]
    fn rejects_nonlinear_and_periodic() {
        let n = iv("n");
        let (x, y, x1, y1) = (iv("x"), iv("y"), iv("x'"), iv("y'"));
        let pre = [x.clone(), y.clone()];
        let post = [x1.clone(), y1.clone()];
        // y' = y + x, x' = x + 1: y is quadratic in n
        let tr = vec![
            mk_eq(t(&y1), mk_add(vec![t(&y), t(&x)])),
            mk_eq(t(&x1), add(t(&x), 1)),
        ];
        assert!(accelerate(&tr, &pre, &post, &n).is_none());
        // y' = y + x, x' = x: n * x
        let tr = vec![
            mk_eq(t(&y1), mk_add(vec![t(&y), t(&x)])),
            mk_eq(t(&x1), t(&x)),
        ];
        assert!(accelerate(&tr, &pre, &post, &n).is_none());
        // x' = 2x: exponential
        let tr = vec![
            mk_eq(t(&x1), mk_mul_const(&2.into(), t(&x))),
            mk_eq(t(&y1), t(&y)),
        ];
        assert!(accelerate(&tr, &pre, &post, &n).is_none());
        // swap: periodic
        let tr = vec![mk_eq(t(&x1), t(&y)), mk_eq(t(&y1), t(&x))];
        assert!(accelerate(&tr, &pre, &post, &n).is_none());
        // b' = not b: periodic
        let (b, b1) = (bv("b"), bv("b'"));
        let tr = vec![mk_eq(t(&b1), mk_not(t(&b)))];
        assert!(accelerate(&tr, &[b.clone()], &[b1.clone()], &n).is_none());
        // x' <= x + 1 only: x' is constrained but not determined
        let tr = vec![mk_le(t(&x1), add(t(&x), 1)), mk_eq(t(&y1), t(&y))];
        assert!(accelerate(&tr, &pre, &post, &n).is_none());
        // x mod 2 = 0 with x changing
        let tr = vec![
            mk_eq(mk_mod(t(&x), 2.into()), int(0)),
            mk_eq(t(&x1), add(t(&x), 1)),
            mk_eq(t(&y1), t(&y)),
        ];
        assert!(accelerate(&tr, &pre, &post, &n).is_none());
    }

    #[test]
    fn hand_written_transitions_agree_with_composition() {
        let s = xy();
        let (x, y, x1, y1) = (t(&s.pre[0]), t(&s.pre[1]), t(&s.post[0]), t(&s.post[1]));
        let cases: Vec<(Vec<Term>, Option<bool>)> = vec![
            // post-state guard: x' <= 4
            (
                vec![
                    mk_le(x1.clone(), int(4)),
                    mk_eq(x1.clone(), add(x.clone(), 1)),
                ],
                Some(true),
            ),
            // decrementing with a lower bound and an unchanged bound variable
            (
                vec![
                    mk_gt(x.clone(), y.clone()),
                    mk_eq(x1.clone(), add(x.clone(), -2)),
                    mk_eq(y1.clone(), y.clone()),
                ],
                Some(true),
            ),
            // set to a constant, then a guard on it
            (
                vec![
                    mk_eq(x1.clone(), int(3)),
                    mk_le(x.clone(), y.clone()),
                    mk_eq(y1.clone(), add(y.clone(), 1)),
                ],
                Some(true),
            ),
            // equality guard along the iterations (holds at most once when moving)
            (
                vec![
                    mk_eq(x.clone(), int(0)),
                    mk_eq(x1.clone(), add(x.clone(), 1)),
                    mk_eq(y1.clone(), y.clone()),
                ],
                Some(true),
            ),
            // x' = y + 1 with y incremented: affine from iteration 1
            (
                vec![
                    mk_eq(x1.clone(), add(y.clone(), 1)),
                    mk_eq(y1.clone(), add(y.clone(), 2)),
                    mk_le(x.clone(), int(6)),
                ],
                Some(true),
            ),
            // free post variable y', y unused
            (
                vec![
                    mk_lt(x.clone(), int(2)),
                    mk_eq(x1.clone(), add(x.clone(), 1)),
                ],
                Some(true),
            ),
            // disequality with slope 1: exact
            (
                vec![
                    mk_not(mk_eq(x.clone(), int(2))),
                    mk_eq(x1.clone(), add(x.clone(), 1)),
                    mk_eq(y1.clone(), y.clone()),
                ],
                Some(true),
            ),
            // disequality with slope 2: under-approximation
            (
                vec![
                    mk_not(mk_eq(x.clone(), y.clone())),
                    mk_eq(x1.clone(), add(x.clone(), 2)),
                    mk_eq(y1.clone(), y.clone()),
                ],
                Some(false),
            ),
            // a guard relating post variables: x' + y' <= 6
            (
                vec![
                    mk_le(mk_add(vec![x1.clone(), y1.clone()]), int(6)),
                    mk_eq(x1.clone(), add(x.clone(), 1)),
                    mk_eq(y1.clone(), add(y.clone(), -1)),
                ],
                Some(true),
            ),
            // updates given as a system: x' - y' = 1, y' = y + 1
            (
                vec![
                    mk_eq(mk_sub(x1.clone(), y1.clone()), int(1)),
                    mk_eq(y1.clone(), add(y.clone(), 1)),
                ],
                Some(true),
            ),
            // div atom over an unchanged variable in an update and a guard
            (
                vec![
                    mk_eq(x1.clone(), mk_add(vec![x.clone(), int(1)])),
                    mk_le(x.clone(), mk_div(y.clone(), 2.into())),
                    mk_eq(y1.clone(), y.clone()),
                ],
                Some(true),
            ),
            // unsatisfiable transition
            (
                vec![
                    mk_eq(x1.clone(), int(1)),
                    mk_eq(x1.clone(), int(2)),
                    mk_eq(y1.clone(), y.clone()),
                ],
                Some(true),
            ),
        ];
        for (tr, want) in cases {
            assert_eq!(s.check(&tr, 3, 16), want, "{tr:?}");
        }
    }

    #[test]
    fn chains_starting_late_agree_with_composition() {
        // z' = y, y' = 5, x' = x + z: z fixed from iteration 2, x affine from 2
        let s = Sys::new(&[("x", Sort::Int), ("y", Sort::Int), ("z", Sort::Int)], &[]);
        let (x, y, z) = (t(&s.pre[0]), t(&s.pre[1]), t(&s.pre[2]));
        let (x1, y1, z1) = (t(&s.post[0]), t(&s.post[1]), t(&s.post[2]));
        let tr = vec![
            mk_eq(z1.clone(), y.clone()),
            mk_eq(y1.clone(), int(2)),
            mk_eq(x1.clone(), mk_add(vec![x.clone(), z.clone()])),
            mk_le(x.clone(), int(4)),
        ];
        assert_eq!(s.check(&tr, 2, 14), Some(true));
        // Booleans: b' = true, c' = b, guard c -> only the first two iterations matter
        let s = Sys::new(
            &[("x", Sort::Int), ("b", Sort::Bool), ("c", Sort::Bool)],
            &[],
        );
        let (x, b, c) = (t(&s.pre[0]), t(&s.pre[1]), t(&s.pre[2]));
        let (x1, b1, c1) = (t(&s.post[0]), t(&s.post[1]), t(&s.post[2]));
        let tr = vec![
            c.clone(),
            mk_eq(b1.clone(), mk_true()),
            mk_eq(c1.clone(), b.clone()),
            mk_eq(x1.clone(), add(x.clone(), 1)),
        ];
        assert_eq!(s.check(&tr, 3, 10), Some(true));
        // b' = (x <= 1) with x changing: b's value moves along the iterations
        let tr = vec![
            mk_eq(b1.clone(), mk_le(x.clone(), int(1))),
            c.clone(),
            mk_eq(c1.clone(), b.clone()),
            mk_eq(x1.clone(), add(x.clone(), 1)),
        ];
        assert_eq!(s.check(&tr, 3, 10), Some(true));
        // b unchanged, guard (b = x <= 1)
        let tr = vec![
            mk_eq(b.clone(), mk_le(x.clone(), int(1))),
            mk_eq(b1.clone(), b.clone()),
            mk_eq(c1, c.clone()),
            mk_eq(x1.clone(), add(x.clone(), 1)),
        ];
        assert_eq!(s.check(&tr, 3, 10), None);
        let tr = vec![
            b.clone(),
            mk_eq(b1.clone(), b.clone()),
            mk_eq(x1.clone(), add(x.clone(), -1)),
        ];
        assert_eq!(s.check(&tr, 3, 10), Some(true));
    }

    #[test]
    fn temporaries_are_eliminated_exactly() {
        let s = Sys::new(&[("x", Sort::Int), ("y", Sort::Int)], &["t"]);
        let (x, y, x1, y1) = (t(&s.pre[0]), t(&s.pre[1]), t(&s.post[0]), t(&s.post[1]));
        let tmp = t(&s.temps[0]);
        // defined temporary: t = x + 1, x' = t, t <= 4
        let tr = vec![
            mk_eq(tmp.clone(), add(x.clone(), 1)),
            mk_eq(x1.clone(), tmp.clone()),
            mk_le(tmp.clone(), int(4)),
            mk_eq(y1.clone(), y.clone()),
        ];
        assert_eq!(s.check(&tr, 2, 9), Some(true));
        // one-sided temporary: t >= x, t >= y
        let tr = vec![
            mk_ge(tmp.clone(), x.clone()),
            mk_ge(tmp.clone(), y.clone()),
            mk_eq(x1.clone(), add(x.clone(), 1)),
            mk_eq(y1.clone(), y.clone()),
        ];
        let n = iv("n");
        assert!(accelerate(&tr, &s.pre, &s.post, &n).unwrap().exact);
        // two-sided temporary that is not defined: x <= 2t <= y
        let tr = vec![
            mk_le(x.clone(), mk_mul_const(&2.into(), tmp.clone())),
            mk_le(mk_mul_const(&2.into(), tmp.clone()), y.clone()),
            mk_eq(x1.clone(), add(x.clone(), 1)),
            mk_eq(y1.clone(), y.clone()),
        ];
        assert!(accelerate(&tr, &s.pre, &s.post, &n).is_none());
        // non-deterministic increment x' = x + t, t >= 0
        let tr = vec![
            mk_eq(x1.clone(), mk_add(vec![x.clone(), tmp.clone()])),
            mk_ge(tmp.clone(), int(0)),
            mk_eq(y1.clone(), y.clone()),
        ];
        assert!(accelerate(&tr, &s.pre, &s.post, &n).is_none());
    }

    /// A tiny deterministic PRNG (xorshift), so failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, k: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % k
        }
        fn small(&mut self, r: i64) -> i64 {
            self.below((2 * r + 1) as u64) as i64 - r
        }
    }

    #[test]
    fn random_transitions_agree_with_composition() {
        let s = Sys::new(
            &[("x", Sort::Int), ("y", Sort::Int), ("b", Sort::Bool)],
            &["t"],
        );
        let ints = [0usize, 1];
        let mut rng = Rng(0x9e3779b97f4a7c15);
        let (mut some, mut exact) = (0, 0);
        for _ in 0..60 {
            let mut tr = vec![];
            for &i in &ints {
                let (xi, xi1) = (t(&s.pre[i]), t(&s.post[i]));
                let other = t(&s.pre[1 - i]);
                let rhs = match rng.below(8) {
                    0 => Some(xi.clone()),
                    1 | 2 => Some(add(xi.clone(), rng.small(2))),
                    3 => Some(int(rng.small(4))),
                    4 => Some(add(other, rng.small(1))),
                    5 => None,
                    6 => Some(mk_add(vec![xi.clone(), other])),
                    _ => Some(mk_mul_const(&(-1).into(), xi.clone())),
                };
                if let Some(rhs) = rhs {
                    if rng.below(4) == 0 {
                        let tmp = t(&s.temps[0]);
                        tr.push(mk_eq(tmp.clone(), rhs));
                        tr.push(mk_eq(xi1, tmp));
                    } else {
                        tr.push(mk_eq(xi1, rhs));
                    }
                }
            }
            let (b, b1) = (t(&s.pre[2]), t(&s.post[2]));
            match rng.below(4) {
                0 => tr.push(mk_eq(b1.clone(), b.clone())),
                1 => tr.push(mk_eq(b1.clone(), mk_bool(rng.below(2) == 0))),
                2 => tr.push(mk_eq(b1.clone(), mk_le(t(&s.pre[0]), int(0)))),
                _ => {}
            }
            for _ in 0..rng.below(3) {
                let mut l = Lin::constant(rng.small(4).into());
                let vs = [&s.pre[0], &s.pre[1], &s.post[0], &s.post[1]];
                for v in vs {
                    let c = rng.small(2);
                    if c != 0 && rng.below(2) == 0 {
                        l = l.add(&Lin::of(&t(v)).scale(&c.into()));
                    }
                }
                if l.is_constant() {
                    l = l.add(&Lin::of(&t(vs[rng.below(4) as usize])));
                }
                let g = match rng.below(6) {
                    0 => mk_eqz_lin(l),
                    1 => mk_not(mk_eqz_lin(l)),
                    2 => b.clone(),
                    _ => mk_le_lin(l),
                };
                tr.push(g);
            }
            if let Some(e) = s.check(&tr, 2, 14) {
                some += 1;
                exact += e as usize;
            }
        }
        eprintln!("{some} of 60 accelerated, {exact} exactly");
        assert!(
            some >= 20 && exact >= 15,
            "{some} accelerated, {exact} exact"
        );
    }
}
