//! The judge on small hand-made problems, right and wrong answers.

use super::*;
use std::path::PathBuf;
use std::time::Duration;

fn z3() -> Vec<JudgeSolver> {
    vec![JudgeSolver::Z3(crate::testing::z3().path)]
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

/// A step repeated with the same premise facts is judged once; one with the same fact from
/// other premise facts is judged on its own.
#[test]
fn repeated_steps() {
    let good = "0:\ttrue\n1:\t(P 0) ->  0\n\n2:\t(P 2) ->  1\n\n3:\t(P 2) ->  1\n\n4:\t(P 4) ->  3\n\n5:\t(P 4) ->  2\n\n6:\t(Q 0 4) ->  1 5\n\n7:\tfalse ->  6\n\n";
    let j = |d| judge(REACH, 0, Witness::Derivation(d), &z3(), soon());
    assert_eq!(j(good), Judgment::Accepted);
    // (P 4) again, now from (P 0): same fact, other premises, no instance
    let again = good.replace("5:\t(P 4) ->  2", "5:\t(P 4) ->  1");
    assert!(matches!(j(&again), Judgment::Rejected(e) if e.contains("step 5")));
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
    let tau2 = "(tau ((x0 Int)) ((y0 Int)) n (and (>= n 1) (= y0 (+ x0 (* 2 n)))))";
    let chain = format!(
        "((step 0 (line 4) (P 0) ((x 0)))
  (segment 1 (P 0) (P 4) (n 2) (cycle (line 5)) {tau2})
  (step 2 (line 6) (Q 4 4) ((x 4) (y 4)))
  (step 3 (line 7) false ((x 4) (y 4))))"
    );
    // Q from the same P fact twice is no instance here (x < y): the steps are judged
    let j = judge(REACH, 0, Witness::Accelerated(&chain), &z3(), soon());
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
    let chain = format!(
        "((step 0 (line 2) (P 0) ((x 0)))
  (segment 1 (P 0) (P 100) (n 50) (cycle (line 3)) {tau2})
  (step 2 (line 4) false ((x 100))))"
    );
    for s in [z3(), both()] {
        let j = judge(STEP2, 0, Witness::Accelerated(&chain), &s, soon());
        assert_eq!(j, Judgment::Accepted);
    }
}

/// x = 0; x -> x + 2 (line 3); x >= 100 is the query.
const STEP2: &str = "(set-logic HORN)(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x 2))) (P y))))
(assert (forall ((x Int)) (=> (and (P x) (>= x 100)) false)))";

/// x = 0; x < 10 -> x + 1 (line 4); x >= 10 is the query.
const STEP1: &str = "(set-logic HORN)
(declare-fun |I n| (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (|I n| x))))
(assert (forall ((x Int) (y Int))
  (=> (and (|I n| x) (< x 10) (= y (+ x 1))) (|I n| y))))
(assert (forall ((x Int)) (=> (and (|I n| x) (>= x 10)) false)))
(check-sat)";

/// The counterexample of [`STEP1`] with one segment: `tau`, `n`, its end.
fn step1_chain(tau: &str, n: u32, end: u32) -> String {
    format!(
        "((step 0 (line 3) (|I n| 0) ((x 0)))
  (segment 1 (|I n| 0) (|I n| {end}) (n {n}) (cycle (line 4)) (tau ((x0 Int)) ((y0 Int)) k {tau}))
  (step 2 (line 6) false ((x {end}))))"
    )
}

const EXACT1: &str = "(and (>= k 1) (= y0 (+ x0 k)) (< (+ x0 k (- 1)) 10))";

/// The segments' certificates are proven over the original assertions' text: the base
/// case, the induction step, the count and the ends.
#[test]
fn segment_certificates() {
    let j = |t: &str, s: &[JudgeSolver]| judge(STEP1, 0, Witness::Accelerated(t), s, soon());
    for s in [z3(), both()] {
        assert_eq!(j(&step1_chain(EXACT1, 10, 10), &s), Judgment::Accepted);
        // a step of +2 for the +1 loop: the base case fails
        let plus2 = "(and (>= k 1) (= y0 (+ x0 (* 2 k))) (< (+ x0 (* 2 k) (- 2)) 10))";
        let r = j(&step1_chain(plus2, 5, 10), &s);
        assert!(
            matches!(&r, Judgment::Rejected(e) if e.contains("base case")),
            "{r:?}"
        );
        // right for one run, wrong from two on: the induction step fails
        let one = "(and (>= k 1) (= y0 (+ x0 1)) (< x0 10))";
        let r = j(&step1_chain(one, 3, 12), &s);
        assert!(
            matches!(&r, Judgment::Rejected(e) if e.contains("induction")),
            "{r:?}"
        );
        // no guard: one run from x >= 10 is no run of the clause
        let r = j(&step1_chain("(and (>= k 1) (= y0 (+ x0 k)))", 12, 12), &s);
        assert!(
            matches!(&r, Judgment::Rejected(e) if e.contains("base case")),
            "{r:?}"
        );
    }
    // a wrong end value (the query holds at 11 too) and a wrong count
    let r = j(&step1_chain(EXACT1, 10, 11), &z3());
    assert!(
        matches!(&r, Judgment::Rejected(e) if e.contains("at its ends")),
        "{r:?}"
    );
    let r = j(&step1_chain(EXACT1, 9, 10), &z3());
    assert!(
        matches!(&r, Judgment::Rejected(e) if e.contains("at its ends")),
        "{r:?}"
    );
    // count 0 with a formula true at n = 0 (right for n >= 1)
    let tau0 = "(and (>= k 0) (=> (>= k 1) (and (= y0 (+ x0 k)) (<= (+ x0 k) 10))))";
    let r = j(&step1_chain(tau0, 0, 10), &z3());
    assert!(
        matches!(&r, Judgment::Rejected(e) if e.contains(">= 1")),
        "{r:?}"
    );
    // a cycle that names the query's line, or no assertion
    let wrong_line = step1_chain(EXACT1, 10, 10).replace("(cycle (line 4))", "(cycle (line 6))");
    assert!(matches!(j(&wrong_line, &z3()), Judgment::Rejected(_)));
    let no_line = step1_chain(EXACT1, 10, 10).replace("(cycle (line 4))", "(cycle (line 5))");
    assert!(matches!(j(&no_line, &z3()), Judgment::Rejected(e) if e.contains("no assertion")));
    // sorts that are not the predicate's (the solver's sort check: z3 would take Real for
    // Int, reading the integer states as reals)
    let bools =
        step1_chain(EXACT1, 10, 10).replace("((x0 Int)) ((y0 Int))", "((x0 Bool)) ((y0 Bool))");
    let r = j(&bools, &z3());
    assert!(
        matches!(&r, Judgment::Rejected(e) if e.contains("its formula")),
        "{r:?}"
    );
    // the cycle run twice per iteration: 20 steps, not 10
    let twice =
        step1_chain(EXACT1, 10, 10).replace("(cycle (line 4))", "(cycle (line 4) (line 4))");
    assert!(matches!(j(&twice, &z3()), Judgment::Rejected(e) if e.contains("base case")));
    // no time left: undecided
    let r = judge(
        STEP1,
        0,
        Witness::Accelerated(&step1_chain(EXACT1, 10, 10)),
        &z3(),
        Some(Instant::now()),
    );
    assert!(matches!(&r, Judgment::Undecided(_)), "{r:?}");
}

/// A cycle of two clauses through a second predicate; a cycle assertion the polarity split
/// cannot read leaves the answer undecided.
#[test]
fn segment_cycles_of_two_clauses() {
    let two = "(set-logic HORN)
(declare-fun A (Int Int) Bool)
(declare-fun B (Int) Bool)
(assert (forall ((x Int) (c Int)) (=> (and (= x 0) (= c 0)) (A x c))))
(assert (forall ((x Int) (c Int)) (=> (and (A x c) (< x 6)) (B (+ x 3)))))
(assert (forall ((x Int) (c Int)) (=> (B x) (A (- x 1) 7))))
(assert (forall ((x Int) (c Int)) (=> (and (A x c) (>= x 6)) false)))
(check-sat)";
    let chain = |tau: &str| {
        format!(
            "((step 0 (line 4) (A 0 0) ((x 0) (c 0)))
  (segment 1 (A 0 0) (A 6 7) (n 3) (cycle (line 5) (line 6)) (tau ((a Int) (b Int)) ((c Int) (d Int)) n {tau}))
  (step 2 (line 7) false ((x 6) (c 7))))"
        )
    };
    let right = "(and (>= n 1) (= c (+ a (* 2 n))) (< (+ a (* 2 n) (- 2)) 6) (= d 7))";
    let j = |t: &str| judge(two, 0, Witness::Accelerated(t), &z3(), soon());
    assert_eq!(j(&chain(right)), Judgment::Accepted);
    // the second clause sets c to 7, not 8
    let r = j(&chain(&right.replace("(= d 7)", "(= d 8)"))
        .replace("(A 6 7) (n", "(A 6 8) (n")
        .replace("((x 6) (c 7))", "((x 6) (c 8))"));
    assert!(
        matches!(&r, Judgment::Rejected(e) if e.contains("base case")),
        "{r:?}"
    );
    let ite = two.replace("(=> (B x) (A (- x 1) 7))", "(ite (B x) (A (- x 1) 7) true)");
    let r = judge(&ite, 0, Witness::Accelerated(&chain(right)), &z3(), soon());
    assert!(
        matches!(&r, Judgment::Undecided(e) if e.contains("line 6")),
        "{r:?}"
    );
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

/// The judge's solver named by a script that runs it as a child (which writes its PID to a
/// file, then becomes z3): when the judge's deadline passes, that child dies with the
/// script.
#[test]
fn a_judge_solver_run_by_a_script_dies_at_the_deadline() {
    let JudgeSolver::Z3(real) = &z3()[0] else {
        unreachable!()
    };
    let (path, pidfile) = crate::testing::wrapped_solver(real, "judge-wrapped");
    let deadline = Instant::now() + Duration::from_millis(500);
    let mut p = process::Process::start(&JudgeSolver::Z3(path.clone()), Some(deadline)).unwrap();
    // the pigeonhole problem for 13 pigeons: minutes for z3
    let n = 13;
    let mut q = String::new();
    for i in 0..=n {
        for j in 0..n {
            q.push_str(&format!("(declare-const p{i}_{j} Bool)\n"));
        }
        let any: Vec<String> = (0..n).map(|j| format!("p{i}_{j}")).collect();
        q.push_str(&format!("(assert (or {}))\n", any.join(" ")));
    }
    for j in 0..n {
        for i in 0..=n {
            for k in i + 1..=n {
                q.push_str(&format!("(assert (or (not p{i}_{j}) (not p{k}_{j})))\n"));
            }
        }
    }
    q.push_str("(check-sat)\n");
    p.send(&q).unwrap();
    let z3 = crate::testing::wrapped_pid(&pidfile);
    // without the fix, the answer waits for z3 (minutes): this ends it
    let fired = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let f = fired.clone();
    let (cancel, cancelled) = std::sync::mpsc::channel::<()>();
    let dog = std::thread::spawn(move || {
        let waited = cancelled.recv_timeout(Duration::from_secs(10));
        if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = waited {
            f.store(true, std::sync::atomic::Ordering::SeqCst);
            crate::smt::sigkill(z3);
        }
    });
    assert!(matches!(p.answer(), Err(Stop::Timeout)));
    drop(cancel);
    dog.join().unwrap();
    let waited = fired.load(std::sync::atomic::Ordering::SeqCst);
    assert!(
        !waited,
        "the answer waited until the script's z3 was killed by hand"
    );
    drop(p);
    let alive = !crate::testing::gone_soon(z3);
    let _ = std::fs::remove_file(&pidfile);
    let _ = std::fs::remove_file(&path);
    assert!(
        !alive,
        "the script's z3 (pid {z3}) runs on after the deadline"
    );
}

/// A first judge that answers `unknown` to every check (and echoes like z3), so that every
/// assertion is left open for the fallback.
fn undecided_judge() -> JudgeSolver {
    let dir = std::env::temp_dir().join(format!("chcsolve-judge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("unknown-z3");
    let script = "#!/bin/sh\nwhile IFS= read -r l; do case \"$l\" in\n  *'(check-sat)'*) echo unknown ;;\n  *'(echo '*) printf '%s\\n' \"$l\" | sed 's/^.*(echo \"\\(.*\\)\").*$/\\1/' ;;\nesac; done\n";
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    JudgeSolver::Z3(path)
}

#[test]
fn assertions_the_first_judge_leaves_open_are_proven_by_the_fallback() {
    let good = "((define-fun P ((x Int)) Bool (= (ubv_to_int ((_ int_to_bv 8) x)) 44)))";
    let wrong = "((define-fun P ((x Int)) Bool (= (ubv_to_int ((_ int_to_bv 8) x)) 45)))";
    let first = [undecided_judge()];
    let cvc5 = both().pop().unwrap();
    let j = |t, m, fb| judge_with_fallback(t, 0, Witness::Model(m), &first, fb, soon());
    // without a fallback nothing is decided
    assert!(matches!(j(CONVERSIONS, good, None), Judgment::Undecided(_)));
    assert!(matches!(
        j(CONVERSIONS, wrong, None),
        Judgment::Undecided(_)
    ));
    // cvc5 proves what the first leaves open, and finds the violated assertion
    assert_eq!(j(CONVERSIONS, good, Some(&cvc5)), Judgment::Accepted);
    let r = j(CONVERSIONS, wrong, Some(&cvc5));
    assert!(
        matches!(&r, Judgment::Rejected(e) if e.contains("cvc5") && e.contains("line 3")),
        "{r:?}"
    );
    // without conversions the first judge keeps the whole time: no fallback
    let counter = "((define-fun |Inv x| ((x0 Int)) Bool (and (<= 0 x0) (<= x0 10))))";
    assert!(matches!(
        j(COUNTER, counter, Some(&cvc5)),
        Judgment::Undecided(_)
    ));
    // with z3 first, z3 decides and the fallback is not needed
    let z = z3();
    let j = |m| judge_with_fallback(CONVERSIONS, 0, Witness::Model(m), &z, Some(&cvc5), soon());
    assert_eq!(j(good), Judgment::Accepted);
    assert!(matches!(j(wrong), Judgment::Rejected(e) if e.contains("z3")));
    if let JudgeSolver::Z3(path) = &first[0] {
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}

/// `int_to_bv` and `ubv_to_int` (z3's names, SMT-LIB 2.7's) in the input and the model:
/// cvc5 1.0.3 reads them as `int2bv` and `bv2nat`.
const CONVERSIONS: &str = "(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 300) (P x))))
(assert (forall ((x Int)) (=> (and (P x) (not (= ((_ int_to_bv 8) x) #x2c))) false)))
";

#[test]
fn cvc5_reads_the_conversions_under_its_own_names() {
    let good = "((define-fun P ((x Int)) Bool (= (ubv_to_int ((_ int_to_bv 8) x)) 44)))";
    let wrong = "((define-fun P ((x Int)) Bool (= (ubv_to_int ((_ int_to_bv 8) x)) 45)))";
    let cvc5 = vec![both().pop().unwrap()];
    let j = |m| judge(CONVERSIONS, 0, Witness::Model(m), &cvc5, soon());
    assert_eq!(j(good), Judgment::Accepted);
    assert!(matches!(j(wrong), Judgment::Rejected(_)));
    // whole symbols only
    let t = "((_ int_to_bv 8) x) (ubv_to_int y) |int_to_bv| my_int_to_bv (int_to_bv_2 z)";
    assert_eq!(
        process::cvc5_dialect(t),
        "((_ int2bv 8) x) (bv2nat y) |int_to_bv| my_int_to_bv (int_to_bv_2 z)"
    );
}
