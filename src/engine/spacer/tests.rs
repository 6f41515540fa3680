//! Spacer on small systems with known answers, hand-written and generated; every answer is
//! checked by the validator against the system Spacer was given, and the pipeline tests
//! against the original clauses after preprocessing and back-translation.

use super::*;
use crate::chc::Cex;
use crate::engine::EngineKind;
use crate::frontend::parse_str;
use crate::testing::{engine_smt, z3};
use crate::{solve_str, validate, witness, Options, Verdict};
use std::time::Duration;

fn run(text: &str) -> (ChcSystem, Answer) {
    let sys = parse_str(text).unwrap();
    let mut cfg = Config::default();
    cfg.max_level = Some(40);
    let answer = Spacer::new(cfg).solve(&sys, &engine_smt());
    (sys, answer)
}

/// Spacer must prove `text` safe with a model the validator accepts.
fn expect_safe(text: &str) -> Model {
    match run(text) {
        (sys, Answer::Safe(m)) => {
            validate::check_model(&sys, &m, &z3(), None)
                .unwrap_or_else(|e| panic!("model rejected: {e}\n{text}"));
            m
        }
        (_, a) => panic!("expected a model, got {a:?}\n{text}"),
    }
}

/// Spacer must refute `text` with a derivation the validator replays.
fn expect_unsafe(text: &str) -> (ChcSystem, Cex) {
    match run(text) {
        (sys, Answer::Unsafe(c)) => {
            validate::check_cex(&sys, &c)
                .unwrap_or_else(|e| panic!("counterexample rejected: {e}\n{text}"));
            (sys, c)
        }
        (_, a) => panic!("expected a counterexample, got {a:?}\n{text}"),
    }
}

const TWICE: &str = "(set-logic HORN)
(declare-fun P (Int Int) Bool)
(declare-fun Q (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (= y (+ x 1)) (P x y))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x y) (P y z)) (Q x z))))
(assert (forall ((x Int) (z Int)) (=> (and (Q x z) QUERY) false)))
(check-sat)";

pub(super) const FIB: &str = "(set-logic HORN)
(declare-fun F (Int Int) Bool)
(assert (forall ((n Int) (r Int)) (=> (and (>= n 0) (<= n 1) (= r n)) (F n r))))
(assert (forall ((n Int) (a Int) (b Int) (r Int))
  (=> (and (>= n 2) (F (- n 1) a) (F (- n 2) b) (= r (+ a b))) (F n r))))
(assert (forall ((n Int) (r Int)) (=> (and (F n r) QUERY) false)))
(check-sat)";

const SUM: &str = "(set-logic HORN)
(declare-fun S (Int Int) Bool)
(assert (forall ((n Int) (s Int)) (=> (and (<= n 0) (= s 0)) (S n s))))
(assert (forall ((n Int) (s Int) (t Int))
  (=> (and (> n 0) (S (- n 1) t) (= s (+ t n))) (S n s))))
(assert (forall ((n Int) (s Int)) (=> (and (S n s) QUERY) false)))
(check-sat)";

/// A predicate without query.
pub(super) const NO_QUERY: &str = "(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(check-sat)";

/// A query without a predicate in its body.
pub(super) const DIRECT_QUERY: &str = "(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int)) (=> (> x 2) false)))
(check-sat)";

/// A Boolean argument and a nullary predicate.
pub(super) const BOOLS: &str = "(set-logic HORN)
(declare-fun Start () Bool)
(declare-fun B (Bool Int) Bool)
(assert Start)
(assert (forall ((x Int)) (=> (and Start (= x 0)) (B true x))))
(assert (forall ((b Bool) (x Int) (c Bool) (y Int))
  (=> (and (B b x) (B c y) (< x 3)) (B (not b) (+ x y 1)))))
(assert (forall ((b Bool) (x Int)) (=> (and (B b x) QUERY) false)))
(check-sat)";

pub(super) fn with_query(sys: &str, q: &str) -> String {
    sys.replace("QUERY", q)
}

#[test]
fn a_summary_called_twice_is_safe() {
    expect_safe(&with_query(TWICE, "(not (= z (+ x 2)))"));
}

#[test]
fn a_summary_called_twice_is_refuted_by_a_tree() {
    let (sys, cex) = expect_unsafe(&with_query(TWICE, "(= x 5) (= z 7)"));
    // P 5 6, P 6 7, Q 5 7 from both, the query
    assert_eq!(cex.len(), 4, "{cex:?}");
    assert!(cex.iter().any(|s| s.premises.len() == 2));
    let text = witness::cex_to_text(&sys, &cex);
    assert!(text.contains("(from 0 1)"), "{text}");
}

/// The derivation's values come from one query on its path formula ([`cex`]), not from a
/// query per step; a must-summary used at two body applications becomes two steps, which
/// the path formula lets take different values (here `P 5 6` and `P 6 7`).
#[test]
fn a_derivation_is_solved_in_one_query() {
    let text = with_query(TWICE, "(= x 5) (= z 7)");
    let sys = parse_str(&text).unwrap();
    let mut spacer = Spacer::new(Config::default());
    match spacer.solve(&sys, &engine_smt()) {
        Answer::Unsafe(c) => validate::check_cex(&sys, &c).unwrap(),
        a => panic!("expected a counterexample, got {a:?}"),
    }
    assert_eq!(spacer.counters.cex_step_queries, 0);
    let (_, fib) = expect_unsafe(&with_query(FIB, "(= n 5) (= r 5)"));
    assert!(fib.len() >= 8, "{fib:?}");
}

#[test]
fn fibonacci_results_are_non_negative() {
    expect_safe(&with_query(FIB, "(< r 0)"));
}

#[test]
fn fibonacci_of_six_is_eight() {
    let (_, cex) = expect_unsafe(&with_query(FIB, "(= n 6) (= r 8)"));
    // fib(6) calls itself 24 times; shared instances may be derived once
    assert!(cex.len() >= 8, "{cex:?}");
}

#[test]
fn a_recursive_sum_is_at_least_its_argument() {
    expect_safe(&with_query(SUM, "(< s n)"));
    expect_unsafe(&with_query(SUM, "(= n 4) (= s 10)"));
    // s = 10 needs n = 4 exactly
    expect_safe(&with_query(SUM, "(= s 10) (not (= n 4))"));
}

#[test]
fn no_query_and_direct_queries() {
    expect_safe(NO_QUERY);
    expect_unsafe(DIRECT_QUERY);
}

#[test]
fn booleans_and_nullary_predicates() {
    let text = BOOLS;
    // from B(true, 0): B(false, 1), then x + y + 1 over derived values: x >= 0 always
    expect_safe(&with_query(text, "(< x 0)"));
    // B(false, 1) from B(true, 0) twice, then B(true, 3) from B(false, 1) twice
    expect_unsafe(&with_query(text, "b (= x 3)"));
}

/// `P0(x, y) <- y = x + c` and `P(i+1)(x, z) <- Pi(x, y) /\ Pi(y, z)`: `Pn` adds `2^n * c`.
fn doubling(n: usize, c: i64, query: &str) -> String {
    let mut s = String::from("(set-logic HORN)\n");
    for i in 0..=n {
        s += &format!("(declare-fun P{i} (Int Int) Bool)\n");
    }
    s += &format!("(assert (forall ((x Int) (y Int)) (=> (= y (+ x {c})) (P0 x y))))\n");
    for i in 0..n {
        s += &format!(
            "(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P{i} x y) (P{i} y z)) (P{} x z))))\n",
            i + 1
        );
    }
    s += &format!("(assert (forall ((x Int) (z Int)) (=> (and (P{n} x z) {query}) false)))\n");
    s
}

#[test]
fn generated_doublings_have_their_planted_answers() {
    for n in 1..=3 {
        for c in [1i64, 3] {
            let k = (1i64 << n) * c;
            expect_safe(&doubling(n, c, &format!("(not (= z (+ x {k})))")));
            let (_, cex) = expect_unsafe(&doubling(n, c, &format!("(= x 3) (= z {})", 3 + k)));
            // a full binary tree of 2^n facts, 2^n - 1 compositions and the query
            assert_eq!(cex.len(), (1 << (n + 1)), "n = {n}: {cex:?}");
        }
    }
}

#[test]
fn the_validator_rejects_broken_trees() {
    let (sys, cex) = expect_unsafe(&with_query(TWICE, "(= x 5) (= z 7)"));
    let q = cex.iter().position(|s| s.premises.len() == 2).unwrap();
    // the second call's instance replaced by the first's
    let mut same = cex.clone();
    same[q].premises[1] = same[q].premises[0];
    assert!(validate::check_cex(&sys, &same).is_err());
    // a missing premise
    let mut short = cex.clone();
    short[q].premises.pop();
    assert!(validate::check_cex(&sys, &short).is_err());
    // a premise that is not an earlier step
    let mut late = cex.clone();
    late[q].premises[0] = q;
    assert!(validate::check_cex(&sys, &late).is_err());
    // a step nobody uses
    let mut extra = cex.clone();
    extra.insert(0, cex[0].clone());
    for s in &mut extra[1..] {
        for p in &mut s.premises {
            *p += 1;
        }
    }
    assert!(validate::check_cex(&sys, &extra).is_err());
    // the composition's middle value changed: only its body applications disagree with
    // their premises' heads (the clause has no constraint to break)
    let mut middle = cex.clone();
    let y = middle[q]
        .vals
        .keys()
        .find(|v| &*v.name == "y")
        .unwrap()
        .clone();
    middle[q].vals.insert(y, Value::Int(100.into()));
    let e = validate::check_cex(&sys, &middle).unwrap_err();
    assert!(e.contains("premise"), "{e}");
    // a wrong value in a leaf
    let mut wrong = cex.clone();
    let v = wrong[0].vals.keys().next().unwrap().clone();
    wrong[0].vals.insert(v, Value::Int(100.into()));
    assert!(validate::check_cex(&sys, &wrong).is_err());
    // and the original passes
    validate::check_cex(&sys, &cex).unwrap();
    assert_eq!(sys.clauses[cex[q].clause.idx()].body.len(), 2);
}

fn bench(path: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("bench-chc")
        .join(path);
    std::fs::read_to_string(p).unwrap()
}

/// Through the whole pipeline: preprocessing, Spacer on what stays non-linear,
/// back-translation, validation against the original clauses.
#[test]
fn the_pipeline_solves_non_linear_files() {
    for (path, expected) in [
        ("nonlinear/twice-sat.smt2", "sat"),
        ("nonlinear/twice-unsat.smt2", "unsat"),
        ("nonlinear/loop-calls-sat.smt2", "sat"),
        ("nonlinear/loop-calls-unsat.smt2", "unsat"),
    ] {
        // the abstract-interpretation pass off: this test is about Spacer
        let opts = Options {
            timeout: Some(Duration::from_secs(30)),
            absint: crate::absint::Config {
                enabled: false,
                ..Default::default()
            },
            ..Options::default()
        };
        let out = solve_str(&bench(path), &opts).unwrap();
        assert_eq!(out.verdict.word(), expected, "{path}: {:?}", out.verdict);
        assert!(
            matches!(out.stats.winner, Some("spacer" | "spacer-local")),
            "{path}: {:?}",
            out.stats.winner
        );
        match &out.verdict {
            Verdict::Sat(m) => validate::check_model(&out.system, m, &z3(), None).unwrap(),
            Verdict::Unsat(c) => validate::check_cex(&out.system, c).unwrap(),
            Verdict::UnsatAccelerated(_) | Verdict::SatKInductive { .. } | Verdict::Unknown(_) => {
                unreachable!()
            }
        }
    }
}

/// A tree through a clause made by inlining: `Start` (one fact, one use) is resolved into
/// `L`'s first clause, so the back-translation expands that step of the tree into two.
#[test]
fn trees_expand_through_inlined_clauses() {
    let text = bench("nonlinear/loop-calls-unsat.smt2")
        .replace(
            "(declare-fun L (Int Int) Bool)",
            "(declare-fun L (Int Int) Bool)\n(declare-fun Start (Int) Bool)\n(assert (forall ((x Int)) (=> (= x 0) (Start x))))",
        )
        .replace(
            "(=> (and (= i 0) (= x 0)) (L i x))",
            "(=> (and (= i 0) (Start x)) (L i x))",
        );
    let opts = Options {
        timeout: Some(Duration::from_secs(30)),
        ..Options::default()
    };
    let out = solve_str(&text, &opts).unwrap();
    let Verdict::Unsat(cex) = &out.verdict else {
        panic!("expected unsat, got {:?}", out.verdict)
    };
    assert!(
        matches!(out.stats.winner, Some("spacer" | "spacer-local")),
        "{:?}",
        out.stats.winner
    );
    validate::check_cex(&out.system, cex).unwrap();
    let start = out
        .system
        .preds
        .iter()
        .position(|p| p.name == "Start")
        .unwrap();
    let uses_start = cex.iter().any(|s| {
        out.system.clauses[s.clause.idx()]
            .head
            .as_ref()
            .is_some_and(|h| h.pred.idx() == start)
    });
    assert!(uses_start, "the inlined fact is back in the tree: {cex:?}");
    assert!(cex.iter().any(|s| s.premises.len() == 3));
}

/// Inlining around a non-linear clause: the fact `C` is resolved into `T`'s clause (its first
/// body application, so `R` moves from premise 1 to premise 0), and `T` into the query; the
/// tree's query step expands back into three old steps, its open premise renumbered.
#[test]
fn trees_expand_through_clauses_inlined_around_a_non_linear_one() {
    let text = "(set-logic HORN)
(declare-fun C (Int) Bool)
(declare-fun P (Int Int) Bool)
(declare-fun R (Int Int) Bool)
(declare-fun T (Int Int) Bool)
(assert (forall ((k Int)) (=> (= k 2) (C k))))
(assert (forall ((x Int) (y Int)) (=> (= y (+ x 1)) (P x y))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x y) (P y z)) (R x z))))
(assert (forall ((k Int) (x Int) (z Int) (w Int))
  (=> (and (C k) (R x z) (= w (+ z k))) (T x w))))
(assert (forall ((x Int) (w Int)) (=> (and (T x w) (= x 5) (= w 9)) false)))
(check-sat)";
    let opts = Options {
        timeout: Some(Duration::from_secs(30)),
        ..Options::default()
    };
    let out = solve_str(text, &opts).unwrap();
    let Verdict::Unsat(cex) = &out.verdict else {
        panic!("expected unsat, got {:?}", out.verdict)
    };
    assert!(
        matches!(out.stats.winner, Some("spacer" | "spacer-local")),
        "{:?}",
        out.stats.winner
    );
    assert_eq!(out.stats.clauses_after_preprocessing, 3);
    validate::check_cex(&out.system, cex).unwrap();
    // C 2, P 5 6, P 6 7, R 5 7, T 5 9 from C and R, the query
    assert_eq!(cex.len(), 6, "{cex:?}");
    assert_eq!(cex.iter().filter(|s| s.premises.len() == 2).count(), 2);
}

/// `--engine spacer` on linear problems runs Spacer on the clause graph.
#[test]
fn spacer_runs_on_linear_problems() {
    for (path, expected) in [
        ("gen/counter-50-unsat.smt2", "unsat"),
        ("gen/counter-50-sat.smt2", "sat"),
        ("hand/nullary-unsat.smt2", "unsat"),
    ] {
        let opts = Options {
            engines: vec![EngineKind::Spacer],
            timeout: Some(Duration::from_secs(30)),
            ..Options::default()
        };
        let out = solve_str(&bench(path), &opts).unwrap();
        assert_eq!(out.verdict.word(), expected, "{path}: {:?}", out.verdict);
        assert_eq!(out.stats.validation_failures, 0, "{path}");
        assert!(
            matches!(out.stats.winner, Some("spacer" | "spacer-local")),
            "{path}: {:?}",
            out.stats.winner
        );
    }
}

/// `y` runs ahead of `x` by at most 12 while `x` counts to 1000, so `y <= 1012`. The lemma
/// from the blocked cube `x <= 999 /\ y >= 1012` keeps only `y >= 1012` (true for a bounded
/// number of steps only); the second lemma, from the sum of the two bounds, is the
/// inductive `y <= x + 12`. Without it, Spacer learns `y <= 1011`, `y <= 1010`, .. level by
/// level and stops at `max_level`.
#[test]
fn a_bounded_lemma_gets_an_inductive_second_lemma() {
    expect_safe(
        "(set-logic HORN)
(declare-fun I (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (c Int))
  (=> (and (= x 0) (< 0 c) (< c 5) (= y (* 3 c))) (I x y c))))
(assert (forall ((x Int) (y Int) (c Int))
  (=> (and (I x y c) (< x 1000)) (I (+ x 1) (+ y 1) c))))
(assert (forall ((x Int) (y Int) (c Int)) (=> (and (I x y c) (> y 1012)) false)))
(check-sat)",
    );
}

/// A recursive addition: `add(m, n, r)` derives `r = m + n`. The blocked cubes
/// `m >= 100 /\ n >= 100 /\ r <= 199` need the sum of all three bounds, `r <= m + n - 1`
/// ([`total_sum`](crate::engine::pdr::generalize::total_sum)); pairwise sums relate two
/// variables only.
#[test]
fn a_summary_needs_the_sum_of_all_bounds() {
    expect_safe(
        "(set-logic HORN)
(declare-fun add (Int Int Int) Bool)
(assert (forall ((m Int) (n Int) (r Int)) (=> (and (= n 0) (= r m)) (add m n r))))
(assert (forall ((m Int) (n Int) (r Int))
  (=> (and (> n 0) (add (+ m 1) (- n 1) r)) (add m n r))))
(assert (forall ((m Int) (n Int) (r Int))
  (=> (and (add m n r) (>= m 100) (>= n 100) (<= r 199)) false)))
(check-sat)",
    );
}
