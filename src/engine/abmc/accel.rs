//! Loop acceleration for ABMC: from a conjunctive transition `t(x, x')` to a formula
//! `t^n(x, x')` describing `n >= 1` iterations in one step (Frohn & Giesl, *Accelerated
//! Bounded Model Checking*; the loop-acceleration calculus of Frohn, *A calculus for
//! modular loop acceleration*, TACAS 2020).
//!
//! The fragment is the one where acceleration stays in linear (integer or mixed
//! integer/real) arithmetic and needs no approximation:
//!
//! * every state variable's update has a closed form that, from some iteration on, is
//!   affine in the iteration counter with a *constant* slope (unchanged, incremented by
//!   a constant, set to a value that then stays fixed, and acyclic chains of these); the
//!   counter `n` is an `Int`, and a `Real` variable's slope a rational (`x' = x + 1/2`
//!   gives `x + (1/2) to_real(n)`);
//! * every guard is checked along the iterations with the *monotonicity* argument of the
//!   calculus: an affine function of `i` is `<= 0` (resp. `< 0`, `= 0`) on an interval iff
//!   it is so at the endpoints, so a guard needs at most two instances.
//!
//! Anything else (non-linear or periodic closed forms, guards whose value along the
//! iterations is not affine, temporaries that cannot be eliminated exactly, post
//! variables constrained without being determined) makes [`accelerate`] give up with
//! `None` rather than invent something unsound. The only under-approximation is for a
//! disequality guard whose value moves by steps of two or more (see [`accelerate`]).

use crate::logic::*;
use num_traits::{One, Signed, Zero};
use rustc_hash::{FxHashMap, FxHashSet};

use super::closed::{affine_slope, real_affine_slope, ClosedForms};

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
///   steeper slope, or over the reals (where `e` may cross zero between two iterations),
///   that same condition is only sufficient (`exact = false`).
/// * Real equations define a `Real` variable with any non-zero coefficient (see
///   [`definitions`]); real inequalities (`<=`, `<`) bound a temporary like integer ones.
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
    if defs.iter().any(|(_, d)| free_vars(d).iter().any(&is_temp)) {
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
            TermNode::RLe(l) | TermNode::RLt(l) => {
                let slope = real_affine_slope(l, &nt)?;
                let end = if slope.is_positive() {
                    last.clone()
                } else {
                    first
                };
                out.push(when(big_f + 1, at(&gi, end)));
            }
            TermNode::REqZ(l) => {
                real_affine_slope(l, &nt)?;
                out.push(when(big_f + 1, at(&gi, first)));
                out.push(when(big_f + 1, at(&gi, last.clone())));
            }
            TermNode::Not(e) => {
                let e = match e.get() {
                    TermNode::EqZ(l) => {
                        let slope = affine_slope(l, &nt)?;
                        // Same sign at both ends: the affine function avoids zero in
                        // between. Conversely, with slope +-1 it takes every integer value
                        // in between.
                        exact &= slope.abs().is_one();
                        mk_lin(l.clone())
                    }
                    TermNode::REqZ(l) => {
                        real_affine_slope(l, &nt)?;
                        // Over the reals it may cross zero between two iterations.
                        exact = false;
                        mk_rlin(l.clone())
                    }
                    _ => return None,
                };
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

/// Whether every literal mentioning `v` is an inequality with `v` as a plain atom (or, in a
/// real inequality, `to_real` of an `Int` variable `v`), all with coefficients of the same
/// sign: then `exists v` of them is `true`.
fn one_sided(lits: &[Term], v: &Var) -> bool {
    let vt = mk_var_of(v);
    let rt = mk_to_real(vt.clone());
    let mut sign = None;
    for l in lits {
        if !free_vars(l).contains(v) {
            continue;
        }
        let (c, rest) = match l.get() {
            TermNode::Le(lin) => {
                let mut rest = lin.clone();
                rest.terms.retain(|(s, _)| *s != vt);
                (lin.coef(&vt).signum(), mk_lin(rest))
            }
            TermNode::RLe(lin) | TermNode::RLt(lin) => {
                let mut rest = lin.clone();
                rest.terms.retain(|(s, _)| *s != rt);
                (lin.coef(&rt).signum().to_integer(), mk_rlin(rest))
            }
            _ => return false,
        };
        if c.is_zero() || free_vars(&rest).contains(v) {
            return false;
        }
        let s = c.is_positive();
        if *sign.get_or_insert(s) != s {
            return false;
        }
    }
    true
}

#[cfg(test)]
#[path = "accel_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "accel_real_tests.rs"]
mod real_tests;
