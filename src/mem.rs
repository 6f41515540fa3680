//! The memory limit on chcsolve's own heap (`--memory-limit`, [`crate::Options::memory_limit`]).
//!
//! [`CountingAlloc`] wraps the system allocator and keeps the number of live heap bytes in
//! one relaxed atomic, which each thread updates in batches of [`BATCH`] bytes: a shared
//! counter touched on every allocation made the two threads of a parallel parse fight over
//! its cache line. The count is exact to within `BATCH` per thread. It never refuses an
//! allocation because of the limit: when the count passes the limit it only raises a flag,
//! which the run's stop mechanism polls (the binary's main thread every [`POLL`], the
//! portfolio loop of [`crate::solve`] as it waits for the engines). The run then stops its
//! engines and answers `unknown`. Refusing at the limit would abort the process in the middle
//! of an allocation instead; the flag leaves the headroom of one poll interval, in which a
//! run allocates a few MB at most.
//!
//! The counter only counts when the binary installs the allocator (`#[global_allocator]` in
//! `main.rs`); a library user who wants the limit installs it the same way. Without it,
//! [`used`] stays 0 and the limit never triggers.
//!
//! The solver processes are limited separately: each gets `RLIMIT_AS` of the same size (see
//! [`crate::smt::SolverConfig::memory_limit_mb`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

/// How often the stop mechanism looks at the flag.
pub const POLL: Duration = Duration::from_millis(20);

/// Live heap bytes allocated through [`CountingAlloc`], but for each thread's batch.
/// Signed: a thread may free, and report, bytes that another thread allocated and has not
/// reported yet.
static USED: AtomicIsize = AtomicIsize::new(0);

/// A thread reports its allocations once they differ by this many bytes from what it has
/// reported.
pub const BATCH: isize = 256 << 10;

thread_local! {
    /// Bytes this thread allocated (net) and has not reported in [`USED`] yet.
    static UNREPORTED: Cell<isize> = const { Cell::new(0) };
}
/// The limit in bytes (`usize::MAX`: none).
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
/// Set once [`USED`] passed [`LIMIT`]; never cleared while the limit stands.
static OVER: AtomicBool = AtomicBool::new(false);

/// The system allocator, counting live bytes against the limit.
pub struct CountingAlloc;

/// Counts `by` more live bytes (fewer when negative).
#[inline]
fn count(by: isize) {
    // a thread being torn down has no batch any more: it reports at once
    let report = UNREPORTED
        .try_with(|u| {
            let v = u.get() + by;
            if v.abs() < BATCH {
                u.set(v);
                0
            } else {
                u.set(0);
                v
            }
        })
        .unwrap_or(by);
    if report == 0 {
        return;
    }
    let now = USED.fetch_add(report, Relaxed) + report;
    if report > 0 && now.max(0) as usize > LIMIT.load(Relaxed) {
        OVER.store(true, Relaxed);
    }
}

#[inline]
fn grew(by: usize) {
    count(by as isize);
}

unsafe impl GlobalAlloc for CountingAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        count(-(layout.size() as isize));
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                count(-((layout.size() - new_size) as isize));
            }
        }
        p
    }
}

/// Live heap bytes (0 unless [`CountingAlloc`] is the global allocator).
pub fn used() -> usize {
    USED.load(Relaxed).max(0) as usize
}

/// Sets the limit in MB (`None`: no limit) and clears the flag when the heap is below it.
pub fn set_limit_mb(mb: Option<u64>) {
    let bytes = mb.map_or(usize::MAX, |mb| {
        usize::try_from(mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
    });
    LIMIT.store(bytes, Relaxed);
    OVER.store(used() > bytes, Relaxed);
}

/// The limit in MB, if one is set.
pub fn limit_mb() -> Option<u64> {
    match LIMIT.load(Relaxed) {
        usize::MAX => None,
        b => Some((b >> 20) as u64),
    }
}

/// How long a waiting thread may sleep before it looks at the limit again: [`POLL`] when a
/// limit is set, else as long as it likes.
pub fn wait_at_most(wait: Duration) -> Duration {
    if limit_mb().is_some() {
        wait.min(POLL)
    } else {
        wait
    }
}

/// True once the heap has passed the limit.
pub fn over_limit() -> bool {
    OVER.load(Relaxed)
}

/// The stack of the threads that run deep recursions on terms: the front-end, each engine's
/// lane, the judge. Only the pages a run touches are committed.
pub const BIG_STACK: usize = 256 << 20;

/// Runs `f` on a thread with a [`BIG_STACK`] and waits for it, so that a deeply nested input
/// cannot overflow the caller's stack (a library user's thread has 2 MB or less, and a stack
/// overflow aborts the whole process: `catch_unwind` cannot stop it). A panic in `f` is
/// resumed on the caller's thread. When no thread can be started, `f` runs on the caller's.
pub fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let f = std::sync::Mutex::new(Some(f));
    let run = || (f.lock().unwrap_or_else(|e| e.into_inner()).take()).map(|f| f());
    let spawned = std::thread::scope(|scope| {
        let h = std::thread::Builder::new()
            .name("chcsolve-deep".into())
            .stack_size(BIG_STACK)
            .spawn_scoped(scope, run);
        h.map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    });
    match spawned {
        Ok(Some(v)) => v,
        // the thread could not start (the closure was not taken): run here
        _ => run().expect("the closure runs once"),
    }
}
