//! Variable definitions read off conjuncts (`v = t`, `b`, `not b`), used to eliminate
//! variables by substitution: in clause simplification and in existential quantifiers.

use super::term::*;
use num_traits::{One, Signed};
use rustc_hash::FxHashMap;

/// A definition `v = t` read off a conjunct, if the conjunct has that shape and `v` does
/// not occur in `t`.
pub fn definition(conj: &Term) -> Option<(Var, Term)> {
    definitions(conj).into_iter().next()
}

/// Every definition `v = t` a conjunct gives (an equation can be solved for each of its
/// variables with a unit coefficient).
pub fn definitions(conj: &Term) -> Vec<(Var, Term)> {
    match conj.get() {
        TermNode::Var(v) => vec![(v.clone(), mk_true())],
        TermNode::Not(b) => b
            .as_var()
            .map(|v| (v.clone(), mk_false()))
            .into_iter()
            .collect(),
        TermNode::Iff(a, b) => {
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
            let mut out = vec![];
            // c*v + rest = 0 with c = +-1  gives  v = -rest/c
            for (t, c) in &l.terms {
                let Some(v) = t.as_var() else { continue };
                if !c.abs().is_one() {
                    continue;
                }
                let mut rest = l.clone();
                rest.terms.retain(|(s, _)| s != t);
                if free_vars(&mk_lin(rest.clone())).contains(v) {
                    continue;
                }
                let rhs = if c.is_positive() { rest.neg() } else { rest };
                out.push((v.clone(), mk_lin(rhs)));
            }
            out
        }
        _ => vec![],
    }
}

/// `exists vars. body`, first eliminating the variables that a conjunct of `body` defines.
pub fn mk_exists_elim(vars: Vec<Var>, body: Term) -> Term {
    let mut vars = vars;
    let mut body = body;
    loop {
        let found = conjuncts(&body)
            .iter()
            .flat_map(|c| definitions(&c))
            .find(|(v, _)| vars.contains(v));
        let Some((v, t)) = found else { break };
        let mut map = FxHashMap::default();
        map.insert(v.clone(), t);
        body = subst(&body, &map);
        vars.retain(|w| *w != v);
    }
    mk_exists(vars, body)
}
