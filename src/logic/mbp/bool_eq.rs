//! Boolean equalities solved before projection. The clause encodings equate each clause
//! variable with a parameter (`v = b`, `v = not b`). The implicant would resolve such an
//! equality under the model into two literals, `not v` and `not b`, and keep the second: the
//! projection then fixes every Boolean parameter to its model value, a cube as small as one
//! state. Substituting `b` for the eliminated `v` first keeps the projection exact
//! (`exists v. v = b /\ phi(v)` is `phi(b)`), as z3's MBP does.

use super::super::*;
use super::{Plugin, Problem, Projector};
use rustc_hash::{FxHashMap, FxHashSet};

/// The Boolean plug-in: equalities solved first ([`solve_bool_equalities`]); a literal on
/// an eliminated Boolean is dropped (`exists b. b` holds), one on a kept Boolean is kept.
pub(super) struct Bools;

impl Plugin for Bools {
    fn owns(&self, sort: Sort) -> bool {
        sort == Sort::Bool
    }

    fn prepare(&self, mut problem: Problem) -> Result<Problem, String> {
        let elim: FxHashSet<Var> = problem.elim.iter().cloned().collect();
        problem.phi = solve_bool_equalities(&problem.phi, &elim);
        Ok(problem)
    }

    fn add_lit(&self, p: &mut Projector, lit: &Term) -> Result<bool, String> {
        if literal(lit).is_none() {
            return Ok(false);
        }
        if !p.impure(lit) {
            p.kept.push(lit.clone());
        }
        Ok(true)
    }
}

/// A Boolean variable or its negation: `(var, positive)`.
fn literal(t: &Term) -> Option<(Var, bool)> {
    match t.get() {
        TermNode::Var(v) if v.sort == Sort::Bool => Some((v.clone(), true)),
        TermNode::Not(s) => literal(s).map(|(v, p)| (v, !p)),
        _ => None,
    }
}

/// `phi` with each eliminated Boolean `x` of a top-level equality `x = l` (`l` another
/// Boolean variable or its negation) replaced by `l`. Equivalent to `phi` under
/// `exists x`, and every model of `phi` satisfies the result.
pub(super) fn solve_bool_equalities(phi: &[Term], elim: &FxHashSet<Var>) -> Vec<Term> {
    // x -> (y, positive): x = y, or x = not y
    let mut map: FxHashMap<Var, (Var, bool)> = FxHashMap::default();
    let resolve = |map: &FxHashMap<Var, (Var, bool)>, (mut v, mut p): (Var, bool)| {
        while let Some((w, q)) = map.get(&v) {
            v = w.clone();
            p = p == *q;
        }
        (v, p)
    };
    for f in phi {
        for c in conjuncts(f) {
            let TermNode::Iff(a, b) = c.get() else {
                continue;
            };
            let (Some(a), Some(b)) = (literal(a), literal(b)) else {
                continue;
            };
            // x = l with x eliminated: resolve both sides through the equalities so far
            let ((av, ap), (bv, bp)) = (resolve(&map, a), resolve(&map, b));
            if av == bv {
                continue;
            }
            // av <-> (ap == bp) bv: map an eliminated side onto the other
            let same = ap == bp;
            if elim.contains(&av) {
                map.insert(av, (bv, same));
            } else if elim.contains(&bv) {
                map.insert(bv, (av, same));
            }
        }
    }
    if map.is_empty() {
        return phi.to_vec();
    }
    let sigma: FxHashMap<Var, Term> = map
        .keys()
        .map(|x| {
            let (y, p) = resolve(&map, (x.clone(), true));
            let t = mk_var_of(&y);
            (x.clone(), if p { t } else { mk_not(t) })
        })
        .collect();
    phi.iter().map(|f| subst(f, &sigma)).collect()
}
