//! The term factory's lock, counted: how often it was taken, how often another thread held
//! it, how long threads waited, and how long sweeps held it (`--stats` `term-factory`).
//! Counters for the whole process, as the factory ([`super::term`]) is one per process.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

/// How the factory's one lock fared in this process: [`factory_lock_stats`].
static LOCKS: AtomicU64 = AtomicU64::new(0);
static CONTENDED: AtomicU64 = AtomicU64::new(0);
static WAIT_NS: AtomicU64 = AtomicU64::new(0);
static SWEEPS: AtomicU64 = AtomicU64::new(0);
static SWEEP_NS: AtomicU64 = AtomicU64::new(0);
/// Set while a sweep holds the lock; a wait that begins then is counted in `SWEEP_WAIT_NS`.
static SWEEPING: AtomicBool = AtomicBool::new(false);
static SWEEP_WAIT_NS: AtomicU64 = AtomicU64::new(0);

/// `m`, locked: a `try_lock` first, and only when another thread holds it, a blocking
/// `lock` whose wait is timed (so the uncontended path reads no clock).
pub(super) fn counted_lock<T>(m: &'static Mutex<T>) -> MutexGuard<'static, T> {
    LOCKS.fetch_add(1, Relaxed);
    match m.try_lock() {
        Ok(g) => g,
        Err(TryLockError::Poisoned(e)) => e.into_inner(),
        Err(TryLockError::WouldBlock) => {
            CONTENDED.fetch_add(1, Relaxed);
            let sweeping = SWEEPING.load(Relaxed);
            let t = Instant::now();
            let g = m.lock().unwrap_or_else(|e| e.into_inner());
            let waited = t.elapsed().as_nanos() as u64;
            WAIT_NS.fetch_add(waited, Relaxed);
            if sweeping {
                SWEEP_WAIT_NS.fetch_add(waited, Relaxed);
            }
            g
        }
    }
}

/// Counters of the term factory's lock, for the whole process (the factory is one
/// interner shared by every run and thread; these measure what sharing it costs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FactoryLockStats {
    /// Times the lock was taken (one per term made, looked up or counted).
    pub acquisitions: u64,
    /// Of them, times another thread held it.
    pub contended: u64,
    /// Time spent waiting for it, summed over the threads.
    pub wait: Duration,
    /// Sweeps of the table, and the time they held the lock.
    pub sweeps: u64,
    pub sweep_time: Duration,
    /// Of [`FactoryLockStats::wait`], the waits that began while a sweep held the lock.
    pub sweep_wait: Duration,
}

/// The term factory's lock counters so far ([`FactoryLockStats`]).
pub fn factory_lock_stats() -> FactoryLockStats {
    FactoryLockStats {
        acquisitions: LOCKS.load(Relaxed),
        contended: CONTENDED.load(Relaxed),
        wait: Duration::from_nanos(WAIT_NS.load(Relaxed)),
        sweeps: SWEEPS.load(Relaxed),
        sweep_time: Duration::from_nanos(SWEEP_NS.load(Relaxed)),
        sweep_wait: Duration::from_nanos(SWEEP_WAIT_NS.load(Relaxed)),
    }
}

/// Runs `sweep` (the factory's, under its lock) and counts it.
pub(super) fn sweep(sweep: impl FnOnce()) {
    let t = Instant::now();
    SWEEPING.store(true, Relaxed);
    sweep();
    SWEEPING.store(false, Relaxed);
    SWEEPS.fetch_add(1, Relaxed);
    SWEEP_NS.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
}
