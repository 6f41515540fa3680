//! k-induction's `sat` without a model: the k-inductive invariant is checked on the original
//! clauses (validator and judge) and is the answer; a model is made only when one is printed.

mod common;

use common::bench_dir;
use std::process::Command;

fn kind(extra: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chcsolve"))
        .args(["--engine", "kind", "--stats", "--timeout", "20"])
        .args(extra)
        .arg(bench_dir().join("real/kind2-sat.smt2"))
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_k_inductive_invariant_is_the_answer_unless_a_model_is_printed() {
    let (out, stats) = kind(&[]);
    assert_eq!(out.trim(), "sat", "{stats}");
    assert!(
        stats.contains("; validation: 2-inductive invariant checked on the original clauses"),
        "{stats}"
    );
    assert!(stats.contains("; models quantified: 0"), "{stats}");
    assert!(stats.contains("; judged: 1 by z3"), "{stats}");
    // asked for a model: the property made inductive by interpolation after the answer
    // (not by eliminating the quantifiers of the engine's strengthening), checked as a model
    let (out, stats) = kind(&["--print-witness"]);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("sat"), "{stats}");
    assert!(out.contains("(define-fun Node.step"), "{out}");
    assert!(!out.contains("exists") && !out.contains("forall"), "{out}");
    assert!(!stats.contains("inductive invariant checked"), "{stats}");
    assert!(
        stats.contains("; k-inductive models made inductive: 1 (no interpolant: 0)"),
        "{stats}"
    );
    assert!(stats.contains("; models quantified: 0"), "{stats}");
}

/// A conjunctive head (two head occurrences in one assertion): the judge does not unroll
/// it, so the k-inductive answer is not taken; the inductive strengthening is checked as a
/// model instead, and the answer is still `sat`.
#[test]
fn an_assertion_the_judge_does_not_unroll_falls_back_to_the_model() {
    // over the reals, so that the abstract-interpretation pass (integers only) stays out
    let input = "(set-logic HORN)(declare-fun S (Real Real) Bool)
(assert (forall ((a Real) (b Real)) (=> (and (= a 0.0) (= b 0.0)) (S a b))))
(assert (forall ((a Real) (b Real)) (=> (S a b) (and (S b a) (S a a)))))
(assert (forall ((a Real) (b Real)) (=> (and (S a b) (not (= a 0.0))) false)))
(check-sat)
";
    // a file: standard input is the interactive mode, which always makes models
    let path = std::env::temp_dir().join(format!("chcsolve-kind-{}.smt2", std::process::id()));
    std::fs::write(&path, input).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chcsolve"))
        .args(["--engine", "kind", "--stats", "--timeout", "20"])
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let (stdout, stats) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(stdout.trim(), "sat", "{stats}");
    assert!(!stats.contains("inductive invariant checked"), "{stats}");
    assert!(stats.contains("; judged: 2 by z3"), "{stats}");
    assert!(stats.contains("rejected: 0, undecided: 1"), "{stats}");
}
