//! Counterexamples with accelerated segments: the validator rejects wrong segments built
//! by hand, and ABMC's deep counterexamples are certified without expanding them.

mod common;

use chcsolve::chc::{AccelCex, Link, Segment};
use chcsolve::chc::{ChcSystem, ClauseId, PredId};
use chcsolve::frontend::parse_str;
use chcsolve::logic::*;
use chcsolve::validate::{check_accel_cex, complete_accel_cex, ModelError};
use chcsolve::CexStep;
use common::{bench_dir, z3};
use num_bigint::BigInt;
use std::process::Command;
use std::time::{Duration, Instant};

/// x = 0; x < 10 -> x + 1 (clause 1); x >= 10 is the query.
const COUNTER: &str = "(set-logic HORN) (declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 10) (= y (+ x 1))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (>= x 10)) false)))
(check-sat)";

fn iv(name: &str) -> Var {
    Var {
        name: name.into(),
        sort: Sort::Int,
    }
}

fn t(name: &str) -> Term {
    mk_var_of(&iv(name))
}

fn int(v: i64) -> Value {
    Value::Int(BigInt::from(v))
}

fn step(clause: u32, vals: &[(&str, i64)]) -> Link {
    Link::Step(CexStep {
        clause: ClauseId(clause),
        vals: vals.iter().map(|(v, x)| (iv(v), int(*x))).collect(),
        premises: vec![],
    })
}

/// The exact acceleration of the counter's loop: `y0 = x0 + n /\ x0 + n - 1 < 10`.
fn tau_exact() -> Term {
    let (x, y, n) = (t("x0"), t("y0"), t("n"));
    mk_and(vec![
        mk_ge(n.clone(), mk_int(1)),
        mk_eq(y, mk_add(vec![x.clone(), n.clone()])),
        mk_lt(mk_add(vec![x, n, mk_int(-1)]), mk_int(10)),
    ])
}

fn segment(tau: Term, count: i64, from: i64, to: i64) -> Segment {
    Segment {
        pred: PredId(0),
        cycle: vec![ClauseId(1)],
        pre: vec![iv("x0")],
        post: vec![iv("y0")],
        n: iv("n"),
        tau,
        count: BigInt::from(count),
        from: vec![int(from)],
        to: vec![int(to)],
    }
}

/// fact (x = 0), the segment, query at `end`.
fn witness(seg: Segment, end: i64) -> AccelCex {
    vec![
        step(0, &[("x", 0)]),
        Link::Segment(seg),
        step(2, &[("x", end)]),
    ]
}

fn sys() -> ChcSystem {
    parse_str(COUNTER).unwrap()
}

fn rejected(cex: &AccelCex, what: &str) {
    match check_accel_cex(&sys(), cex, &z3(), Some(Duration::from_secs(20))) {
        Err(ModelError::Rejected(e)) => eprintln!("{what}: rejected: {e}"),
        r => panic!("{what}: expected a rejection, got {r:?}"),
    }
}

#[test]
fn a_correct_segment_is_certified() {
    let cex = witness(segment(tau_exact(), 10, 0, 10), 10);
    let rep = check_accel_cex(&sys(), &cex, &z3(), None).unwrap();
    assert_eq!((rep.segments, rep.steps, rep.proofs), (1, 2, 1));
    assert_eq!(rep.length, BigInt::from(12));
}

#[test]
fn values_preprocessing_removed_are_filled_in_then_checked() {
    // the fact and the query without values (as after a pass that eliminated x)
    let mut cex = witness(segment(tau_exact(), 10, 0, 10), 10);
    for i in [0, 2] {
        if let Link::Step(s) = &mut cex[i] {
            s.vals.clear();
        }
    }
    rejected(&cex, "values missing");
    let done = complete_accel_cex(&sys(), cex, &z3()).unwrap();
    let Link::Step(q) = &done[2] else { panic!() };
    assert_eq!(
        q.vals.get(&iv("x")),
        Some(&int(10)),
        "the query's x is the segment's end"
    );
    check_accel_cex(&sys(), &done, &z3(), None).unwrap();
}

#[test]
fn an_over_approximating_formula_is_rejected() {
    // without the guard: x0 = 0 reaches y0 = 20 in "20 runs", past x < 10
    let (x, y, n) = (t("x0"), t("y0"), t("n"));
    let tau = mk_and(vec![
        mk_ge(n.clone(), mk_int(1)),
        mk_eq(y, mk_add(vec![x, n])),
    ]);
    rejected(&witness(segment(tau, 20, 0, 20), 20), "no guard");
    // right at n = 1, wrong from n = 2 on (the induction step fails)
    let (x, y, n) = (t("x0"), t("y0"), t("n"));
    let tau = mk_and(vec![
        mk_ge(n.clone(), mk_int(1)),
        mk_eq(
            y,
            mk_add(vec![
                x.clone(),
                mk_mul_const(&BigInt::from(2), n.clone()),
                mk_int(-1),
            ]),
        ),
        mk_lt(mk_add(vec![x, n, mk_int(-1)]), mk_int(10)),
    ]);
    rejected(&witness(segment(tau, 6, 0, 11), 11), "wrong slope");
}

#[test]
fn a_formula_wrong_only_at_n_1_is_rejected() {
    // y0 = x0 + n + 5 /\ y0 <= 10: the induction step holds, the base case does not
    let (x, y, n) = (t("x0"), t("y0"), t("n"));
    let tau = mk_and(vec![
        mk_ge(n.clone(), mk_int(1)),
        mk_eq(y.clone(), mk_add(vec![x, n, mk_int(5)])),
        mk_le(y, mk_int(10)),
    ]);
    rejected(&witness(segment(tau, 5, 0, 10), 10), "shifted by 5");
}

#[test]
fn a_wrong_count_or_wrong_ends_are_rejected() {
    // tau(0, 10, 9) is false
    rejected(&witness(segment(tau_exact(), 9, 0, 10), 10), "wrong n");
    // count 0
    rejected(&witness(segment(tau_exact(), 0, 0, 0), 0), "n = 0");
    // starts at 1, but the fact derived P(0)
    rejected(&witness(segment(tau_exact(), 9, 1, 10), 10), "wrong start");
    // ends at 10, but the query is applied at 11
    rejected(&witness(segment(tau_exact(), 10, 0, 10), 11), "wrong end");
}

#[test]
fn a_wrong_cycle_is_rejected() {
    let mut seg = segment(tau_exact(), 10, 0, 10);
    seg.cycle = vec![ClauseId(2)]; // the query is no cycle
    rejected(&witness(seg, 10), "query as cycle");
    let mut seg = segment(tau_exact(), 10, 0, 10);
    seg.cycle = vec![ClauseId(1), ClauseId(1)]; // two runs per iteration: 20 steps
    rejected(&witness(seg, 10), "cycle of two runs");
}

fn deep(path: &str) -> (String, String, f64) {
    let t0 = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_chcsolve"))
        // well under a second alone: the limit only stops a broken build
        .args(["--engine", "abmc", "--timeout", "600", "--stats"])
        .arg(bench_dir().join(path))
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        t0.elapsed().as_secs_f64(),
    )
}

#[test]
fn deep_counterexamples_are_certified_not_expanded() {
    for path in [
        "gen/counter-1000000-unsat.smt2",
        "gen/updown-1000000-unsat.smt2",
        "gen/phase-500000-unsat.smt2",
        "gen/nested-1000x1000-unsat.smt2",
    ] {
        let (answer, stats, secs) = deep(path);
        assert_eq!(answer, "unsat", "{path}: {stats}");
        let v = stats
            .lines()
            .find(|l| l.starts_with("; validation: "))
            .unwrap_or_else(|| panic!("{path}: no validation line in {stats}"));
        eprintln!("{path}: {secs:.2}s {v}");
        assert!(v.contains("certified"), "{path}: {v}");
        assert!(!v.contains("full expansion"), "{path}: {v}");
        assert!(v.contains("clause applications in all"), "{path}: {v}");
        // and judged, segments included, against the text
        let j = stats
            .lines()
            .find(|l| l.starts_with("; judged: "))
            .unwrap_or_else(|| panic!("{path}: no judge line in {stats}"));
        assert!(
            j.starts_with("; judged: 1 by z3") && j.ends_with("(rejected: 0, undecided: 0)"),
            "{path}: {j}"
        );
    }
}
