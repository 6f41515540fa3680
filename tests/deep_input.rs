//! Deeply nested input never aborts a library user's process: the library's entry points
//! run the front-end and the engines on a thread with a big stack of their own, and terms
//! nested deeper than `MAX_NESTING` are an input error. A stack overflow would abort the
//! whole test binary (no `catch_unwind` stops one), so each test here passing shows it.

use chcsolve::frontend::parse::MAX_NESTING;
use chcsolve::{solve_str, Options, SolveError};
use std::time::Duration;

/// A query whose constraint nests `n` alternating `and`/`or` around an atom; the clauses
/// have a model exactly when `safe` (the atom `x < 0` can't hold for the x = 0 of the fact).
fn nested(n: usize, safe: bool) -> String {
    let mut s = String::from("(< x 0)");
    for i in 0..n {
        let op = if i % 2 == 1 { "and" } else { "or" };
        // with x = 0 every `x < i + 1` holds: the `or`s are true, and the `and`s keep it
        let atom = if safe { "(< x 0)" } else { "(< x (+ 1 1))" };
        s = format!("({op} {atom} {s})");
    }
    format!(
        "(set-logic HORN)\n(declare-fun P (Int) Bool)\n\
         (assert (forall ((x Int)) (=> (= x 0) (P x))))\n\
         (assert (forall ((x Int)) (=> (and (P x) {s}) false)))\n(check-sat)\n"
    )
}

fn opts() -> Options {
    Options {
        timeout: Some(Duration::from_secs(60)),
        ..Options::default()
    }
}

/// Runs `f` on a thread with a small stack (256 KB, smaller than any test harness's), as a
/// host program's worker thread might be.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn a_library_call_on_input_nested_100000_deep_is_an_input_error() {
    let text = nested(100_000, true);
    let r = on_small_stack(move || solve_str(&text, &opts()));
    match r {
        Err(SolveError::Input(e)) => {
            assert_eq!(e.line, 4, "{e}");
            assert!(e.to_string().contains("nested deeper than"), "{e}");
        }
        Err(e) => panic!("want an input error, got {e}"),
        Ok(out) => panic!("want an input error, got {}", out.verdict.word()),
    }
}

#[test]
fn input_nested_just_below_the_limit_is_solved_from_a_small_stack() {
    // the clause's own parentheses (assert, forall, =>, and) come on top of the chain's
    let n = MAX_NESTING - 10;
    for (safe, want) in [(true, "sat"), (false, "unsat")] {
        let text = nested(n, safe);
        let out = on_small_stack(move || solve_str(&text, &opts())).expect("solved");
        assert_eq!(out.verdict.word(), want, "nested {n} deep, safe: {safe}");
    }
}

#[test]
fn the_binary_answers_input_nested_100000_deep_with_one_error_line() {
    let dir = std::env::temp_dir().join(format!("chcsolve-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("deep.smt2");
    std::fs::write(&f, nested(100_000, true)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chcsolve"))
        .args(["--timeout", "30"])
        .arg(&f)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout.trim(),
        format!("(error \"line 4: terms nested deeper than {MAX_NESTING} parentheses are not supported\")")
    );
}
