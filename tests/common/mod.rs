//! Shared helpers for the integration tests: reading the problem lists of `bench-chc/`.
#![allow(dead_code)] // each test file uses some of these helpers

use std::path::PathBuf;

/// Runs `cmd` with `input` on its standard input; its output (stdout and stderr captured).
pub fn run_with_input(mut cmd: std::process::Command, input: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

pub fn bench_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench-chc")
}

/// Rows of a TSV with a header: the values of the named columns.
pub fn read_tsv(path: &std::path::Path, cols: &[&str]) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let idx: Vec<usize> = cols
        .iter()
        .map(|c| {
            header
                .iter()
                .position(|h| h == c)
                .unwrap_or_else(|| panic!("no column {c}"))
        })
        .collect();
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            idx.iter().map(|&i| f[i].to_string()).collect()
        })
        .collect()
}

/// An assignment of integers to variables of sort Int, by name.
pub fn ints(pairs: &[(&str, i64)]) -> chcsolve::logic::Assignment {
    pairs
        .iter()
        .map(|(n, v)| {
            (
                chcsolve::logic::Var {
                    name: (*n).into(),
                    sort: chcsolve::logic::Sort::Int,
                },
                chcsolve::logic::Value::Int(num_bigint::BigInt::from(*v)),
            )
        })
        .collect()
}

/// The z3 the validator's checks here use.
pub use chcsolve::testing::z3;

/// Solves `path` (under `bench-chc/`) with `engines` in the library, re-validates any
/// witness here, and panics on a wrong answer or a witness that failed validation inside
/// the solver. Returns the verdict word. With named engines the abstract-interpretation pass
/// is off, so that the answer is the engines' own (the pass has its own tests,
/// `tests/absint.rs`).
pub fn solve_checked(
    path: &str,
    expected: &str,
    engines: Vec<chcsolve::engine::EngineKind>,
    secs: u64,
) -> &'static str {
    use chcsolve::{solve_str, validate, Options, Verdict};
    let input = std::fs::read_to_string(bench_dir().join(path)).unwrap();
    let absint = chcsolve::absint::Config {
        enabled: engines.is_empty(),
        ..Default::default()
    };
    let opts = Options {
        engines,
        timeout: Some(std::time::Duration::from_secs(secs)),
        absint,
        ..Options::default()
    };
    let out = solve_str(&input, &opts).unwrap_or_else(|e| panic!("{path}: {e}"));
    match &out.verdict {
        Verdict::Sat(m) => {
            validate::check_model(&out.system, m, &z3(), None)
                .unwrap_or_else(|e| panic!("{path}: {e}"));
        }
        Verdict::Unsat(c) => {
            validate::check_cex(&out.system, c).unwrap_or_else(|e| panic!("{path}: {e}"));
        }
        Verdict::UnsatAccelerated(c) => {
            validate::check_accel_cex(&out.system, c, &z3(), None)
                .unwrap_or_else(|e| panic!("{path}: {e}"));
        }
        Verdict::SatKInductive { .. } => panic!("{path}: no model, though one was asked for"),
        Verdict::Unknown(_) => {}
    }
    let got = out.verdict.word();
    assert!(
        got == "unknown" || got == expected,
        "{path}: WRONG answer {got}, expected {expected}"
    );
    assert_eq!(
        out.stats.validation_failures, 0,
        "{path}: a witness failed validation"
    );
    got
}
