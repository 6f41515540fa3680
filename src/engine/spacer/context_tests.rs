//! Joint queries (one query over all the clauses defining a predicate) against what the
//! clauses say, on a system small enough to know every answer.

use super::*;
use crate::chc::ChcSystem;
use crate::frontend::parse_str;
use crate::testing::engine_smt;

/// `Q` is defined by two clauses, from `P` (which holds at 0) and from `R` (at 1).
const TWO_WAYS: &str = "(set-logic HORN)
(declare-fun P (Int) Bool)
(declare-fun R (Int) Bool)
(declare-fun Q (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int)) (=> (= x 1) (R x))))
(assert (forall ((x Int)) (=> (P x) (Q x))))
(assert (forall ((x Int)) (=> (R x) (Q x))))
(assert (forall ((x Int)) (=> (and (Q x) (= x 3)) false)))
(check-sat)";

fn pred(sys: &ChcSystem, name: &str) -> PredId {
    sys.pred_ids().find(|&p| sys.pred(p).name == name).unwrap()
}

/// `x0 = n` over the predicate's parameter.
fn at(enc: &Encoded, p: PredId, n: i64) -> Vec<Term> {
    vec![mk_eq(mk_var_of(&enc.params[p.idx()][0]), mk_int(n))]
}

/// The body predicate of the clause a joint query answered with (`None`: blocked).
fn head_of(enc: &Encoded, q: &Joint) -> Option<PredId> {
    match q {
        Joint::Sat(c, _) => Some(enc.clauses[*c].body[0].pred),
        Joint::Unsat(_) => None,
    }
}

#[test]
fn a_clause_that_is_off_is_not_held_to_its_empty_frame() {
    let sys = parse_str(TWO_WAYS).unwrap();
    let enc = Encoded::new(&sys, true);
    let (p, r, q) = (pred(&sys, "P"), pred(&sys, "R"), pred(&sys, "Q"));
    let mut ctx = Context::new(&enc, &engine_smt(), 8, true).unwrap();
    assert!(ctx.is_joint(q), "Q has two clauses");
    ctx.add_level().unwrap();
    // at level 0 every frame is empty: nothing reaches Q
    let a = ctx.may_any(q, Clauses::Rules, 0, &at(&enc, q, 3)).unwrap();
    assert_eq!(head_of(&enc, &a), None, "level 0 lets a body through");
    // F(R, 1) is empty (the lemma `false`); F(P, 1) is everything
    ctx.assert_lemma(r, &[], 1).unwrap();
    let a = ctx.may_any(q, Clauses::Rules, 1, &at(&enc, q, 3)).unwrap();
    assert_eq!(
        head_of(&enc, &a),
        Some(p),
        "the clause from P has a model; R's empty frame must not block it"
    );
    // with F(P, 1) empty too, the cube is blocked, and the core names its literal
    ctx.assert_lemma(p, &[], 1).unwrap();
    match ctx.may_any(q, Clauses::Rules, 1, &at(&enc, q, 3)).unwrap() {
        Joint::Unsat(core) => assert!(core.is_empty() || core == at(&enc, q, 3)),
        Joint::Sat(c, _) => panic!("clause {c} has a model through an empty frame"),
    }
    // P's lemma `x != 0` blocks only x = 0 at Q through P; R's frame stays empty
    let mut ctx = Context::new(&enc, &engine_smt(), 8, true).unwrap();
    ctx.add_level().unwrap();
    ctx.assert_lemma(r, &[], 1).unwrap();
    ctx.assert_lemma(p, &at(&enc, p, 0), 1).unwrap();
    let a = ctx.may_any(q, Clauses::Rules, 1, &at(&enc, q, 0)).unwrap();
    assert_eq!(head_of(&enc, &a), None, "x = 0 passes P's lemma");
    assert!(ctx.pushable(q, 1, &at(&enc, q, 0)).unwrap());
    assert!(!ctx.pushable(q, 1, &at(&enc, q, 5)).unwrap());
}

#[test]
fn a_joint_model_is_a_model_of_the_clause_it_names() {
    let sys = parse_str(TWO_WAYS).unwrap();
    let enc = Encoded::new(&sys, true);
    let (r, q) = (pred(&sys, "R"), pred(&sys, "Q"));
    let mut ctx = Context::new(&enc, &engine_smt(), 8, true).unwrap();
    ctx.add_level().unwrap();
    // F(R, 1) is x = 1 only: the cube x = 1 at Q may come from either clause
    ctx.assert_lemma(
        r,
        &[mk_le(mk_var_of(&enc.params[r.idx()][0]), mk_int(0))],
        1,
    )
    .unwrap();
    ctx.assert_lemma(
        r,
        &[mk_ge(mk_var_of(&enc.params[r.idx()][0]), mk_int(2))],
        1,
    )
    .unwrap();
    for n in [1, 7] {
        let Joint::Sat(c, m) = ctx.may_any(q, Clauses::Rules, 1, &at(&enc, q, n)).unwrap() else {
            panic!("Q(x = {n}) has a model through P");
        };
        let cl = &enc.clauses[c];
        assert_eq!(eval_bool(&cl.constraint, &m), Ok(true), "clause {c}: {m:?}");
        let head = enc.values_at(&cl.head, &m).unwrap();
        assert_eq!(eval_bool(&at(&enc, q, n)[0], &head), Ok(true));
        let body = enc.values_at(&cl.body[0], &m).unwrap();
        let frame = in_frame(&enc, r, cl.body[0].pred, &body);
        assert!(frame, "clause {c}: the body lies outside its frame: {m:?}");
    }
}

/// Whether `vals` (of `b`'s parameters) lies in the frame at level 1 of the test: R's is
/// `x = 1`, every other predicate's is everything.
fn in_frame(enc: &Encoded, r: PredId, b: PredId, vals: &Assignment) -> bool {
    b != r || eval_bool(&at(enc, r, 1)[0], vals) == Ok(true)
}

/// `Q` is defined by two clauses from `P` (one slot, shared) and one from `R`.
const SHARED: &str = "(set-logic HORN)
(declare-fun P (Int) Bool)
(declare-fun R (Int) Bool)
(declare-fun Q (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int)) (=> (= x 1) (R x))))
(assert (forall ((x Int)) (=> (and (P x) (>= x 0)) (Q x))))
(assert (forall ((y Int) (z Int)) (=> (and (P y) (< y 0) (= z (- y))) (Q z))))
(assert (forall ((x Int)) (=> (R x) (Q x))))
(assert (forall ((x Int)) (=> (and (Q x) (= x 3)) false)))
(check-sat)";

#[test]
fn clauses_that_share_a_slot_are_each_held_to_it_only_while_on() {
    let sys = parse_str(SHARED).unwrap();
    let enc = Encoded::new(&sys, true);
    let (p, r, q) = (pred(&sys, "P"), pred(&sys, "R"), pred(&sys, "Q"));
    // the two applications of P share one slot, and Q's clauses one head
    assert_eq!(enc.pred_slots[p.idx()].len(), 1);
    assert_eq!(enc.slots[enc.pred_slots[p.idx()][0]].users.len(), 2);
    let heads: Vec<&Vec<Var>> = enc.defining[q.idx()]
        .iter()
        .map(|&c| &enc.clauses[c].head.vars)
        .collect();
    assert!(heads.windows(2).all(|w| w[0] == w[1]), "{heads:?}");
    let mut ctx = Context::new(&enc, &engine_smt(), 8, true).unwrap();
    ctx.add_level().unwrap();
    // F(P, 1) is empty, F(R, 1) everything: only the clause from R reaches Q(3)
    ctx.assert_lemma(p, &[], 1).unwrap();
    let a = ctx.may_any(q, Clauses::Rules, 1, &at(&enc, q, 3)).unwrap();
    assert_eq!(
        head_of(&enc, &a),
        Some(r),
        "P's empty shared slot must not block the clause from R"
    );
    // F(R, 1) empty, F(P, 1) is x != -3: Q(3) comes only from P through the clause
    // that negates, and it is blocked; Q(5) is not
    let mut ctx = Context::new(&enc, &engine_smt(), 8, true).unwrap();
    ctx.add_level().unwrap();
    ctx.assert_lemma(r, &[], 1).unwrap();
    ctx.assert_lemma(p, &at(&enc, p, -3), 1).unwrap();
    ctx.assert_lemma(p, &at(&enc, p, 3), 1).unwrap();
    let a = ctx.may_any(q, Clauses::Rules, 1, &at(&enc, q, 3)).unwrap();
    assert_eq!(head_of(&enc, &a), None, "Q(3) needs P(3) or P(-3)");
    let Joint::Sat(c, m) = ctx.may_any(q, Clauses::Rules, 1, &at(&enc, q, 5)).unwrap() else {
        panic!("Q(5) has no model");
    };
    assert_eq!(eval_bool(&enc.clauses[c].constraint, &m), Ok(true), "{m:?}");
    let body = enc.values_at(&enc.clauses[c].body[0], &m).unwrap();
    for n in [3, -3] {
        assert_eq!(eval_bool(&at(&enc, p, n)[0], &body), Ok(false), "{m:?}");
    }
    // must-summaries at the shared slot: P(-7) reaches Q(7) through the clause that negates
    ctx.add_must(p, &at(&enc, p, 5)[0]).unwrap();
    ctx.add_must(p, &at(&enc, p, -7)[0]).unwrap();
    let (c, m) = ctx
        .reach_any(q, &at(&enc, q, 7))
        .unwrap()
        .expect("P(-7) gives Q(7)");
    assert_eq!(eval_bool(&enc.clauses[c].constraint, &m), Ok(true), "{m:?}");
    let body = enc.values_at(&enc.clauses[c].body[0], &m).unwrap();
    assert_eq!(eval_bool(&at(&enc, p, -7)[0], &body), Ok(true), "{m:?}");
    assert!(ctx.reach_any(q, &at(&enc, q, -5)).unwrap().is_none());
    assert!(ctx.reach_any(q, &at(&enc, q, 6)).unwrap().is_none());
}
