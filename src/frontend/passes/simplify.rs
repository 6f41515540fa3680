//! Simplification and constant propagation: eliminates clause variables defined by an
//! equality conjunct (`v = t`, `b`, `not b`), and drops clauses whose constraint is false.

use super::{BackTranslate, ClauseMap, Pass, Renamed};
use crate::chc::{ChcSystem, Clause, ClauseId, PredApp};
use crate::logic::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

pub struct Simplify;

impl Pass for Simplify {
    fn name(&self) -> &'static str {
        "simplify"
    }

    fn apply(&self, sys: &Arc<ChcSystem>) -> (Option<ChcSystem>, Box<dyn BackTranslate>) {
        let mut simplified: Vec<Option<(Clause, FxHashMap<Var, Term>)>> =
            sys.clauses.iter().map(simplify_changed).collect();
        if simplified.iter().all(Option::is_none) {
            return (None, Box::new(super::Unchanged));
        }
        let mut out = ChcSystem {
            preds: sys.preds.clone(),
            clauses: vec![],
            records: sys.records.clone(),
            bitvecs: sys.bitvecs.clone(),
            adt: sys.adt.clone(),
        };
        let mut origins = vec![];
        for (i, c) in sys.clauses.iter().enumerate() {
            let (c, defs) = simplified[i]
                .take()
                .unwrap_or_else(|| (c.clone(), Default::default()));
            if c.constraint.as_bool() == Some(false) {
                continue;
            }
            origins.push(Renamed::new(ClauseId(i as u32), c.body.len(), defs));
            out.clauses.push(c);
        }
        let back = ClauseMap {
            origins,
            old: sys.clone(),
        };
        (Some(out), Box::new(back))
    }
}

/// Simplifies one clause; returns it with the definitions of the eliminated variables.
pub fn simplify_clause(c: &Clause) -> (Clause, FxHashMap<Var, Term>) {
    simplify_changed(c).unwrap_or_else(|| (c.clone(), FxHashMap::default()))
}

/// [`simplify_clause`], or `None` when the clause stays as it is (no copy is made).
///
/// Each round reads every definition off the conjuncts in order, keeps those that close no
/// cycle with the ones kept before (the first of a variable's definitions wins), resolves
/// them in dependency order and substitutes them all at once: linear in the clause's size
/// per round, and a chain of definitions (a record's fields copied one into another, as
/// Solidity's encodings of nested structs do) takes one round, not one per link.
fn simplify_changed(c: &Clause) -> Option<(Clause, FxHashMap<Var, Term>)> {
    simplify_counted(c).0
}

/// [`simplify_changed`] and the number of rounds that substituted definitions.
fn simplify_counted(c: &Clause) -> (Option<(Clause, FxHashMap<Var, Term>)>, usize) {
    let mut rounds = 0;
    let mut c = std::borrow::Cow::Borrowed(c);
    let mut defs: FxHashMap<Var, Term> = FxHashMap::default();
    loop {
        // the definitions kept this round, with their free variables
        let mut round: FxHashMap<Var, (Term, Vec<Var>)> = FxHashMap::default();
        let mut order: Vec<Var> = vec![];
        // the conjuncts that are not this round's definitions: a definition `v = t` becomes
        // `t = t` under its own substitution, so it is dropped rather than rewritten
        let mut rest = vec![];
        for conj in conjuncts(&c.constraint) {
            let Some((v, t)) = definition(&conj) else {
                rest.push(conj);
                continue;
            };
            if round.contains_key(&v) {
                rest.push(conj);
                continue;
            }
            let fv = free_vars(&t);
            if reaches(&round, &fv, &v) {
                rest.push(conj);
                continue;
            }
            order.push(v.clone());
            round.insert(v, (t, fv));
        }
        if round.is_empty() {
            break;
        }
        rounds += 1;
        let round = resolve(&round, &order);
        let app = |a: &PredApp| PredApp {
            pred: a.pred,
            args: a.args.iter().map(|t| subst(t, &round)).collect(),
        };
        c = std::borrow::Cow::Owned(Clause {
            body: c.body.iter().map(app).collect(),
            constraint: subst(&mk_and(rest), &round),
            head: c.head.as_ref().map(app),
            line: c.line,
        });
        for t in defs.values_mut() {
            *t = subst(t, &round);
        }
        defs.extend(round);
        if c.constraint.as_bool() == Some(false) {
            break;
        }
    }
    // a clause whose constraint is false is a change too: the pass drops it
    let out = match c {
        std::borrow::Cow::Borrowed(c) if c.constraint.as_bool() != Some(false) => None,
        c => Some((c.into_owned(), defs)),
    };
    (out, rounds)
}

/// Does `target` occur in `vars` or, through the definitions of `round`, in what they
/// stand for?
fn reaches(round: &FxHashMap<Var, (Term, Vec<Var>)>, vars: &[Var], target: &Var) -> bool {
    let mut seen: FxHashSet<&Var> = FxHashSet::default();
    let mut stack: Vec<&Var> = vars.iter().collect();
    while let Some(v) = stack.pop() {
        if v == target {
            return true;
        }
        if !seen.insert(v) {
            continue;
        }
        if let Some((_, fv)) = round.get(v) {
            stack.extend(fv.iter());
        }
    }
    false
}

/// The definitions of `round` (acyclic) with the defined variables substituted in their
/// terms, each definition resolved after those it reads (no recursion: chains may be long).
fn resolve(round: &FxHashMap<Var, (Term, Vec<Var>)>, order: &[Var]) -> FxHashMap<Var, Term> {
    let mut out: FxHashMap<Var, Term> = FxHashMap::default();
    for root in order {
        // a depth-first walk: a variable is resolved once all it reads are
        let mut stack: Vec<(&Var, bool)> = vec![(root, false)];
        while let Some((v, ready)) = stack.pop() {
            if out.contains_key(v) {
                continue;
            }
            let (t, fv) = &round[v];
            if ready {
                let r = subst(t, &out);
                out.insert(v.clone(), r);
                continue;
            }
            stack.push((v, true));
            for w in fv {
                if round.contains_key(w) && !out.contains_key(w) {
                    stack.push((w, false));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clause `P(x0) /\ x1 = x0 + 1 /\ .. /\ xn = x(n-1) + 1 => P(xn)` with its
    /// definitions in a scrambled order (as the records pass writes nested fields' copies).
    fn chain(n: usize) -> Clause {
        let vars: Vec<String> = (0..=n).map(|i| format!("(x{i} Int)")).collect();
        let mut defs: Vec<String> = (1..=n)
            .map(|i| format!("(= x{i} (+ x{} 1))", i - 1))
            .collect();
        // every third link first, then the others backwards
        let mut order: Vec<String> = defs.iter().step_by(3).cloned().collect();
        defs.reverse();
        let rest: Vec<String> = defs.into_iter().filter(|d| !order.contains(d)).collect();
        order.extend(rest);
        let text = format!(
            "(set-logic HORN)\n(declare-fun P (Int) Bool)\n(assert (forall ({}) (=> (and (P x0) {}) (P x{n}))))\n(check-sat)",
            vars.join(" "),
            order.join(" ")
        );
        let mut sys = crate::frontend::parse_str(&text).unwrap();
        sys.clauses.swap_remove(0)
    }

    #[test]
    fn a_chain_of_definitions_goes_in_one_round() {
        let n = 200;
        let c = chain(n);
        let (out, rounds) = simplify_counted(&c);
        let (s, defs) = out.expect("the definitions are eliminated");
        assert!(rounds <= 2, "{rounds} substitution rounds");
        assert_eq!(defs.len(), n);
        assert_eq!(s.constraint.as_bool(), Some(true), "{}", s.constraint);
        // the head's argument is the body's plus n
        let head = &s.head.as_ref().unwrap().args[0];
        let body = &s.body[0].args[0];
        let want = mk_lin(Lin::of(body).add(&Lin::constant((n as i64).into())));
        assert_eq!(head, &want, "{head}");
    }
}
