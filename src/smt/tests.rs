//! Tests against real solvers; each skips (with a message) when its solver is not found,
//! and fails under `CI=true` ([`crate::testing::skip`]).

use super::*;
use crate::logic::*;
use num_bigint::BigInt;
use std::time::{Duration, Instant};

/// A configuration for `kind`, or `None` (after [`crate::testing::skip`]) when the binary
/// is not found.
fn config(kind: SolverKind, test: &str) -> Option<SolverConfig> {
    match find_solver(kind, None) {
        Ok(p) => Some(SolverConfig::new(kind, p)),
        Err(e) => {
            crate::testing::missing(kind, &format!("{test} on {kind}: {e}"));
            None
        }
    }
}

/// The incremental solvers we test on (each skips when not installed).
const KINDS: [SolverKind; 4] = [
    SolverKind::Z3,
    SolverKind::Yices,
    SolverKind::Cvc5,
    SolverKind::SmtInterpol,
];

fn int(name: &str) -> Var {
    Var {
        name: name.into(),
        sort: Sort::Int,
    }
}

fn boolean(name: &str) -> Var {
    Var {
        name: name.into(),
        sort: Sort::Bool,
    }
}

fn t(v: &Var) -> Term {
    mk_var_of(v)
}

/// Runs `f` unless the returned sender is used (or dropped) within `secs` seconds: turns a
/// test that would hang into a failing one.
fn watchdog(secs: u64, f: impl FnOnce() + Send + 'static) -> std::sync::mpsc::Sender<()> {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
            rx.recv_timeout(Duration::from_secs(secs))
        {
            eprintln!("watchdog fired after {secs} s");
            f()
        }
    });
    tx
}

fn big(s: &str) -> BigInt {
    s.parse().unwrap()
}

#[test]
fn names_round_trip() {
    for k in SolverKind::ALL {
        assert_eq!(k.to_string().parse::<SolverKind>().unwrap(), k);
    }
    assert!("boolector".parse::<SolverKind>().is_err());
    let e = find_solver(
        SolverKind::Z3,
        Some(std::path::Path::new("/nonexistent/z3")),
    );
    assert!(e.unwrap_err().contains("/nonexistent/z3"));
    fn is_send<T: Send>() {}
    is_send::<Smt>();
}

#[test]
fn sat_unsat_basics() {
    for kind in KINDS {
        let Some(cfg) = config(kind, "sat_unsat_basics") else {
            continue;
        };
        let mut s = Smt::new(&cfg, "basics").unwrap();
        let (x, y) = (int("x"), int("y"));
        s.declare(&x).unwrap();
        s.declare(&x).unwrap(); // idempotent
        s.assert(&mk_eq(mk_add(vec![t(&x), t(&y)]), mk_int(10)))
            .unwrap();
        s.assert(&mk_gt(t(&x), mk_int(3))).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat, "{kind}");
        let m = s.get_model(&[x.clone(), y.clone()]).unwrap();
        assert_eq!(eval_bool(&mk_gt(t(&x), mk_int(3)), &m), Ok(true), "{kind}");
        let sum = eval_int(&mk_add(vec![t(&x), t(&y)]), &m).unwrap();
        assert_eq!(sum, BigInt::from(10), "{kind}");
        s.assert(&mk_lt(t(&y), mk_int(0))).unwrap();
        s.assert(&mk_lt(t(&x), mk_int(0))).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Unsat, "{kind}");
        // div/mod by constants are in the fragment
        let mut s = Smt::new(&cfg, "divmod").unwrap();
        s.assert(&mk_eq(mk_mod(t(&x), big("7")), mk_int(3)))
            .unwrap();
        s.assert(&mk_eq(mk_div(t(&x), big("7")), mk_int(-2)))
            .unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat, "{kind}");
        assert_eq!(
            s.get_values(std::slice::from_ref(&x)).unwrap(),
            vec![Value::Int((-11).into())]
        );
        assert_eq!(s.stats().queries, 1);
    }
}

#[test]
fn values_negative_and_big() {
    for kind in KINDS {
        let Some(cfg) = config(kind, "values_negative_and_big") else {
            continue;
        };
        let mut s = Smt::new(&cfg, "values").unwrap();
        let (x, y, z, b) = (int("x"), int("y"), int("odd name"), boolean("b"));
        let (free, never) = (int("free"), boolean("never_declared"));
        let huge = big("1267650600228229401496703205383"); // 2^100 + 7
        let neg_huge = big("-1208925819614629174706176"); // -2^80
        s.assert(&mk_eq(t(&x), mk_int(-5))).unwrap();
        s.assert(&mk_eq(t(&y), mk_int(huge.clone()))).unwrap();
        s.assert(&mk_eq(t(&z), mk_int(neg_huge.clone()))).unwrap();
        s.assert(&t(&b)).unwrap();
        s.declare(&free).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
        let vals = s
            .get_values(&[
                x.clone(),
                y.clone(),
                z.clone(),
                b.clone(),
                free.clone(),
                never.clone(),
            ])
            .unwrap();
        assert_eq!(vals[0], Value::Int((-5).into()), "{kind}");
        assert_eq!(vals[1], Value::Int(huge.clone()), "{kind}");
        assert_eq!(vals[2], Value::Int(neg_huge.clone()), "{kind}");
        assert_eq!(vals[3], Value::Bool(true), "{kind}");
        assert_eq!(vals[4].sort(), Sort::Int, "{kind}");
        assert_eq!(vals[5], Value::Bool(false), "{kind}");
        assert!(s.get_values(&[]).unwrap().is_empty());
    }
}

#[test]
fn assumptions_and_cores() {
    for kind in KINDS {
        let Some(cfg) = config(kind, "assumptions_and_cores") else {
            continue;
        };
        let mut s = Smt::new(&cfg, "cores").unwrap();
        let x = int("x");
        let (a, b, c, d) = (boolean("a"), boolean("b"), boolean("c"), boolean("d"));
        s.assert(&mk_implies(t(&a), mk_gt(t(&x), mk_int(5))))
            .unwrap();
        s.assert(&mk_implies(t(&b), mk_lt(t(&x), mk_int(0))))
            .unwrap();
        s.assert(&mk_implies(t(&c), mk_eq(t(&x), mk_int(3))))
            .unwrap();
        s.assert(&mk_implies(mk_not(t(&d)), mk_gt(t(&x), mk_int(100))))
            .unwrap();
        let lits = vec![t(&a), t(&b), mk_not(t(&c))];
        assert_eq!(s.check_sat_assuming(&lits).unwrap(), SatResult::Unsat);
        let core = s.unsat_assumptions().unwrap();
        // cvc5's cores are not minimal: it returns all three assumptions.
        if kind != SolverKind::Cvc5 {
            assert_eq!(core.len(), 2, "{kind}: {core:?}");
        }
        assert!(core.iter().all(|l| lits.contains(l)), "{kind}: {core:?}");
        assert!(core.contains(&lits[0]) && core.contains(&lits[1]), "{kind}");
        // a negative literal in the core, given back as the same term
        let e = boolean("e");
        let lits = vec![t(&e), mk_not(t(&d)), t(&b)];
        assert_eq!(s.check_sat_assuming(&lits).unwrap(), SatResult::Unsat);
        let core = s.unsat_assumptions().unwrap();
        assert!(
            core.contains(&lits[1]) && core.contains(&lits[2]),
            "{kind}: {core:?}"
        );
        assert!(core.iter().all(|l| lits.contains(l)));
        // assumptions do not stick
        assert_eq!(s.check_sat_assuming(&[t(&a)]).unwrap(), SatResult::Sat);
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
        assert!(s.unsat_assumptions().is_err());
        // not a literal: rejected without breaking the solver
        assert!(s.check_sat_assuming(&[mk_gt(t(&x), mk_int(0))]).is_err());
        assert_eq!(s.check_sat_assuming(&[t(&b)]).unwrap(), SatResult::Sat);
        assert_eq!(s.stats().queries, 5);
    }
}

#[test]
fn push_pop() {
    for kind in KINDS {
        let Some(cfg) = config(kind, "push_pop") else {
            continue;
        };
        let mut s = Smt::new(&cfg, "pushpop").unwrap();
        let (x, z) = (int("x"), int("z"));
        s.assert(&mk_ge(t(&x), mk_int(0))).unwrap();
        s.push().unwrap();
        // `z` is declared inside the scope and forgotten by the pop
        s.assert(&mk_lt(t(&x), t(&z))).unwrap();
        s.assert(&mk_lt(t(&z), mk_int(0))).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Unsat, "{kind}");
        s.pop().unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat, "{kind}");
        s.push().unwrap();
        s.assert(&mk_eq(t(&z), mk_int(-1))).unwrap(); // declared again
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat, "{kind}");
        assert_eq!(
            s.get_values(std::slice::from_ref(&z)).unwrap(),
            vec![Value::Int((-1).into())]
        );
        s.pop().unwrap();
        assert!(s.pop().is_err());
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat, "{kind}");
    }
}

#[test]
fn raw_commands_and_errors() {
    let Some(cfg) = config(SolverKind::Z3, "raw_commands_and_errors") else {
        return;
    };
    let mut s = Smt::new(&cfg, "raw").unwrap();
    let x = int("x");
    s.declare(&x).unwrap();
    s.raw("(assert (forall ((k Int)) (=> (> k x) (> k 7))))")
        .unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    assert_eq!(
        s.get_values(std::slice::from_ref(&x)).unwrap(),
        vec![Value::Int(7.into())]
    );
    assert_eq!(s.raw_query("(get-info :name)").unwrap(), "(:name \"Z3\")");
    // a solver error breaks the solver for good
    s.raw("(assert (> undeclared_symbol 0))").unwrap();
    assert!(matches!(s.check_sat(), Err(SmtError::Solver(_))));
    assert!(matches!(s.check_sat(), Err(SmtError::Solver(_))));
    assert!(!s.is_alive());
}

/// The pigeonhole formula: `n + 1` pigeons in `n` holes (hard for both solvers when n = 13).
fn pigeonhole(s: &mut Smt, n: usize) {
    let p = |i: usize, j: usize| mk_var(&format!("p_{i}_{j}"), Sort::Bool);
    for i in 0..=n {
        s.assert(&mk_or((0..n).map(|j| p(i, j)).collect())).unwrap();
    }
    for j in 0..n {
        for i in 0..=n {
            for k in i + 1..=n {
                s.assert(&mk_or(vec![mk_not(p(i, j)), mk_not(p(k, j))]))
                    .unwrap();
            }
        }
    }
}

/// `pause` stops the solvers (state `T` in /proc), a solver started while paused too;
/// `resume` lets them go on, and a query then answers as before.
#[test]
fn pause_stops_the_solvers_until_resume() {
    let state = |pid: i32| {
        let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        s[s.rfind(')').unwrap() + 2..].chars().next().unwrap()
    };
    // the signal is sent at once; the state changes when the kernel delivers it (a moment
    // later, longer under load): polled, up to 10 s
    let reaches = |pid: i32, want: bool| {
        crate::testing::timing::poll_until(crate::testing::timing::POLL_LIMIT, || {
            ((state(pid) == 'T') == want).then_some(())
        })
        .is_some()
    };
    for kind in KINDS {
        let Some(cfg) = config(kind, "pause_stops_the_solvers_until_resume") else {
            continue;
        };
        let mut s = Smt::new(&cfg, "paused").unwrap();
        let before = kill::child_pids();
        cfg.kill.pause();
        // a solver started while paused is stopped at once: its start waits for resume
        let cfg2 = cfg.clone();
        let starter = std::thread::spawn(move || Smt::new(&cfg2, "started while paused"));
        let dog = watchdog(10, {
            let k = cfg.kill.clone();
            move || k.resume()
        });
        let late_pid =
            crate::testing::timing::poll_until(crate::testing::timing::POLL_LIMIT, || {
                let late = kill::child_pids().into_iter().find(|p| !before.contains(p));
                late.filter(|_| cfg.kill.live() == 2)
            })
            .expect("the late solver started");
        assert!(reaches(s.pid(), true), "{kind}: not stopped by pause");
        assert!(
            reaches(late_pid, true),
            "{kind}: started while paused, not stopped"
        );
        cfg.kill.resume();
        let mut late = starter.join().unwrap().unwrap();
        drop(dog);
        for p in [s.pid(), late.pid()] {
            assert!(reaches(p, false), "{kind}: still stopped after resume");
        }
        s.assert(&mk_true()).unwrap();
        assert_eq!(s.check_sat(), Ok(SatResult::Sat), "{kind}");
        assert_eq!(late.check_sat(), Ok(SatResult::Sat), "{kind}");
    }
}

#[test]
fn kill_switch_stops_a_running_query() {
    for kind in KINDS {
        let Some(cfg) = config(kind, "kill_switch_stops_a_running_query") else {
            continue;
        };
        // the load now (the baseline's solvers have their own kill switch)
        let prompt = crate::testing::timing::slack(crate::testing::timing::solver_baseline(&cfg));
        let mut s = Smt::new(&cfg, "hard").unwrap();
        let mut bystander = Smt::new(&cfg, "bystander").unwrap();
        let (pid, pid2) = (s.pid(), bystander.pid());
        assert!(kill::child_pids().contains(&pid));
        assert_eq!(cfg.kill.live(), 2);
        pigeonhole(&mut s, 13);
        let switch = cfg.kill.clone();
        let killer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            let at = Instant::now();
            switch.kill_all();
            at
        });
        let dog = watchdog(10, move || kill::sigkill(pid));
        let start = Instant::now();
        let res = s.check_sat();
        let returned = Instant::now();
        drop(dog);
        let killed_at = killer.join().unwrap();
        assert_eq!(res, Err(SmtError::Killed), "{kind}");
        assert!(returned >= killed_at, "{kind}: answered before the kill");
        // at once: within a margin that scales with the load (the query itself would run
        // until the watchdog's SIGKILL at 10 s, and fail otherwise)
        assert!(
            returned - killed_at < prompt,
            "{kind}: took {:?} after the kill (bound {prompt:?})",
            returned - killed_at
        );
        assert!(start.elapsed() >= Duration::from_millis(290));
        // everything fails promptly afterwards, nothing hangs
        assert_eq!(s.check_sat(), Err(SmtError::Killed));
        assert_eq!(bystander.assert(&mk_true()), Err(SmtError::Killed));
        assert_eq!(bystander.check_sat(), Err(SmtError::Killed));
        assert!(matches!(Smt::new(&cfg, "late"), Err(SmtError::Killed)));
        drop(s);
        drop(bystander);
        for p in [pid, pid2] {
            assert!(!kill::is_alive(p), "{kind}: pid {p} still alive");
            assert!(
                !kill::child_pids().contains(&p),
                "{kind}: pid {p} not reaped"
            );
        }
        assert_eq!(cfg.kill.live(), 0);
    }
}

#[test]
fn own_kill_and_drop() {
    let Some(cfg) = config(SolverKind::Z3, "own_kill_and_drop") else {
        return;
    };
    let mut s = Smt::new(&cfg, "own").unwrap();
    let pid = s.pid();
    s.kill();
    assert_eq!(s.check_sat(), Err(SmtError::Killed));
    drop(s);
    assert!(!kill::is_alive(pid));
    // the switch itself is untouched
    assert!(!cfg.kill.is_killed());
    let mut s = Smt::new(&cfg, "after").unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
}

#[test]
fn tee_is_replayable() {
    for kind in KINDS {
        let Some(mut cfg) = config(kind, "tee_is_replayable") else {
            continue;
        };
        let dir = std::env::temp_dir().join(format!("chcsolve-tee-{}-{kind}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        cfg.tee_dir = Some(dir.clone());
        let mut answers = vec![];
        {
            let mut s = Smt::new(&cfg, "tee/test").unwrap();
            let (x, a) = (int("x"), boolean("a"));
            s.assert(&mk_le(t(&x), mk_int(-3))).unwrap();
            answers.push(s.check_sat().unwrap());
            s.get_values(std::slice::from_ref(&x)).unwrap();
            s.push().unwrap();
            s.assert(&mk_implies(t(&a), mk_ge(t(&x), mk_int(0))))
                .unwrap();
            answers.push(s.check_sat_assuming(&[t(&a)]).unwrap());
            s.unsat_assumptions().unwrap();
            s.pop().unwrap();
            answers.push(s.check_sat().unwrap());
        }
        assert_eq!(answers, [SatResult::Sat, SatResult::Unsat, SatResult::Sat]);
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with("tee_test-") && name.ends_with(".smt2"),
            "{name}"
        );
        let (program, args) = super::process::command_line(&cfg);
        let mut cmd = std::process::Command::new(program);
        if kind != SolverKind::Z3 {
            // (z3's `-in` would read standard input instead of the file)
            cmd.args(args);
        }
        let out = if kind == SolverKind::SmtInterpol {
            // reads standard input only
            cmd.stdin(std::fs::File::open(&files[0]).unwrap())
                .output()
                .unwrap()
        } else {
            cmd.arg(&files[0]).output().unwrap()
        };
        let text = String::from_utf8_lossy(&out.stdout);
        let replayed: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| matches!(*l, "sat" | "unsat" | "unknown"))
            .collect();
        assert_eq!(replayed, ["sat", "unsat", "sat"], "{kind}: {text}");
        assert!(!text.contains("error"), "{kind}: {text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A fake solver: a shell script running `body`.
fn script(test: &str, body: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = std::env::temp_dir().join(format!("chcsolve-{test}-{}.sh", std::process::id()));
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[test]
fn chatty_stderr_does_not_block() {
    let Some(cfg) = config(SolverKind::Z3, "chatty_stderr_does_not_block") else {
        return;
    };
    // 1 MB on stderr before starting z3: far more than a pipe holds.
    let body = format!(
        "head -c 1000000 /dev/zero | tr '\\0' 'x' | fold -w 100 >&2\nexec {} \"$@\"",
        cfg.path.display()
    );
    let path = script("chatty", &body);
    let chatty = SolverConfig::new(SolverKind::Z3, &path);
    let switch = chatty.kill.clone();
    let dog = watchdog(10, move || switch.kill_all());
    let mut s = Smt::new(&chatty, "chatty").unwrap();
    drop(dog);
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    let _ = std::fs::remove_file(path);
}

#[test]
fn dead_solver_reports_stderr() {
    let path = script("dies", "echo 'boom: out of cheese' >&2\nexit 3");
    let cfg = SolverConfig::new(SolverKind::Z3, &path);
    match Smt::new(&cfg, "dies") {
        Err(SmtError::Spawn(m)) => assert!(m.contains("out of cheese"), "{m}"),
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("a dead solver started"),
    }
    // a solver that dies later, in the middle of a query
    let Some(z3) = config(SolverKind::Z3, "dead_solver_reports_stderr") else {
        return;
    };
    let mut s = Smt::new(&z3, "dies-later").unwrap();
    s.assert(&mk_var("q", Sort::Bool)).unwrap();
    kill::sigkill(s.pid());
    let r = s.check_sat();
    assert!(matches!(r, Err(SmtError::Io(_))), "{r:?}");
    assert_eq!(s.check_sat(), r);
    let _ = std::fs::remove_file(path);
}

#[test]
fn unprintable_symbols_are_rejected() {
    let Some(cfg) = config(SolverKind::Z3, "unprintable_symbols_are_rejected") else {
        return;
    };
    let mut s = Smt::new(&cfg, "unprintable").unwrap();
    let bad = mk_var("a|b", Sort::Bool);
    assert!(matches!(s.assert(&bad), Err(SmtError::Solver(_))));
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
}

/// A solver under a tiny `RLIMIT_AS` fails (at its start or at its first query) with an
/// error, never an answer; under a generous one it answers as usual.
#[test]
fn memory_limit_applies_to_the_solver_process() {
    for kind in [SolverKind::Z3, SolverKind::Yices] {
        let Some(mut cfg) = config(kind, "memory_limit_applies_to_the_solver_process") else {
            continue;
        };
        cfg.memory_limit_mb = Some(4);
        let tiny = Smt::new(&cfg, "tiny").and_then(|mut s| {
            s.declare(&int("x"))?;
            s.assert(&mk_le(mk_var("x", Sort::Int), mk_int(3)))?;
            s.check_sat()
        });
        assert!(tiny.is_err(), "{kind} answered {tiny:?} under 4 MB");
        cfg.memory_limit_mb = Some(2000);
        let mut s = Smt::new(&cfg, "generous").unwrap();
        s.declare(&int("x")).unwrap();
        s.assert(&mk_le(mk_var("x", Sort::Int), mk_int(3))).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat, "{kind}");
    }
}

/// An `unsat` under assumptions leaves the solver as it was: later checks without them are
/// `sat` again, in every solver. (SMTInterpol 2.5's own `check-sat-assuming` answers `unsat`
/// to every later check: [`Smt`]'s doc; the emulation with named assertions is what passes.)
#[test]
fn an_unsat_assumption_does_not_stick() {
    for kind in KINDS {
        let Some(cfg) = config(kind, "an_unsat_assumption_does_not_stick") else {
            continue;
        };
        let mut s = Smt::new(&cfg, "assume").unwrap();
        let (b, c, x) = (boolean("b"), boolean("c"), int("x"));
        s.assert(&mk_implies(t(&b), t(&c))).unwrap();
        s.assert(&mk_not(t(&c))).unwrap();
        s.assert(&mk_ge(t(&x), mk_int(3))).unwrap();
        let b_lit = t(&b);
        assert_eq!(
            s.check_sat_assuming(std::slice::from_ref(&b_lit)).unwrap(),
            SatResult::Unsat,
            "{kind}"
        );
        assert_eq!(
            s.unsat_assumptions().unwrap(),
            vec![b_lit.clone()],
            "{kind}"
        );
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat, "{kind}: sticks");
        let not_b = mk_not(t(&b));
        assert_eq!(
            s.check_sat_assuming(&[not_b]).unwrap(),
            SatResult::Sat,
            "{kind}"
        );
        // the model of the check under assumptions
        assert_eq!(
            s.get_values(std::slice::from_ref(&b)).unwrap(),
            vec![Value::Bool(false)],
            "{kind}"
        );
        // scopes of the caller's own around it
        s.push().unwrap();
        s.assert(&mk_le(t(&x), mk_int(2))).unwrap();
        assert_eq!(
            s.check_sat_assuming(std::slice::from_ref(&b_lit)).unwrap(),
            SatResult::Unsat,
            "{kind}"
        );
        s.pop().unwrap();
        assert_eq!(s.depth(), 0, "{kind}");
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat, "{kind}: after pop");
        assert_eq!(
            s.get_values(std::slice::from_ref(&x)).unwrap()[0].sort(),
            Sort::Int
        );
    }
}

/// Write system calls made so far by the calling thread (`/proc/thread-self/io`), or `None`
/// where the kernel does not count them.
fn writes_of_this_thread() -> Option<u64> {
    let io = std::fs::read_to_string("/proc/thread-self/io").ok()?;
    io.lines()
        .find_map(|l| l.strip_prefix("syscw:"))
        .and_then(|n| n.trim().parse().ok())
}

/// Commands that print nothing (`declare-fun`, `assert`, `push`, `pop`) wait in the pipe's
/// buffer and go out with the next query in one `write`: a query over 40 fresh variables, and
/// its `get-value`, cost a few system calls, not one or two per command and per symbol.
#[test]
fn queued_commands_go_out_with_the_next_query() {
    if writes_of_this_thread().is_none() {
        crate::testing::skip("queued_commands_go_out_with_the_next_query: no /proc/thread-self/io");
        return;
    }
    for kind in KINDS {
        let Some(cfg) = config(kind, "queued_commands_go_out_with_the_next_query") else {
            continue;
        };
        let mut s = Smt::new(&cfg, "queued").unwrap();
        let xs: Vec<Var> = (0..40).map(|i| int(&format!("q{i}"))).collect();
        let before = writes_of_this_thread().unwrap();
        s.push().unwrap();
        for (i, x) in xs.iter().enumerate() {
            s.assert(&mk_eq(t(x), mk_int(i as i64))).unwrap();
        }
        let a = boolean("qa");
        s.assert(&mk_or(vec![mk_not(t(&a)), mk_ge(t(&xs[0]), mk_int(0))]))
            .unwrap();
        assert_eq!(
            s.check_sat_assuming(&[t(&a)]).unwrap(),
            SatResult::Sat,
            "{kind}"
        );
        let vals = s.get_values(&xs).unwrap();
        let writes = writes_of_this_thread().unwrap() - before;
        let expected: Vec<Value> = (0..40).map(|i| Value::Int(i.into())).collect();
        assert_eq!(vals, expected, "{kind}");
        // 41 declarations, 41 assertions, a push, a check and a get-value: at most one write
        // for the queued commands with the check, one for the get-value (and slack for a
        // buffer that fills)
        assert!(writes <= 6, "{kind}: {writes} write calls");
        s.pop().unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat, "{kind}");
    }
}

/// z3 without array extensionality answers `sat` to `a != b, b = store(a, i, v),
/// v = a[i]`: the session turns extensionality off only while every live assertion's array
/// equalities are positive, where both theories agree, and back on for a disequality.
#[test]
fn extensionality_is_off_only_while_array_equalities_are_positive() {
    let Some(mut cfg) = config(SolverKind::Z3, "extensionality") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("chcsolve-ext-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    cfg.tee_dir = Some(dir.clone());
    cfg.arrays = true;
    let arr = array_sort(Sort::Int, Sort::Int);
    let (a, b) = (mk_var("a", arr), mk_var("b", arr));
    let (i, v) = (int("i"), int("v"));
    let mut s = Smt::new(&cfg, "ext").unwrap();
    // positive only: `b = store(a, i, v), b[i] != v` is unsat in both theories
    s.assert(&mk_arr_eq(b.clone(), mk_store(a.clone(), t(&i), t(&v))))
        .unwrap();
    s.assert(&mk_eq(t(&v), mk_select(a.clone(), t(&i))))
        .unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    s.push().unwrap();
    s.assert(&mk_not(mk_arr_eq(a.clone(), b.clone()))).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Unsat);
    s.pop().unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    drop(s);
    let text: String = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    let switches: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(":smt.array.extensional"))
        .collect();
    assert_eq!(
        switches,
        [
            "(set-option :smt.array.extensional false)",
            "(set-option :smt.array.extensional true)",
            "(set-option :smt.array.extensional false)"
        ],
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `sat` without extensionality counts only when the model satisfies the assertions: a
/// solver that answers `sat` with a model where `a = b` fails (two different constant
/// arrays) is asked again with extensionality, and its second answer is the result.
#[test]
fn a_model_without_extensionality_is_checked() {
    let body = r#"ext=on
while read -r line; do
  case "$line" in
    *"get-info :name"*) echo '(:name "fake")';;
    *"extensional false"*) ext=off;;
    *"extensional true"*) ext=on;;
    *check-sat*) if [ $ext = off ]; then echo sat; else echo unsat; fi;;
    *get-value*) echo '((a ((as const (Array Int Int)) 0)) (b ((as const (Array Int Int)) 1)))';;
  esac
done"#;
    let path = script("weak", body);
    let mut cfg = SolverConfig::new(SolverKind::Z3, &path);
    cfg.arrays = true;
    let arr = array_sort(Sort::Int, Sort::Int);
    let mut s = Smt::new(&cfg, "weak").unwrap();
    s.assert(&mk_arr_eq(mk_var("a", arr), mk_var("b", arr)))
        .unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Unsat);
    let _ = std::fs::remove_file(path);
}

/// A solver named by a script that runs it as a child instead of `exec`ing it (the child
/// writes its PID to a file, then becomes z3): the kill switch kills that child with the
/// script, so no z3 runs on with a query nobody waits for.
#[test]
fn a_solver_run_by_a_script_dies_with_the_script() {
    let Some(cfg) = config(
        SolverKind::Z3,
        "a_solver_run_by_a_script_dies_with_the_script",
    ) else {
        return;
    };
    let (path, pidfile) = crate::testing::wrapped_solver(&cfg.path, "wrapped");
    let wrapped = SolverConfig::new(SolverKind::Z3, &path);
    let mut s = Smt::new(&wrapped, "wrapped").unwrap();
    let z3 = crate::testing::wrapped_pid(&pidfile);
    assert!(kill::descendants(s.pid()).contains(&z3));
    pigeonhole(&mut s, 13);
    let switch = wrapped.kill.clone();
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        switch.kill_all();
    });
    // without the fix, the query waits for z3's answer (minutes): this ends it
    let fired = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let f = fired.clone();
    let dog = watchdog(10, move || {
        f.store(true, std::sync::atomic::Ordering::SeqCst);
        kill::sigkill(z3)
    });
    assert_eq!(s.check_sat(), Err(SmtError::Killed));
    killer.join().unwrap();
    drop(s);
    // SIGKILL is delivered at once; the re-parented child may stay a zombie a moment
    let alive = !crate::testing::gone_soon(z3);
    drop(dog);
    let _ = std::fs::remove_file(&pidfile);
    let _ = std::fs::remove_file(&path);
    assert!(!alive, "the script's z3 (pid {z3}) runs on after the kill");
    let waited = fired.load(std::sync::atomic::Ordering::SeqCst);
    assert!(
        !waited,
        "the query waited until the script's z3 was killed by hand"
    );
}
