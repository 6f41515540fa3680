//! Judge processes started ahead of time: a run starts one process per judge when its first
//! answer comes ([`super::JudgeRun::warm_up`]), and the judge takes it once the answer is
//! validated instead of starting its own.
//! On the dev machine z3 5.4 needs 4 ms to start and 10 more for its first `check-sat`,
//! more than the whole check of a small model or a short derivation; a spare z3 has run one
//! empty check in a scope it closed ([`Started::prime`](super::process::Started::prime)).
//! A spare has read nothing of the problem, so the check still runs in a process that shares
//! nothing with the solver; it is killed when the run ends unused.

use super::process::{spawn, JudgeSolver, Started};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

struct Spares {
    /// The runs whose [`Warm`] guard lives: a spare is kept only while its run's is.
    open: Vec<u64>,
    /// Each spare with the run that started it.
    ready: Vec<(u64, JudgeSolver, Started)>,
}

static SPARES: Mutex<Spares> = Mutex::new(Spares {
    open: vec![],
    ready: vec![],
});

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
    spares().open.push(run);
    let wanted = solvers.to_vec();
    // without a thread, every check starts its own process as before
    let _ = std::thread::Builder::new()
        .name("judge-spare".into())
        .spawn(move || {
            for solver in wanted {
                let Ok(mut p) = spawn(&solver) else { continue };
                if !p.prime(&solver) {
                    continue;
                }
                let mut s = spares();
                if !s.open.contains(&run) || crate::smt::shutting_down() {
                    // the run ended while it started: dropped (killed) here
                    drop(s);
                    drop(p);
                    return;
                }
                s.ready.push((run, solver, p));
            }
        });
    Warm(run)
}

impl Drop for Warm {
    fn drop(&mut self) {
        let unused: Vec<_> = {
            let mut s = spares();
            s.open.retain(|&r| r != self.0);
            let (mine, others) = std::mem::take(&mut s.ready)
                .into_iter()
                .partition(|(r, _, _)| *r == self.0);
            s.ready = others;
            mine
        };
        drop(unused);
    }
}

/// A spare process of `solver`, if one is waiting (it is then no longer a spare).
pub(super) fn take(solver: &JudgeSolver) -> Option<Started> {
    let mut s = spares();
    let i = s.ready.iter().position(|(_, r, _)| r == solver)?;
    Some(s.ready.swap_remove(i).2)
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
