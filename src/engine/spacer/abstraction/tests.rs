//! Spacer with abstraction on small systems with known answers; every answer is checked by
//! the validator against the system it was given.

use super::super::tests::{with_query, BOOLS, DIRECT_QUERY, FIB, NO_QUERY};
use super::super::*;
use super::Prep;
use crate::chc::Cex;
use crate::frontend::parse_str;
use crate::testing::{engine_smt, z3};
use crate::validate;

/// Solves `text` with abstraction on; the answer and the solver (for its counters).
fn run(text: &str) -> (ChcSystem, Answer, Spacer) {
    let sys = parse_str(text).unwrap();
    let mut cfg = Config::default();
    cfg.max_level = Some(40);
    cfg.abstraction = true;
    let mut sp = Spacer::new(cfg);
    let answer = sp.solve(&sys, &engine_smt());
    (sys, answer, sp)
}

/// Must be proved safe with a model the validator accepts.
fn expect_safe(text: &str) -> Spacer {
    match run(text) {
        (sys, Answer::Safe(m), sp) => {
            validate::check_model(&sys, &m, &z3(), None)
                .unwrap_or_else(|e| panic!("model rejected: {e}\n{text}"));
            sp
        }
        (_, a, _) => panic!("expected a model, got {a:?}\n{text}"),
    }
}

/// Must be refuted with a derivation the validator replays.
fn expect_unsafe(text: &str) -> (Cex, Spacer) {
    match run(text) {
        (sys, Answer::Unsafe(c), sp) => {
            validate::check_cex(&sys, &c)
                .unwrap_or_else(|e| panic!("counterexample rejected: {e}\n{text}"));
            (c, sp)
        }
        (_, a, _) => panic!("expected a counterexample, got {a:?}\n{text}"),
    }
}

/// `x` counts up from 0, `y` accumulates `x` (irrelevant to `x >= 0`), `z` doubles.
const COUNT: &str = "(set-logic HORN)
(declare-fun P (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (= x 0) (= y 0) (= z 0)) (P x y z))))
(assert (forall ((x Int) (y Int) (z Int) (x1 Int) (y1 Int) (z1 Int))
  (=> (and (P x y z) (= x1 (+ x 1)) (= y1 (+ y x)) (= z1 (+ z 2))) (P x1 y1 z1))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x y z) QUERY) false)))
(check-sat)";

#[test]
fn the_abstraction_drops_a_conjunct_irrelevant_to_safety() {
    let sp = expect_safe(&with_query(COUNT, "(< x 0)"));
    let a = &sp.abs;
    assert!(a.sigma_hat < a.sigma, "{a:?}");
}

#[test]
fn a_spurious_counterexample_is_refined_before_the_real_one() {
    // z = 2x: z = 4 needs x = 2, two steps; the abstraction proved bound 0 without the
    // update of z, so bound 1 gives a spurious path with z free
    let (cex, sp) = expect_unsafe(&with_query(COUNT, "(= z 4) (<= x 2)"));
    assert!(sp.abs.refinements >= 1, "{:?}", sp.abs);
    assert_eq!(cex.len(), 4, "{cex:?}");
}

#[test]
fn safe_and_unsafe_with_two_loops_and_a_tree() {
    // two loops in sequence: P counts x up to at most 10, Q counts it down from there
    let seq = "(set-logic HORN)
(declare-fun P (Int Int) Bool)
(declare-fun Q (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 5)) (P x y))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (< x 10)) (P (+ x 1) y))))
(assert (forall ((x Int) (y Int)) (=> (and (P x y) (>= x 10)) (Q x y))))
(assert (forall ((x Int) (y Int)) (=> (and (Q x y) (> x 0)) (Q (- x 1) (+ y 1)))))
(assert (forall ((x Int) (y Int)) (=> (and (Q x y) QUERY) false)))
(check-sat)";
    expect_safe(&with_query(seq, "(< x 0)"));
    let (cex, _) = expect_unsafe(&with_query(seq, "(= x 8)"));
    assert_eq!(cex.len(), 15, "{cex:?}");
    let twice = "(set-logic HORN)
(declare-fun P (Int Int) Bool)
(declare-fun Q (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (= y (+ x 1)) (P x y))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x y) (P y z)) (Q x z))))
(assert (forall ((x Int) (z Int)) (=> (and (Q x z) QUERY) false)))
(check-sat)";
    expect_safe(&with_query(twice, "(not (= z (+ x 2)))"));
    let (cex, _) = expect_unsafe(&with_query(twice, "(= x 5) (= z 7)"));
    assert!(cex.iter().any(|s| s.premises.len() == 2), "{cex:?}");
    let sum = "(set-logic HORN)
(declare-fun S (Int Int) Bool)
(assert (forall ((n Int) (s Int)) (=> (and (<= n 0) (= s 0)) (S n s))))
(assert (forall ((n Int) (s Int) (t Int))
  (=> (and (> n 0) (S (- n 1) t) (= s (+ t n))) (S n s))))
(assert (forall ((n Int) (s Int)) (=> (and (S n s) QUERY) false)))
(check-sat)";
    expect_safe(&with_query(sum, "(< s n)"));
    expect_unsafe(&with_query(sum, "(= n 4) (= s 10)"));
}

#[test]
fn the_transformation_adds_a_bounded_counter_to_loop_heads_only() {
    let sys = parse_str(&with_query(
        "(set-logic HORN)
(declare-fun I (Int) Bool)
(declare-fun L (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (I x))))
(assert (forall ((x Int)) (=> (I x) (L x))))
(assert (forall ((x Int) (y Int)) (=> (and (L x) (= y (+ x 1))) (L y))))
(assert (forall ((x Int)) (=> (and (L x) QUERY) false)))
(check-sat)",
        "(< x 0)",
    ))
    .unwrap();
    let prep = Prep::new(&sys);
    let u = prep.under(&prep.all(), 3, &[]);
    assert_eq!(u.preds[0].sorts.len(), 1, "I is no loop head");
    assert_eq!(u.preds[1].sorts.len(), 2, "L gets a counter");
    let shown = u.to_string();
    // entering resets, staying increments, both bounded by 3
    assert!(shown.contains("abs!kh"), "{shown}");
    assert!(shown.matches("3").count() >= 2, "{shown}");
    // U(Σ, 3) is safe, and U(Σ, 3) with the query x >= 3 is safe but x >= 4 is not
    // reachable either: the counter bounds the loop at 3 increments
    let reach = |q: &str| {
        let text = with_query(
            "(set-logic HORN)
(declare-fun L (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (L x))))
(assert (forall ((x Int) (y Int)) (=> (and (L x) (= y (+ x 1))) (L y))))
(assert (forall ((x Int)) (=> (and (L x) QUERY) false)))
(check-sat)",
            q,
        );
        let sys = parse_str(&text).unwrap();
        let prep = Prep::new(&sys);
        let u = prep.under(&prep.all(), 3, &[]);
        let mut cfg = Config::default();
        cfg.max_level = Some(40);
        match Spacer::new(cfg).solve(&u, &engine_smt()) {
            Answer::Safe(m) => {
                validate::check_model(&u, &m, &z3(), None).unwrap();
                false
            }
            Answer::Unsafe(c) => {
                validate::check_cex(&u, &c).unwrap();
                true
            }
            a => panic!("{a:?}"),
        }
    };
    assert!(reach("(= x 3)"));
    assert!(!reach("(= x 4)"));
}

#[test]
fn booleans_nullary_predicates_direct_queries_and_fibonacci() {
    expect_safe(NO_QUERY);
    expect_unsafe(DIRECT_QUERY);
    expect_safe(&with_query(BOOLS, "(< x 0)"));
    expect_unsafe(&with_query(BOOLS, "b (= x 3)"));
    // two body applications in the loop's component: the counter exceeds both
    expect_safe(&with_query(FIB, "(< r 0)"));
    expect_unsafe(&with_query(FIB, "(= n 5) (= r 5)"));
}

/// Through the whole pipeline (preprocessing, back-translation, validation against the
/// original clauses) with `--engine spacer --spacer-abstraction on`.
#[test]
fn the_pipeline_with_abstraction_on() {
    use crate::engine::EngineKind;
    use crate::{solve_str, Options};
    use std::time::Duration;
    for (path, expected) in [
        ("nonlinear/twice-sat.smt2", "sat"),
        ("nonlinear/twice-unsat.smt2", "unsat"),
        ("nonlinear/loop-calls-sat.smt2", "sat"),
        ("nonlinear/loop-calls-unsat.smt2", "unsat"),
        ("hand/nullary-unsat.smt2", "unsat"),
    ] {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("bench-chc")
            .join(path);
        let mut opts = Options {
            engines: vec![EngineKind::Spacer],
            timeout: Some(Duration::from_secs(30)),
            // the abstract-interpretation pass off: this test is about Spacer
            absint: crate::absint::Config {
                enabled: false,
                ..Default::default()
            },
            ..Options::default()
        };
        opts.engine_options.spacer.abstraction = true;
        let out = solve_str(&std::fs::read_to_string(p).unwrap(), &opts).unwrap();
        assert_eq!(out.verdict.word(), expected, "{path}: {:?}", out.verdict);
        assert_eq!(out.stats.validation_failures, 0, "{path}");
        assert_eq!(out.stats.winner, Some("spacer"), "{path}");
    }
}
