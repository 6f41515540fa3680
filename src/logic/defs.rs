//! Variable definitions read off conjuncts (`v = t` over any sort, `b`, `not b`), used to eliminate
//! variables by substitution: in clause simplification and in existential quantifiers.

use super::arith::mk_lin;
use super::real::mk_rlin;
use super::term::*;
use num_traits::{One, Signed};
use rustc_hash::FxHashMap;

/// A definition `v = t` read off a conjunct, if the conjunct has that shape and `v` does
/// not occur in `t`.
pub fn definition(conj: &Term) -> Option<(Var, Term)> {
    let mut first = None;
    each_definition(conj, &mut |v, t| {
        first = Some((v, t));
        false
    });
    first
}

/// Every definition `v = t` a conjunct gives (an integer equation can be solved for each of
/// its variables with a unit coefficient, a real one for each of its variables).
pub fn definitions(conj: &Term) -> Vec<(Var, Term)> {
    let mut out = vec![];
    each_definition(conj, &mut |v, t| {
        out.push((v, t));
        true
    });
    out
}

/// Calls `f` on each definition of [`definitions`], in its order, while `f` returns true.
fn each_definition(conj: &Term, f: &mut dyn FnMut(Var, Term) -> bool) {
    let defs: Vec<(Var, Term)> = match conj.get() {
        TermNode::Var(v) => vec![(v.clone(), mk_true())],
        TermNode::Not(b) => b
            .as_var()
            .map(|v| (v.clone(), mk_false()))
            .into_iter()
            .collect(),
        TermNode::Iff(a, b) | TermNode::ArrEq(a, b) => {
            let mut out = vec![];
            if let Some(v) = a.as_var() {
                if !free_vars(b).contains(v) {
                    out.push((v.clone(), b.clone()));
                }
            }
            if let Some(v) = b.as_var() {
                if !free_vars(a).contains(v) {
                    out.push((v.clone(), a.clone()));
                }
            }
            out
        }
        TermNode::EqZ(l) => {
            // c*v + rest = 0 with c = +-1  gives  v = -rest/c
            for (t, c) in &l.terms {
                let Some(v) = t.as_var() else { continue };
                if !c.abs().is_one() {
                    continue;
                }
                // `v` must not occur in the other atoms (the atoms are distinct, so a variable
                // atom other than `t` is another variable)
                let occurs = l
                    .terms
                    .iter()
                    .any(|(s, _)| s != t && s.as_var().is_none() && free_vars(s).contains(v));
                if occurs {
                    continue;
                }
                let mut rest = l.clone();
                rest.terms.retain(|(s, _)| s != t);
                let rhs = if c.is_positive() { rest.neg() } else { rest };
                if !f(v.clone(), mk_lin(rhs)) {
                    return;
                }
            }
            return;
        }
        TermNode::REqZ(l) => {
            // c*v + rest = 0 with a real variable v and any c != 0  gives  v = -rest/c
            for (t, c) in &l.terms {
                let Some(v) = t.as_var() else { continue };
                let mut rest = l.clone();
                rest.terms.retain(|(s, _)| s != t);
                if free_vars(&mk_rlin(rest.clone())).contains(v) {
                    continue;
                }
                if !f(v.clone(), mk_rlin(rest.scale(&-c.recip()))) {
                    return;
                }
            }
            return;
        }
        _ => vec![],
    };
    for (v, t) in defs {
        if !f(v, t) {
            return;
        }
    }
}

/// `exists vars. body`, first eliminating the variables that a conjunct of `body` defines.
pub fn mk_exists_elim(vars: Vec<Var>, body: Term) -> Term {
    let mut vars = vars;
    let mut body = body;
    loop {
        let found = conjuncts(&body)
            .iter()
            .flat_map(definitions)
            .find(|(v, _)| vars.contains(v));
        let Some((v, t)) = found else { break };
        let mut map = FxHashMap::default();
        map.insert(v.clone(), t);
        body = subst(&body, &map);
        vars.retain(|w| *w != v);
    }
    mk_exists(vars, body)
}
