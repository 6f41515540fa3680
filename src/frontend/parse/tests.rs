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
