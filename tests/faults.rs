//! Fault injection: a misbehaving solver (tests/faults/fake-solver.py) in place of the
//! engines' yices or the validator's z3, for every engine and the default portfolio.
//! Whatever the fault, chcsolve answers the expected answer or `unknown` (never the
//! wrong one), does not panic, honours `--timeout` (within a margin that scales with the
//! load, `chcsolve::testing::timing`), and leaves no process behind.
//! One line per fault and engine is printed (run with `--nocapture` to see the table).

mod common;

use chcsolve::testing::timing::{bound, poll_until, slack, POLL_LIMIT};
use common::{alive, bench_dir, cli_baseline, none_alive, output_within};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const FAULTS: [&str; 8] = [
    "none", "exit", "hang", "garbage", "model", "unknown", "slow", "stderr",
];
/// The engines, and `default` for the default portfolio.
const ENGINES: [&str; 12] = [
    "default",
    "bmc",
    "kind",
    "pdr",
    "abmc",
    "imc",
    "tpa",
    "split-tpa",
    "pdkind",
    "trl",
    "spacer",
    "cegar",
];
/// Seconds given to `--timeout` under a fault (a solver that hangs is stopped by it).
const TIMEOUT: u64 = 3;
/// Seconds given to `--timeout` in the control runs (fault `none`), which must answer: a
/// timeout that no machine, however loaded, reaches on these small problems.
const CONTROL_TIMEOUT: u64 = 60;

fn timeout_for(fault: &str) -> u64 {
    if fault == "none" {
        CONTROL_TIMEOUT
    } else {
        TIMEOUT
    }
}
/// The N-th check-sat is where the fault starts: the third for the engines' solver (after
/// the engine has started), the first for the validator's (it asks only a few).
fn fault_at(target: &str) -> usize {
    if target == "z3" {
        1
    } else {
        3
    }
}

fn solver(kind: chcsolve::smt::SolverKind) -> Option<PathBuf> {
    chcsolve::smt::find_solver(kind, None).ok()
}

/// A shell script that runs the fake solver in `mode` around `real`.
fn wrapper(dir: &Path, mode: &str, at: usize, real: &Path, pidfile: &Path) -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/faults/fake-solver.py");
    let name = real.file_name().unwrap().to_string_lossy().into_owned();
    // one script per run (named after its pid file): two runs writing the same script
    // race with its execution (ETXTBSY)
    let run = pidfile.file_name().unwrap().to_string_lossy().into_owned();
    let path = dir.join(format!("{name}-{mode}-{at}-{run}"));
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nexec python3 {} {mode} {at} {} {} \"$@\"\n",
            script.display(),
            pidfile.display(),
            real.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

struct Outcome {
    answer: String,
    seconds: f64,
    left: usize,
    panicked: bool,
    status: Option<i32>,
}

/// Runs chcsolve on `file` with `engine`, the fault on the engines' yices (`target ==
/// "yices"`) or on the validator's z3 (`"z3"`); a run still going at `limit` is killed.
fn run(
    dir: &Path,
    fault: &str,
    engine: &str,
    target: &str,
    file: &str,
    limit: Duration,
) -> Outcome {
    let yices = solver(chcsolve::smt::SolverKind::Yices).unwrap();
    let z3 = solver(chcsolve::smt::SolverKind::Z3).unwrap();
    let pidfile = dir.join(format!("pids-{fault}-{engine}-{target}-{file}"));
    let _ = std::fs::remove_file(&pidfile);
    std::fs::write(&pidfile, "").unwrap();
    let (yices, z3) = match target {
        "yices" => (wrapper(dir, fault, fault_at(target), &yices, &pidfile), z3),
        _ => (yices, wrapper(dir, fault, fault_at(target), &z3, &pidfile)),
    };
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chcsolve"));
    cmd.args(["--timeout", &timeout_for(fault).to_string(), "--yices"])
        .arg(&yices)
        .arg("--z3")
        .arg(&z3);
    if engine != "default" {
        cmd.args(["--engine", engine]);
    }
    cmd.arg(bench_dir().join("gen").join(file));
    let (out, took, _) = output_within(cmd, limit);
    let seconds = took.as_secs_f64();
    // A process still running 10 s after chcsolve exited is left behind (one that ignores
    // end of input, like `hang`, would run forever); exiting on its own is allowed.
    let pids: Vec<i32> = std::fs::read_to_string(&pidfile)
        .unwrap()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    let running = || pids.iter().filter(|&&p| alive(p)).count();
    let left = poll_until(POLL_LIMIT, || (running() == 0).then_some(0)).unwrap_or_else(running);
    let stderr = String::from_utf8_lossy(&out.stderr);
    Outcome {
        answer: String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_string(),
        seconds,
        left,
        panicked: stderr.contains("panicked"),
        status: out.status.code(),
    }
}

/// Runs `cases` two at a time and checks each; returns the failures.
fn check_all(
    test: &str,
    cases: Vec<(&'static str, &'static str, &'static str, &'static str)>,
) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("chcsolve-faults-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let queue = Mutex::new(cases);
    let failures = Mutex::new(vec![]);
    // the load now: a run may overshoot its timeout by `slack(baseline)`, no more
    let baseline = cli_baseline();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some((fault, engine, target, file)) = queue.lock().unwrap().pop() else {
                    break;
                };
                let limit = bound(Duration::from_secs(timeout_for(fault)), baseline);
                let o = run(&dir, fault, engine, target, file, limit);
                let expected = if file.contains("unsat") { "unsat" } else { "sat" };
                println!(
                    "fault {fault:8} on {target:5} engine {engine:8} {file:22} -> {:8} {:5.2}s, {} processes left, exit {:?}",
                    o.answer, o.seconds, o.left, o.status
                );
                let mut why = vec![];
                if o.answer != expected && o.answer != "unknown" {
                    why.push(format!("answered {:?}", o.answer));
                }
                if fault == "none" && o.answer != expected {
                    why.push("the control run did not answer".into());
                }
                if o.seconds >= limit.as_secs_f64() {
                    why.push(format!(
                        "took {:.2}s with --timeout {} (bound {limit:.2?}, killed by the test)",
                        o.seconds,
                        timeout_for(fault)
                    ));
                }
                if o.left > 0 {
                    why.push(format!("{} solver processes left", o.left));
                }
                if o.panicked {
                    why.push("panicked".into());
                }
                if o.status != Some(0) {
                    why.push(format!("exit status {:?}", o.status));
                }
                if !why.is_empty() {
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("{fault} on {target}, {engine}, {file}: {}", why.join(", ")));
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    failures.into_inner().unwrap()
}

fn solvers_present() -> bool {
    use chcsolve::smt::{find_solver, SolverKind};
    for kind in [SolverKind::Yices, SolverKind::Z3] {
        if let Err(e) = find_solver(kind, None) {
            chcsolve::testing::skip(&format!("the fault tests need yices and z3: {e}"));
            return false;
        }
    }
    if Command::new("python3").arg("--version").output().is_err() {
        chcsolve::testing::skip("the fault tests need python3");
        return false;
    }
    true
}

#[test]
fn engine_solver_faults_never_give_a_wrong_answer_or_leave_a_process() {
    if !solvers_present() {
        return;
    }
    let mut cases = vec![];
    for fault in FAULTS {
        for engine in ENGINES {
            // bmc finds counterexamples only
            let file = if engine == "bmc" {
                "counter-10-unsat.smt2"
            } else {
                "counter-10-sat.smt2"
            };
            cases.push((fault, engine, "yices", file));
        }
    }
    let failures = check_all("engines", cases);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn validator_faults_give_unknown_never_an_unchecked_answer() {
    if !solvers_present() {
        return;
    }
    let mut cases = vec![];
    for fault in FAULTS {
        for file in ["counter-10-sat.smt2", "counter-10-unsat.smt2"] {
            cases.push((fault, "default", "z3", file));
        }
    }
    let failures = check_all("validator", cases);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// SIGTERM and SIGINT (BenchExec's stop, a user's Ctrl-C) in the middle of a run: chcsolve
/// prints `unknown`, exits at once (within a second when idle; the bound is the load-scaled
/// slack of `chcsolve::testing::timing`, where the run would go on for 60 s if the signal
/// did not stop it), and leaves no solver process.
#[test]
fn signals_stop_the_run_and_leave_no_process() {
    if !solvers_present() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("chcsolve-faults-{}-signals", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prompt = slack(cli_baseline());
    for (signal, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGINT, "SIGINT")] {
        let pidfile = dir.join(format!("pids-{name}"));
        std::fs::write(&pidfile, "").unwrap();
        let yices = solver(chcsolve::smt::SolverKind::Yices).unwrap();
        let z3 = solver(chcsolve::smt::SolverKind::Z3).unwrap();
        let yices = wrapper(&dir, "none", 1, &yices, &pidfile);
        let z3 = wrapper(&dir, "none", 1, &z3, &pidfile);
        let child = Command::new(env!("CARGO_BIN_EXE_chcsolve"))
            // bmc never proves this safe counter: it runs until stopped
            .args(["--timeout", "60", "--engine", "bmc", "--yices"])
            .arg(&yices)
            .arg("--z3")
            .arg(&z3)
            .arg(bench_dir().join("gen/counter-1000000-sat.smt2"))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // the signal comes in the middle of the run: once a solver runs (at most 10 s under
        // load), and at least 1.5 s after the start
        let started = Instant::now();
        std::thread::sleep(Duration::from_millis(1500));
        while std::fs::read_to_string(&pidfile).unwrap().lines().count() == 0
            && started.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        let before = std::fs::read_to_string(&pidfile).unwrap().lines().count();
        // SAFETY: kill(2) on our own child.
        unsafe { libc::kill(child.id() as i32, signal) };
        let start = Instant::now();
        let out = child.wait_with_output().unwrap();
        let took = start.elapsed();
        let pids: Vec<i32> = std::fs::read_to_string(&pidfile)
            .unwrap()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        let answer = String::from_utf8_lossy(&out.stdout).trim().to_string();
        println!(
            "{name} after {:.1?}: {answer}, exited {took:.2?} after the signal, {} processes were running",
            started.elapsed() - took,
            before
        );
        assert!(
            before > 0,
            "{name}: no solver was running when the signal came"
        );
        assert_eq!(answer, "unknown", "{name}");
        assert!(
            took < prompt,
            "{name}: exited {took:?} after the signal (bound {prompt:?})"
        );
        none_alive(&format!("{name}: solver processes"), &pids);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Solver processes under `--memory-limit`: each runs with `RLIMIT_AS` of the limit, and one
/// that cannot live under it fails like any solver, so the answer is unknown, never wrong.
/// (This test binary does not install the counting allocator: only the children are limited.)
#[test]
fn solvers_under_a_tiny_memory_limit_give_unknown() {
    if !solvers_present() {
        return;
    }
    let problem = "(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 2))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (= x 7)) false)))
(check-sat)
";
    let opts = |mb: Option<u64>| chcsolve::Options {
        timeout: Some(Duration::from_secs(30)),
        memory_limit: mb,
        ..chcsolve::Options::default()
    };
    // the limit is what makes the difference: without it the answer is sat
    let free = chcsolve::solve_str(problem, &opts(None)).unwrap();
    assert_eq!(free.verdict.word(), "sat");
    let tiny = chcsolve::solve_str(problem, &opts(Some(4))).unwrap();
    assert_eq!(tiny.verdict.word(), "unknown", "{:?}", tiny.verdict);
    // the solvers failed: the run did not wait for its time limit
    assert!(
        !matches!(
            tiny.verdict,
            chcsolve::Verdict::Unknown(chcsolve::Reason::Timeout)
        ),
        "{:?}",
        tiny.verdict
    );
}
