//! Exact interpretations for the predicates outside every cycle of a model.
//!
//! An engine's model interprets every predicate by a lemma it learned, often an
//! over-approximation that is harder to check than the clauses themselves: on Solidity's
//! shift tests Spacer summarises `x << y` by bounds on the result for ranges of `x` and `y`,
//! and checking that bound against the input's `bvshl` of 256 bits is out of z3's reach in
//! seconds, while the exact relation is checked at once.
//!
//! A predicate `P` that lies on no cycle of the clause graph has an exact interpretation
//! relative to the others: the disjunction, over the clauses with head `P`, of their bodies
//! (the body predicates read under the model) projected onto `P`'s arguments. Taken in
//! topological order from a model `M`, each such `P` gets `E(P) = post_P(E)`, with the
//! predicates on cycles left as `M` has them. By induction `E(P) => M(P)` (the clauses of
//! `P` hold under `M`, and their bodies only get stronger), so every clause still holds:
//! the clauses with head `P` by construction, every other one because its body only got
//! stronger and its head is unchanged. The result is a model whenever `M` is one, and it
//! is checked by the validator and the judge like any other.
//!
//! The run checks such a model first, for at most a second, and then the engine's own
//! (`solve/accept.rs`): an exact interpretation can also be the harder one to check.
//!
//! Only projections that substitution alone makes quantifier-free are taken (a local
//! defined by an equation is replaced by its definition); a predicate whose projection keeps
//! a quantifier, or grows past [`MAX_NODES`], keeps the model's interpretation.

use crate::chc::{ChcSystem, Model, PredId};
use crate::frontend::passes::exact_interpretation;
use crate::logic::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Largest exact interpretation taken (distinct nodes of its term).
pub const MAX_NODES: usize = 20_000;

/// The predicates that lie on a cycle of the clause graph (an edge from each body
/// predicate to the head of its clause).
fn on_cycles(sys: &ChcSystem) -> FxHashSet<PredId> {
    let n = sys.preds.len();
    let mut succ: Vec<FxHashSet<usize>> = vec![FxHashSet::default(); n];
    for c in &sys.clauses {
        if let Some(h) = &c.head {
            for b in &c.body {
                succ[b.pred.idx()].insert(h.pred.idx());
            }
        }
    }
    let mut cyclic = FxHashSet::default();
    for p in 0..n {
        // is p reachable from its own successors?
        let mut seen = vec![false; n];
        let mut stack: Vec<usize> = succ[p].iter().copied().collect();
        while let Some(q) = stack.pop() {
            if q == p {
                cyclic.insert(PredId(p as u32));
                break;
            }
            if !std::mem::replace(&mut seen[q], true) {
                stack.extend(succ[q].iter().copied());
            }
        }
    }
    cyclic
}

/// `m` with every predicate outside the cycles of `sys` interpreted exactly relative to
/// the others (see the module documentation), where that is quantifier-free and small;
/// `None` when no predicate changes.
pub fn strengthened(sys: &ChcSystem, m: &Model) -> Option<Model> {
    let cyclic = on_cycles(sys);
    let mut out = m.clone();
    let mut done: FxHashSet<PredId> = cyclic.clone();
    let mut replaced: FxHashSet<PredId> = FxHashSet::default();
    let mut fresh = 0;
    let mut pending: Vec<PredId> = sys.pred_ids().filter(|p| !cyclic.contains(p)).collect();
    let defining: FxHashMap<PredId, Vec<usize>> = {
        let mut d: FxHashMap<PredId, Vec<usize>> = FxHashMap::default();
        for (i, c) in sys.clauses.iter().enumerate() {
            if let Some(h) = &c.head {
                d.entry(h.pred).or_default().push(i);
            }
        }
        d
    };
    // Kahn's order: a predicate once every body predicate of its clauses is done
    while !pending.is_empty() {
        let before = pending.len();
        let mut rest = vec![];
        for p in pending {
            let cs = defining.get(&p).map(Vec::as_slice).unwrap_or(&[]);
            let ready = cs
                .iter()
                .all(|&i| sys.clauses[i].body.iter().all(|b| done.contains(&b.pred)));
            if !ready {
                rest.push(p);
                continue;
            }
            if let Some(e) = exact(sys, &out, cs, &mut fresh) {
                if out.get(&p) != Some(&e) {
                    out.insert(p, e);
                    replaced.insert(p);
                }
            }
            done.insert(p);
        }
        if rest.len() == before {
            // cannot happen (no cycle among the rest); give up rather than loop
            return None;
        }
        pending = rest;
    }
    (!replaced.is_empty()).then_some(out)
}

/// The exact interpretation of the predicate that the clauses `cs` define, under `m`
/// ([`exact_interpretation`], as inlining writes back an eliminated predicate), when
/// quantifier-free and small.
fn exact(sys: &ChcSystem, m: &Model, cs: &[usize], fresh: &mut usize) -> Option<Term> {
    let e = exact_interpretation(sys, m, cs.iter().map(|&i| &sys.clauses[i]), fresh);
    (!has_quantifier(&e) && dag_size(&e) <= MAX_NODES).then_some(e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::parse_term;

    /// `inv` counts from 0 to 10 (a cycle); `sq(x, y)` is a fact `y = x + x`, its clause's
    /// variables named like the model's parameters the other way round; `out` reads `inv`
    /// and `sq`, and its local is not defined by an equation.
    const INPUT: &str = "(set-logic HORN)
(declare-fun inv (Int) Bool)
(declare-fun sq (Int Int) Bool)
(declare-fun out (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (and (inv x) (< x 10)) (inv (+ x 1)))))
(assert (forall ((x1 Int) (x0 Int)) (=> (= x0 (+ x1 x1)) (sq x1 x0))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (sq x y)) (out y))))
(assert (forall ((y Int)) (=> (and (out y) (> y 100)) false)))
";

    fn term(text: &str, sys: &ChcSystem, p: PredId) -> Term {
        let vars = sys
            .pred(p)
            .params()
            .into_iter()
            .map(|v| (v.name.to_string(), v))
            .collect();
        parse_term(text, &vars).unwrap()
    }

    fn holds(t: &Term, vals: &[i64]) -> bool {
        let a: crate::logic::Assignment = vals
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let v = Var {
                    name: format!("x{i}").into(),
                    sort: Sort::Int,
                };
                (v, Value::Int((*n).into()))
            })
            .collect();
        eval(t, &a).unwrap() == Value::Bool(true)
    }

    #[test]
    fn predicates_outside_cycles_are_taken_exactly_and_the_others_kept() {
        let sys = crate::frontend::parse_str(INPUT).unwrap();
        let (inv, sq, out) = (PredId(0), PredId(1), PredId(2));
        // a model that over-approximates `sq`: `x <= 10 => y <= 20`
        let mut m = Model::default();
        m.insert(inv, term("(and (<= 0 x0) (<= x0 10))", &sys, inv));
        m.insert(sq, term("(or (> x0 10) (<= x1 20))", &sys, sq));
        m.insert(out, term("(<= x0 20)", &sys, out));
        let e = strengthened(&sys, &m).expect("sq changes");
        assert_eq!(
            e[&inv], m[&inv],
            "a predicate on a cycle keeps its interpretation"
        );
        assert!(holds(&e[&sq], &[3, 6]));
        assert!(!holds(&e[&sq], &[3, 7]), "sq is exact: {}", e[&sq]);
        assert!(
            !holds(&e[&sq], &[6, 3]),
            "parameters and clause variables apart"
        );
        // `out`'s projection keeps `exists x. y = x + x`: the model's interpretation stays
        assert_eq!(e[&out], m[&out]);
    }
}
