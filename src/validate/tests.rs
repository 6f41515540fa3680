//! The validator on malformed answers: ids out of range are rejections, not panics; a
//! check that cannot run is undecided, not a rejection.

use super::*;
use crate::chc::Link;
use crate::chc::{ClauseId, PredId};
use crate::smt::SolverKind;
use crate::testing::z3;

fn sys() -> ChcSystem {
    crate::frontend::parse_str(
        "(set-logic HORN)(declare-fun P (Int) Bool)
         (assert (forall ((x Int)) (=> (= x 0) (P x))))
         (assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x 1))) (P y))))
         (assert (forall ((x Int)) (=> (and (P x) (= x 1)) false)))",
    )
    .unwrap()
}

fn no_solver() -> SolverConfig {
    SolverConfig::new(SolverKind::Z3, "/nonexistent/z3")
}

fn step(clause: u32, premises: Vec<usize>) -> CexStep {
    CexStep {
        clause: ClauseId(clause),
        vals: Default::default(), // no values: complete_cex must solve for them
        premises,
    }
}

/// The quick validator's word decides only an acceptance: with a "yices" that cannot start,
/// z3 still accepts a model (not undecided), and a wrong model is rejected either way.
#[test]
fn a_quick_validator_that_fails_leaves_the_model_to_z3() {
    let s = crate::frontend::parse_str(
        "(set-logic HORN)(declare-fun P (Int) Bool)
         (assert (forall ((x Int)) (=> (= x 0) (P x))))
         (assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 10) (= y (+ x 1))) (P y))))
         (assert (forall ((x Int)) (=> (and (P x) (> x 10)) false)))",
    )
    .unwrap();
    let x = mk_var_of(&s.pred(PredId(0)).params()[0]);
    let mut good = Model::default();
    good.insert(
        PredId(0),
        mk_and(vec![mk_le(mk_int(0), x.clone()), mk_le(x, mk_int(10))]),
    );
    let mut bad = Model::default();
    bad.insert(PredId(0), mk_true());
    let dead = SolverConfig::new(SolverKind::Yices, "/nonexistent/yices");
    let soon = Some(std::time::Duration::from_secs(10));
    let r = check_model_quick_first(&s, &good, Some(&dead), &z3(), soon);
    assert!(r.is_ok(), "{r:?}");
    let r = check_model_quick_first(&s, &bad, Some(&dead), &z3(), soon);
    assert!(matches!(r, Err(ModelError::Rejected(_))), "{r:?}");
    let yices = crate::testing::yices();
    let r = check_model_quick_first(&s, &good, Some(&yices), &z3(), soon);
    assert!(r.is_ok(), "{r:?}");
    let r = check_model_quick_first(&s, &bad, Some(&yices), &z3(), soon);
    assert!(matches!(r, Err(ModelError::Rejected(_))), "{r:?}");
}

/// Completing a counterexample's values: with a "yices" that cannot start, z3 finds them (the
/// path P(0) -> P(1) -> false of [`sys`]); with yices, yices does.
#[test]
fn a_quick_solver_that_fails_leaves_the_counterexample_to_z3() {
    let s = sys();
    let path = || vec![step(0, vec![]), step(1, vec![0]), step(2, vec![1])];
    let dead = SolverConfig::new(SolverKind::Yices, "/nonexistent/yices");
    for quick in [dead, crate::testing::yices()] {
        let r = complete_cex_quick_first(&s, path(), Some(&quick), &z3());
        let done = r.unwrap_or_else(|e| panic!("{:?}: {e}", quick.path));
        assert_eq!(check_cex(&s, &done), Ok(()));
    }
}

#[test]
fn model_with_a_bad_predicate_is_rejected() {
    let s = sys();
    let mut m = Model::default();
    m.insert(PredId(0), mk_true());
    m.insert(PredId(7), mk_true());
    let r = check_model(&s, &m, &z3(), None);
    assert!(matches!(r, Err(ModelError::Rejected(_))), "{r:?}");
}

#[test]
fn cex_with_bad_ids_is_rejected() {
    let s = sys();
    // a clause that does not exist, after steps that need solving
    let bad_clause = vec![step(0, vec![]), step(9, vec![0]), step(2, vec![1])];
    let r = complete_cex(&s, bad_clause.clone(), &z3());
    assert!(matches!(r, Err(ModelError::Rejected(_))), "{r:?}");
    assert!(check_cex(&s, &bad_clause).is_err());
    // a premise that is no earlier step
    let bad_premise = vec![step(0, vec![]), step(1, vec![5]), step(2, vec![1])];
    let r = complete_cex(&s, bad_premise, &z3());
    assert!(matches!(r, Err(ModelError::Rejected(_))), "{r:?}");
    // premises that do not match the body
    let arity = vec![step(0, vec![]), step(1, vec![]), step(2, vec![1])];
    let r = complete_cex(&s, arity, &z3());
    assert!(matches!(r, Err(ModelError::Rejected(_))), "{r:?}");
    // a path that does not exist: P(0) -> P(1) -> P(2) ends at the query x = 1 only at 1
    let wrong = vec![
        step(0, vec![]),
        step(1, vec![0]),
        step(1, vec![1]),
        step(2, vec![2]),
    ];
    let r = complete_cex(&s, wrong, &z3());
    assert!(matches!(r, Err(ModelError::Rejected(_))), "{r:?}");
    let right = vec![step(0, vec![]), step(1, vec![0]), step(2, vec![1])];
    let done = complete_cex(&s, right, &z3()).unwrap();
    assert_eq!(check_cex(&s, &done), Ok(()));
    // a bad accelerated link
    let acc = vec![Link::Step(step(0, vec![])), Link::Step(step(12, vec![]))];
    let r = complete_accel_cex(&s, acc, &z3());
    assert!(matches!(r, Err(ModelError::Rejected(_))), "{r:?}");
}

#[test]
fn cex_check_that_cannot_run_is_undecided() {
    let s = sys();
    let right = vec![step(0, vec![]), step(1, vec![0]), step(2, vec![1])];
    let r = complete_cex(&s, right, &no_solver());
    assert!(matches!(r, Err(ModelError::Undecided(_))), "{r:?}");
    let acc = vec![
        Link::Step(step(0, vec![])),
        Link::Step(step(1, vec![])),
        Link::Step(step(2, vec![])),
    ];
    let r = complete_accel_cex(&s, acc, &no_solver());
    assert!(matches!(r, Err(ModelError::Undecided(_))), "{r:?}");
}
