use super::*;
use crate::testing::engine_solver;
use crate::testing::ts::{
    assert_cex, assert_safe, assert_stops_when_killed, counter, far_walk, system, x, x1,
};

/// The default configuration with a generous interpolation timeout: these tests assert
/// which level answers, and an interpolation query that runs out of time on a busy machine
/// (a parallel `cargo test` beside other jobs: seen at 10 s for the level-7 query of the
/// 512-step counter under a load of 11 on two cores) would change the answer without
/// anything being wrong in the engine. A broken engine still fails: wrong level, no
/// counterexample, or a test that runs for minutes.
pub(super) fn loaded(_cfg: &SolverConfig) -> Config {
    Config {
        interp_timeout: Duration::from_secs(120),
        ..Config::default()
    }
}

#[test]
fn finds_a_deep_counterexample_at_a_logarithmic_level() {
    let Some(cfg) = engine_solver() else { return };
    let ts = counter(1000, false);
    let mut e = Tpa::new(loaded(&cfg));
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
        let mut e = Tpa::new(loaded(&cfg));
        let a = e.solve(&ts, &cfg);
        assert_cex(&ts, &a, n as usize);
    }
}

#[test]
fn proves_a_bounded_counter_safe_with_an_inductive_invariant() {
    let Some(cfg) = engine_solver() else { return };
    let ts = counter(10, true);
    let mut e = Tpa::new(loaded(&cfg));
    assert_safe(&ts, &e.solve(&ts, &cfg));
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
    let mut e = Tpa::new(loaded(&cfg));
    assert_safe(&ts, &e.solve(&ts, &cfg));
}

#[test]
fn init_and_query_with_local_variables() {
    let Some(cfg) = engine_solver() else { return };
    // x = y with y >= 0 (local y); x' = x + 1; bad: x = z - 1 with z <= 0 (local z).
    // The parity variant (x = 2y against x = 2z + 1) needs parity interpolants, which only
    // SMTInterpol and z3 give, slowly and not always at every level: a known limit
    // (docs/engines.md, "Interpolation engines", known limits),
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
    let mut e = Tpa::new(loaded(&cfg));
    assert_safe(&ts, &e.solve(&ts, &cfg));
}

#[test]
fn stops_when_killed() {
    let Some(cfg) = engine_solver() else { return };
    let ts = far_walk();
    assert_stops_when_killed(&cfg, Duration::from_millis(300), || {
        Tpa::new(Config::default()).solve(&ts, &cfg)
    });
}
