//! Helpers shared by the tests, unit and integration: the solvers a test needs, and a check
//! of a formula by a solver process of the test's own.
//!
//! A test that needs a solver gets it from [`solver`] (or [`engine_solver`]). When the
//! solver is missing, [`skip`] decides: under `CI=true` the test fails and names the
//! missing solver (a run in CI must not pass by testing nothing); on a developer's machine
//! the test is skipped with one line on standard error. SMTInterpol is the exception: no
//! package registry provides it, so a test that needs it and finds no jar configured is
//! skipped on every machine, CI included, with the line `skipped: SMTInterpol not
//! configured` ([`missing`]).
//!
//! [`ts`] has the transition systems of the engines' tests and the checks of their answers;
//! [`timing`] the bounds on time that scale with the machine's load, and polling.

pub mod rng;
pub mod timing;
pub mod ts;

use crate::logic::{free_vars, Term};
use crate::smt::{find_solver, SatResult, Smt, SolverConfig, SolverKind};

/// True when `CI` is `true` (or `1`): missing solvers fail the tests.
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The name of the running test (the test harness names each test's thread after it).
fn test_name() -> String {
    std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string()
}

/// A test cannot run because of `why` (a missing solver, named in `why`): under `CI=true`
/// this fails the test; else it prints one `skipping` line and the caller returns.
pub fn skip(why: &str) {
    skip_in(ci(), &test_name(), why)
}

fn skip_in(ci: bool, test: &str, why: &str) {
    if ci {
        panic!("CI=true and {test} cannot run: {why} (run solvers/install)");
    }
    eprintln!("skipping {test}: {why}");
}

/// The solver `kind` is missing (`why`): SMTInterpol is skipped on every machine (it is the
/// one solver a user may not have: no registry provides it); any other solver goes to
/// [`skip`], which fails the test under `CI=true`.
pub fn missing(kind: SolverKind, why: &str) {
    if kind == SolverKind::SmtInterpol {
        eprintln!(
            "skipped: SMTInterpol not configured ({}: {why})",
            test_name()
        );
    } else {
        skip(why)
    }
}

/// The solver `kind`, with a fresh kill switch; `None` (after [`missing`]) when it is
/// missing.
pub fn solver(kind: SolverKind) -> Option<SolverConfig> {
    match find_solver(kind, None) {
        Ok(p) => Some(SolverConfig::new(kind, p)),
        Err(e) => {
            missing(kind, &e);
            None
        }
    }
}

/// The engines' solver in tests: yices (as in a run without `--solver`); on a developer's
/// machine without yices, z3.
pub fn engine_solver() -> Option<SolverConfig> {
    match find_solver(SolverKind::Yices, None) {
        Ok(p) => Some(SolverConfig::new(SolverKind::Yices, p)),
        Err(e) if ci() => {
            skip(&e);
            None
        }
        Err(_) => solver(SolverKind::Z3),
    }
}

/// The output of the z3 at `path` on `script` (read from standard input, at most
/// `seconds` in all), trimmed: for tests that send a whole script in one go (many
/// `check-sat`s or `simplify`s) and compare the answers line by line.
pub fn z3_output(path: &std::path::Path, script: &str, seconds: u32) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(path)
        .args(["-in", &format!("-T:{seconds}")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("z3 starts");
    child
        .stdin
        .take()
        .expect("z3's input")
        .write_all(script.as_bytes())
        .expect("z3 reads the script");
    let out = child.wait_with_output().expect("z3 ends");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// z3, for a test that cannot do without it (the validator's solver): a missing z3 fails
/// the test, on any machine.
pub fn z3() -> SolverConfig {
    SolverConfig::new(
        SolverKind::Z3,
        find_solver(SolverKind::Z3, None).expect("z3: run solvers/install"),
    )
}

/// yices, for a test that cannot do without it: a missing yices fails the test, on any
/// machine.
pub fn yices() -> SolverConfig {
    SolverConfig::new(
        SolverKind::Yices,
        find_solver(SolverKind::Yices, None).expect("yices: run solvers/install"),
    )
}

/// A z3 process of the test's own (labelled `test`), each check bounded to `timeout_ms`
/// and its memory to 1000 MB (quantified checks can blow up); `None` (after [`skip`]) when
/// z3 is missing.
pub fn bounded_z3(test: &str, timeout_ms: u64) -> Option<Smt> {
    let cfg = solver(SolverKind::Z3)?;
    let mut smt = Smt::new(&cfg, test).unwrap();
    smt.raw(&format!("(set-option :timeout {timeout_ms})"))
        .unwrap();
    smt.raw("(set-option :memory_max_size 1000)").unwrap();
    Some(smt)
}

/// [`engine_solver`] for a test that cannot do without it.
pub fn engine_smt() -> SolverConfig {
    engine_solver().expect("no solver for the engines: run solvers/install")
}

/// Is `q` unsatisfiable? Asked of a fresh process of `cfg` (the test's own, not the
/// engine's); a failure of the solver fails the test.
pub fn z3_unsat(cfg: &SolverConfig, q: &Term) -> bool {
    let mut s = Smt::new(cfg, "test-check").unwrap();
    for v in free_vars(q) {
        s.declare(&v).unwrap();
    }
    s.assert(q).unwrap();
    s.check_sat().unwrap() == SatResult::Unsat
}

/// A solver script that runs `real` as its child instead of `exec`ing it (as a module
/// loader or a logging wrapper may): the child writes its PID to the returned file, then
/// becomes `real`. Returns the script and the PID file, named after `tag` and this process.
#[cfg(test)]
pub fn wrapped_solver(
    real: &std::path::Path,
    tag: &str,
) -> (std::path::PathBuf, std::path::PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir();
    let id = std::process::id();
    let pidfile = dir.join(format!("chcsolve-{tag}-{id}.pid"));
    let path = dir.join(format!("chcsolve-{tag}-{id}.sh"));
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nsh -c 'echo $$ > {}; exec {} \"$@\"' sh \"$@\"\n",
            pidfile.display(),
            real.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    (path, pidfile)
}

/// The PID the child of [`wrapped_solver`] wrote (waiting up to 10 s for it to start).
#[cfg(test)]
pub fn wrapped_pid(pidfile: &std::path::Path) -> i32 {
    let start = std::time::Instant::now();
    loop {
        match std::fs::read_to_string(pidfile).map(|t| t.trim().parse()) {
            Ok(Ok(pid)) => return pid,
            _ if start.elapsed() < std::time::Duration::from_secs(10) => {
                std::thread::sleep(std::time::Duration::from_millis(5))
            }
            r => panic!("no PID from the script: {r:?}"),
        }
    }
}

/// Is the process `pid` gone (dead or a zombie) within 5 s? It is killed either way, so
/// that a failing test leaves nothing running.
#[cfg(test)]
pub fn gone_soon(pid: i32) -> bool {
    let start = std::time::Instant::now();
    while crate::smt::is_alive(pid) && start.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let gone = !crate::smt::is_alive(pid);
    crate::smt::sigkill(pid);
    gone
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "CI=true and t cannot run: yices: not found")]
    fn a_missing_solver_fails_in_ci() {
        skip_in(true, "t", "yices: not found");
    }

    #[test]
    fn a_missing_solver_skips_on_a_developer_machine() {
        skip_in(false, "t", "yices: not found");
    }
}
