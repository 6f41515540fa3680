//! Witnesses as `--print-witness` prints them: models quantifier-free and naming every
//! predicate of the input, counterexamples in Golem's derivation format, and both accepted
//! by `scripts/check-witness` (which checks them with z3 alone).

mod common;

use common::bench_dir;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn chcsolve() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chcsolve"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `scripts/check-witness FILE -` with `output` on standard input: its verdict line.
fn check_witness(file: &Path, output: &str) -> String {
    let mut child = Command::new(root().join("scripts/check-witness"))
        .arg(file)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("scripts/check-witness runs (python3)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(output.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `chcsolve --stats FILE`: its standard error.
fn stats(file: &Path) -> String {
    let out = chcsolve()
        .args(["--stats", "--timeout", "30"])
        .arg(file)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stderr).to_string()
}

fn solve(file: &Path, extra: &[&str]) -> String {
    let out = chcsolve()
        .args(["--print-witness", "--timeout", "30"])
        .args(extra)
        .arg(file)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn the_model_of_inlined_predicates_is_quantifier_free_and_names_every_predicate() {
    let file = root().join("tests/witness/inlined-away.smt2");
    let out = solve(&file, &["--stats"]);
    assert!(out.starts_with("sat\n"), "{out}");
    assert!(!out.contains("exists") && !out.contains("forall"), "{out}");
    for p in ["|A b|", "Mid", "Inv", "Dead"] {
        assert!(
            out.contains(&format!("(define-fun {p} (")),
            "no define-fun for {p}: {out}"
        );
    }
    assert_eq!(check_witness(&file, &out), "ok (sat)", "{out}");
    // Mid's exact interpretation is an `exists`, but its one use (`Mid y /\ z = 0 => Inv y z`)
    // has every variable among Mid's argument or defined, so the weakest one needs none and
    // is taken: --stats counts no quantified model
    let err = stats(&file);
    assert!(
        err.contains("; models quantified: 0 (qe fallback: 0, qe failed: 0)"),
        "{err}"
    );
}

/// A node step with Boolean locals: the exact interpretation of the inlined `top_step` is an
/// `exists` over them, so the model takes the weakest one, over MAIN's model and the one
/// variable of MAIN's step outside `top_step`'s arguments (`inline::weakest`). It is
/// quantifier-free, and the validator and `scripts/check-witness` accept it.
#[test]
fn the_weakest_interpretation_of_an_inlined_node_step_is_valid() {
    let file = root().join("tests/witness/node-locals.smt2");
    let out = solve(&file, &[]);
    assert!(out.starts_with("sat\n"), "{out}");
    assert!(!out.contains("exists") && !out.contains("forall"), "{out}");
    assert!(out.contains("(define-fun top_step ("), "{out}");
    assert_eq!(check_witness(&file, &out), "ok (sat)", "{out}");
    // inc_step keeps its exact interpretation, an `exists` that quantifier elimination
    // removes
    let err = stats(&file);
    assert!(
        err.contains("; models quantified: 1 (qe fallback: 0, qe failed: 0)"),
        "{err}"
    );
}

/// `i:\tfact -> p1 p2` lines: (number, fact, premises).
fn golem_steps(text: &str) -> Vec<(usize, String, Vec<usize>)> {
    let mut steps = vec![];
    for line in text.lines().filter(|l| !l.is_empty()) {
        let (num, rest) = line.split_once(":\t").unwrap_or_else(|| panic!("{line:?}"));
        let (fact, prem) = match rest.split_once(" -> ") {
            Some((f, p)) => (f, p),
            None => (rest, ""),
        };
        let prem = prem
            .split_whitespace()
            .map(|p| p.parse().unwrap_or_else(|_| panic!("{line:?}")))
            .collect();
        steps.push((num.parse().unwrap(), fact.to_string(), prem));
    }
    steps
}

#[test]
fn the_default_counterexample_is_a_golem_derivation_the_checker_accepts() {
    let file = bench_dir().join("gen/counter-10-unsat.smt2");
    let out = solve(&file, &[]);
    let rest = out
        .strip_prefix("unsat\n")
        .unwrap_or_else(|| panic!("{out}"));
    // Golem's layout: `0:\ttrue`, then each step and an empty line, then an empty line
    assert!(rest.starts_with("0:\ttrue\n1:\t"), "{rest}");
    assert!(rest.ends_with(" -> \u{20}11\n\n\n"), "{rest:?}");
    let steps = golem_steps(rest);
    assert_eq!(steps.len(), 13, "{rest}");
    for (i, (n, fact, prem)) in steps.iter().enumerate() {
        assert_eq!(*n, i, "{rest}");
        if i == 0 {
            assert!(fact == "true" && prem.is_empty(), "{rest}");
        } else {
            assert!(!prem.is_empty() && prem.iter().all(|&p| p < i), "{rest}");
        }
    }
    assert_eq!(steps[12].1, "false");
    assert_eq!(steps[1].2, vec![0], "a fact's premise is step 0: {rest}");
    assert_eq!(check_witness(&file, &out), "ok (unsat)", "{out}");
    // a wrong value in a step is caught by the checker
    let bad = out.replacen("2:\t(P 1)", "2:\t(P 2)", 1);
    assert_ne!(bad, out, "{out}");
    assert!(check_witness(&file, &bad).starts_with("FAILED"), "{bad}");
}

#[test]
fn a_non_linear_derivation_names_both_premises() {
    let file = bench_dir().join("nonlinear/twice-unsat.smt2");
    let out = solve(&file, &[]);
    let rest = out
        .strip_prefix("unsat\n")
        .unwrap_or_else(|| panic!("{out}"));
    let steps = golem_steps(rest);
    assert!(steps.iter().any(|s| s.2.len() == 2), "{rest}");
    assert_eq!(check_witness(&file, &out), "ok (unsat)", "{out}");
}

#[test]
fn the_list_format_stays_available() {
    let out = solve(
        &bench_dir().join("gen/counter-10-unsat.smt2"),
        &["--witness-format", "list"],
    );
    assert!(out.starts_with("unsat\n"), "{out}");
    assert!(
        out.contains("(step 11 "),
        "counterexample of 12 steps expected: {out}"
    );
}

/// Over recursive datatypes (bench-chc/adt), `scripts/check-witness` accepts both kinds of
/// answer: a model with its size functions (`define-funs-rec`, proved at least 1 by
/// induction before the clauses are checked) and a derivation found by unfolding, printed
/// in Golem's layout like every other derivation. A wrong size function or a wrong step is
/// caught.
#[test]
fn datatype_models_and_derivations_pass_the_checker() {
    let file = bench_dir().join("adt/list-length-sat.smt2");
    let out = solve(&file, &[]);
    assert!(out.starts_with("sat\n"), "{out}");
    assert!(out.contains("define-funs-rec"), "{out}");
    assert_eq!(check_witness(&file, &out), "ok (sat)", "{out}");
    let bad = out.replacen(" 1 (+ 1 ", " 0 (+ 1 ", 1);
    assert_ne!(bad, out, "the size function's base case: {out}");
    assert!(check_witness(&file, &bad).starts_with("FAILED"), "{bad}");

    let file = bench_dir().join("adt/cex-list-append-unsat.smt2");
    let out = solve(&file, &[]);
    let rest = out
        .strip_prefix("unsat\n")
        .unwrap_or_else(|| panic!("{out}"));
    assert!(rest.starts_with("0:\ttrue\n1:\t"), "{rest}");
    assert!(rest.contains(" ->  0\n\n"), "Golem's layout: {rest:?}");
    assert_eq!(check_witness(&file, &out), "ok (unsat)", "{out}");
    let bad = out.replacen("false ->  ", "false ->  1 ", 1);
    assert_ne!(bad, out, "{out}");
    assert!(check_witness(&file, &bad).starts_with("FAILED"), "{bad}");
}

/// A derivation step whose fact holds a `lambda` (the value of an array indexed by a
/// record that no store chain writes, as chcsolve prints it) is checked by binding the
/// clause's argument variables to the values: z3 answers `unknown` on the equation of a
/// variable with a `lambda`. A step that is no instance is still rejected.
#[test]
fn a_derivation_with_a_lambda_value_is_checked() {
    let dir = std::env::temp_dir().join(format!("chcsolve-lambda-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.smt2");
    std::fs::write(
        &file,
        "(set-logic HORN)
(declare-datatypes ((R 0)) (((mk (fa (Array Int Int)) (fb Int)))))
(declare-datatypes ((W 0)) (((w (wa (Array R Int))))))
(declare-fun P (W Int) Bool)
(assert (forall ((a W) (n Int)) (=> (= n 0) (P a n))))
(assert (forall ((a W) (n Int))
  (=> (and (P a n) (= n 0) (= (select (wa a) (mk ((as const (Array Int Int)) 0) 7)) 2)) false)))
(check-sat)
",
    )
    .unwrap();
    // `a` maps a record to 2 when its array is all zeros, to 1 otherwise
    let derivation = |at_zero: u32| {
        format!(
            "unsat\n0:\ttrue\n1:\t(P (w (lambda ((r! R)) (select (select (store \
             ((as const (Array (Array Int Int) (Array Int Int))) ((as const (Array Int Int)) 1)) \
             ((as const (Array Int Int)) 0) ((as const (Array Int Int)) {at_zero})) (fa r!)) \
             (fb r!)))) 0) ->  0\n\n2:\tfalse ->  1\n"
        )
    };
    assert_eq!(check_witness(&file, &derivation(2)), "ok (unsat)");
    let wrong = check_witness(&file, &derivation(3));
    assert!(
        wrong.starts_with("FAILED") && wrong.contains("step 2"),
        "{wrong}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `let` around a clause's structure binding a bit-vector term whose first argument is a
/// literal (`(bvmul #xff x)`, as Solidity's SMTChecker writes a negation) becomes a
/// variable of the literal's sort.
#[test]
fn a_let_bound_bitvector_term_over_a_literal_has_its_sort() {
    let dir = std::env::temp_dir().join(format!("chcsolve-bvlet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.smt2");
    std::fs::write(
        &file,
        "(set-logic HORN)
(declare-fun P ((_ BitVec 8)) Bool)
(assert (forall ((x (_ BitVec 8))) (=> (= x #x01) (P x))))
(assert (forall ((x (_ BitVec 8)))
  (let ((a!1 (bvmul #xff x))) (=> (and (P x) (= a!1 #xff)) false))))
(check-sat)
",
    )
    .unwrap();
    let derivation = |x: &str| format!("unsat\n0:\ttrue\n1:\t(P {x}) ->  0\n\n2:\tfalse ->  1\n");
    assert_eq!(check_witness(&file, &derivation("#x01")), "ok (unsat)");
    let wrong = check_witness(&file, &derivation("#x02"));
    assert!(
        wrong.starts_with("FAILED") && wrong.contains("step 1"),
        "{wrong}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A model of a predicate over words and Booleans that divides is written in bit-vector
/// terms (no `bv2nat`: z3 could not decide such checks in 10 s for vmt's `nest-if6.c` of the
/// BV dev set), one of bounds alone over `bv2nat`s (which z3 decides faster there), and
/// `scripts/check-witness` accepts both.
#[test]
fn a_model_over_words_and_booleans_that_divides_is_written_in_bitvectors() {
    let dir = std::env::temp_dir().join(format!("chcsolve-bvbool-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.smt2");
    let system = |query: &str| {
        format!(
            "(set-logic HORN)
(declare-fun P (Bool (_ BitVec 8)) Bool)
(assert (forall ((b Bool) (x (_ BitVec 8))) (=> (and (not b) (= x #x00)) (P b x))))
(assert (forall ((b Bool) (x (_ BitVec 8)) (y (_ BitVec 8)))
  (=> (and (P b x) (bvult x #x10) (= y (bvadd x #x01))) (P (not b) y))))
(assert (forall ((b Bool) (x (_ BitVec 8))) (=> (and (P b x) {query}) false)))
(check-sat)
"
        )
    };
    // the top two bits, read by `extract`: a `div` in the model
    std::fs::write(&file, system("(= ((_ extract 7 6) x) #b11)")).unwrap();
    let out = solve(&file, &["--engine", "pdr"]);
    assert!(out.starts_with("sat"), "{out}");
    assert!(
        out.contains("(define-fun P (") && out.contains("bvsdiv"),
        "{out}"
    );
    assert!(!out.contains("bv2nat"), "{out}");
    assert_eq!(check_witness(&file, &out), "ok (sat)");
    // a bound alone
    std::fs::write(&file, system("(bvugt x #x11)")).unwrap();
    let out = solve(&file, &["--engine", "pdr"]);
    assert!(out.starts_with("sat") && out.contains("bv2nat"), "{out}");
    assert_eq!(check_witness(&file, &out), "ok (sat)");
    let _ = std::fs::remove_dir_all(&dir);
}
