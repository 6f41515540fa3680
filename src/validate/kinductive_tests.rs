//! The k-induction check on small systems: a 2-inductive invariant that is not 1-inductive,
//! across one and two predicates; invariants that miss a reachable state or a query.

use super::check_k_inductive;
use crate::chc::{ChcSystem, Model, PredId};
use crate::logic::*;
use crate::testing::z3;
use crate::validate::ModelError;

/// `a = b = 0; a' = b, b' = a`, the query `a != 0` (`init` given).
fn swap(init: &str) -> ChcSystem {
    crate::frontend::parse_str(&format!(
        "(set-logic HORN)(declare-fun S (Int Int) Bool)
         (assert (forall ((a Int) (b Int)) (=> {init} (S a b))))
         (assert (forall ((a Int) (b Int) (c Int) (d Int))
           (=> (and (S a b) (= c b) (= d a)) (S c d))))
         (assert (forall ((a Int) (b Int)) (=> (and (S a b) (not (= a 0))) false)))"
    ))
    .unwrap()
}

/// `P(0)`, `P(x) -> Q(-x)`, `Q(y) -> P(-y)`, the query `P(x), x != 0`.
fn flip() -> ChcSystem {
    crate::frontend::parse_str(
        "(set-logic HORN)(declare-fun P (Int) Bool)(declare-fun Q (Int) Bool)
         (assert (forall ((x Int)) (=> (= x 0) (P x))))
         (assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (- x))) (Q y))))
         (assert (forall ((x Int) (y Int)) (=> (and (Q y) (= x (- y))) (P x))))
         (assert (forall ((x Int)) (=> (and (P x) (not (= x 0))) false)))",
    )
    .unwrap()
}

fn x(i: usize) -> Term {
    mk_var(&format!("x{i}"), Sort::Int)
}

fn first_is_zero(preds: &[u32]) -> Model {
    preds
        .iter()
        .map(|&p| (PredId(p), mk_eq(x(0), mk_int(0))))
        .collect()
}

fn check(sys: &ChcSystem, k: usize, f: &Model) -> Result<(), ModelError> {
    check_k_inductive(sys, k, f, &z3(), None)
}

fn rejected(r: Result<(), ModelError>, what: &str) {
    assert!(
        matches!(&r, Err(ModelError::Rejected(e)) if e.contains(what)),
        "{r:?}, expected a rejection with `{what}`"
    );
}

#[test]
fn a_two_inductive_invariant_passes_at_two_only() {
    let sys = swap("(and (= a 0) (= b 0))");
    let f = first_is_zero(&[0]);
    assert_eq!(check(&sys, 2, &f), Ok(()));
    assert_eq!(check(&sys, 3, &f), Ok(()));
    // a = 0, b = 1 steps to a = 1
    rejected(check(&sys, 1, &f), "not 1-inductive");
}

#[test]
fn across_predicates() {
    let sys = flip();
    // F_P = (x = 0), F_Q = true: Q(1) steps to P(-1)
    let mut f = first_is_zero(&[0]);
    f.insert(PredId(1), mk_true());
    rejected(check(&sys, 1, &f), "not 1-inductive");
    assert_eq!(check(&sys, 2, &f), Ok(()));
    // F_Q left out reads as false: Q(0) is reached in one step
    rejected(check(&sys, 2, &first_is_zero(&[0])), "reached in 1 steps");
}

#[test]
fn a_reachable_violation_or_a_missed_query_is_rejected() {
    // from a = 0, b = 1, a = 1 after one step: no k makes (a = 0) k-inductive
    let sys = swap("(and (= a 0) (= b 1))");
    let f = first_is_zero(&[0]);
    rejected(check(&sys, 1, &f), "not 1-inductive");
    for k in 2..4 {
        rejected(check(&sys, k, &f), "reached in 1 steps");
    }
    // true is 1-inductive and holds everywhere, but lets the query apply
    let sys = swap("(and (= a 0) (= b 0))");
    let t: Model = [(PredId(0), mk_true())].into_iter().collect();
    rejected(check(&sys, 1, &t), "the query at line");
}

#[test]
fn non_linear_systems_and_quantified_invariants_are_undecided() {
    let sys = crate::frontend::parse_str(
        "(set-logic HORN)(declare-fun P (Int) Bool)
         (assert (forall ((x Int)) (=> (= x 0) (P x))))
         (assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x) (P y) (= z (+ x y))) (P z))))
         (assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))",
    )
    .unwrap();
    let f = first_is_zero(&[0]);
    assert!(matches!(check(&sys, 1, &f), Err(ModelError::Undecided(_))));
    let y = Var {
        name: "y".into(),
        sort: Sort::Int,
    };
    let q: Model = [(
        PredId(0),
        mk_exists(vec![y.clone()], mk_eq(x(0), mk_var_of(&y))),
    )]
    .into_iter()
    .collect();
    assert!(matches!(
        check(&swap("(= a 0)"), 1, &q),
        Err(ModelError::Undecided(_))
    ));
}
