//! Interpolation-based strengthening ([`super::interp`]) on a small system.

use super::ctg_tests::run;
use super::Config;
use crate::engine::TsAnswer;
use crate::logic::*;
use crate::testing::ts::{assert_safe, int as v, system_over as sys};
use crate::ts::TransitionSystem;

/// two counters that move together: x = y = 0; x' = x + 1, y' = y + 1 (x < 100); bad: y > 100
fn apart() -> TransitionSystem {
    let (x, y) = (v("x"), v("y"));
    sys(
        &["x", "y"],
        mk_and(vec![
            mk_eq(x.clone(), mk_int(0)),
            mk_eq(y.clone(), mk_int(0)),
        ]),
        mk_and(vec![
            mk_lt(x.clone(), mk_int(100)),
            mk_eq(v("x'"), mk_add(vec![x, mk_int(1)])),
            mk_eq(v("y'"), mk_add(vec![y.clone(), mk_int(1)])),
        ]),
        mk_gt(y, mk_int(100)),
    )
}

/// Literal dropping only (no variable elimination, no sums, no second lemma), so that the
/// lemmas stop below the frontier and the strengthening is asked.
fn plain(interp: bool) -> Config {
    Config {
        eliminate_vars: false,
        pair_sums: false,
        second_lemma: false,
        interp,
        max_frames: Some(150),
        ..Config::default()
    }
}

/// On two counters that move together, literal dropping learns bounds one frame at a time
/// (`y <= k`) that stop below the frontier; the strengthening asks yices for interpolants
/// (the variable names `x'`, `y'` need quoting, which yices' `check-sat-assuming-model`
/// rejected until `interp::backend::yices` renamed them) and their checked conjuncts become
/// lemmas (`interp_lemmas`). Off, no query is made. Both answers are safe with a checked
/// invariant, and the strengthening does not take more frames.
#[test]
fn interpolants_strengthen_stuck_lemmas() {
    let ts = apart();
    let (off_answer, off) = run(&ts, plain(false));
    assert_eq!(off.interp_queries, 0, "{off:?}");
    let (on_answer, on) = run(&ts, plain(true));
    assert_safe(&ts, &on_answer);
    assert!(on.interp_lemmas > 0, "no interpolant lemma: {on:?}");
    if matches!(off_answer, TsAnswer::Safe(_)) {
        assert_safe(&ts, &off_answer);
        assert!(on.frames <= off.frames, "on {on:?}, off {off:?}");
    }
}
