//! Quantifiers in terms: whether a term has one, and how many variables they bind.

use super::*;

/// Does `t` contain a quantifier?
pub fn has_quantifier(t: &Term) -> bool {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vec![t.clone()];
    while let Some(t) = stack.pop() {
        if !seen.insert(t.uid()) {
            continue;
        }
        if matches!(t.get(), TermNode::Exists(..)) {
            return true;
        }
        stack.extend(t.children().into_iter().cloned());
    }
    false
}

/// How many variables the quantifiers of `t` bind, each quantifier counted once.
pub fn quantified_vars(t: &Term) -> usize {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vec![t.clone()];
    let mut n = 0;
    while let Some(t) = stack.pop() {
        if !seen.insert(t.uid()) {
            continue;
        }
        if let TermNode::Exists(vs, _) = t.get() {
            n += vs.len();
        }
        stack.extend(t.children().into_iter().cloned());
    }
    n
}
