//! Arrays in model-based projection: an eliminated variable that is an array, or that occurs
//! under an array operation (`select`, `store`, a constant array, an array equality), is
//! removed before the arithmetic projection runs: by its definition when a conjunct gives
//! one (`a' = store(a, i, x)`, exact), else by a kept variable of the same sort and model
//! value, else by its model value.
//!
//! Before that, [`exact`] removes what the exact rules of [`crate::logic::array_elim`]
//! remove (store equations through partial equalities, arrays that are only read), as z3's
//! `mbp_arrays` does; the fresh variables they bring take their values from the model.
//!
//! First, a stored value that mentions an eliminated variable is taken out of its store when
//! the array it is stored into is known ([`split_stored_value`], exact).
//!
//! `phi[x := t]` with `M(t) = M(x)` implies `exists x. phi` and `M` satisfies it, so the
//! replacement is a projection. Reading over the stores of the constant arrays that this
//! puts in the formula turns their `select`s into `ite` chains over the index ([`super::mk_select`]),
//! which the integer projection handles. Each replacement is counted as a model
//! substitution.

use super::super::*;
use super::{Plugin, Problem, Projector};
use rustc_hash::FxHashSet;

/// The array plug-in: [`exact`] then [`substitute`] rewrite the problem, so that no
/// eliminated variable is left under an array operation; the array literals left over kept
/// variables are kept.
pub(super) struct Arrays;

impl Plugin for Arrays {
    fn owns(&self, sort: Sort) -> bool {
        sort.is_array()
    }

    fn prepare(&self, problem: Problem) -> Result<Problem, String> {
        let Problem {
            mut phi,
            mut model,
            mut elim,
            substitutions,
        } = problem;
        if let Some((p, e, m)) = exact(&phi, &model, &elim)? {
            (phi, elim, model) = (p, e, m);
        }
        let (phi, elim, replaced) = substitute(&phi, &model, &elim)?;
        Ok(Problem {
            phi,
            model,
            elim,
            substitutions: substitutions + replaced,
        })
    }

    fn opaque(&self, t: &Term) -> bool {
        is_array_op(t)
    }

    fn add_lit(&self, p: &mut Projector, lit: &Term) -> Result<bool, String> {
        let inner = match lit.get() {
            TermNode::Not(s) => s,
            _ => lit,
        };
        if is_array_op(inner) && !p.impure(inner) {
            p.kept.push(lit.clone());
            return Ok(true);
        }
        Ok(false)
    }
}

/// The exact rules of [`crate::logic::array_elim`] (store equations, arrays only read) on
/// `exists elim. /\ phi`, each fresh variable given the value in `model` of the term it
/// stands for: the new conjuncts, the variables to eliminate and the extended model; `None`
/// when no array is eliminated or no rule applies.
pub(super) fn exact(
    phi: &[Term],
    model: &Assignment,
    elim: &[Var],
) -> Result<Option<(Vec<Term>, Vec<Var>, Assignment)>, String> {
    if !elim.iter().any(|v| v.sort.is_array()) {
        return Ok(None);
    }
    let Some(e) = array_elim::eliminate(elim, &mk_and(phi.to_vec())) else {
        return Ok(None);
    };
    let mut model = model.clone();
    for (v, meaning) in &e.fresh {
        let val =
            eval(meaning, &model).map_err(|m| format!("mbp: the value of {}: {m}", v.name))?;
        model.insert(v.clone(), val);
    }
    Ok(Some((conjuncts(&e.body), e.vars, model)))
}

/// `phi` with those eliminated variables replaced by their values, the variables left to
/// eliminate, and the number replaced.
pub(super) fn substitute(
    phi: &[Term],
    model: &Assignment,
    elim: &[Var],
) -> Result<(Vec<Term>, Vec<Var>, usize), String> {
    let elim_set: FxHashSet<&Var> = elim.iter().collect();
    // only when a stored value was split is `phi` rebuilt (from its conjuncts): the
    // projections without arrays, most of them, see their formulas as given
    let mut split_any = false;
    let split: Vec<Term> = if elim.is_empty() {
        vec![]
    } else {
        phi.iter()
            .flat_map(conjuncts)
            .map(|c| {
                let d = split_stored_value(&c, &elim_set);
                split_any |= d != c;
                d
            })
            .collect()
    };
    let phi = if split_any { &split[..] } else { phi };
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
    let mut replace: Vec<Var> = elim
        .iter()
        .filter(|v| v.sort.is_array() || under_array.contains(*v))
        .cloned()
        .collect();
    if replace.is_empty() {
        return Ok((phi.to_vec(), elim.to_vec(), 0));
    }
    let mut phi: Vec<Term> = phi.to_vec();
    // 1. definitions `v = t` among the conjuncts (`a' = store(a, i, x)`): exact
    loop {
        let found = phi
            .iter()
            .flat_map(conjuncts)
            .flat_map(|c| definitions(&c))
            .find(|(v, _)| replace.contains(v));
        let Some((v, t)) = found else { break };
        let map = rustc_hash::FxHashMap::from_iter([(v.clone(), t)]);
        phi = phi.iter().map(|f| subst(f, &map)).collect();
        replace.retain(|w| *w != v);
    }
    // 2. the others: a kept variable of the same sort and value if there is one (more
    //    general than the value), else the value itself
    let mut kept: Vec<Var> = vec![];
    let mut seen_kept: FxHashSet<Var> = FxHashSet::default();
    for f in &phi {
        for v in free_vars(f) {
            if !elim_set.contains(&v) && seen_kept.insert(v.clone()) {
                kept.push(v);
            }
        }
    }
    let mut map = rustc_hash::FxHashMap::default();
    for v in &replace {
        let val = model
            .get(v)
            .ok_or_else(|| format!("mbp: no model value for {}", v.name))?;
        let same = kept
            .iter()
            .find(|k| k.sort == v.sort && model.get(*k) == Some(val));
        let t = match same {
            Some(k) => mk_var_of(k),
            None => val.to_term(),
        };
        if log::log_enabled!(log::Level::Trace) && same.is_none() {
            let around: Vec<String> = phi
                .iter()
                .flat_map(conjuncts)
                .filter(|c| free_vars(c).contains(v))
                .map(|c| c.to_string())
                .collect();
            log::trace!(
                "mbp: {} := its value {t} in {}; eliminating {:?}",
                v.name,
                around.join(" "),
                elim.iter().map(|v| v.name.to_string()).collect::<Vec<_>>()
            );
        }
        map.insert(v.clone(), t);
    }
    let phi: Vec<Term> = phi.iter().map(|f| subst(f, &map)).collect();
    // defined or replaced: none is left in `phi`; a definition may have put another
    // eliminated variable under an array operation, so again on the rest (fewer each time)
    let rest: Vec<Var> = elim
        .iter()
        .filter(|v| !(v.sort.is_array() || under_array.contains(*v)))
        .cloned()
        .collect();
    let (phi, rest, more) = substitute(&phi, model, &rest)?;
    Ok((phi, rest, map.len() + more))
}

/// Is `t` an array operation (an opaque atom for the arithmetic projection)?
pub(super) fn is_array_op(t: &Term) -> bool {
    matches!(
        t.get(),
        TermNode::Select(..) | TermNode::Store(..) | TermNode::ConstArray(..) | TermNode::ArrEq(..)
    )
}

/// `t = store(s, i, e)` with `e` mentioning an eliminated variable and `t`, `i` free of them
/// is `t = store(s, i, t[i]) /\ t[i] = e` (each implies the other: `t[i] = e` holds in `t =
/// store(s, i, e)`), which takes the stored value out of the array operation: an update
/// `b' = store(b, k, b[k] + q)` then defines `q` as `b'[k] - b[k]` for the arithmetic
/// projection instead of fixing it to its model value. Other conjuncts are returned as they are.
fn split_stored_value(c: &Term, elim: &FxHashSet<&Var>) -> Term {
    let TermNode::ArrEq(a, b) = c.get() else {
        return c.clone();
    };
    let mentions = |t: &Term| free_vars(t).iter().any(|v| elim.contains(v));
    for (t, s) in [(a, b), (b, a)] {
        let TermNode::Store(base, i, e) = s.get() else {
            continue;
        };
        if !mentions(e) || mentions(t) || mentions(i) {
            continue;
        }
        let ti = mk_select(t.clone(), i.clone());
        if ti == *e {
            continue;
        }
        return mk_and(vec![
            mk_arr_eq(t.clone(), mk_store(base.clone(), i.clone(), ti.clone())),
            mk_eq(ti, e.clone()),
        ]);
    }
    c.clone()
}
