//! The judge on small hand-made problems, right and wrong answers.

use super::*;
use std::path::PathBuf;
use std::time::Duration;

fn z3() -> Vec<JudgeSolver> {
    let p = crate::smt::find_solver(crate::smt::SolverKind::Z3, None).expect("z3");
    vec![JudgeSolver::Z3(p)]
}

fn both() -> Vec<JudgeSolver> {
    let mut v = z3();
    let cvc5 = std::env::var_os("CHCSOLVE_CVC5")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("solvers/bin/cvc5"));
    v.push(JudgeSolver::Cvc5(cvc5));
    v
}

fn soon() -> Option<Instant> {
    Some(Instant::now() + Duration::from_secs(20))
}

const COUNTER: &str = "(set-logic HORN)
(declare-fun |Inv x| (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (|Inv x| x))))
(assert (forall ((x Int) (y Int)) (=> (and (|Inv x| x) (< x 10) (= y (+ x 1))) (|Inv x| y))))
(assert (forall ((x Int)) (=> (and (|Inv x| x) (> x 10)) false)))
(check-sat)
";

#[test]
fn models() {
    let good = "((define-fun |Inv x| ((x0 Int)) Bool (and (<= 0 x0) (<= x0 10))))";
    let weak = "((define-fun |Inv x| ((x0 Int)) Bool (<= 0 x0)))";
    let strong = "((define-fun |Inv x| ((x0 Int)) Bool (and (<= 0 x0) (<= x0 9))))";
    let sorts = "((define-fun |Inv x| ((x0 Bool)) Bool true))";
    for s in [z3(), both()] {
        let j = |m| judge(COUNTER, 0, Witness::Model(m), &s, soon());
        assert_eq!(j(good), Judgment::Accepted);
        assert!(matches!(j(weak), Judgment::Rejected(e) if e.contains("line 5")));
        assert!(matches!(j(strong), Judgment::Rejected(e) if e.contains("line 4")));
        assert!(matches!(j(sorts), Judgment::Rejected(_)));
        assert!(matches!(j("()"), Judgment::Rejected(e) if e.contains("no definition")));
    }
    // no time left: undecided, never rejected
    let past = Some(Instant::now());
    let j = judge(COUNTER, 0, Witness::Model(good), &z3(), past);
    assert!(matches!(&j, Judgment::Undecided(_)), "{j:?}");
}

const REACH: &str = "(set-logic HORN)
(declare-fun P (Int) Bool)
(declare-fun Q (Int Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x 2))) (P y))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (P y) (< x y)) (Q x y))))
(assert (forall ((x Int) (y Int)) (=> (and (Q x y) (= y 4)) false)))
";

#[test]
fn derivations() {
    let good = "0:\ttrue\n1:\t(P 0) ->  0\n\n2:\t(P 2) ->  1\n\n3:\t(P 4) ->  2\n\n4:\t(Q 0 4) ->  1 3\n\n5:\tfalse ->  4\n\n";
    for s in [z3(), both()] {
        let j = |d| judge(REACH, 0, Witness::Derivation(d), &s, soon());
        assert_eq!(j(good), Judgment::Accepted);
        // a step by 3, which no clause makes
        let skip = good.replace("(P 2)", "(P 3)");
        assert!(matches!(j(&skip), Judgment::Rejected(e) if e.contains("step 2")));
        // the body fact of P must be a premise: (P 4) from (P 0) is no instance
        let wrong_premise = good.replace("3:\t(P 4) ->  2", "3:\t(P 4) ->  1");
        assert!(matches!(j(&wrong_premise), Judgment::Rejected(e) if e.contains("step 3")));
        // x < y fails
        let order = good.replace("(Q 0 4) ->  1 3", "(Q 4 4) ->  3 3");
        assert!(matches!(j(&order), Judgment::Rejected(_)));
        // a premise that is not earlier, a derivation that does not end in false
        let later = good.replace("(P 2) ->  1", "(P 2) ->  3");
        assert!(matches!(j(&later), Judgment::Rejected(e) if e.contains("earlier")));
        let short = "0:\ttrue\n1:\t(P 0) ->  0\n";
        assert!(matches!(j(short), Judgment::Rejected(_)));
    }
}

#[test]
fn fixedpoint_and_reals() {
    let fp = "(declare-rel P (Int))(declare-rel Err ())(declare-var x Int)(declare-var y Int)
(rule (=> (= x 0) (P x)))
(rule (=> (and (P x) (= y (+ x 1))) (P y)))
(rule (=> (and (P x) (= x 2)) Err))
(query Err)
(query P)";
    let d = "0:\ttrue\n1:\t(P 0) ->  0\n\n2:\t(P 1) ->  1\n\n3:\t(P 2) ->  2\n\n4:\tErr ->  3\n\n5:\tfalse ->  4\n\n";
    assert_eq!(
        judge(fp, 0, Witness::Derivation(d), &z3(), soon()),
        Judgment::Accepted
    );
    // the second query: any P fact ends it
    let d2 = "0:\ttrue\n1:\t(P 0) ->  0\n\n2:\tfalse ->  1\n\n";
    assert_eq!(
        judge(fp, 1, Witness::Derivation(d2), &z3(), soon()),
        Judgment::Accepted
    );
    assert!(matches!(
        judge(fp, 0, Witness::Derivation(d2), &z3(), soon()),
        Judgment::Rejected(_)
    ));
    let real = "(set-logic HORN)(declare-fun R (Real) Bool)
(assert (forall ((x Real)) (=> (= x (/ 1 2)) (R x))))
(assert (forall ((x Real) (y Real)) (=> (and (R x) (= y (* 2 x))) (R y))))
(assert (forall ((x Real)) (=> (and (R x) (>= x 2)) false)))";
    let d = "0:\ttrue\n1:\t(R (/ 1 2)) ->  0\n\n2:\t(R 1) ->  1\n\n3:\t(R 2) ->  2\n\n4:\tfalse ->  3\n\n";
    for s in [z3(), both()] {
        assert_eq!(
            judge(real, 0, Witness::Derivation(d), &s, soon()),
            Judgment::Accepted
        );
    }
}

#[test]
fn accelerated_chains() {
    let chain = "((step 0 (line 4) (P 0) ((x 0)))
  (segment 1 (P 0) (P 4) (n 2) (cycle (line 5)) (tau () () n true))
  (step 2 (line 6) (Q 4 4) ((x 4) (y 4)))
  (step 3 (line 7) false ((x 4) (y 4))))";
    // Q from the same P fact twice is no instance here (x < y): the steps are judged
    let j = judge(REACH, 0, Witness::Accelerated(chain), &z3(), soon());
    assert!(
        matches!(&j, Judgment::Rejected(e) if e.contains("step 3")),
        "{j:?}"
    );
    let gap = chain.replace("(segment 1 (P 0)", "(segment 1 (P 2)");
    let j = judge(REACH, 0, Witness::Accelerated(&gap), &z3(), soon());
    assert!(
        matches!(&j, Judgment::Rejected(e) if e.contains("start")),
        "{j:?}"
    );
    let lin = "(set-logic HORN)(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x 2))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (= x 100)) false)))";
    let chain = "((step 0 (line 2) (P 0) ((x 0)))
  (segment 1 (P 0) (P 100) (n 50) (cycle (line 3)) (tau () () n true))
  (step 2 (line 4) false ((x 100))))";
    let j = judge(lin, 0, Witness::Accelerated(chain), &z3(), soon());
    assert_eq!(j, Judgment::Accepted);
}

const STORE: &str = "(set-logic HORN)
(declare-fun inv ((Array Int Int) Int) Bool)
(assert (forall ((a (Array Int Int))) (=> (= (select a 5) 7) (inv a 0))))
(assert (forall ((a (Array Int Int)) (i Int)) (=> (inv a i) (inv (store a i i) (+ i 1)))))
(assert (forall ((a (Array Int Int)) (i Int)) (=> (and (inv a i) (> i 5) (= (select a 5) 5)) false)))
(check-sat)
";

/// Array values in derivations and models: stores over constant arrays, checked by the
/// judge's solver.
#[test]
fn arrays() {
    let c = "((as const (Array Int Int)) 0)";
    let mut steps = vec!["0:\ttrue".to_string()];
    let mut a = format!("(store {c} 5 7)");
    for i in 0..=6 {
        let prem = if i == 0 { 0 } else { i };
        steps.push(format!("{}:\t(inv {a} {i}) ->  {prem}\n", i + 1));
        a = format!("(store {a} {i} {i})");
    }
    steps.push("8:\tfalse ->  7\n".into());
    let good = steps.join("\n");
    let j = |d: &str| judge(STORE, 0, Witness::Derivation(d), &z3(), soon());
    assert_eq!(j(&good), Judgment::Accepted, "{good}");
    // a stored value the clause does not write
    let bad = good.replacen(
        "(store (store ((as const (Array Int Int)) 0) 5 7) 0 0)",
        "(store (store ((as const (Array Int Int)) 0) 5 7) 0 1)",
        1,
    );
    assert_ne!(bad, good);
    assert!(matches!(j(&bad), Judgment::Rejected(_)), "{bad}");
    let model =
        |body: &str| format!("((define-fun inv ((a (Array Int Int)) (i Int)) Bool {body}))");
    let m = |b: &str| judge(STORE, 0, Witness::Model(&model(b)), &z3(), soon());
    // not a model: the query is reachable
    assert!(matches!(m("(= (select a 5) 7)"), Judgment::Rejected(_)));
    assert!(matches!(m("true"), Judgment::Rejected(_)));
}
