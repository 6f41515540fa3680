//! SIGTERM and SIGINT on a chcsolve whose solver is mid-query: `unknown`, and no solver
//! process left once chcsolve has exited (none re-parented to init; polled for up to 10 s,
//! far less than the query would take). The problem is a pigeonhole formula (11 pigeons,
//! 10 holes) in a query clause: once preprocessing has inlined its one fact, the solver
//! gets a query that takes it far longer than the test (yices needs more than 20 s).

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The state letter and parent PID of a process.
fn stat(pid: i32) -> Option<(char, i32)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &s[s.rfind(')')? + 1..];
    let mut it = rest.split_whitespace();
    Some((it.next()?.chars().next()?, it.next()?.parse().ok()?))
}

fn children(of: i32) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&p| matches!(stat(p), Some((_, pp)) if pp == of))
        .collect()
}

/// The pigeonhole problem with `n` holes, as a CHC-COMP file.
fn pigeonhole(n: usize) -> String {
    let mut cons = vec![];
    let mut decl = String::new();
    for i in 0..=n {
        let any: Vec<String> = (0..n).map(|j| format!("p{i}_{j}")).collect();
        cons.push(format!("(or {})", any.join(" ")));
        for j in 0..n {
            decl += &format!(" (p{i}_{j} Bool)");
        }
    }
    for j in 0..n {
        for i in 0..=n {
            for k in i + 1..=n {
                cons.push(format!("(not (and p{i}_{j} p{k}_{j}))"));
            }
        }
    }
    format!(
        "(set-logic HORN)\n(declare-fun P (Int) Bool)\n\
         (assert (forall ((x Int)) (=> (= x 0) (P x))))\n\
         (assert (forall ((x Int){decl}) (=> (and (P x) {}) false)))\n(check-sat)\n",
        cons.join(" ")
    )
}

fn busy_solver_then(sig: i32) {
    let dir = std::env::temp_dir().join(format!("chcsolve-signals-{}-{sig}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pigeonhole.smt2");
    std::fs::write(&file, pigeonhole(10)).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_chcsolve"))
        .args(["--timeout", "60", "--jobs", "1"])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let me = child.id() as i32;
    // every solver process seen; the signal goes once one has been busy for a while
    let mut seen: Vec<i32> = vec![];
    let start = Instant::now();
    let mut busy_since = None;
    while start.elapsed() < Duration::from_secs(40) {
        for p in children(me) {
            if !seen.contains(&p) {
                seen.push(p);
            }
        }
        let busy = seen.iter().any(|&p| matches!(stat(p), Some(('R', _))));
        if !busy {
            busy_since = None;
        } else if busy_since.get_or_insert_with(Instant::now).elapsed() > Duration::from_millis(500)
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!seen.is_empty(), "no solver process started");
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(me, sig);
    }
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let left = std::panic::catch_unwind(|| {
        common::none_alive(&format!("solver processes after signal {sig}"), &seen)
    });
    for &p in seen.iter().filter(|&&p| common::alive(p)) {
        // SAFETY: kill(2); these are the solvers the test is about, left by a broken build.
        unsafe {
            libc::kill(p, libc::SIGKILL);
        }
    }
    if let Err(e) = left {
        std::panic::resume_unwind(e);
    }
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unknown");
}

#[test]
fn sigterm_kills_a_busy_solver() {
    busy_solver_then(libc::SIGTERM);
}

#[test]
fn sigint_kills_a_busy_solver() {
    busy_solver_then(libc::SIGINT);
}
