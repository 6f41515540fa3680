//! The unfolding on small datatype systems: the derivation it finds is accepted by the
//! judge against the original text.

use super::*;
use crate::judge::{judge, JudgeSolver, Judgment, Witness};
use std::time::Duration;

/// The derivation of `text`'s counterexample, judged by z3; `None` when there is none.
pub(super) fn judged(text: &str, limits: Limits) -> Result<(String, Judgment), NoCex> {
    let z3 = crate::testing::z3().path;
    let cs = read(text).map_err(|e| NoCex::Solver(e.to_string()))?;
    let deadline = Some(Instant::now() + Duration::from_secs(60));
    let mut stats = SearchStats::default();
    let d = search(&cs, &z3, &KillSwitch::new(), deadline, limits, &mut stats)?;
    let g = golem(&cs, &d);
    let j = judge(
        text,
        0,
        Witness::Derivation(&g),
        &[JudgeSolver::Z3(z3)],
        deadline,
    );
    Ok((g, j))
}

/// Lists built by appending: `app` is a non-linear clause system (append's length is the
/// sum of the lengths), with a planted bug: the length of a list of 3 is claimed to be 2.
const APPEND: &str = "(set-logic HORN)
(declare-datatypes ((L 0)) (((cons (hd Int) (tl L)) (nil))))
(declare-fun len (L Int) Bool)
(declare-fun app (L L L) Bool)
(assert (forall ((n Int)) (=> (= n 0) (len nil n))))
(assert (forall ((x Int) (l L) (n Int)) (=> (len l n) (len (cons x l) (+ n 1)))))
(assert (forall ((l L)) (app nil l l)))
(assert (forall ((x Int) (a L) (b L) (c L)) (=> (app a b c) (app (cons x a) b (cons x c)))))
(assert (forall ((a L) (b L) (c L) (n Int) (m Int) (k Int))
  (=> (and (app a b c) (len a n) (len b m) (len c k) (= n 2) (= m 1) (not (= k 2))) false)))
(check-sat)
";

#[test]
fn append_counterexample_is_judged() {
    let (g, j) = judged(APPEND, Limits::default()).unwrap();
    assert_eq!(j, Judgment::Accepted, "{g}");
    assert!(g.contains("(cons"), "{g}");
    assert!(g.trim_end().ends_with(|c: char| c.is_ascii_digit()), "{g}");
}

#[test]
fn safe_system_has_no_short_derivation() {
    let safe = APPEND.replace("(not (= k 2))", "(not (= k 3))");
    let r = judged(
        &safe,
        Limits {
            depth: 4,
            nodes: 10_000,
        },
    );
    assert!(
        matches!(r, Err(NoCex::Bound { .. } | NoCex::Nodes { .. })),
        "{r:?}"
    );
}
