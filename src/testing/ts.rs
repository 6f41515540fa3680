//! Transition systems for the tests of the transition-system engines, and checks of their
//! answers independent of the engine: an invariant by a z3 of the test's own, a
//! counterexample by exact evaluation, a stop by the kill switch.

use super::{z3, z3_unsat};
use crate::engine::{Stop, TsAnswer};
use crate::logic::*;
use crate::smt::SolverConfig;
use crate::ts::TransitionSystem;
use std::time::{Duration, Instant};

/// The state variable `x` (integer).
pub fn x() -> Term {
    mk_var("x", Sort::Int)
}

/// Its next-state copy `x'`.
pub fn x1() -> Term {
    mk_var("x'", Sort::Int)
}

/// The integer variable `n`.
pub fn int_var(n: &str) -> Var {
    Var {
        name: n.into(),
        sort: Sort::Int,
    }
}

/// The integer variable `n` as a term.
pub fn int(n: &str) -> Term {
    mk_var(n, Sort::Int)
}

/// A system over the one integer state variable `x`.
pub fn system(init: Term, trans: Term, query: Term) -> TransitionSystem {
    system_over(&["x"], init, trans, query)
}

/// A system over the integer state variables `names` (next: `n'` for each `n`).
pub fn system_over(names: &[&str], init: Term, trans: Term, query: Term) -> TransitionSystem {
    TransitionSystem {
        state: names.iter().map(|n| int_var(n)).collect(),
        next: names.iter().map(|n| int_var(&format!("{n}'"))).collect(),
        init,
        trans,
        query,
    }
}

/// x = 0; x < n -> x' = x + 1; bad: x >= n (depth n) or x > n (safe).
pub fn counter(n: i64, safe: bool) -> TransitionSystem {
    system(
        mk_eq(x(), mk_int(0)),
        mk_and(vec![
            mk_lt(x(), mk_int(n)),
            mk_eq(x1(), mk_add(vec![x(), mk_int(1)])),
        ]),
        if safe {
            mk_gt(x(), mk_int(n))
        } else {
            mk_ge(x(), mk_int(n))
        },
    )
}

/// x = 0; x' = x + 1 or x' = x - 1; bad: x = 10^12: deep, and no small invariant (for the
/// tests of a stop).
pub fn far_walk() -> TransitionSystem {
    system(
        mk_eq(x(), mk_int(0)),
        mk_or(vec![
            mk_eq(x1(), mk_add(vec![x(), mk_int(1)])),
            mk_eq(x1(), mk_add(vec![x(), mk_int(-1)])),
        ]),
        mk_eq(x(), mk_int(1_000_000_000_000i64)),
    )
}

/// The three conditions of an inductive invariant excluding the query (over the state
/// variables; `init => inv`, `inv /\ trans => inv'`, `inv /\ query` unsatisfiable), each
/// checked by `z3`: the first that fails, if any.
pub fn inductive_failure(z3: &SolverConfig, ts: &TransitionSystem, inv: &Term) -> Option<String> {
    if let Some(v) = free_vars(inv).iter().find(|v| !ts.state.contains(v)) {
        return Some(format!("the invariant mentions {}", v.name));
    }
    let conditions = [
        ("init => Inv", vec![ts.init.clone(), mk_not(inv.clone())]),
        (
            "Inv /\\ trans => Inv'",
            vec![inv.clone(), ts.trans.clone(), mk_not(ts.prime(inv))],
        ),
        ("Inv /\\ query unsat", vec![inv.clone(), ts.query.clone()]),
    ];
    conditions
        .into_iter()
        .find(|(_, q)| !z3_unsat(z3, &mk_and(q.clone())))
        .map(|(what, _)| what.to_string())
}

/// `inv` is an inductive invariant excluding the query ([`inductive_failure`], by [`z3`]).
pub fn assert_inductive(ts: &TransitionSystem, inv: &Term) {
    if let Some(what) = inductive_failure(&z3(), ts, inv) {
        panic!("{what} fails: {inv:?}");
    }
}

/// `a` is safe with an inductive invariant ([`assert_inductive`]).
pub fn assert_safe(ts: &TransitionSystem, a: &TsAnswer) {
    match a {
        TsAnswer::Safe(inv) => assert_inductive(ts, inv),
        TsAnswer::SafeKInductive { strengthening, .. } => assert_inductive(ts, strengthening),
        a => panic!("expected safe, got {a:?}"),
    }
}

/// `a` is a counterexample of `depth` steps whose values satisfy
/// `init@0 /\ trans@0..trans@(depth-1) /\ query@depth`, by exact evaluation.
pub fn assert_cex(ts: &TransitionSystem, a: &TsAnswer, depth: usize) {
    let TsAnswer::Unsafe { k, vals } = a else {
        panic!("expected unsafe, got {a:?}")
    };
    assert_eq!(*k, depth);
    assert_eq!(eval_bool(&ts.at(&ts.init, 0), vals), Ok(true));
    for i in 0..*k {
        assert_eq!(eval_bool(&ts.at(&ts.trans, i), vals), Ok(true), "trans@{i}");
    }
    assert_eq!(eval_bool(&ts.at(&ts.query, *k), vals), Ok(true));
}

/// `solve` (an engine on a problem it cannot finish soon, with `cfg`'s solvers) stops with
/// [`Stop::Killed`] when `cfg`'s kill switch is pulled after `after`, within `after` and a
/// margin that scales with the load ([`super::timing::bound`]).
pub fn assert_stops_when_killed(
    cfg: &SolverConfig,
    after: Duration,
    solve: impl FnOnce() -> TsAnswer,
) {
    let most = super::timing::bound(after, super::timing::solver_baseline(cfg));
    let kill = cfg.kill.clone();
    let killer = std::thread::spawn(move || {
        std::thread::sleep(after);
        kill.kill_all();
    });
    let start = Instant::now();
    let a = solve();
    killer.join().unwrap();
    assert!(matches!(a, TsAnswer::Unknown(Stop::Killed)), "{a:?}");
    assert!(
        start.elapsed() < most,
        "stopped {:?} after the start, killed after {after:?} (bound {most:?})",
        start.elapsed()
    );
}
