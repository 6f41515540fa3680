//! Transitive projection (Sect. 4 of Frohn & Giesl, *Infinite State Model Checking by
//! Learning Transitive Relations*): from a conjunctive loop `pi` (the steps of a cyclic
//! part of a trace) and a model of it, a relation `R(x, x', n)` that the model satisfies
//! (with `n = 1`) and that is transitive (with `n` existentially quantified):
//!
//! - recurrence: the model-based projection of `pi /\ d = x' - x` onto the differences `d`
//!   of the `Int` and `Real` state variables (the paper's conjunctive variable projection),
//!   each literal `a.d + k <= 0` (or `< 0`, `= 0`) read as `a.(x' - x) + k*n <= 0` (`< 0`,
//!   `= 0`): summing two instances gives the literal for `n1 + n2`;
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
    // each difference variable's atom, with `x' - x` over the unindexed variables
    let mut diffs: Vec<(Var, Term)> = vec![];
    for (k, ((a, b), (s, x))) in pre.iter().zip(post).zip(state.iter().zip(next)).enumerate() {
        // a variable the loop leaves unconstrained (havocked, or not in any step) has no
        // value in the model and no recurrence: `x' - x` is anything
        if a.sort == Sort::Bool || !model.contains_key(a) || !model.contains_key(b) {
            continue;
        }
        let d = Var {
            name: format!("trl.d{k}").into(),
            sort: a.sort,
        };
        let diff = mk_sub(mk_var_of(b), mk_var_of(a));
        ext.insert(d.clone(), eval(&diff, model)?);
        phi.push(mk_eq(mk_var_of(&d), diff));
        diffs.push((d, mk_sub(mk_var_of(x), mk_var_of(s))));
    }
    if !diffs.is_empty() {
        let elim: Vec<Var> = vars.iter().cloned().collect();
        let p = mbp::project(&phi, &ext, &elim)?;
        out.extend(p.lits.iter().filter_map(|l| recurrence(l, &diffs, n)));
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

/// The literal `a.d + k op 0` over the difference variables of `diffs` read as
/// `a.(x' - x) + k*n op 0` (`op` one of `<=`, `=`, and over the reals `<`; a real literal
/// has the `Int` differences as `to_real(d)`, and `k*n` is `k * to_real(n)`): summing two
/// instances gives the literal for `n1 + n2`. `None` for a literal of another shape or
/// over other variables.
pub(super) fn recurrence(lit: &Term, diffs: &[(Var, Term)], n: &Var) -> Option<Term> {
    let nt = mk_var_of(n);
    let by_atom = |t: &Term| -> Option<&Term> {
        diffs
            .iter()
            .find(|(d, _)| *t == mk_to_real(mk_var_of(d)) || *t == mk_var_of(d))
            .map(|(_, x)| x)
    };
    match lit.get() {
        TermNode::Le(l) | TermNode::EqZ(l) => {
            let mut r = Lin::of(&mk_mul_const(&l.k, nt));
            for (t, c) in &l.terms {
                r = r.add(&Lin::of(by_atom(t)?).scale(c));
            }
            Some(match lit.get() {
                TermNode::Le(_) => mk_le_lin(r),
                _ => mk_eqz_lin(r),
            })
        }
        TermNode::RLe(l) | TermNode::RLt(l) | TermNode::REqZ(l) => {
            let mut r = RLin::of(&mk_mul_rat(&l.k, mk_to_real(nt)));
            for (t, c) in &l.terms {
                r = r.add(&RLin::of(by_atom(t)?).scale(c));
            }
            Some(match lit.get() {
                TermNode::RLe(_) => mk_rle_lin(r),
                TermNode::RLt(_) => mk_rlt_lin(r),
                _ => mk_reqz_lin(r),
            })
        }
        _ => None,
    }
}
