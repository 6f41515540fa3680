//! A solver process started ahead of time for one configuration (the validator's z3): the
//! first [`Smt::new`] on that configuration, or on a clone of it with the same settings,
//! takes it instead of starting a process. On the dev machine z3 5.4 needs 4 ms to start
//! and about 10 more for its first `check-sat`; the answer of a small file waited for both,
//! once to complete or check the answer and once more in the judge ([`crate::judge`] keeps
//! spares of its own). The spare has run one empty check in a scope it closed, so it holds
//! no declaration and no assertion. It is killed when its [`SpareGuard`] is dropped.

use super::{Smt, SolverConfig};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// How long [`take`] waits for a spare that is still starting.
const WAIT: Duration = Duration::from_secs(1);

/// Where a configuration's spare waits; shared by the configuration's clones.
#[derive(Clone, Default)]
pub struct SpareSlot(Option<Arc<Shared>>);

struct Shared {
    /// The configuration the spare is started with (without the slot).
    key: SolverConfig,
    slot: Mutex<Slot>,
    /// Signalled when the spare is ready or failed to start.
    done: Condvar,
}

impl std::fmt::Debug for SpareSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "SpareSlot(..)" } else { "SpareSlot(none)" })
    }
}

#[derive(Default)]
struct Slot {
    /// Until the guard drops: a spare that finishes starting after it is killed at once.
    open: bool,
    /// The spare is still starting: a caller waits for it rather than start a second
    /// process beside it (it has a head start).
    starting: bool,
    ready: Option<Smt>,
}

fn lock(slot: &Mutex<Slot>) -> MutexGuard<'_, Slot> {
    slot.lock().unwrap_or_else(|p| p.into_inner())
}

/// Kills the spare, if no one took it, when dropped.
pub struct SpareGuard(Option<Arc<Shared>>);

impl Drop for SpareGuard {
    fn drop(&mut self) {
        if let Some(shared) = self.0.take() {
            let unused = {
                let mut s = lock(&shared.slot);
                s.open = false;
                s.ready.take()
            };
            shared.done.notify_all();
            drop(unused);
        }
    }
}

/// The settings that decide what a process is: a spare serves only a configuration with
/// the same ones (and the same kill switch, which must be able to kill it).
fn same(a: &SolverConfig, b: &SolverConfig) -> bool {
    a.kind == b.kind
        && a.path == b.path
        && a.interpolation == b.interpolation
        && a.reals == b.reals
        && a.arrays == b.arrays
        && a.bitvecs == b.bitvecs
        && a.memory_limit_mb == b.memory_limit_mb
        && a.tee_dir.is_none()
        && b.tee_dir.is_none()
        && a.kill.same(&b.kill)
}

impl SolverConfig {
    /// Starts a spare process of this configuration in the background (not with `tee_dir`:
    /// each process's commands go to a file named by its label); [`Smt::new`] on this
    /// configuration or its clones takes it once it is ready.
    pub fn start_spare(&mut self) -> SpareGuard {
        if self.tee_dir.is_some() {
            return SpareGuard(None);
        }
        let mut key = self.clone();
        key.spare = SpareSlot(None);
        let shared = Arc::new(Shared {
            key: key.clone(),
            slot: Mutex::new(Slot {
                open: true,
                starting: true,
                ready: None,
            }),
            done: Condvar::new(),
        });
        self.spare = SpareSlot(Some(shared.clone()));
        let cfg = key;
        let filler = shared.clone();
        let started = std::thread::Builder::new()
            .name("smt-spare".into())
            .spawn(move || {
                let smt = Smt::new(&cfg, "spare").and_then(|mut smt| smt.prime().map(|()| smt));
                let mut s = lock(&filler.slot);
                s.starting = false;
                if let (true, Ok(smt)) = (s.open, smt) {
                    s.ready = Some(smt);
                }
                drop(s);
                filler.done.notify_all();
            });
        if started.is_err() {
            lock(&shared.slot).starting = false;
        }
        SpareGuard(Some(shared))
    }
}

/// The spare of `cfg`'s slot, if one is ready for `cfg`'s settings (or becomes ready
/// within [`WAIT`]) and alive.
pub(super) fn take(cfg: &SolverConfig) -> Option<Smt> {
    let shared = cfg.spare.0.as_ref().filter(|s| same(&s.key, cfg))?;
    let mut s = lock(&shared.slot);
    let start = std::time::Instant::now();
    while s.starting && s.open {
        let left = WAIT.checked_sub(start.elapsed())?;
        s = shared
            .done
            .wait_timeout(s, left)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
    let smt = s.ready.take()?;
    drop(s);
    smt.is_alive().then_some(smt)
}

/// Whether a spare is waiting in `cfg`'s slot (for tests).
#[cfg(test)]
pub(crate) fn waiting(cfg: &SolverConfig) -> bool {
    cfg.spare.0.as_ref().is_some_and(|s| lock(&s.slot).ready.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{mk_eq, mk_int, mk_var_of, Sort, Var};

    fn wait_ready(cfg: &SolverConfig) {
        let start = std::time::Instant::now();
        while !waiting(cfg) {
            assert!(start.elapsed() < Duration::from_secs(10), "no spare started");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The first process of the configuration is the spare, it answers like a fresh one
    /// (nothing of the empty check it ran is left), and the next process is a new one.
    #[test]
    fn the_first_start_takes_the_spare_which_holds_nothing() {
        let mut cfg = crate::testing::z3();
        let guard = cfg.start_spare();
        wait_ready(&cfg);
        let spare = lock(&cfg.spare.0.as_ref().unwrap().slot).ready.as_ref().unwrap().pid();
        let mut a = Smt::new(&cfg, "first").unwrap();
        assert_eq!(a.pid(), spare, "the first start did not take the spare");
        assert!(!waiting(&cfg));
        assert_eq!(a.label(), "first");
        assert_eq!(a.stats().queries, 0);
        assert_eq!(a.depth(), 0);
        let x = Var {
            name: "x".into(),
            sort: Sort::Int,
        };
        a.declare(&x).unwrap();
        a.assert(&mk_eq(mk_var_of(&x), mk_int(3))).unwrap();
        assert_eq!(a.check_sat().unwrap(), crate::smt::SatResult::Sat);
        let b = Smt::new(&cfg, "second").unwrap();
        assert_ne!(a.pid(), b.pid());
        drop(guard);
    }

    /// A configuration with other settings (an interpolating clone) does not take it, and
    /// a spare not taken dies with its guard.
    #[test]
    fn a_spare_serves_its_own_settings_and_dies_with_its_guard() {
        let mut cfg = crate::testing::z3();
        let guard = cfg.start_spare();
        wait_ready(&cfg);
        let other = Smt::new(&cfg.interpolating(), "other").unwrap();
        assert!(waiting(&cfg), "a clone with other settings took the spare");
        let pid = {
            let s = lock(&cfg.spare.0.as_ref().unwrap().slot);
            s.ready.as_ref().unwrap().pid()
        };
        assert_ne!(other.pid(), pid);
        drop(guard);
        assert!(!waiting(&cfg));
        assert!(crate::testing::gone_soon(pid), "the unused spare outlived its guard");
    }
}
