//! Counterexamples to generalization ([`super::ctg`]) on small systems.

use super::{Config, Pdr};
use crate::engine::{TsAnswer, TsEngine};
use crate::logic::*;
use crate::testing::ts::{assert_safe, int as v, system_over as sys};
use crate::ts::TransitionSystem;

/// three counters: a = b = c = 0; a' = a+1, b' = b+1, c' = c+1 (a < 20); bad: c > 20
fn triple() -> TransitionSystem {
    let (a, b, c) = (v("a"), v("b"), v("c"));
    sys(
        &["a", "b", "c"],
        mk_and(vec![
            mk_eq(a.clone(), mk_int(0)),
            mk_eq(b.clone(), mk_int(0)),
            mk_eq(c.clone(), mk_int(0)),
        ]),
        mk_and(vec![
            mk_lt(a.clone(), mk_int(20)),
            mk_eq(v("a'"), mk_add(vec![a.clone(), mk_int(1)])),
            mk_eq(v("b'"), mk_add(vec![b.clone(), mk_int(1)])),
            mk_eq(v("c'"), mk_add(vec![c.clone(), mk_int(1)])),
        ]),
        mk_gt(c, mk_int(20)),
    )
}

/// PDR alone with `cfg` on `ts`: its answer and counters (also for [`super::interp_tests`]).
pub(super) fn run(ts: &TransitionSystem, cfg: Config) -> (TsAnswer, super::Counters) {
    let smt = crate::testing::engine_smt();
    let mut pdr = Pdr::new(cfg);
    let a = pdr.solve(ts, &smt);
    (a, pdr.counters.clone())
}

/// Literal dropping only, as in the paper's IC3 (no variable elimination, no sums, no
/// second lemma), which leaves the counterexamples to generalization to matter.
fn plain(ctg: bool, ctg_depth: usize) -> Config {
    Config {
        eliminate_vars: false,
        pair_sums: false,
        second_lemma: false,
        ctg,
        ctg_depth,
        max_frames: Some(40),
        ..Config::default()
    }
}

/// On three counters that move together (`triple`), literal dropping fails on
/// predecessor states that `F_{i-1}` still admits though unreachable (counters that differ):
/// with counterexamples to generalization on, such states are blocked by lemmas of their
/// own (`ctg_lemmas`) and PDR learns more lemmas than without; off, or with a nesting depth
/// of 0, it learns none of them. Every answer is safe with an inductive invariant.
#[test]
fn counterexamples_to_generalization_are_blocked_into_lemmas() {
    let ts = triple();
    let (off_answer, off) = run(&ts, plain(false, 1));
    assert_safe(&ts, &off_answer);
    assert_eq!(off.ctg_lemmas, 0, "{off:?}");
    let (depth0_answer, depth0) = run(&ts, plain(true, 0));
    assert_safe(&ts, &depth0_answer);
    assert_eq!(depth0.ctg_lemmas, 0, "{depth0:?}");
    assert_eq!(depth0.lemmas, off.lemmas, "{depth0:?} {off:?}");
    let (on_answer, on) = run(&ts, plain(true, 1));
    assert_safe(&ts, &on_answer);
    assert!(on.ctg_lemmas > 0, "no CTG lemma: {on:?}");
    assert!(
        on.lemmas > off.lemmas,
        "CTGs did not change the lemmas: on {on:?}, off {off:?}"
    );
}
