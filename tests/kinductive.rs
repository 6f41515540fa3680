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
    // asked for a model: the inductive strengthening, made quantifier-free and checked as
    // a model
    let (out, stats) = kind(&["--print-witness"]);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("sat"), "{stats}");
    assert!(out.contains("(define-fun Node.step"), "{out}");
    assert!(!stats.contains("inductive invariant checked"), "{stats}");
}
