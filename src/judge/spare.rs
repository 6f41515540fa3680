//! Judge processes started ahead of time: a run starts one process per judge when its first
//! answer comes ([`super::JudgeRun::warm_up`]), and the judge takes it once the answer is
//! validated instead of starting its own. A judge that comes while its spare is still
//! being started waits for it (up to [`WAIT_FOR_START`]) rather than start a second process
//! beside it: on two cores the two starts would take CPU from each other and from the
//! lanes still running (a counterexample's replay is done in less than a z3 start).
//! On the dev machine z3 5.4 needs 4 ms to start and 10 more for its first `check-sat`,
//! more than the whole check of a small model or a short derivation; a spare z3 is sent one
//! empty check in a scope it closes ([`Started::prime`](super::process::Started::prime)),
//! whose answer the judge reads when it takes the process.
//! A spare has read nothing of the problem, so the check still runs in a process that shares
//! nothing with the solver; it is killed when the run ends unused.

use super::process::{spawn, JudgeSolver, Started};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a judge waits for a spare being started: longer than a start (a few ms), short
/// enough that a spawn hanging in the kernel costs little.
const WAIT_FOR_START: Duration = Duration::from_millis(100);

struct Spares {
    /// The runs whose [`Warm`] guard lives: a spare is kept only while its run's is.
    open: Vec<u64>,
    /// The spares being started, with their runs.
    starting: Vec<(u64, JudgeSolver)>,
    /// Each spare with the run that started it.
    ready: Vec<(u64, JudgeSolver, Started)>,
}

static SPARES: Mutex<Spares> = Mutex::new(Spares {
    open: vec![],
    starting: vec![],
    ready: vec![],
});

/// Signalled whenever a spare's start ends (ready or failed).
static STARTED: Condvar = Condvar::new();

static NEXT: AtomicU64 = AtomicU64::new(0);

fn spares() -> MutexGuard<'static, Spares> {
    SPARES.lock().unwrap_or_else(|p| p.into_inner())
}

/// Keeps one run's spare judge processes while it lives; dropping it kills those not
/// taken.
#[derive(Debug)]
pub struct Warm(u64);

/// Starts one spare process for each of `solvers`, in the background (the caller does not
/// wait).
pub fn warm(solvers: &[JudgeSolver]) -> Warm {
    let run = NEXT.fetch_add(1, Ordering::Relaxed);
    let wanted = solvers.to_vec();
    {
        let mut s = spares();
        s.open.push(run);
        s.starting
            .extend(wanted.iter().map(|solver| (run, solver.clone())));
    }
    let started = std::thread::Builder::new()
        .name("judge-spare".into())
        .spawn(move || {
            for solver in wanted {
                let p = spawn(&solver).ok();
                let p = p.and_then(|mut p| p.prime(&solver).then_some(p));
                let mut s = spares();
                if let Some(i) = s
                    .starting
                    .iter()
                    .position(|(r, x)| *r == run && *x == solver)
                {
                    s.starting.swap_remove(i);
                }
                let open = s.open.contains(&run) && !crate::smt::shutting_down();
                match p {
                    Some(p) if open => s.ready.push((run, solver, p)),
                    // the run ended while it started: dropped (killed) after the lock
                    p => {
                        drop(s);
                        drop(p);
                    }
                }
                STARTED.notify_all();
                if !open {
                    return;
                }
            }
        });
    if started.is_err() {
        // without a thread, every check starts its own process as before
        spares().starting.retain(|(r, _)| *r != run);
    }
    Warm(run)
}

impl Drop for Warm {
    fn drop(&mut self) {
        let unused: Vec<_> = {
            let mut s = spares();
            s.open.retain(|&r| r != self.0);
            s.starting.retain(|(r, _)| *r != self.0);
            let (mine, others) = std::mem::take(&mut s.ready)
                .into_iter()
                .partition(|(r, _, _)| *r == self.0);
            s.ready = others;
            mine
        };
        drop(unused);
    }
}

/// A spare process of `solver`, if one is waiting or being started (then waited for, up to
/// [`WAIT_FOR_START`] and `deadline`); it is then no longer a spare.
pub(super) fn take(solver: &JudgeSolver, deadline: Option<Instant>) -> Option<Started> {
    let most = Instant::now() + WAIT_FOR_START;
    let until = deadline.map_or(most, |d| d.min(most));
    let mut s = spares();
    loop {
        if let Some(i) = s.ready.iter().position(|(_, r, _)| r == solver) {
            return Some(s.ready.swap_remove(i).2);
        }
        let now = Instant::now();
        if now >= until || !s.starting.iter().any(|(_, r)| r == solver) {
            return None;
        }
        s = STARTED
            .wait_timeout(s, until - now)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
}

/// How many spares of `solver` are waiting (for tests).
#[cfg(test)]
pub(super) fn waiting(solver: &JudgeSolver) -> usize {
    spares()
        .ready
        .iter()
        .filter(|(_, r, _)| r == solver)
        .count()
}

#[cfg(test)]
mod tests {
    use super::super::{judge, Judgment, Witness};
    use super::*;
    use std::time::{Duration, Instant};

    /// A judge of its own (a script that runs z3 and writes its PID), so that other tests'
    /// runs, which warm z3 itself, neither take nor add its spares.
    fn own_judge(tag: &str) -> (JudgeSolver, std::path::PathBuf) {
        let z3 = crate::testing::z3().path;
        let (path, pidfile) = crate::testing::wrapped_solver(&z3, tag);
        (JudgeSolver::Z3(path), pidfile)
    }

    fn clean(solver: &JudgeSolver, pidfile: &std::path::Path) {
        if let JudgeSolver::Z3(script) = solver {
            let _ = std::fs::remove_file(script);
        }
        let _ = std::fs::remove_file(pidfile);
    }

    /// A run's guard for a judge of its own, once its spare is ready, and the spare's PID.
    fn started(tag: &str) -> (JudgeSolver, std::path::PathBuf, Warm, i32) {
        let (solver, pidfile) = own_judge(tag);
        let warm = warm(std::slice::from_ref(&solver));
        wait_for_spare(&solver);
        let spare = crate::testing::wrapped_pid(&pidfile);
        (solver, pidfile, warm, spare)
    }

    fn wait_for_spare(solver: &JudgeSolver) {
        let start = Instant::now();
        while waiting(solver) == 0 {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no spare started"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    const COUNTER: &str = "(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (< x 10) (= y (+ x 1))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (> x 10)) false)))
(check-sat)
";

    #[test]
    fn the_first_check_takes_the_spare_and_still_judges() {
        let (solver, pidfile, warm, spare) = started("judge-spare-taken");
        let soon = Some(Instant::now() + Duration::from_secs(20));
        let s = std::slice::from_ref(&solver);
        let good = "((define-fun inv ((x Int)) Bool (and (<= 0 x) (<= x 10))))";
        let bad = "((define-fun inv ((x Int)) Bool (<= 0 x)))";
        assert_eq!(
            judge(COUNTER, 0, Witness::Model(good), s, soon),
            Judgment::Accepted
        );
        assert_eq!(waiting(&solver), 0, "the check did not take the spare");
        // the spare was the process that judged: it is gone with the check
        assert!(crate::testing::gone_soon(spare));
        // and the next check starts its own, which still rejects a wrong model
        let j = judge(COUNTER, 0, Witness::Model(bad), s, soon);
        assert!(matches!(j, Judgment::Rejected(_)), "{j:?}");
        drop(warm);
        clean(&solver, &pidfile);
    }

    /// A judge that comes while the run's spare is still starting takes it instead of
    /// starting a process of its own: one process started in all (each start of the script
    /// adds a line to a file; the script waits 0.3 s before z3 runs, so the spare's empty
    /// check is still unanswered when the judge comes).
    #[test]
    fn a_judge_waits_for_the_spare_being_started() {
        use std::os::unix::fs::PermissionsExt;
        let z3 = crate::testing::z3().path;
        let dir = std::env::temp_dir();
        let id = std::process::id();
        let starts = dir.join(format!("chcsolve-judge-spare-starts-{id}"));
        let script = dir.join(format!("chcsolve-judge-spare-slow-{id}.sh"));
        let text = format!(
            "#!/bin/sh\necho $$ >> {}\nsleep 0.3\nexec {} \"$@\"\n",
            starts.display(),
            z3.display()
        );
        std::fs::write(&script, text).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let solver = JudgeSolver::Z3(script.clone());
        let warm = warm(std::slice::from_ref(&solver));
        let soon = Some(Instant::now() + Duration::from_secs(20));
        let good = "((define-fun inv ((x Int)) Bool (and (<= 0 x) (<= x 10))))";
        let j = judge(
            COUNTER,
            0,
            Witness::Model(good),
            std::slice::from_ref(&solver),
            soon,
        );
        drop(warm);
        let lines = std::fs::read_to_string(&starts).unwrap_or_default();
        let _ = std::fs::remove_file(&script);
        let _ = std::fs::remove_file(&starts);
        assert_eq!(j, Judgment::Accepted);
        assert_eq!(lines.lines().count(), 1, "processes started: {lines}");
    }

    #[test]
    fn a_spare_not_taken_dies_with_the_run() {
        let (solver, pidfile, warm, spare) = started("judge-spare-unused");
        assert!(crate::smt::is_alive(spare));
        drop(warm);
        assert_eq!(waiting(&solver), 0);
        assert!(
            crate::testing::gone_soon(spare),
            "the unused spare outlived the run"
        );
        clean(&solver, &pidfile);
    }
}
