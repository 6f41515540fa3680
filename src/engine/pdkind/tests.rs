use super::*;
use crate::smt::SolverKind;
use crate::testing::ts::{
    assert_cex, assert_safe, assert_stops_when_killed, counter, far_walk, int as v, int_var as int,
    system, x, x1,
};
use crate::testing::{engine_solver, solver, z3_unsat};

#[test]
fn proves_a_bounded_counter_safe_with_an_inductive_invariant() {
    let Some(cfg) = engine_solver() else { return };
    let ts = counter(10, true);
    let mut e = Pdkind::new(Config::default());
    let a = e.solve(&ts, &cfg);
    assert_safe(&ts, &a);
    assert!(e.counters().pushes >= 1, "{:?}", e.counters());
}

#[test]
fn finds_counterexamples_of_every_length_and_confirms_them() {
    let Some(cfg) = engine_solver() else { return };
    for n in 0..7 {
        let ts = counter(n, false);
        let mut e = Pdkind::new(Config::default());
        let a = e.solve(&ts, &cfg);
        assert_cex(&ts, &a, n as usize);
        assert_eq!(e.counters().cex_steps, n as usize);
    }
}

#[test]
fn proves_an_unbounded_loop_safe() {
    let Some(cfg) = engine_solver() else { return };
    // x = 0; x' = x + 2; bad: x < 0 or x = 7
    let ts = system(
        mk_eq(x(), mk_int(0)),
        mk_eq(x1(), mk_add(vec![x(), mk_int(2)])),
        mk_or(vec![mk_lt(x(), mk_int(0)), mk_eq(x(), mk_int(7))]),
    );
    let mut e = Pdkind::new(Config::default());
    let a = e.solve(&ts, &cfg);
    assert_safe(&ts, &a);
}

#[test]
fn init_and_query_with_local_variables() {
    let Some(cfg) = engine_solver() else { return };
    // x = 2y (local y); x' = x + 2; bad: x = 2z + 1 (local z, not defined: coefficient 2)
    let y = mk_var("f.i0", Sort::Int);
    let z = mk_var("q.i0", Sort::Int);
    let ts = system(
        mk_eq(x(), mk_mul_const(&2.into(), y)),
        mk_eq(x1(), mk_add(vec![x(), mk_int(2)])),
        mk_eq(x(), mk_add(vec![mk_mul_const(&2.into(), z), mk_int(1)])),
    );
    let mut e = Pdkind::new(Config::default());
    let a = e.solve(&ts, &cfg);
    assert_safe(&ts, &a);
    // the same query is reached when x starts odd: the model names the query's local
    let ts = TransitionSystem {
        init: mk_eq(x(), mk_int(-5)),
        ..ts
    };
    let mut e = Pdkind::new(Config::default());
    let a = e.solve(&ts, &cfg);
    assert_cex(&ts, &a, 0);
}

/// `a = b = c = 0; a' = b, b' = a, c' = c + 1`: `a` and `b` swap, `c` counts. Bad: `a = 1`. `a = 0` is 2-inductive but not 1-inductive (from `a = 0,
/// b = 1` one step reaches `a = 1`); the invariant needs `b = 0` too.
fn swap() -> TransitionSystem {
    TransitionSystem {
        state: vec![int("a"), int("b"), int("c")],
        next: vec![int("a'"), int("b'"), int("c'")],
        init: mk_and(vec![
            mk_eq(v("a"), mk_int(0)),
            mk_eq(v("b"), mk_int(0)),
            mk_eq(v("c"), mk_int(0)),
        ]),
        trans: mk_and(vec![
            mk_eq(v("a'"), v("b")),
            mk_eq(v("b'"), v("a")),
            mk_eq(v("c'"), mk_add(vec![v("c"), mk_int(1)])),
        ]),
        query: mk_eq(v("a"), mk_int(1)),
    }
}

#[test]
fn a_two_inductive_property_gives_an_inductive_invariant() {
    let Some(cfg) = engine_solver() else { return };
    let ts = swap();
    let z3 = solver(SolverKind::Z3).unwrap();
    let p = mk_not(ts.query.clone());
    assert!(
        !z3_unsat(
            &z3,
            &mk_and(vec![p.clone(), ts.trans.clone(), mk_not(ts.prime(&p))])
        ),
        "the property should not be 1-inductive"
    );
    let mut e = Pdkind::new(Config::default());
    let a = e.solve(&ts, &cfg);
    assert_safe(&ts, &a);
}

#[test]
fn two_counters_crossing_over() {
    let Some(cfg) = engine_solver() else { return };
    // x = y = 0; x' = y + 1, y' = x + 1; bad: x < 0. `x >= 0` is 2-inductive (x2 = x0 + 2)
    // but not 1-inductive (x = 0, y = -5 steps to x = -4).
    let ts = TransitionSystem {
        state: vec![int("x"), int("y")],
        next: vec![int("x'"), int("y'")],
        init: mk_and(vec![mk_eq(v("x"), mk_int(0)), mk_eq(v("y"), mk_int(0))]),
        trans: mk_and(vec![
            mk_eq(v("x'"), mk_add(vec![v("y"), mk_int(1)])),
            mk_eq(v("y'"), mk_add(vec![v("x"), mk_int(1)])),
        ]),
        query: mk_lt(v("x"), mk_int(0)),
    };
    let z3 = solver(SolverKind::Z3).unwrap();
    let p = mk_not(ts.query.clone());
    assert!(!z3_unsat(
        &z3,
        &mk_and(vec![p.clone(), ts.trans.clone(), mk_not(ts.prime(&p))])
    ));
    let mut e = Pdkind::new(Config::default());
    let a = e.solve(&ts, &cfg);
    assert_safe(&ts, &a);
}

#[test]
fn stops_at_its_bound() {
    let Some(cfg) = engine_solver() else { return };
    // deep counterexample: 1000 steps
    let ts = counter(1000, false);
    let mut e = Pdkind::new(Config {
        max_k: Some(4),
        ..Config::default()
    });
    let a = e.solve(&ts, &cfg);
    assert!(matches!(a, TsAnswer::Unknown(Stop::Bound(_))), "{a:?}");
}

#[test]
fn stops_when_killed() {
    let Some(cfg) = engine_solver() else { return };
    let ts = far_walk();
    assert_stops_when_killed(&cfg, Duration::from_millis(500), || {
        Pdkind::new(Config::default()).solve(&ts, &cfg)
    });
}
