//! Exact elimination of array variables from `exists xs. phi`, the rules of z3's
//! `mbp_arrays` as equivalences; quantifier elimination ([`super::qe`]) and model-based
//! projection ([`super::mbp`]) both apply them before the arithmetic:
//!
//! 1. **Store equations** (partial equalities): a conjunct `store(x, i, e) = t`, where `x`
//!    is a store chain over an array variable being eliminated and `t` and `i` contain none,
//!    is replaced by `x = store(t, i, w) /\ select(t, i) = e` with `w` a fresh variable of
//!    the element sort (`w` is `x[i]`: `x` and `t` differ at most at `i`). Peeled down to
//!    an array variable `a`, the equation `a = store(t, i, w)` defines `a`, and the
//!    definition is substituted ([`mk_exists_elim`] in QE, the definitions step in MBP).
//! 2. **Arrays read only**: an array variable `a` that occurs only as `select(a, i_k)`
//!    (indices free of `a`) is replaced by `store(..store(c, i_1, v_1).., i_n, v_n)` with
//!    fresh `v_k` and a constant array `c`: `exists a. phi(a[i_1], .., a[i_n])` holds iff
//!    `exists v. phi` of that array (take `v_k = a[i_k]`; every `i_k` is stored, so `c` is
//!    never read). Reading over the stores turns each select into an `ite` chain over
//!    index equalities (Ackermann's reduction).
//!
//! 0. **Definitions**: a conjunct `a = t` with `a` an array variable being eliminated and
//!    `t` free of `a` is substituted.
//! 3. **Updates in place**: a conjunct `a = store(..store(s, i_1, e_1).., i_n, e_n)` with
//!    `s` and the indices free of `a`, and each stored value free of `a` or exactly
//!    `a[i_k]` (what the split of a stored value in MBP leaves), is used as a definition
//!    after each `a[i_k]` stored is renamed to a fresh `w_k`: `a` is that store chain over
//!    the `w_k` (take `w_k = a[i_k]`; conversely, the chain satisfies the conjunct whenever
//!    the formula with it substituted does, the conjunct being kept and substituted too).
//!
//! The rules are applied until none applies, so that the fresh variables of rule 2 that are
//! arrays (the elements of an array of arrays) are eliminated in turn: z3's `mbp_arrays`
//! likewise reduces every read of an eliminated array to an index equation and a fresh
//! element, so that no index is fixed to its model value.
//!
//! Each fresh variable comes with the term it stands for (`x[i]`, `a[i_k]`, over the
//! variables before it), so that a projection can give it its value in the model.
//! What is left over (an array compared with another as a whole, say) is not touched.

use super::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Most selects of one array replaced by rule 2 (its `ite` chains grow quadratically).
const MAX_READS: usize = 24;

/// The result of [`eliminate`].
#[derive(Clone, Debug)]
pub struct ArrayElim {
    /// The variables still to eliminate: the old ones less the arrays removed, and the
    /// fresh ones.
    pub vars: Vec<Var>,
    /// The rewritten formula.
    pub body: Term,
    /// Each fresh variable and the term whose value it takes (in the order made).
    pub fresh: Vec<(Var, Term)>,
}

/// `exists vars. body` with array variables removed by the rules above (the conjuncts of
/// `body` are its top-level `and`); `None` when no rule applies.
pub fn eliminate(vars: &[Var], body: &Term) -> Option<ArrayElim> {
    let mut out = ArrayElim {
        vars: vars.to_vec(),
        body: body.clone(),
        fresh: vec![],
    };
    let mut names = Fresh::new(vars, body);
    let mut progress = false;
    loop {
        if let Some((a, t)) = array_definition(&out.vars, &out.body) {
            let map = FxHashMap::from_iter([(a.clone(), t)]);
            out.body = subst(&out.body, &map);
            out.vars.retain(|w| *w != a);
        } else if let Some((a, t, fresh)) = update_in_place(&out.vars, &out.body, &mut names) {
            let map = FxHashMap::from_iter([(a.clone(), t)]);
            out.body = subst(&out.body, &map);
            out.vars.retain(|w| *w != a);
            for (w, meaning) in fresh {
                out.vars.push(w.clone());
                out.fresh.push((w, meaning));
            }
        } else if let Some((b, w, meaning)) = peel_store(&out.vars, &out.body, &mut names) {
            out.body = b;
            out.vars.push(w.clone());
            out.fresh.push((w, meaning));
        } else if !read_only_step(&mut out, &mut names) {
            break;
        }
        progress = true;
    }
    progress.then_some(out)
}

/// Rule 2 on every array variable only read: `true` when one was replaced. Its fresh
/// variables may be arrays themselves (an array of arrays read at `i` gives an array read
/// again), so the caller repeats until none is left.
fn read_only_step(out: &mut ArrayElim, names: &mut Fresh) -> bool {
    let arrays: Vec<Var> = out
        .vars
        .iter()
        .filter(|v| v.sort.is_array())
        .cloned()
        .collect();
    let mut progress = false;
    for a in arrays {
        let Some(reads) = reads_only(&a, &out.body) else {
            continue;
        };
        let (_, elem) = a.sort.array_parts().expect("an array sort");
        let mut arr = mk_const_array(a.sort, elem.default_value().to_term());
        for i in reads {
            let v = names.var(elem);
            arr = mk_store(arr, i.clone(), mk_var_of(&v));
            out.vars.push(v.clone());
            out.fresh.push((v, mk_select(mk_var_of(&a), i)));
        }
        let map = FxHashMap::from_iter([(a.clone(), arr)]);
        out.body = subst(&out.body, &map);
        out.vars.retain(|w| *w != a);
        progress = true;
    }
    progress
}

/// A conjunct `a = t` (or `t = a`) with `a` an array variable being eliminated and `t` free
/// of it: `exists a. a = t /\ phi` is `phi[a := t]`.
fn array_definition(vars: &[Var], body: &Term) -> Option<(Var, Term)> {
    for c in conjuncts(body) {
        let TermNode::ArrEq(x, y) = c.get() else {
            continue;
        };
        for (s, t) in [(x, y), (y, x)] {
            if let Some(a) = s.as_var() {
                if a.sort.is_array() && vars.contains(a) && !free_vars(t).contains(a) {
                    return Some((a.clone(), t.clone()));
                }
            }
        }
    }
    None
}

/// Rule 3 on the first conjunct it applies to: the array, the store chain that replaces it,
/// and the fresh elements with what each stands for.
fn update_in_place(
    vars: &[Var],
    body: &Term,
    names: &mut Fresh,
) -> Option<(Var, Term, Vec<(Var, Term)>)> {
    for c in conjuncts(body) {
        let TermNode::ArrEq(x, y) = c.get() else {
            continue;
        };
        for (s, t) in [(x, y), (y, x)] {
            let Some(a) = s.as_var().filter(|a| a.sort.is_array() && vars.contains(a)) else {
                continue;
            };
            // the stores, outermost first, down to their base
            let mut stores = vec![];
            let mut base = t;
            while let TermNode::Store(b, i, e) = base.get() {
                stores.push((i, e));
                base = b;
            }
            let own_read = |i: &Term, e: &Term| matches!(e.get(), TermNode::Select(r, j) if r.as_var() == Some(a) && j == i);
            let fits = !stores.is_empty()
                && !free_vars(base).contains(a)
                && stores.iter().all(|(i, e)| {
                    !free_vars(i).contains(a) && (own_read(i, e) || !free_vars(e).contains(a))
                })
                && stores.iter().any(|(i, e)| own_read(i, e));
            if !fits {
                continue;
            }
            let mut fresh = vec![];
            let mut chain = base.clone();
            for (i, e) in stores.into_iter().rev() {
                let stored = if own_read(i, e) {
                    let w = names.var(e.sort());
                    fresh.push((w.clone(), e.clone()));
                    mk_var_of(&w)
                } else {
                    e.clone()
                };
                chain = mk_store(chain, i.clone(), stored);
            }
            return Some((a.clone(), chain, fresh));
        }
    }
    None
}

/// Rule 1 on the first conjunct it applies to: the new body, the fresh variable and what
/// it stands for.
fn peel_store(vars: &[Var], body: &Term, names: &mut Fresh) -> Option<(Term, Var, Term)> {
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
        let TermNode::ArrEq(a, b) = c.get() else {
            continue;
        };
        for (s, t) in [(a, b), (b, a)] {
            let TermNode::Store(x, i, e) = s.get() else {
                continue;
            };
            if !roots_at_array(x) || !free_of_arrays(t) || !free_of_arrays(i) {
                continue;
            }
            let w = names.var(e.sort());
            let mut out = cs.clone();
            out[k] = mk_and(vec![
                mk_arr_eq(x.clone(), mk_store(t.clone(), i.clone(), mk_var_of(&w))),
                mk_eq(mk_select(t.clone(), i.clone()), e.clone()),
            ]);
            let meaning = mk_select(x.clone(), i.clone());
            return Some((mk_and(out), w, meaning));
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

/// Fresh variables `ae!<n>`, distinct from every variable of the formula.
struct Fresh {
    taken: FxHashSet<Var>,
    next: usize,
}

impl Fresh {
    fn new(vars: &[Var], body: &Term) -> Fresh {
        let mut taken: FxHashSet<Var> = free_vars(body).into_iter().collect();
        taken.extend(vars.iter().cloned());
        Fresh { taken, next: 0 }
    }

    fn var(&mut self, sort: Sort) -> Var {
        loop {
            let v = Var {
                name: format!("ae!{}", self.next).into(),
                sort,
            };
            self.next += 1;
            if self.taken.insert(v.clone()) {
                return v;
            }
        }
    }
}
