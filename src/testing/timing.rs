//! Time in tests, without assuming a machine's speed: bounds that scale with how busy the
//! machine is while the test runs, and polling with a deadline instead of fixed sleeps.
//!
//! A test asserts a property ("the run stops at its timeout", "no solver process is left"),
//! never that the machine is fast. Where the property involves time, the bound is the
//! nominal time plus a [`slack`] that grows with a *baseline*: the time a small fixed piece
//! of work takes in the same test, measured just before (a parallel `cargo test`, another
//! user's job or `nice -n 19` make both slow). A bound that only a broken build misses by
//! far (a timeout ignored, a kill switch not pulled: tens of seconds, or forever) stays
//! meaningful; one that a slow machine misses by a second does not exist here.

use crate::logic::mk_true;
use crate::smt::{SatResult, Smt, SolverConfig};
use std::time::{Duration, Instant};

/// How long [`poll_until`] waits by default: a process that should be gone, or a state
/// that should be reached, within a moment on any machine; far longer than that is a bug.
pub const POLL_LIMIT: Duration = Duration::from_secs(10);

/// The median of three timings of `work` (the first call pays for cold caches; a median
/// is not fooled by one lucky or unlucky run).
pub fn median_of_3(mut work: impl FnMut()) -> Duration {
    let mut t: Vec<Duration> = (0..3)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .collect();
    t.sort();
    t[1]
}

/// The baseline of tests that run solvers in-process: start a process of `cfg`'s solver,
/// answer `(check-sat)` on `true`, stop it (median of three).
pub fn solver_baseline(cfg: &SolverConfig) -> Duration {
    median_of_3(|| {
        let cfg = SolverConfig::new(cfg.kind, cfg.path.clone());
        let mut s = Smt::new(&cfg, "baseline").expect("the baseline's solver starts");
        s.assert(&mk_true()).unwrap();
        assert_eq!(s.check_sat(), Ok(SatResult::Sat), "the baseline's query");
    })
}

/// The slack a test allows beyond a nominal time, given a baseline measured in the same
/// test: 3 s plus 30 baselines (idle, a baseline is some 20 to 50 ms: 4 s in all; a
/// machine ten times slower gets 9 to 18 s).
pub fn slack(baseline: Duration) -> Duration {
    Duration::from_secs(3) + baseline * 30
}

/// A generous bound for something that should take `nominal`: `nominal` + [`slack`].
pub fn bound(nominal: Duration, baseline: Duration) -> Duration {
    nominal + slack(baseline)
}

/// Calls `check` every 20 ms until it gives `Some`, for at most `limit`; `None` when the
/// time ran out (the caller fails the test with what it was waiting for).
pub fn poll_until<T>(limit: Duration, mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let start = Instant::now();
    loop {
        if let Some(v) = check() {
            return Some(v);
        }
        if start.elapsed() >= limit {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Polls (see [`poll_until`], up to [`POLL_LIMIT`]) until `left()` is empty; panics with
/// `what` and what is still left when it is not by then.
#[track_caller]
pub fn wait_until_none_left<T: std::fmt::Debug>(what: &str, left: impl FnMut() -> Vec<T>) {
    wait_until_none_left_within(POLL_LIMIT, what, left)
}

/// [`wait_until_none_left`] with a limit of the caller's.
#[track_caller]
pub fn wait_until_none_left_within<T: std::fmt::Debug>(
    limit: Duration,
    what: &str,
    mut left: impl FnMut() -> Vec<T>,
) {
    let mut last = vec![];
    let gone = poll_until(limit, || {
        last = left();
        last.is_empty().then_some(())
    });
    assert!(
        gone.is_some(),
        "{what}: still there {limit:?} later: {last:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poll_until_returns_the_first_value_and_gives_up_at_its_limit() {
        let mut n = 0;
        assert_eq!(
            poll_until(POLL_LIMIT, || {
                n += 1;
                (n == 3).then_some(n)
            }),
            Some(3)
        );
        let start = Instant::now();
        assert_eq!(poll_until(Duration::from_millis(100), || None::<()>), None);
        assert!(start.elapsed() >= Duration::from_millis(100));
    }

    #[test]
    #[should_panic(expected = "children: still there")]
    fn wait_until_none_left_fails_with_what_is_left() {
        wait_until_none_left_within(Duration::from_millis(100), "children", || vec![1]);
    }

    #[test]
    fn the_slack_grows_with_the_baseline() {
        let idle = slack(Duration::from_millis(20));
        let busy = slack(Duration::from_millis(200));
        assert!(idle >= Duration::from_secs(3) && busy > idle + Duration::from_secs(5));
        assert_eq!(
            bound(Duration::from_secs(2), Duration::ZERO),
            Duration::from_secs(5)
        );
    }
}
