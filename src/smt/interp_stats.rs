//! The interpolation counters of one run: kept here, with the solver configuration that
//! carries them to every engine, so that the solver layer does not depend on the
//! interpolation layer above it (which records into them, per backend name).

use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Counters of one backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BackendStats {
    /// Queries (binary or sequence) sent to it.
    pub asked: u64,
    /// Answered with interpolants that passed the check.
    pub interpolants: u64,
    /// Answered `sat`, confirmed.
    pub sat: u64,
    /// Gave no answer (unknown, time limit, unreadable term, solver failure).
    pub unknown: u64,
    /// Answers that failed the check (logged as errors).
    pub check_failures: u64,
    /// Time spent in the backend (not in checking).
    pub time: Duration,
    /// Sum of the DAG sizes of the checked interpolants.
    pub size: u64,
}

/// Where the interpolation counters of one run go: shared by every clone, so the solver
/// configuration of a run ([`SolverConfig::interp_stats`](super::SolverConfig::interp_stats)) carries one sink to all its
/// engines and their interpolators (`crate::interp`), and a fresh configuration starts a fresh sink.
#[derive(Clone, Debug, Default)]
pub struct InterpStats(Arc<Mutex<Vec<(&'static str, BackendStats)>>>);

impl InterpStats {
    /// An empty sink, not shared with any other.
    pub fn new() -> InterpStats {
        InterpStats::default()
    }

    /// Records into the counters of the backend named `b`.
    pub fn record(&self, b: &'static str, f: impl FnOnce(&mut BackendStats)) {
        let mut s = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match s.iter_mut().find(|(k, _)| *k == b) {
            Some((_, st)) => f(st),
            None => {
                let mut st = BackendStats::default();
                f(&mut st);
                s.push((b, st));
            }
        }
    }

    /// The counters of every backend asked through this sink so far, by name.
    pub fn snapshot(&self) -> Vec<(&'static str, BackendStats)> {
        let mut s = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        s.sort_by_key(|(b, _)| *b);
        s
    }
}
