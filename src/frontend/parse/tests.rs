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
