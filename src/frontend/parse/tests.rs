use super::*;

fn parse(s: &str) -> Result<ChcSystem, InputError> {
    parse_str(s)
}

#[test]
fn counter() {
    let sys = parse(
        "(set-logic HORN)\n(declare-fun inv (Int) Bool)\n\
         (assert (forall ((x Int)) (=> (= x 0) (inv x))))\n\
         (assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 1))) (inv y))))\n\
         (assert (forall ((x Int)) (=> (and (inv x) (< x 0)) false)))\n(check-sat)\n(exit)\n",
    )
    .unwrap();
    assert_eq!(sys.preds.len(), 1);
    assert_eq!(sys.clauses.len(), 3);
    assert!(sys.clauses[0].is_fact());
    assert!(sys.clauses[2].is_query());
    assert_eq!(sys.clauses[1].line, 4);
}

/// Every SMT-LIB command name is an ordinary symbol outside command position: as a
/// predicate (CHC-COMP 2025's LIA track applies a predicate `exit` unquoted) and as a
/// variable, bare or quoted.
#[test]
fn command_names_are_ordinary_symbols() {
    for name in names::COMMAND_NAMES {
        let src = format!(
            "(set-logic HORN)\n(declare-fun {name} (Int) Bool)(declare-fun p (Int) Bool)\n\
             (assert (forall (({name} Int)) (=> (= {name} 0) (p {name}))))\n\
             (assert (forall ((x Int) (y Int)) (=> (and (p x) (= y (+ x 1))) (|{name}| y))))\n\
             (assert (forall ((x Int)) (=> (and ({name} x) (< x 0)) false)))\n(check-sat)\n(exit)\n"
        );
        let sys = parse(&src).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(sys.preds.len(), 2, "{name}");
        assert_eq!(sys.preds[0].name, name);
        assert_eq!(sys.clauses.len(), 3, "{name}");
        assert_eq!(sys.clauses[2].line, 5, "{name}");
    }
}

/// Found by scripts/fuzz: a clause nested 20,000 `=>` deep took 7.8 s to read as a
/// fixedpoint rule (the check for a `false` head rescanned each level's text) and seconds
/// in either format (the normalizer copied the clause so far at every level). Both are
/// linear now; 30,000 levels took 11 s (CHC-COMP) and about 40 s (fixedpoint) before.
/// Parsed on a thread with the 1 GiB stack the solver's own parsing thread has.
#[test]
fn deeply_nested_implications_parse_in_linear_time() {
    let n = 30_000;
    let chain = format!("{}(P x){}", "(=> true ".repeat(n), ")".repeat(n));
    let chc = format!(
        "(set-logic HORN)(declare-fun P (Int) Bool)\n\
         (assert (forall ((x Int)) (P 0)))\n\
         (assert (forall ((x Int)) (=> (P x) {chain})))\n\
         (assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))\n(check-sat)\n"
    );
    let fp = format!(
        "(declare-rel P (Int))\n(declare-var x Int)\n(rule (P 0))\n\
         (rule (=> (P x) {chain}))\n(query P)\n"
    );
    for (what, text) in [("chc-comp", chc), ("fixedpoint", fp)] {
        let start = std::time::Instant::now();
        let sys = std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn(move || parse_script(&text).map(|s| s.systems))
            .unwrap()
            .join()
            .unwrap()
            .unwrap_or_else(|e| panic!("{what}: {e:?}"));
        let took = start.elapsed().as_secs_f64();
        assert_eq!(sys.len(), 1, "{what}");
        assert!(
            took < 5.0,
            "{what}: {n} nested implications took {took:.1} s"
        );
    }
}
