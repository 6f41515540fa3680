//! The front-end on small inputs: the clause graph it builds, and its errors.

use chcsolve::chc::ChcSystem;
use chcsolve::frontend::parse_str;
mod common;

use chcsolve::logic::{eval_bool, eval_int, Assignment, Sort, Value, Var};
use common::ints;
use num_bigint::BigInt;

fn parse(body: &str) -> ChcSystem {
    parse_str(&format!("(set-logic HORN)\n{body}\n(check-sat)\n(exit)\n")).unwrap()
}

#[test]
fn let_around_the_implication_and_mod() {
    let sys = parse(
        "(declare-fun P (Int) Bool)\n\
         (assert (forall ((x Int) (y Int)) (let ((a (mod x 3))) (=> (and (P x) (= y a)) (P y)))))",
    );
    let c = &sys.clauses[0];
    assert_eq!(c.body.len(), 1);
    assert!(c.head.is_some());
    assert!(eval_bool(&c.constraint, &ints(&[("x", 7), ("y", 1)])).unwrap());
    assert!(!eval_bool(&c.constraint, &ints(&[("x", -7), ("y", 1)])).unwrap()); // (mod -7 3) = 2
}

#[test]
fn bool_arguments_nullary_predicates_and_quoted_symbols() {
    let sys = parse(
        "(declare-fun |the inv| (Int Bool) Bool)\n(declare-fun go () Bool)\n\
         (assert go)\n\
         (assert (forall ((|x y| Int) (b Bool)) (=> (and go (= |x y| 0) b) (|the inv| |x y| b))))\n\
         (assert (forall ((x Int) (b Bool)) (=> (and (|the inv| x b) (not b)) false)))",
    );
    assert_eq!(sys.preds[0].name, "the inv");
    assert_eq!(sys.preds[0].sorts, vec![Sort::Int, Sort::Bool]);
    assert_eq!(sys.preds[1].sorts.len(), 0);
    assert!(sys.clauses[0].is_fact() && sys.clauses[0].head.is_some());
    assert_eq!(sys.clauses[1].body.len(), 1, "nullary body predicate");
    assert!(sys.clauses[2].is_query());
}

#[test]
fn big_and_negative_literals_ite_and_div() {
    let sys = parse(
        "(declare-fun P (Int) Bool)\n\
         (assert (forall ((x Int)) (=> (= x (+ 123456789012345678901234567890 (- 5))) (P x))))\n\
         (assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (ite (> x 0) (div x (- 2)) (* 3 x)))) (P y))))",
    );
    let big: BigInt = "123456789012345678901234567885".parse().unwrap();
    let a: Assignment = [(
        Var {
            name: "x".into(),
            sort: Sort::Int,
        },
        Value::Int(big),
    )]
    .into_iter()
    .collect();
    assert!(eval_bool(&sys.clauses[0].constraint, &a).unwrap());
    // (div 7 -2) = -3 in SMT-LIB
    assert!(eval_bool(&sys.clauses[1].constraint, &ints(&[("x", 7), ("y", -3)])).unwrap());
    assert!(eval_bool(&sys.clauses[1].constraint, &ints(&[("x", -2), ("y", -6)])).unwrap());
    let _ = eval_int; // the evaluator is also used through eval_bool above
}

#[test]
fn query_forms() {
    let sys = parse(
        "(declare-fun P (Int) Bool)\n\
         (assert (forall ((x Int)) (=> (= x 0) (P x))))\n\
         (assert (forall ((x Int)) (not (and (P x) (< x 0)))))\n\
         (assert (forall ((x Int)) (=> (P x) (>= x 0))))\n\
         (assert (forall ((x Int)) (=> (and (P x) (distinct x 1 2)) false)))",
    );
    assert_eq!(sys.clauses.iter().filter(|c| c.is_query()).count(), 3);
    // the constraint head (>= x 0) becomes the query P(x) /\ x < 0
    let q = &sys.clauses[2];
    assert!(eval_bool(&q.constraint, &ints(&[("x", -1)])).unwrap());
    assert!(!eval_bool(&q.constraint, &ints(&[("x", 0)])).unwrap());
}

#[test]
fn errors_name_the_construct_and_its_line() {
    let cases = [
        ("(declare-fun P (Int) Bool)\n(assert (forall ((x Int) (y Int))\n  (=> (and (P x) (= y (* x y))) (P y))))", 4, "non-linear"),
        ("(declare-fun P (String) Bool)", 2, "String"),
        ("(declare-fun P (Real) Bool)\n(assert (forall ((x Real) (y Real))\n  (=> (and (P x) (= y (/ x y))) (P y))))", 4, "non-linear `/`"),
        ("(declare-fun P (Int) Bool)\n(assert (forall ((x Int)) (=> (Q x) (P x))))", 3, "Q"),
        ("(declare-fun P (Int) Bool)\n(assert (forall ((x Int)) (=> (P x x) false)))", 3, "arguments"),
        ("(declare-fun P (Int) Bool)\n(assert (forall ((x Int)) (=> (ite (> x 0) (P x) true) false)))", 3, "predicate application"),
    ];
    for (body, line, word) in cases {
        let e = parse_str(&format!("(set-logic HORN)\n{body}\n(check-sat)\n")).unwrap_err();
        assert_eq!(e.line, line, "{body}: {e}");
        assert!(e.to_string().contains(word), "{e} should mention {word}");
    }
}
