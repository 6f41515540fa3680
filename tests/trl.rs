//! The `trl` engine (transitive relation learning) alone, through the command line and the
//! library: the planted `zigzag` family (a loop alternating between two modes, whose
//! reachable states are a disjunction) and every problem of `bench-chc/`. Each witness is
//! validated inside chcsolve (`--stats` reports it) and again here.

mod common;

use chcsolve::engine::EngineKind;
use common::{bench_dir, read_tsv, solve_checked};
use std::process::Command;

/// `chcsolve --engine trl --stats --print-witness FILE`: (stdout, stderr).
fn cli(path: &str) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chcsolve"))
        .args([
            "--engine",
            "trl",
            "--absint",
            "off",
            "--timeout",
            "20",
            "--stats",
            "--print-witness",
        ])
        .arg(bench_dir().join(path))
        .output()
        .expect("run chcsolve");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The value of `key` in the `; engine trl: ...` line of `--stats`.
fn trl_stat(stderr: &str, key: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("; engine trl:"))
        .unwrap_or_else(|| panic!("no trl stats in:\n{stderr}"));
    line.split(", ")
        .find_map(|f| f.strip_prefix(&format!("{key} ")))
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        .to_string()
}

/// Solves `path` with trl alone in the library and re-validates the witness; the verdict.
fn lib(path: &str, expected: &str, secs: u64) -> &'static str {
    solve_checked(path, expected, vec![EngineKind::Trl], secs)
}

/// The safe zigzag problems: trl proves each by its own diameter (not by handing over to
/// abmc, which cannot prove them), with one relation per mode at least, and the invariant
/// passes the validator.
#[test]
fn trl_proves_zigzag_safe_with_a_validated_disjunctive_invariant() {
    for n in [10, 100, 1000] {
        let path = format!("gen/zigzag-{n}-sat.smt2");
        let (out, err) = cli(&path);
        assert!(out.starts_with("sat\n"), "{path}: {out}\n{err}");
        assert!(
            out.contains("(define-fun Z "),
            "{path}: no model printed: {out}"
        );
        assert!(err.contains("; winner: trl"), "{path}: {err}");
        assert!(
            err.contains("; validations: 1 (failed: 0)"),
            "{path}: {err}"
        );
        assert_eq!(trl_stat(&err, "handed over to abmc"), "false", "{path}");
        let learned: usize = trl_stat(&err, "learned relations").parse().unwrap();
        assert!(learned >= 2, "{path}: {learned} relations learned");
        assert_eq!(lib(&path, "sat", 20), "sat", "{path}");
    }
}

/// The unsafe zigzag problems: counterexamples of 20 to 2000 steps, validated.
#[test]
fn trl_finds_zigzag_counterexamples() {
    for n in [10, 100, 1000] {
        let path = format!("gen/zigzag-{n}-unsat.smt2");
        let (out, err) = cli(&path);
        assert!(out.starts_with("unsat\n"), "{path}: {out}\n{err}");
        assert!(
            err.contains("; validations: 1 (failed: 0)"),
            "{path}: {err}"
        );
        assert_eq!(lib(&path, "unsat", 20), "unsat", "{path}");
    }
}

/// Every problem of bench-chc: never wrong, every witness valid; the safe problems trl
/// proves include the planted ones of every family with a finite diameter once extended.
#[test]
fn trl_is_never_wrong_on_bench_chc() {
    let rows = read_tsv(&bench_dir().join("expected.tsv"), &["path", "expected"]);
    let rows = std::sync::Mutex::new(rows);
    let sat = std::sync::Mutex::new(vec![]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(r) = rows.lock().unwrap().pop() else {
                    break;
                };
                if lib(&r[0], &r[1], 10) == "sat" {
                    sat.lock().unwrap().push(r[0].clone());
                }
            });
        }
    });
    let sat = sat.into_inner().unwrap();
    for path in [
        "gen/counter-100000-sat.smt2",
        "gen/updown-1000-sat.smt2",
        "gen/phase-1000-sat.smt2",
        "gen/phase-twoloop-sat.smt2",
        "gen/nested-20x50-sat.smt2",
        "gen/zigzag-1000-sat.smt2",
    ] {
        assert!(
            sat.iter().any(|p| p == path),
            "trl did not prove {path} safe; it proved {sat:?}"
        );
    }
}
