//! General Horn forms in CHC-COMP input (`exists` around a body, nested `forall`/`=>` in a
//! head, disjunctions, predicate applications under `and`/`or`/`not`), normalized into the
//! clause graph; clauses that are not Horn are errors with their line.

use chcsolve::chc::{ChcSystem, Clause};
use chcsolve::frontend::parse_str;
mod common;

use chcsolve::logic::eval_bool;
use common::ints;
use std::process::Command;

fn parse(body: &str) -> ChcSystem {
    let text = format!(
        "(set-logic HORN)\n(declare-fun P (Int) Bool)\n(declare-fun Q (Int) Bool)\n(declare-fun R (Int Int) Bool)\n{body}\n(check-sat)\n"
    );
    parse_str(&text).unwrap_or_else(|e| panic!("{body}: {e}"))
}

/// The clause's predicates by name: (body, head).
fn shape(sys: &ChcSystem, c: &Clause) -> (Vec<String>, Option<String>) {
    let name = |p| sys.pred(p).name.clone();
    (
        c.body.iter().map(|a| name(a.pred)).collect(),
        c.head.as_ref().map(|a| name(a.pred)),
    )
}

fn holds(c: &Clause, vals: &[(&str, i64)]) -> bool {
    eval_bool(&c.constraint, &ints(vals)).unwrap()
}

#[test]
fn exists_around_the_body() {
    let sys = parse(
        "(assert (forall ((x Int)) (=> (exists ((y Int)) (and (P y) (= x (+ y 1)))) (Q x))))",
    );
    assert_eq!(sys.clauses.len(), 1);
    let c = &sys.clauses[0];
    assert_eq!(shape(&sys, c), (vec!["P".into()], Some("Q".into())));
    assert!(holds(c, &[("x", 3), ("y", 2)]));
    assert!(!holds(c, &[("x", 3), ("y", 3)]));
    assert_eq!(c.line, 5);
}

#[test]
fn nested_forall_and_implication_in_the_head() {
    // a => forall y. (b => h)  is  a /\ b => h
    let sys = parse(
        "(assert (forall ((x Int)) (=> (> x 0) (forall ((y Int)) (=> (and (P x) (< y x)) (R x y))))))",
    );
    assert_eq!(sys.clauses.len(), 1);
    let c = &sys.clauses[0];
    assert_eq!(shape(&sys, c), (vec!["P".into()], Some("R".into())));
    assert!(holds(c, &[("x", 2), ("y", 1)]));
    assert!(
        !holds(c, &[("x", 0), ("y", -1)]),
        "x > 0 is part of the body"
    );
    assert!(
        !holds(c, &[("x", 2), ("y", 2)]),
        "y < x is part of the body"
    );
}

#[test]
fn clauses_written_as_disjunctions() {
    let sys = parse(
        "(assert (forall ((x Int)) (or (not (P x)) (not (> x 5)) (Q x))))\n\
         (assert (forall ((x Int)) (or (not (Q x)) (> x 0))))",
    );
    assert_eq!(sys.clauses.len(), 2);
    let (rule, query) = (&sys.clauses[0], &sys.clauses[1]);
    assert_eq!(shape(&sys, rule), (vec!["P".into()], Some("Q".into())));
    assert!(holds(rule, &[("x", 6)]) && !holds(rule, &[("x", 5)]));
    // the negated application is the body, the constraint disjunct the negated head
    assert_eq!(shape(&sys, query), (vec!["Q".into()], None));
    assert!(holds(query, &[("x", 0)]) && !holds(query, &[("x", 1)]));
}

#[test]
fn applications_under_and_or_not() {
    let sys = parse(
        "(assert (forall ((x Int)) (not (and (P x) (> x 0) (or (< x 5) (Q x))))))\n\
         (assert (forall ((x Int)) (=> (and (P x) (or (> x 0) (< x (- 5)))) (Q x))))",
    );
    // P /\ x > 0 /\ (x < 5 \/ Q) => false: two queries, the disjunction over Q split
    assert_eq!(sys.clauses.len(), 3);
    let shapes: Vec<_> = sys.clauses.iter().map(|c| shape(&sys, c)).collect();
    assert_eq!(shapes[0], (vec!["P".into()], None));
    assert!(holds(&sys.clauses[0], &[("x", 3)]) && !holds(&sys.clauses[0], &[("x", 7)]));
    assert_eq!(shapes[1], (vec!["P".into(), "Q".into()], None));
    assert!(holds(&sys.clauses[1], &[("x", 7)]) && !holds(&sys.clauses[1], &[("x", 0)]));
    // a disjunction without applications stays one constraint
    assert_eq!(shapes[2], (vec!["P".into()], Some("Q".into())));
    assert!(holds(&sys.clauses[2], &[("x", 1)]) && holds(&sys.clauses[2], &[("x", -6)]));
    assert!(!holds(&sys.clauses[2], &[("x", 0)]));
}

#[test]
fn body_disjunctions_and_head_conjunctions_split() {
    let sys = parse(
        "(assert (forall ((x Int)) (=> (or (P x) (and (Q x) (> x 2))) (R x x))))\n\
         (assert (forall ((x Int)) (=> (P x) (and (Q x) (Q (+ x 1))))))",
    );
    let shapes: Vec<_> = sys.clauses.iter().map(|c| shape(&sys, c)).collect();
    assert_eq!(
        shapes,
        vec![
            (vec!["P".into()], Some("R".into())),
            (vec!["Q".into()], Some("R".into())),
            (vec!["P".into()], Some("Q".into())),
            (vec!["P".into()], Some("Q".into())),
        ]
    );
    assert!(holds(&sys.clauses[1], &[("x", 3)]) && !holds(&sys.clauses[1], &[("x", 2)]));
}

#[test]
fn shadowing_and_repeated_binders_get_fresh_variables() {
    let sys = parse(
        "(assert (forall ((x Int)) (=> (and (P x) (exists ((x Int)) (and (Q x) (< x 0)))) (R x x))))\n\
         (assert (=> (and (exists ((y Int)) (P y)) (exists ((y Int)) (Q y))) (R 0 0)))",
    );
    let c = &sys.clauses[0];
    let inner = &c.body[1].args[0];
    assert_ne!(&c.body[0].args[0], inner, "the inner x is another variable");
    assert_eq!(c.head.as_ref().unwrap().args[0], c.body[0].args[0]);
    let d = &sys.clauses[1];
    assert_ne!(
        d.body[0].args[0], d.body[1].args[0],
        "two exists y are two variables"
    );
}

#[test]
fn not_horn_is_an_error_with_its_line() {
    let cases = [
        (
            "(assert (forall ((x Int))\n  (=> (P x) (or (Q x) (> x 0) (Q (+ x 1))))))",
            5,
            "not Horn",
        ),
        (
            "(assert (forall ((x Int)) (or (P x) (Q x))))",
            5,
            "not Horn",
        ),
        (
            "\n(assert (forall ((x Int)) (=> (not (P x)) (Q x))))",
            6,
            "not Horn",
        ),
        (
            "(assert (forall ((x Int)) (=> (P x) (exists ((y Int)) (R x y)))))",
            5,
            "existential",
        ),
        // a forall in a body is existential: over arithmetic alone it is eliminated, over a
        // predicate application it stays an error
        (
            "(assert (forall ((x Int)) (=> (and (P x) (forall ((z Int)) (or (> z x) (Q z)))) false)))",
            5,
            "existential quantifier",
        ),
        (
            "(assert (forall ((x Int)) (=> (= (P x) (Q x)) false)))",
            5,
            "predicate application",
        ),
    ];
    for (body, line, word) in cases {
        let text = format!(
            "(set-logic HORN)\n(declare-fun P (Int) Bool)\n(declare-fun Q (Int) Bool)\n(declare-fun R (Int Int) Bool)\n{body}\n(check-sat)\n"
        );
        let e = parse_str(&text).unwrap_err();
        assert_eq!(e.line, line, "{body}: {e}");
        assert!(e.to_string().contains(word), "{e} should say {word}");
    }
}

/// A problem in general forms, solved and validated end to end: the clauses are
/// `x = 0 => P(x)`, `P(x) /\ x < 10 => P(x + 1)` and `P(x) => x <= 10` (sat), written
/// as a disjunction, with exists and nested implications; the unsat twin queries x = 10.
#[test]
fn general_forms_solve_end_to_end() {
    let text = |bad: &str| {
        format!(
            "(set-logic HORN)\n(declare-fun P (Int) Bool)\n\
             (assert (forall ((x Int)) (or (not (= x 0)) (P x))))\n\
             (assert (forall ((y Int)) (=> (exists ((x Int)) (and (P x) (< x 10) (= y (+ x 1)))) (P y))))\n\
             (assert (forall ((x Int)) (=> (P x) (forall ((z Int)) (=> (= z x) (not {bad}))))))\n\
             (check-sat)\n"
        )
    };
    let dir = std::env::temp_dir().join(format!("chcsolve-horn-forms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (bad, want) in [("(> z 10)", "sat"), ("(= z 10)", "unsat")] {
        let path = dir.join(format!("{want}.smt2"));
        std::fs::write(&path, text(bad)).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_chcsolve"))
            .args(["--timeout", "30"])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), want, "{bad}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// kind2's systems: MAIN's step goes through `top_step`, defined by one clause over node
/// predicates that are facts, and declared before them. Inlining to a fixpoint folds every
/// one into MAIN's step, so the preprocessed system is linear (and goes to the
/// transition-system engines).
#[test]
fn node_predicates_inline_into_a_linear_system() {
    for kind in ["sat", "unsat"] {
        let path = common::bench_dir().join(format!("nonlinear/nodes-{kind}.smt2"));
        let sys = parse_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert!(sys.clauses.iter().any(|c| c.body.len() > 1));
        let (pre, _) = chcsolve::frontend::passes::preprocess(&sys);
        let nonlinear: Vec<_> = pre
            .clauses
            .iter()
            .filter(|c| c.body.len() > 1)
            .map(|c| shape(&pre, c))
            .collect();
        assert!(
            nonlinear.is_empty(),
            "{kind}: still non-linear: {nonlinear:?}"
        );
        assert_eq!(pre.clauses.len(), 3, "{kind}: init, step, query");
    }
}

/// Quantifiers over arithmetic alone in clause bodies, as Princess writes them (`forall`
/// under `not`/`and`, under `=>` with an `or` inside, nested `forall`/`exists`, an `exists`
/// in positive position under `or`): kept as quantified constraints by the parser,
/// eliminated exactly before solving, and the planted pair of `bench-chc/hand/` answered.
#[test]
fn quantifiers_over_arithmetic_in_bodies_are_eliminated() {
    use chcsolve::logic::has_quantifier;
    for (path, want, quantified) in [
        ("hand/forall-body-sat.smt2", "sat", 4),
        ("hand/forall-body-unsat.smt2", "unsat", 1),
    ] {
        let text = std::fs::read_to_string(common::bench_dir().join(path)).unwrap();
        let sys = parse_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let n = sys
            .clauses
            .iter()
            .filter(|c| has_quantifier(&c.constraint))
            .count();
        assert_eq!(
            n, quantified,
            "{path}: clauses with a quantified constraint"
        );
        let got = common::solve_checked(path, want, vec![], 60);
        assert_eq!(got, want, "{path}");
    }
}
