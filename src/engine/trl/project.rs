//! Transitive projection (Sect. 4 of Frohn & Giesl, *Infinite State Model Checking by
//! Learning Transitive Relations*): from a conjunctive loop `pi` (the steps of a cyclic
//! part of a trace) and a model of it, a relation `R(x, x', n)` that the model satisfies
//! (with `n = 1`) and that is transitive (with `n` existentially quantified):
//!
//! - recurrence: the model-based projection of `pi /\ d = x' - x` onto the differences `d`
//!   (the paper's conjunctive variable projection), each literal `a.d + k <= 0` (or `= 0`)
//!   read as `a.(x' - x) + k*n <= 0` (`= 0`): summing two instances gives the literal for
//!   `n1 + n2`;
//! - pre- and postcondition: the projections of `pi` onto `x` and onto `x'`: `P(x) /\ Q(x')`
//!   is transitive by itself;
//! - `n >= 1`.
//!
//! Projection picks the disjunct of `exists. pi` the model lies in, so different models of
//! the same loop give different relations: disjunctive relations arise as several learned
//! conjunctive ones (and as relations learned on loops through learned relations).

use crate::logic::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// `R(x, x', n)` as literals over `state`, `next` and `n`, learned from the loop `pi`
/// (literals over step-indexed variables), whose first state is `pre` and last `post`
/// (step-indexed state variables, in the order of `state`).
pub fn transitive_projection(
    pi: &[Term],
    model: &Assignment,
    state: &[Var],
    next: &[Var],
    pre: &[Var],
    post: &[Var],
    n: &Var,
) -> Result<Vec<Term>, String> {
    let vars: FxHashSet<Var> = pi
        .iter()
        .flat_map(free_vars)
        .chain(pre.iter().cloned())
        .chain(post.iter().cloned())
        .collect();
    let to_unindexed: FxHashMap<Var, Term> = pre
        .iter()
        .zip(state)
        .chain(post.iter().zip(next))
        .map(|(i, s)| (i.clone(), mk_var_of(s)))
        .collect();
    let mut out = vec![mk_le(mk_int(1), mk_var_of(n))];
    // recurrence on the differences
    let mut ext = model.clone();
    let mut phi: Vec<Term> = pi.to_vec();
    let mut diffs: Vec<(Var, Lin)> = vec![];
    for (k, ((a, b), (s, x))) in pre.iter().zip(post).zip(state.iter().zip(next)).enumerate() {
        if a.sort != Sort::Int {
            continue;
        }
        let d = Var {
            name: format!("trl.d{k}").into(),
            sort: Sort::Int,
        };
        let diff = mk_sub(mk_var_of(b), mk_var_of(a));
        let v = eval_int(&diff, model)?;
        ext.insert(d.clone(), Value::Int(v));
        phi.push(mk_eq(mk_var_of(&d), diff));
        diffs.push((d, Lin::of(&mk_sub(mk_var_of(x), mk_var_of(s)))));
    }
    if !diffs.is_empty() {
        let elim: Vec<Var> = vars.iter().cloned().collect();
        let p = mbp::project(&phi, &ext, &elim)?;
        let by_var: FxHashMap<Term, &Lin> = diffs.iter().map(|(d, l)| (mk_var_of(d), l)).collect();
        let nt = mk_var_of(n);
        for lit in p.lits {
            let (lin, eq) = match lit.get() {
                TermNode::Le(l) => (l.clone(), false),
                TermNode::EqZ(l) => (l.clone(), true),
                _ => continue,
            };
            if !lin.terms.iter().all(|(t, _)| by_var.contains_key(t)) {
                continue;
            }
            // a.d + k  ->  a.(x' - x) + k*n
            let mut r = Lin::of(&mk_mul_const(&lin.k, nt.clone()));
            for (t, c) in &lin.terms {
                r = r.add(&by_var[t].scale(c));
            }
            out.push(if eq { mk_eqz_lin(r) } else { mk_le_lin(r) });
        }
    }
    // pre- and postcondition
    for keep in [pre, post] {
        let elim: Vec<Var> = vars.iter().filter(|v| !keep.contains(v)).cloned().collect();
        let p = mbp::project(pi, model, &elim)?;
        out.extend(p.lits.iter().map(|l| subst(l, &to_unindexed)));
    }
    let mut seen = FxHashSet::default();
    out.retain(|t| seen.insert(t.clone()) && *t != mk_true());
    Ok(out)
}
