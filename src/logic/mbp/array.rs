//! Arrays in model-based projection: an eliminated variable that is an array, or that occurs
//! under an array operation (`select`, `store`, a constant array, an array equality), is
//! replaced by its model value before the arithmetic projection runs.
//!
//! `phi[x := M(x)]` implies `exists x. phi` and `M` satisfies it, so the replacement is a
//! projection, only a weaker one than z3's `mbp_arrays` (store elimination through partial
//! equalities is not done). Reading over the stores of the constant arrays that this puts in
//! the formula turns their `select`s into `ite` chains over the index ([`super::mk_select`]),
//! which the integer projection handles. Each replacement is counted as a model
//! substitution.

use super::super::*;
use rustc_hash::FxHashSet;

/// `phi` with those eliminated variables replaced by their values, the variables left to
/// eliminate, and the number replaced.
pub(super) fn substitute(
    phi: &[Term],
    model: &Assignment,
    elim: &[Var],
) -> Result<(Vec<Term>, Vec<Var>, usize), String> {
    let elim_set: FxHashSet<&Var> = elim.iter().collect();
    let mut under_array: FxHashSet<Var> = FxHashSet::default();
    let mut seen: FxHashSet<u64> = FxHashSet::default();
    for f in phi {
        let mut stack = vec![f.clone()];
        while let Some(t) = stack.pop() {
            if !seen.insert(t.uid()) {
                continue;
            }
            let array_op = matches!(
                t.get(),
                TermNode::Select(..)
                    | TermNode::Store(..)
                    | TermNode::ConstArray(..)
                    | TermNode::ArrEq(..)
            );
            if array_op {
                under_array.extend(free_vars(&t).into_iter().filter(|v| elim_set.contains(v)));
            } else {
                stack.extend(t.children().into_iter().cloned());
            }
        }
    }
    let replace: Vec<&Var> = elim
        .iter()
        .filter(|v| v.sort.is_array() || under_array.contains(*v))
        .collect();
    if replace.is_empty() {
        return Ok((phi.to_vec(), elim.to_vec(), 0));
    }
    let mut map = rustc_hash::FxHashMap::default();
    for v in &replace {
        let val = model
            .get(*v)
            .ok_or_else(|| format!("mbp: no model value for {}", v.name))?;
        map.insert((*v).clone(), val.to_term());
    }
    let phi = phi.iter().map(|f| subst(f, &map)).collect();
    let rest = elim.iter().filter(|v| !map.contains_key(*v)).cloned().collect();
    Ok((phi, rest, replace.len()))
}

/// Is `t` an array operation (an opaque atom for the arithmetic projection)?
pub(super) fn is_array_op(t: &Term) -> bool {
    matches!(
        t.get(),
        TermNode::Select(..) | TermNode::Store(..) | TermNode::ConstArray(..) | TermNode::ArrEq(..)
    )
}
