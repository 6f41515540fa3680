//! Variable definitions read off conjuncts (`v = t`, `b`, `not b`), used to eliminate
//! variables by substitution: in clause simplification and in existential quantifiers.

use super::term::*;
use num_traits::{One, Signed};
use rustc_hash::FxHashMap;

/// A definition `v = t` read off a conjunct, if the conjunct has that shape and `v` does
/// not occur in `t`.
pub fn definition(conj: &Term) -> Option<(Var, Term)> {
    match conj.get() {
        TermNode::Var(v) => Some((v.clone(), mk_true())),
        TermNode::Not(b) => b.as_var().map(|v| (v.clone(), mk_false())),
        TermNode::Iff(a, b) => {
            if let Some(v) = a.as_var() {
                if !free_vars(b).contains(v) {
                    return Some((v.clone(), b.clone()));
                }
            }
            let v = b.as_var()?;
            (!free_vars(a).contains(v)).then(|| (v.clone(), a.clone()))
        }
        TermNode::EqZ(l) => {
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
                return Some((v.clone(), mk_lin(rhs)));
            }
            None
        }
        _ => None,
    }
}

/// `exists vars. body`, first eliminating the variables that a conjunct of `body` defines.
pub fn mk_exists_elim(vars: Vec<Var>, body: Term) -> Term {
    let mut vars = vars;
    let mut body = body;
    loop {
        let found = conjuncts(&body)
            .iter()
            .filter_map(definition)
            .find(|(v, _)| vars.contains(v));
        let Some((v, t)) = found else { break };
        let mut map = FxHashMap::default();
        map.insert(v.clone(), t);
        body = subst(&body, &map);
        vars.retain(|w| *w != v);
    }
    mk_exists(vars, body)
}
