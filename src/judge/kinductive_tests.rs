//! The judge on k-inductive invariants: right and wrong `K`, invariants that miss a state or
//! a query, assertions that fail whatever the predicates, shapes it does not decide.

use super::super::{judge, JudgeSolver, Judgment, Witness};
use std::time::{Duration, Instant};

fn z3() -> Vec<JudgeSolver> {
    vec![JudgeSolver::Z3(crate::testing::z3().path)]
}

fn swap(init: &str, extra: &str) -> String {
    format!(
        "(set-logic HORN)(declare-fun |S s| (Real Real) Bool)
(assert (forall ((a Real) (b Real)) (=> {init} (|S s| a b))))
(assert (forall ((a Real) (b Real) (c Real) (d Real)) (=> (and (|S s| a b) (= c b) (= d a)) (|S s| c d))))
(assert (forall ((a Real) (b Real)) (=> (and (|S s| a b) (not (= a 0.0))) false)))
{extra}(check-sat)"
    )
}

const ZERO: &str = "((define-fun |S s| ((x0 Real) (x1 Real)) Bool (= x0 0.0)))";

fn k_of(text: &str, k: usize, defs: &str) -> Judgment {
    let w = format!("(k-inductive {k} {defs})");
    let deadline = Some(Instant::now() + Duration::from_secs(20));
    judge(text, 0, Witness::KInductive(&w), &z3(), deadline)
}

fn rejected(j: Judgment, what: &str) {
    assert!(
        matches!(&j, Judgment::Rejected(e) if e.contains(what)),
        "{j:?}, expected a rejection with `{what}`"
    );
}

fn undecided(j: Judgment) {
    assert!(matches!(&j, Judgment::Undecided(_)), "{j:?}");
}

#[test]
fn two_inductive_not_one() {
    let t = swap("(and (= a 0.0) (= b 0.0))", "");
    assert_eq!(k_of(&t, 2, ZERO), Judgment::Accepted);
    assert_eq!(k_of(&t, 5, ZERO), Judgment::Accepted);
    rejected(k_of(&t, 1, ZERO), "not 1-inductive");
    rejected(k_of(&t, 0, ZERO), "malformed");
    rejected(k_of(&t, 2, "()"), "no definition");
}

#[test]
fn missed_states_and_queries() {
    // a = 1 after one step
    let t = swap("(and (= a 0.0) (= b 1.0))", "");
    rejected(k_of(&t, 2, ZERO), "reached in 1 steps");
    // true holds everywhere and is 1-inductive, but the query applies to it
    let t = swap("(and (= a 0.0) (= b 0.0))", "");
    let all = "((define-fun |S s| ((x0 Real) (x1 Real)) Bool true))";
    rejected(k_of(&t, 1, all), "fails on the invariant");
    // an assertion without predicates that fails: the system has no model
    let t = swap(
        "(and (= a 0.0) (= b 0.0))",
        "(assert (forall ((a Real)) (> a 0.0)))\n",
    );
    rejected(k_of(&t, 2, ZERO), "whatever the predicates");
}

#[test]
fn across_predicates() {
    let t = "(set-logic HORN)(declare-fun P (Int) Bool)(declare-fun Q (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (- x))) (Q y))))
(assert (forall ((x Int) (y Int)) (=> (and (Q y) (= x (- y))) (P x))))
(assert (forall ((x Int)) (=> (and (P x) (not (= x 0))) false)))
(check-sat)";
    let f = "((define-fun P ((x0 Int)) Bool (= x0 0)) (define-fun Q ((x0 Int)) Bool true))";
    assert_eq!(k_of(t, 2, f), Judgment::Accepted);
    rejected(k_of(t, 1, f), "not 1-inductive");
    let g = "((define-fun P ((x0 Int)) Bool (= x0 0)) (define-fun Q ((x0 Int)) Bool false))";
    rejected(k_of(t, 2, g), "reached in 1 steps");
}

#[test]
fn shapes_it_does_not_decide() {
    // two body occurrences (non-linear)
    let t = swap(
        "(and (= a 0.0) (= b 0.0))",
        "(assert (forall ((a Real) (b Real)) (=> (and (|S s| a b) (|S s| b a)) (|S s| a a))))\n",
    );
    undecided(k_of(&t, 2, ZERO));
    // a predicate under a quantifier in the body: the assertion is not a step
    let t = swap(
        "(and (= a 0.0) (= b 0.0))",
        "(assert (=> (forall ((a Real)) (|S s| a a)) false))\n",
    );
    undecided(k_of(&t, 2, ZERO));
}
