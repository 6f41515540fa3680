//! What the projection's property tests share: a problem's description for failure
//! messages, and the check of a result by z3 (`result /\ not exists elim. phi`).

use super::*;
use crate::smt::{SatResult, Smt};
use crate::testing::rng::Rng;
use num_bigint::BigInt;

/// A projection problem and its kept variables.
pub(super) struct Case<'a> {
    pub phi: &'a [Term],
    pub elim: &'a [Var],
    pub model: &'a Assignment,
    pub kept: Vec<Var>,
}

impl<'a> Case<'a> {
    pub fn new(phi: &'a [Term], elim: &'a [Var], model: &'a Assignment, kept: Vec<Var>) -> Self {
        Case {
            phi,
            elim,
            model,
            kept,
        }
    }
}

/// Random model values in `-dom..=dom` for `ints` and coin flips for `bools`.
pub(super) fn random_ints_and_bools(
    rng: &mut impl Rng,
    model: &mut Assignment,
    ints: &[Var],
    bools: &[Var],
    dom: i64,
) {
    for v in ints {
        model.insert(v.clone(), Value::Int(BigInt::from(rng.range(-dom, dom))));
    }
    for v in bools {
        model.insert(v.clone(), Value::Bool(rng.chance(50)));
    }
}

/// The result `lits` mentions only kept variables and the model satisfies it.
pub(super) fn check_kept_and_holds(c: &Case, lits: &[Term]) {
    for l in lits {
        assert!(
            free_vars(l).iter().all(|v| c.kept.contains(v)),
            "result mentions an eliminated variable\n{}",
            show(c, lits)
        );
    }
    assert!(
        holds(lits, c.model),
        "the model falsifies the result\n{}",
        show(c, lits)
    );
}

/// `found`: `phi` has a witness where the result `lits` holds at the kept values `a`.
pub(super) fn assert_witness(found: bool, by: &str, a: &Assignment, c: &Case, lits: &[Term]) {
    let mut shown: Vec<String> = a.iter().map(|(v, x)| format!("{}={x}", v.name)).collect();
    shown.sort();
    assert!(
        found,
        "{by}the result holds at [{}] but phi has no witness\n{}",
        shown.join(" "),
        show(c, lits)
    );
}

pub(super) fn holds(lits: &[Term], a: &Assignment) -> bool {
    lits.iter().all(|l| eval_bool(l, a).unwrap())
}

/// The problem and the result `r`, for a failure message.
pub(super) fn show(c: &Case, r: &[Term]) -> String {
    let phi: Vec<String> = c.phi.iter().map(|t| SmtTerm(t).to_string()).collect();
    let res: Vec<String> = r.iter().map(|t| SmtTerm(t).to_string()).collect();
    let elim: Vec<&str> = c.elim.iter().map(|v| &*v.name).collect();
    let mut model: Vec<String> = (c.model.iter())
        .map(|(v, x)| format!("{}={x}", v.name))
        .collect();
    model.sort();
    format!(
        "phi: {}\nelim: {elim:?}\nmodel: {}\nresult: {}",
        phi.join(" "),
        model.join(" "),
        res.join(" ")
    )
}

/// `result /\ not exists elim. phi` is unsatisfiable; a `sat` is confirmed at its point by
/// a quantifier-free query. When z3 gives up on the quantifier, models of the result are
/// sampled and `phi` must have a witness at each. With `qe`, z3 is asked through its `qe`
/// tactic first (its `check-sat` gives up on many quantifiers over the reals). Returns
/// whether z3 was conclusive.
pub(super) fn check_by_solver(smt: &mut Smt, c: &Case, lits: &[Term], qe: bool) -> bool {
    smt.push().unwrap();
    for v in &c.kept {
        smt.declare(v).unwrap();
    }
    smt.assert(&mk_and(lits.to_vec())).unwrap();
    smt.push().unwrap();
    smt.assert(&mk_not(mk_exists(c.elim.to_vec(), mk_and(c.phi.to_vec()))))
        .unwrap();
    let res = if qe {
        match smt.raw_query("(check-sat-using (then qe smt))").as_deref() {
            Ok("sat") => SatResult::Sat,
            Ok("unsat") => SatResult::Unsat,
            Ok("unknown") => smt.check_sat().unwrap(),
            _ => SatResult::Unknown,
        }
    } else {
        smt.check_sat().unwrap()
    };
    let point = (res == SatResult::Sat).then(|| smt.get_model(&c.kept).unwrap());
    smt.pop().unwrap();
    let mut samples = vec![];
    if let Some(a) = point {
        samples.push(a);
    } else if res == SatResult::Unknown {
        for _ in 0..5 {
            if smt.check_sat().unwrap() != SatResult::Sat {
                break;
            }
            let a = smt.get_model(&c.kept).unwrap();
            let same: Vec<Term> = (a.iter())
                .map(|(v, x)| mk_eq(mk_var_of(v), x.to_term()))
                .collect();
            smt.assert(&mk_not(mk_and(same))).unwrap();
            samples.push(a);
        }
    }
    smt.pop().unwrap();
    for a in &samples {
        smt.push().unwrap();
        for (v, x) in a {
            smt.assert(&mk_eq(mk_var_of(v), x.to_term())).unwrap();
        }
        smt.assert(&mk_and(c.phi.to_vec())).unwrap();
        let witness = smt.check_sat().unwrap() != SatResult::Unsat;
        smt.pop().unwrap();
        assert_witness(witness, "z3: ", a, c, lits);
    }
    res == SatResult::Unsat
}
