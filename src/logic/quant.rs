//! Quantifiers in terms: whether a term has one, and how many variables they bind; and
//! whether a term has a subterm of a given kind.

use super::*;

/// Does `t` contain a quantifier?
pub fn has_quantifier(t: &Term) -> bool {
    has_subterm(t, |n| matches!(n, TermNode::Exists(..)))
}

/// Does `t` have a subterm (itself included) whose node satisfies `f`? Each shared subterm
/// is visited once.
pub fn has_subterm(t: &Term, f: impl Fn(&TermNode) -> bool) -> bool {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vec![t.clone()];
    while let Some(t) = stack.pop() {
        if !seen.insert(t.uid()) {
            continue;
        }
        if f(t.get()) {
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
