//! The `chcsolve` command as users see it: error lines on bad input, stdin, timeouts that
//! leave no solver process behind, witnesses, `--help`.

mod common;

use chcsolve::testing::timing::bound;
use common::{
    bench_dir, cli_baseline, no_process_left_with, output_within, read_tsv, run_with_input,
};
use std::process::{Command, Stdio};
use std::time::Duration;

fn chcsolve() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chcsolve"))
}

#[test]
fn bad_inputs_give_one_error_line_with_the_line_number() {
    let dir = bench_dir().join("bad");
    let rows = read_tsv(&dir.join("expected-errors.tsv"), &["path", "line", "what"]);
    assert!(rows.len() >= 10);
    for r in rows {
        let out = chcsolve().arg(dir.join(&r[0])).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}: exit status, output {stdout}",
            r[0]
        );
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 1, "{}: expected one line, got {stdout}", r[0]);
        assert!(lines[0].starts_with("(error \""), "{}: {}", r[0], lines[0]);
        if r[1] != "0" {
            let want = format!("(error \"line {}:", r[1]);
            assert!(
                lines[0].starts_with(&want),
                "{}: want {want}, got {}",
                r[0],
                lines[0]
            );
        }
    }
}

#[test]
fn reads_standard_input() {
    let input = std::fs::read(bench_dir().join("gen/counter-10-unsat.smt2")).unwrap();
    let mut cmd = chcsolve();
    cmd.arg("-");
    let out = run_with_input(cmd, &input);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unsat");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn missing_file_is_an_input_error() {
    let out = chcsolve().arg("/nonexistent/x.smt2").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("(error \"cannot read"));
}

/// `--timeout 2` ends a run within 2 s and a margin that scales with the load (see
/// `chcsolve::testing::timing`), and no solver process outlives it.
#[test]
fn timeout_is_honoured_and_kills_every_solver() {
    // A z3 under a unique name, to find its processes afterwards.
    let z3 = chcsolve::smt::find_solver(chcsolve::smt::SolverKind::Z3, None).expect("z3");
    let dir = std::env::temp_dir().join(format!("chcsolve-timeout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("z3-timeout-test");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&z3, &link).unwrap();
    let limit = bound(Duration::from_secs(2), cli_baseline());
    // ABMC finds it at once, but expanding its 10^6 steps (--expand) takes some 45 s
    // (certified without --expand, it is answered in 0.1 s): a run that ignores the
    // timeout overshoots any margin
    let mut cmd = chcsolve();
    cmd.args(["--timeout", "2", "--expand", "--z3"])
        .arg(&link)
        .arg(bench_dir().join("gen/counter-1000000-unsat.smt2"));
    let (out, took, killed) = output_within(cmd, limit);
    assert!(
        !killed,
        "still running {took:?} after the start with --timeout 2 (killed by the test)"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unknown");
    assert!(
        took < limit,
        "took {took:?} for --timeout 2 (bound {limit:?})"
    );
    no_process_left_with(link.to_str().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn witnesses_are_printed() {
    let sat = chcsolve()
        .arg("--print-witness")
        .arg(bench_dir().join("gen/counter-10-sat.smt2"))
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&sat.stdout);
    assert!(s.starts_with("sat\n"), "{s}");
    assert!(s.contains("(define-fun P ((x0 Int)) Bool"), "{s}");
    // every concrete step, even when ABMC answers with an accelerated segment
    let unsat = chcsolve()
        .args(["--print-witness", "--expand"])
        .arg(bench_dir().join("gen/counter-10-unsat.smt2"))
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&unsat.stdout);
    assert!(s.starts_with("unsat\n0:\ttrue\n"), "{s}");
    assert!(
        s.contains("\n12:\tfalse ->  11\n"),
        "a derivation of 12 clause applications after `true` expected: {s}"
    );
    // without --expand, in our list format, ABMC's segment as it is (Golem's format has no
    // segments: it expands them)
    let deep = chcsolve()
        .args([
            "--print-witness",
            "--witness-format",
            "list",
            "--engine",
            "abmc",
            "--stats",
        ])
        .arg(bench_dir().join("gen/counter-1000000-unsat.smt2"))
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&deep.stdout);
    assert!(s.starts_with("unsat\n"), "{s}");
    assert!(
        s.contains("(segment 1 (P 0) (P 1000000) (n 1000000) (cycle (line 7)) (tau "),
        "{s}"
    );
    assert!(s.contains("(step 2 (line 8) false ((x 1000000)))"), "{s}");
    let err = String::from_utf8_lossy(&deep.stderr);
    assert!(
        err.contains("; validation: certified 1 accelerated segments"),
        "{err}"
    );
}

#[test]
fn help_explains_every_option() {
    let out = chcsolve().arg("--help").output().unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    for opt in [
        "--engine",
        "--solver",
        "--timeout",
        "--memory-limit",
        "--print-witness",
        "--expand",
        "--witness-format",
        "--stats",
        "--tee",
        "--z3",
        "--yices",
        "--smtinterpol",
        "--cegar-domain",
        "--cegar-refinement",
        "--cegar-search",
        "--cegar-split",
        "--cegar-precision",
        "--cegar-prune",
        "--cegar-max-enum",
        "--cegar-max-cex",
        "--cegar-itp",
        "--verbose",
    ] {
        assert!(s.contains(opt), "--help does not mention {opt}");
    }
}

#[test]
fn stats_report_validation() {
    let out = chcsolve()
        .arg("--stats")
        .arg(bench_dir().join("gen/counter-10-sat.smt2"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("; validations: 1 (failed: 0)"), "{err}");
    assert!(
        err.contains("; features: linear, sorts Int, no quantifiers"),
        "{err}"
    );
}

/// `--engine X` on a system X does not take: one line saying so, then the default schedule.
#[test]
fn an_engine_that_does_not_take_the_system_gives_way_to_the_default() {
    let out = chcsolve()
        .args(["--engine", "tpa", "--stats"])
        .arg(bench_dir().join("array/swap-unsat.smt2"))
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(s.starts_with("unsat"), "{s} {err}");
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("--engine: tpa does not take arrays; running the default schedule"))
        .collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(err.contains("sorts Int Array"), "{err}");
}

#[test]
fn version_names_the_solvers_found() {
    let out = chcsolve().arg("--version").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("chcsolve "), "{text}");
    for s in ["z3", "yices", "cvc5", "smtinterpol"] {
        assert!(
            lines.iter().any(|l| l.starts_with(&format!("{s}: "))),
            "no line for {s}: {text}"
        );
    }
    // the tests run with z3 and yices: their versions are read from the binaries
    assert!(text.contains("Z3 version"), "{text}");
    assert!(text.contains("Yices"), "{text}");
}

#[test]
fn stats_json_is_one_json_object() {
    let out = chcsolve()
        .args(["--stats-json", "--timeout", "20"])
        .arg(bench_dir().join("gen/counter-10-unsat.smt2"))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unsat");
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err.lines().last().unwrap_or("");
    let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(v["answer"], "unsat");
    assert_eq!(v["validations"], 1);
    assert!(v["winner"].is_string() && v["engines"].is_array(), "{v}");
}

/// `--stats` must still say where the run was when the limit ended it, even in the middle
/// of parsing: a chain of 100,000 clauses (13 MB) takes longer than 1 s to parse (1.2 s
/// on an idle machine; longer under load).
#[test]
fn stats_are_printed_when_the_time_limit_ends_the_run() {
    let dir = std::env::temp_dir().join(format!("chcsolve-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("chain-100000.smt2");
    std::fs::write(&big, chain_problem(100_000)).unwrap();
    let limit = bound(Duration::from_secs(1), cli_baseline());
    for (flag, want) in [
        ("--stats", "; stopped-in: "),
        ("--stats-json", "\"stopped-in\""),
    ] {
        let mut cmd = chcsolve();
        cmd.args([flag, "--timeout", "1"]).arg(&big);
        let (out, took, killed) = output_within(cmd, limit);
        assert!(
            !killed && took < limit,
            "{flag}: took {took:?} with --timeout 1"
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unknown");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{flag}: {err}");
        assert!(err.contains("total-seconds"), "{flag}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A reader that closes the pipe early (`chcsolve --version | head -1`, a caller that stops
/// reading) costs the output, never a panic: the exit is clean and stderr has no panic.
#[test]
fn a_closed_stdout_is_not_a_panic() {
    let sat = bench_dir().join("hand/bigint-sat.smt2");
    let runs: Vec<Vec<std::ffi::OsString>> = vec![
        vec!["--version".into()],
        vec!["--print-witness".into(), sat.into()],
    ];
    for args in runs {
        let mut child = chcsolve()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

/// A linear chain of `n` predicates, each passing two counters on (about 150 bytes a clause).
fn chain_problem(n: usize) -> String {
    let mut s = String::from("(set-logic HORN)\n");
    for i in 0..n {
        s += &format!("(declare-fun P{i} (Int Int) Bool)\n");
    }
    s += "(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (P0 x y))))\n";
    for i in 0..n - 1 {
        s += &format!(
            "(assert (forall ((x Int) (y Int)) (=> (and (P{i} x y) (>= x 0)) (P{} (+ x 1) (+ y x)))))\n",
            i + 1
        );
    }
    s += &format!(
        "(assert (forall ((x Int) (y Int)) (=> (and (P{} x y) (< y 0)) false)))\n",
        n - 1
    );
    s + "(check-sat)\n"
}

#[test]
fn memory_limit_gives_unknown_and_kills_every_solver() {
    let z3 = chcsolve::smt::find_solver(chcsolve::smt::SolverKind::Z3, None).expect("z3");
    let dir = std::env::temp_dir().join(format!("chcsolve-memlimit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("z3-memlimit-test");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&z3, &link).unwrap();
    let file = dir.join("chain.smt2");
    // 3 MB of input: parsing it alone needs more than 16 MB of heap
    std::fs::write(&file, chain_problem(20_000)).unwrap();
    let mut cmd = chcsolve();
    cmd.args([
        "--memory-limit",
        "16",
        "--timeout",
        "60",
        "--solver",
        "z3",
        "--z3",
    ])
    .arg(&link)
    .arg(&file);
    // the memory limit ends the run (the log line below says so), long before the timeout
    let limit = bound(Duration::from_secs(60), Duration::ZERO);
    let (out, took, killed) = output_within(cmd, limit);
    assert!(
        !killed,
        "still running {took:?} after the start, with --timeout 60"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "unknown",
        "{err}"
    );
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        err.matches("; memory limit of 16 MB reached").count(),
        1,
        "expected the log line once: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    no_process_left_with(link.to_str().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_generous_memory_limit_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("chcsolve-memok-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("chain.smt2");
    std::fs::write(&file, chain_problem(20)).unwrap();
    let out = chcsolve()
        .args(["--memory-limit", "2000", "--timeout", "60"])
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "sat", "{err}");
    assert!(!err.contains("memory limit"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--engine cegar` options: the combinations that do not exist are an error line, the
/// ones that do answer (and the answer is validated inside).
#[test]
fn cegar_options_reject_impossible_combinations() {
    let file = bench_dir().join("cegar/flags-unsat.smt2");
    for bad in [
        &[
            "--cegar-domain",
            "pred-cart",
            "--cegar-refinement",
            "unsat-core",
        ][..],
        &[
            "--cegar-domain",
            "pred-bool",
            "--cegar-refinement",
            "expl-itp",
        ],
        &["--cegar-domain", "pred-cart", "--cegar-max-enum", "3"],
        &["--cegar-domain", "expl", "--cegar-split", "atoms"],
        &["--cegar-refinement", "seq-itp", "--cegar-max-cex", "3"],
    ] {
        let out = chcsolve()
            .args(["--engine", "cegar"])
            .args(bad)
            .arg(&file)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{bad:?}: {stdout}");
        assert!(
            stdout.starts_with("(error \"--cegar") || stdout.starts_with("(error \"cegar"),
            "{bad:?}: {stdout}"
        );
    }
    // clap rejects unknown values
    let out = chcsolve()
        .args(["--engine", "cegar", "--cegar-search", "random"])
        .arg(&file)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    for good in [
        &[
            "--cegar-domain",
            "expl",
            "--cegar-refinement",
            "unsat-core",
            "--cegar-max-enum",
            "2",
        ][..],
        &[
            "--cegar-domain",
            "pred-split",
            "--cegar-search",
            "err:2:1",
            "--cegar-split",
            "atoms",
        ],
        &[
            "--cegar-refinement",
            "multi-seq",
            "--cegar-max-cex",
            "4",
            "--cegar-prune",
            "full",
        ],
    ] {
        let out = chcsolve()
            .args(["--engine", "cegar", "--timeout", "20"])
            .args(good)
            .arg(&file)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(stdout.lines().next(), Some("unsat"), "{good:?}");
    }
}

/// The default schedule follows the clauses' shape (README, "Portfolio"): linear input gets
/// the measured table, input that preprocessing makes linear `pdr | spacer`, input that
/// stays non-linear Spacer with and without global guidance, linear input with `Real`
/// variables the measured `pdr | abmc:0.5,kind:2.5,spacer` of the LRA-Lin dev set, and
/// linear input with arrays `pdr | bmc:2,spacer`.
#[test]
fn the_default_schedule_follows_the_shape_of_the_clauses() {
    const HEAD: &str = "(set-logic HORN)
(declare-fun R (Int) Bool)
(declare-fun P (Int) Bool)
(assert (forall ((y Int)) (=> (and (>= y 1) (<= y 5)) (R y))))
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))
";
    let cases = [
        (
            "(assert (forall ((x Int) (z Int)) (=> (and (P x) (= z (+ x 1))) (P z))))",
            "schedule: pdr | spacer:2,trl",
        ),
        (
            "(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x) (R y) (= z (+ x y))) (P z))))",
            "schedule: pdr | spacer\n",
        ),
        (
            "(assert (forall ((x Int) (y Int) (z Int)) (=> (and (P x) (P y) (= z (+ x y))) (P z))))",
            "non-linear clauses remain after preprocessing",
        ),
        (
            "(assert (forall ((x Int) (z Int)) (=> (and (P x) (= z (+ x 1))) (P z))))\n(declare-fun Q (Int Real) Bool)\n(assert (forall ((x Int) (r Real)) (=> (and (P x) (= r (/ (to_real x) 2))) (Q x r))))\n(assert (forall ((x Int) (r Real) (s Real)) (=> (and (Q x r) (= s (+ r 0.5))) (Q x s))))\n(assert (forall ((x Int) (r Real)) (=> (and (Q x r) (< r 0.0)) false)))",
            "schedule: pdr | abmc:0.5,kind:2.5,spacer\n",
        ),
        (
            "(assert (forall ((x Int) (z Int)) (=> (and (P x) (= z (+ x 1))) (P z))))\n(declare-fun A ((Array Int Int)) Bool)\n(assert (forall ((a (Array Int Int))) (=> (= a ((as const (Array Int Int)) 0)) (A a))))\n(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int)) (=> (and (A a) (= b (store a i (+ (select a i) 1)))) (A b))))\n(assert (forall ((a (Array Int Int))) (=> (and (A a) (< (select a 1) 0)) false)))",
            "schedule: pdr | bmc:2,spacer\n",
        ),
    ];
    for (clause, want) in cases {
        let text = format!("{HEAD}{clause}\n(check-sat)\n");
        let mut cmd = chcsolve();
        // the abstract-interpretation pass off: it would answer before the schedule runs
        cmd.args([
            "-v",
            "--jobs",
            "2",
            "--absint",
            "off",
            "--timeout",
            "20",
            "-",
        ]);
        let out = run_with_input(cmd, text.as_bytes());
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stdout.trim(), "sat", "{clause}: {stderr}");
        assert!(
            stderr.lines().any(|l| format!("{l}\n").contains(want)),
            "{clause}: no `{}` in\n{stderr}",
            want.trim()
        );
    }
}
