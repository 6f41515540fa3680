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
/// Input nests at most `MAX_NESTING` deep now, so the long chain stops just below that.
///
/// Linear is measured against the machine, not a clock: the long chain must take less
/// than 30 times what a tenth of it takes in the same test (10 times when linear, 100 when quadratic),
/// plus 0.5 s for times too small to compare. Each is the median of three parses, and a
/// miss is measured again (up to three rounds): a burst of load on a shared machine may
/// slow one round, a quadratic parser is slow in every round.
#[test]
fn deeply_nested_implications_parse_in_linear_time() {
    fn text(what: &str, n: usize) -> String {
        let chain = format!("{}(P x){}", "(=> true ".repeat(n), ")".repeat(n));
        if what == "chc-comp" {
            format!(
                "(set-logic HORN)(declare-fun P (Int) Bool)\n\
                 (assert (forall ((x Int)) (P 0)))\n\
                 (assert (forall ((x Int)) (=> (P x) {chain})))\n\
                 (assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))\n(check-sat)\n"
            )
        } else {
            format!(
                "(declare-rel P (Int))\n(declare-var x Int)\n(rule (P 0))\n\
                 (rule (=> (P x) {chain}))\n(query P)\n"
            )
        }
    }
    fn parse_on_big_stack(what: &'static str, text: std::sync::Arc<str>) -> usize {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn(move || parse_script(&text).map(|s| s.systems.len()))
            .unwrap()
            .join()
            .unwrap()
            .unwrap_or_else(|e| panic!("{what}: {e:?}"))
    }
    let n = super::MAX_NESTING - 10;
    for what in ["chc-comp", "fixedpoint"] {
        let (small, big): (std::sync::Arc<str>, std::sync::Arc<str>) =
            (text(what, n / 10).into(), text(what, n).into());
        assert_eq!(parse_on_big_stack(what, big.clone()), 1, "{what}");
        let mut rounds = vec![];
        for _ in 0..3 {
            let time = |t: &std::sync::Arc<str>| {
                crate::testing::timing::median_of_3(|| {
                    parse_on_big_stack(what, t.clone());
                })
            };
            let (t_small, t_big) = (time(&small), time(&big));
            rounds.push((t_small, t_big));
            if t_big.as_secs_f64() < 30.0 * t_small.as_secs_f64() + 0.5 {
                break;
            }
        }
        let (t_small, t_big) = *rounds.last().unwrap();
        assert!(
            t_big.as_secs_f64() < 30.0 * t_small.as_secs_f64() + 0.5,
            "{what}: {n} nested implications took {t_big:.2?}, {} took {t_small:.2?}: not \
             linear (every round: {rounds:.2?})",
            n / 10
        );
        eprintln!(
            "{what}: {} levels {t_small:.3?}, {n} levels {t_big:.3?}",
            n / 10
        );
    }
}

/// A CHC-COMP input of `n` asserts, over 1 MB (so parsed in groups on several threads when
/// there are cores): new symbols all along, `let`, attributes, a quoted predicate name, a
/// predicate declared halfway. `replace(i)` replaces the `i`-th assert's text when `Some`;
/// with `keep`, every other assert is blanked out (same lines, small enough for one thread).
fn big_input(n: usize, replace: &dyn Fn(usize) -> Option<String>, keep: Option<usize>) -> String {
    let mut s = String::from(
        "(set-logic HORN)\n(declare-fun p (Int Bool) Bool)\n(declare-fun |q r| (Int) Bool)\n",
    );
    for i in 0..n {
        if i == n / 2 {
            s += "(declare-fun late (Int) Bool)\n";
        }
        let c = if i > n / 2 && i % 7 == 0 {
            format!("(assert (forall ((v{i} Int) (b Bool)) (=> (and (late v{i}) (! (p v{i} b) :named c{i})) (late (+ v{i} {i})))))\n")
        } else {
            format!("(assert\n  (forall ((x Int) (y{i} Int) (b Bool))\n    (let ((z (ite b x (- y{i} {i})))) (=> (and (p x b) (= y{i} (* 2 z))) (|q r| y{i})))))\n")
        };
        let c = replace(i).unwrap_or(c);
        if keep.is_some_and(|k| k != i) {
            s += &"\n".repeat(c.matches('\n').count());
        } else {
            s += &c;
        }
    }
    s + "(check-sat)\n"
}

#[test]
fn large_inputs_parse_as_each_clause_alone() {
    let n = 10_000;
    let s = big_input(n, &|_| None, None);
    assert!(s.len() > 1 << 20);
    let sys = parse(&s).unwrap();
    assert_eq!(sys.clauses.len(), n);
    for i in [0, 1, n / 3, n / 2 + 1, 5012, 2 * n / 3, n - 1] {
        let alone = parse(&big_input(n, &|_| None, Some(i))).unwrap();
        assert_eq!(alone.clauses.len(), 1, "{i}");
        let (a, b) = (&sys.clauses[i], &alone.clauses[0]);
        assert_eq!(a.line, b.line, "{i}");
        assert_eq!(a.constraint, b.constraint, "{i}");
        assert_eq!(a.body, b.body, "{i}");
        assert_eq!(a.head, b.head, "{i}");
    }
}

#[test]
fn large_inputs_report_the_lines_of_errors() {
    let n = 10_000;
    let bad = [
        // smt2parser's syntax error, on the assert's second line
        "(assert\n (forall ((x Int) 3) (p x true)))\n",
        // the converter's errors
        "(assert\n (forall ((x Int)) (=> (undeclared x) (p x true))))\n",
        "(assert (forall ((x String)) (p 0 true)))\n",
    ];
    for b in bad {
        for at in [n / 4, 3 * n / 4, n - 1] {
            let replace = |i: usize| (i == at).then(|| b.to_string());
            let e = parse(&big_input(n, &replace, None)).unwrap_err();
            let alone = parse(&big_input(n, &replace, Some(at))).unwrap_err();
            assert_eq!(e, alone, "{b} at {at}");
            assert!(e.line > at, "{b} at {at}: {e}");
        }
    }
}

#[test]
fn large_inputs_with_command_names_as_symbols_parse() {
    // over 1 MB, so the input is scanned for commands and for command names side by side;
    // quoting `exit` moves every later command, so the commands must come from the quoted text
    let n = 10_000;
    let exit =
        "(declare-fun exit (Int) Bool)\n(assert (forall ((x Int)) (=> (exit x) (|q r| x))))\n";
    let s = big_input(n, &|i| (i == n / 3).then(|| exit.to_string()), None);
    assert!(s.len() > 1 << 20);
    let sys = parse(&s).unwrap();
    assert_eq!(sys.clauses.len(), n);
    let c = &sys.clauses[n / 3];
    assert_eq!(sys.pred(c.body[0].pred).name, "exit");
}

#[test]
fn a_panic_in_a_parsing_thread_is_an_input_error() {
    // over 1 MB, so groups of commands are parsed on other threads; the marker makes the
    // thread that parses its group panic (test builds only), a parsing thread or the
    // calling one (which parses a group itself when it gets there first: under load)
    let n = 10_000;
    let marked = "(assert (forall ((x Int)) (=> (p x true) (|chcsolve-test-panic| x))))\n";
    for at in [n / 2, n - 1] {
        let s = big_input(n, &|i| (i == at).then(|| marked.to_string()), None);
        let e = parse_script(&s).unwrap_err();
        assert!(e.line > 0, "{e}");
        assert!(e.to_string().starts_with("(error \"line "), "{e}");
        assert!(e.msg.contains("parser failed"), "{e}");
    }
}
