use super::*;
use crate::smt::SolverKind;
use crate::testing::{engine_solver, solver, z3_unsat};
use std::time::Instant;

pub(super) fn x() -> Term {
    mk_var("x", Sort::Int)
}

pub(super) fn x1() -> Term {
    mk_var("x'", Sort::Int)
}

pub(super) fn system(init: Term, trans: Term, query: Term) -> TransitionSystem {
    TransitionSystem {
        state: vec![Var {
            name: "x".into(),
            sort: Sort::Int,
        }],
        next: vec![Var {
            name: "x'".into(),
            sort: Sort::Int,
        }],
        init,
        trans,
        query,
    }
}

/// The three conditions of an inductive invariant excluding the query, by z3.
pub(super) fn is_inductive(ts: &TransitionSystem, inv: &Term) -> bool {
    let z3 = solver(SolverKind::Z3).unwrap();
    free_vars(inv).iter().all(|v| ts.state.contains(v))
        && z3_unsat(&z3, &mk_and(vec![ts.init.clone(), mk_not(inv.clone())]))
        && z3_unsat(
            &z3,
            &mk_and(vec![inv.clone(), ts.trans.clone(), mk_not(ts.prime(inv))]),
        )
        && z3_unsat(&z3, &mk_and(vec![inv.clone(), ts.query.clone()]))
}

/// x = 0; x < n -> x' = x + 1; bad: x >= n (depth n) or x > n (safe).
pub(super) fn counter(n: i64, safe: bool) -> TransitionSystem {
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

pub(super) fn assert_cex(ts: &TransitionSystem, a: &TsAnswer, depth: usize) {
    match a {
        TsAnswer::Unsafe { k, vals } => {
            assert_eq!(*k, depth);
            assert_eq!(eval_bool(&ts.at(&ts.init, 0), vals), Ok(true));
            for i in 0..*k {
                assert_eq!(eval_bool(&ts.at(&ts.trans, i), vals), Ok(true), "trans@{i}");
            }
            assert_eq!(eval_bool(&ts.at(&ts.query, *k), vals), Ok(true));
        }
        a => panic!("expected unsafe, got {a:?}"),
    }
}

#[test]
fn finds_a_deep_counterexample_at_a_logarithmic_level() {
    let Some(cfg) = engine_solver() else { return };
    let ts = counter(1000, false);
    let mut e = Tpa::new(Config::default());
    let a = e.solve(&ts, &cfg);
    assert_cex(&ts, &a, 1000);
    // 1000 <= 2^10: level 9 covers it
    assert!(e.counters().level <= 10, "{:?}", e.counters());
}

#[test]
fn finds_short_counterexamples_of_every_length() {
    let Some(cfg) = engine_solver() else { return };
    for n in 0..6 {
        let ts = counter(n, false);
        let mut e = Tpa::new(Config::default());
        let a = e.solve(&ts, &cfg);
        assert_cex(&ts, &a, n as usize);
    }
}

#[test]
fn proves_a_bounded_counter_safe_with_an_inductive_invariant() {
    let Some(cfg) = engine_solver() else { return };
    let ts = counter(10, true);
    let mut e = Tpa::new(Config::default());
    match e.solve(&ts, &cfg) {
        TsAnswer::Safe(inv) => assert!(is_inductive(&ts, &inv), "{inv:?}"),
        a => panic!("expected safe, got {a:?}"),
    }
    assert!(e.counters().fixpoints >= 1 && e.counters().interpolants >= 1);
}

#[test]
fn proves_an_unbounded_loop_safe() {
    let Some(cfg) = engine_solver() else { return };
    // x = 0; x' = x + 2; bad: x < 0
    let ts = system(
        mk_eq(x(), mk_int(0)),
        mk_eq(x1(), mk_add(vec![x(), mk_int(2)])),
        mk_lt(x(), mk_int(0)),
    );
    let mut e = Tpa::new(Config::default());
    match e.solve(&ts, &cfg) {
        TsAnswer::Safe(inv) => assert!(is_inductive(&ts, &inv), "{inv:?}"),
        a => panic!("expected safe, got {a:?}"),
    }
}

#[test]
fn init_and_query_with_local_variables() {
    let Some(cfg) = engine_solver() else { return };
    // x = y with y >= 0 (local y); x' = x + 1; bad: x = z - 1 with z <= 0 (local z).
    // The parity variant (x = 2y against x = 2z + 1) needs parity interpolants, which only
    // SMTInterpol and z3 give, slowly and not always at every level: a known limit (README),
    // not a test of the locals.
    let y = mk_var("f.i0", Sort::Int);
    let z = mk_var("q.i0", Sort::Int);
    let ts = system(
        mk_and(vec![mk_eq(x(), y.clone()), mk_ge(y, mk_int(0))]),
        mk_eq(x1(), mk_add(vec![x(), mk_int(1)])),
        mk_and(vec![
            mk_eq(x(), mk_add(vec![z.clone(), mk_int(-1)])),
            mk_le(z, mk_int(0)),
        ]),
    );
    let mut e = Tpa::new(Config::default());
    match e.solve(&ts, &cfg) {
        TsAnswer::Safe(inv) => assert!(is_inductive(&ts, &inv), "{inv:?}"),
        a => panic!("expected safe, got {a:?}"),
    }
}

#[test]
fn stops_when_killed() {
    let Some(cfg) = engine_solver() else { return };
    // x = 0; x' = x + 1 or x' = x - 1; bad: x = 10^12: deep, and no small fixpoint
    let ts = system(
        mk_eq(x(), mk_int(0)),
        mk_or(vec![
            mk_eq(x1(), mk_add(vec![x(), mk_int(1)])),
            mk_eq(x1(), mk_add(vec![x(), mk_int(-1)])),
        ]),
        mk_eq(x(), mk_int(1_000_000_000_000i64)),
    );
    let kill = cfg.kill.clone();
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        kill.kill_all();
    });
    let start = Instant::now();
    let mut e = Tpa::new(Config::default());
    let a = e.solve(&ts, &cfg);
    killer.join().unwrap();
    assert!(matches!(a, TsAnswer::Unknown(Stop::Killed)), "{a:?}");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}
