//! Exact elimination of array variables from `exists xs. phi`, before the arithmetic
//! projection (the rules of z3's `mbp_arrays`, here as equivalences, not under a model):
//!
//! 1. **Store equations** (partial equalities): a conjunct `store(x, i, e) = t`, where `t`
//!    and `i` contain no array variable being eliminated, is replaced by
//!    `x = store(t, i, w) /\ select(t, i) = e` with `w` a fresh variable of the element
//!    sort (`w` is `x[i]`: `x` and `t` differ at most at `i`). Peeled down to an array
//!    variable `a`, the equation `a = store(t, i, w)` defines `a`, and the definition is
//!    substituted ([`mk_exists_elim`]).
//! 2. **Arrays read only**: an array variable `a` that occurs only as `select(a, i_k)`
//!    (indices free of `a`) is replaced by `store(..store(c, i_1, v_1).., i_n, v_n)` with
//!    fresh `v_k` and any constant array `c`: `exists a. phi(a[i_1], .., a[i_n])` holds iff
//!    `exists v. phi` of that array (take `v_k = a[i_k]`; every `i_k` is stored, so `c` is
//!    never read). Reading over the stores turns each select into an `ite` chain over
//!    index equalities (Ackermann's reduction).
//!
//! What is left over (an array compared with another as a whole, say) stays quantified.

use super::super::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Most selects of one array replaced by rule 2 (its `ite` chains grow quadratically).
const MAX_READS: usize = 24;

/// `exists vars. body` with array variables eliminated by the rules above: the variables
/// left (fresh element variables added) and the body; `None` when no rule applies.
pub(super) fn eliminate(vars: &[Var], body: &Term) -> Option<(Vec<Var>, Term)> {
    let mut vars = vars.to_vec();
    let mut body = body.clone();
    let mut fresh = Fresh::new(&vars, &body);
    let mut progress = false;
    while let Some((b, w)) = peel_store(&vars, &body, &mut fresh) {
        body = b;
        vars.push(w);
        progress = true;
    }
    let arrays: Vec<Var> = vars.iter().filter(|v| v.sort.is_array()).cloned().collect();
    for a in arrays {
        let Some(reads) = reads_only(&a, &body) else {
            continue;
        };
        let (index, elem) = a.sort.array_parts().expect("an array sort");
        let mut arr = mk_const_array(a.sort, elem.default_value().to_term());
        for i in reads {
            debug_assert_eq!(i.sort(), index);
            let v = fresh.var(elem);
            arr = mk_store(arr, i, mk_var_of(&v));
            vars.push(v);
        }
        let mut map = FxHashMap::default();
        map.insert(a.clone(), arr);
        body = subst(&body, &map);
        vars.retain(|w| *w != a);
        progress = true;
    }
    progress.then_some((vars, body))
}

/// Rule 1 on the first conjunct it applies to: the new body and the fresh variable.
fn peel_store(vars: &[Var], body: &Term, fresh: &mut Fresh) -> Option<(Term, Var)> {
    let arrays: FxHashSet<&Var> = vars.iter().filter(|v| v.sort.is_array()).collect();
    let free_of_arrays = |t: &Term| !free_vars(t).iter().any(|v| arrays.contains(v));
    let roots_at_array = |mut t: &Term| loop {
        match t.get() {
            TermNode::Store(b, _, _) => t = b,
            TermNode::Var(v) => return arrays.contains(v),
            _ => return false,
        }
    };
    let cs = conjuncts(body);
    for (k, c) in cs.iter().enumerate() {
        let TermNode::ArrEq(a, b) = c.get() else { continue };
        for (s, t) in [(a, b), (b, a)] {
            let TermNode::Store(x, i, e) = s.get() else { continue };
            if !roots_at_array(x) || !free_of_arrays(t) || !free_of_arrays(i) {
                continue;
            }
            let w = fresh.var(e.sort());
            let mut out = cs.clone();
            out[k] = mk_and(vec![
                mk_arr_eq(x.clone(), mk_store(t.clone(), i.clone(), mk_var_of(&w))),
                mk_eq(mk_select(t.clone(), i.clone()), e.clone()),
            ]);
            return Some((mk_and(out), w));
        }
    }
    None
}

/// The distinct indices of `a`'s selects when `a` occurs only as `select(a, i)` with `i` free
/// of `a`, and at most [`MAX_READS`] of them.
fn reads_only(a: &Var, body: &Term) -> Option<Vec<Term>> {
    let mut reads: Vec<Term> = vec![];
    let mut seen: FxHashSet<u64> = FxHashSet::default();
    let mut stack = vec![body.clone()];
    while let Some(t) = stack.pop() {
        if !seen.insert(t.uid()) {
            continue;
        }
        match t.get() {
            TermNode::Var(v) if v == a => return None, // outside a select
            TermNode::Select(x, i) if x.as_var() == Some(a) => {
                if free_vars(i).contains(a) {
                    return None;
                }
                if !reads.contains(i) {
                    reads.push(i.clone());
                }
            }
            TermNode::Exists(..) => {
                if free_vars(&t).contains(a) {
                    return None;
                }
            }
            _ => stack.extend(t.children().into_iter().cloned()),
        }
    }
    (reads.len() <= MAX_READS).then_some(reads)
}

/// Fresh variables `qe!a<n>`, distinct from every variable of the formula.
struct Fresh {
    taken: FxHashSet<Var>,
    next: usize,
}

impl Fresh {
    fn new(vars: &[Var], body: &Term) -> Fresh {
        let mut taken: FxHashSet<Var> = free_vars(body).into_iter().collect();
        taken.extend(vars.iter().cloned());
        Fresh {
            taken,
            next: 0,
        }
    }

    fn var(&mut self, sort: Sort) -> Var {
        loop {
            let v = Var {
                name: format!("qe!a{}", self.next).into(),
                sort,
            };
            self.next += 1;
            if self.taken.insert(v.clone()) {
                return v;
            }
        }
    }
}

#[cfg(test)]
#[path = "array_tests.rs"]
mod tests;
