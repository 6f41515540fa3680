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
        // a derivation found on the input's text (recursive datatypes): judged again here
        Verdict::Unsat(c) if c.is_empty() => {
            use chcsolve::judge::{judge, JudgeSolver, Judgment, Witness};
            let w = out.witness.as_deref().unwrap_or_default();
            let j = judge(
                &input,
                0,
                Witness::Derivation(w),
                &[JudgeSolver::Z3(z3().path)],
                None,
            );
            assert_eq!(j, Judgment::Accepted, "{path}: {w}");
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

/// The baseline of tests that run the `chcsolve` command (see
/// `chcsolve::testing::timing`): a whole run on a problem answered at once (start, parse,
/// the portfolio's first solvers, validation, exit), the median of three, measured in the
/// test that uses it so that it reflects the load at that time.
pub fn cli_baseline() -> std::time::Duration {
    let file = bench_dir().join("gen/counter-10-sat.smt2");
    chcsolve::testing::timing::median_of_3(|| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_chcsolve"))
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "sat",
            "baseline run"
        );
    })
}

/// Runs `cmd` (stdout and stderr captured) and waits for it at most `limit`; a run still
/// going then is killed (a test that is failing must not wait for a run that never ends).
/// Its output, how long it took, and whether it had to be killed.
pub fn output_within(
    mut cmd: std::process::Command,
    limit: std::time::Duration,
) -> (std::process::Output, std::time::Duration, bool) {
    use std::io::Read;
    use std::process::Stdio;
    let start = std::time::Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = vec![];
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    let status = chcsolve::testing::timing::poll_until(limit, || child.try_wait().unwrap());
    let took = start.elapsed();
    let killed = status.is_none();
    if killed {
        let _ = child.kill();
    }
    let status = child.wait().unwrap();
    let output = std::process::Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    (output, took, killed)
}

/// Processes whose command line mentions `needle` (a solver under a name unique to the
/// test, for instance): "PID: command line" each.
pub fn processes_with(needle: &str) -> Vec<String> {
    let mut found = vec![];
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(needle) && !is_zombie(&e.path()) {
                found.push(format!("{}: {cmd}", e.file_name().to_string_lossy()));
            }
        }
    }
    found
}

fn is_zombie(proc_dir: &std::path::Path) -> bool {
    std::fs::read_to_string(proc_dir.join("stat"))
        .ok()
        .and_then(|s| {
            s.rsplit(')')
                .next()
                .map(|r| r.trim_start().starts_with('Z'))
        })
        .unwrap_or(false)
}

/// Waits (polling every 20 ms, up to 10 s) until no process whose command line mentions
/// `needle` is left; fails the test, naming them, when some still run then.
#[track_caller]
pub fn no_process_left_with(needle: &str) {
    chcsolve::testing::timing::wait_until_none_left(
        &format!("processes with `{needle}` in their command line"),
        || processes_with(needle),
    );
}

/// True while `pid` runs (a zombie has finished; a reused PID is not told apart, which
/// errs on the side of failing).
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => s
            .rsplit(')')
            .next()
            .map(|r| {
                let st = r.trim_start();
                !st.starts_with('Z') && !st.starts_with('X')
            })
            .unwrap_or(false),
        Err(_) => false,
    }
}

/// Waits (polling every 20 ms, up to 10 s) until none of `pids` runs; fails the test,
/// naming `what` and the PIDs still running, when some are left then.
#[track_caller]
pub fn none_alive(what: &str, pids: &[i32]) {
    chcsolve::testing::timing::wait_until_none_left(what, || {
        pids.iter().copied().filter(|&p| alive(p)).collect()
    });
}
