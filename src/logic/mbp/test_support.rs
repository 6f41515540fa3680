//! What the projection's property tests share: a problem's description for failure
//! messages, and the check of a result by z3 (`result /\ not exists elim. phi`).

use super::*;
use crate::smt::{SatResult, Smt};

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
        let mut shown: Vec<String> = a.iter().map(|(v, x)| format!("{}={x}", v.name)).collect();
        shown.sort();
        assert!(
            witness,
            "z3: the result holds at [{}] but phi has no witness\n{}",
            shown.join(" "),
            show(c, lits)
        );
    }
    res == SatResult::Unsat
}
