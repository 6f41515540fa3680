use super::*;
use crate::engine::EngineKind;
use crate::judge::{judge, JudgeSolver, Judgment, Witness};
use crate::{solve_str, Options, Verdict};
use std::time::Duration;

fn read(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/bench-chc/bv/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// The native lane alone on `name`, a k-inductive invariant allowed as the answer.
fn native(name: &str) -> crate::Outcome {
    let opts = Options {
        engines: vec![EngineKind::NativeBv],
        timeout: Some(Duration::from_secs(30)),
        need_model: false,
        ..Options::default()
    };
    solve_str(&read(name), &opts).unwrap()
}

fn z3_judge() -> Vec<JudgeSolver> {
    vec![JudgeSolver::Z3(crate::testing::z3().path)]
}

#[test]
fn values_are_read_as_the_translation_reads_them() {
    let v = |t: &str| value_of(&read_one(t).unwrap());
    let int = |n: i64| Some(Value::Int(BigInt::from(n)));
    assert_eq!(v("#xff"), int(255));
    assert_eq!(v("#b101"), int(5));
    assert_eq!(v("(_ bv7 32)"), int(7));
    assert_eq!(v("(- 3)"), int(-3));
    assert_eq!(v("true"), Some(Value::Bool(true)));
    assert_eq!(v("(f 1)"), None);
}

/// Every bit-vector problem of bench-chc/ that a bounded unrolling can answer, answered by
/// the native lane with an answer the judge accepted (the wrap-around counter at depth 257
/// included; `deep-unsat`'s counterexample is past BMC's reach and left to acceleration).
/// On the problems that divide (with SMT-LIB's names or z3's `bvudiv_i`) the lane steps
/// aside with its reason, and the default portfolio answers them (tests/engines.rs).
#[test]
fn the_native_lane_answers_the_bit_vector_problems() {
    let expected = std::fs::read_to_string(format!(
        "{}/bench-chc/expected.tsv",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let (mut answered, mut stepped_aside) = (0, 0);
    for line in expected.lines().filter(|l| l.starts_with("bv/")) {
        let (path, want) = line.split_once('\t').unwrap();
        let name = path.strip_prefix("bv/").unwrap();
        if name == "deep-unsat.smt2" {
            continue;
        }
        let o = native(name);
        if name.starts_with("div-") || name.starts_with("z3-division") {
            let why = match &o.verdict {
                Verdict::Unknown(why) => why.to_string(),
                v => panic!("{name}: {}", v.word()),
            };
            assert!(why.contains("bit-vector division"), "{name}: {why}");
            stepped_aside += 1;
            continue;
        }
        assert_eq!(o.verdict.word(), want, "{name}: {:?}", o.stats.validation);
        assert!(o.witness.is_some(), "{name}: not judged");
        answered += 1;
    }
    assert_eq!((answered, stepped_aside), (8, 3));
}

/// The native lane's counterexample and k-inductive invariant pass the judge; the same
/// witnesses with one value or the invariant changed are rejected.
#[test]
fn its_witnesses_pass_the_judge_and_wrong_ones_do_not() {
    let solvers = z3_judge();
    let text = read("wrap-unsat.smt2");
    let o = native("wrap-unsat.smt2");
    assert_eq!(o.stats.winner, Some("bv-kind"));
    let Verdict::Unsat(cex) = &o.verdict else {
        panic!("wrap-unsat: {:?}", o.verdict.word())
    };
    assert_eq!(cex.len(), 258);
    let d = crate::witness::cex_to_golem(&o.system, cex);
    assert_eq!(
        judge(&text, 0, Witness::Derivation(&d), &solvers, None),
        Judgment::Accepted
    );
    // the counter one step before the wrap: #xff, written #xfe
    assert!(d.contains("#xff"), "{d}");
    let wrong = d.replacen("#xff", "#xfe", 1);
    assert!(matches!(
        judge(&text, 0, Witness::Derivation(&wrong), &solvers, None),
        Judgment::Rejected(_)
    ));

    let text = read("wrap-sat.smt2");
    let o = native("wrap-sat.smt2");
    assert!(matches!(o.verdict, Verdict::SatKInductive { .. }));
    let w = o.witness.expect("judged");
    assert!(w.starts_with("(k-inductive "), "{w}");
    assert_eq!(
        judge(&text, 0, Witness::KInductive(&w), &solvers, None),
        Judgment::Accepted
    );
    // `true` for the invariant: a query fails on it
    let body = w.find("Bool (and true").expect("the invariant's body") + "Bool (and true".len();
    let wrong = format!("{} false)))\n)", &w[..body]);
    let j = judge(&text, 0, Witness::KInductive(&wrong), &solvers, None);
    assert!(matches!(j, Judgment::Rejected(_)), "{wrong}: {j:?}");
}
