//! Composition of a cycle of transitions into one conjunctive transition, with the
//! intermediate states and temporaries eliminated where equations define them.

use crate::logic::*;
use crate::ts::TransitionSystem;
use rustc_hash::FxHashMap;

/// The conjunction of `ts`, one after another: step `m` goes from `z<m>` to `z<m+1>`, with
/// `z0` the state and the last the next state; other variables get a prefix per step.
pub(super) fn compose(ts: &TransitionSystem, parts: &[Vec<Term>]) -> Vec<Term> {
    let k = parts.len();
    let mid = |m: usize, s: &Var| -> Term {
        if m == 0 {
            mk_var_of(s)
        } else if m == k {
            let p = ts.state.iter().position(|x| x == s).unwrap();
            mk_var_of(&ts.next[p])
        } else {
            mk_var_of(&Var {
                name: format!("abmc.z{m}.{}", s.name).into(),
                sort: s.sort,
            })
        }
    };
    let mut out = vec![];
    for (m, lits) in parts.iter().enumerate() {
        for l in lits {
            out.push(map_vars(l, &mut |v| {
                if ts.state.contains(v) {
                    Some(mid(m, v))
                } else if let Some(p) = ts.next.iter().position(|x| x == v) {
                    Some(mid(m + 1, &ts.state[p]))
                } else if k == 1 {
                    None
                } else {
                    Some(mk_var_of(&Var {
                        name: format!("abmc.c{m}.{}", v.name).into(),
                        sort: v.sort,
                    }))
                }
            }));
        }
    }
    keep_constants(ts, eliminate_temporaries(ts, out))
}

/// Rewrites `x' = c` to `x' = x` when `x = c` holds too (a location that a loop keeps):
/// equivalent, and it lets acceleration see `x` as unchanged.
fn keep_constants(ts: &TransitionSystem, lits: Vec<Term>) -> Vec<Term> {
    // `v = c` for an Int or Real constant `c`
    let constant = |l: &Term| -> Option<(Var, Term)> {
        let def = definitions(l).pop()?;
        matches!(def.1.get(), TermNode::Int(_) | TermNode::Real(_)).then_some(def)
    };
    let consts: FxHashMap<Var, Term> = lits.iter().filter_map(constant).collect();
    lits.into_iter()
        .map(|l| match constant(&l) {
            Some((v, c)) => match ts.next.iter().position(|x| *x == v) {
                Some(p) if consts.get(&ts.state[p]) == Some(&c) => {
                    mk_eq(mk_var_of(&v), mk_var_of(&ts.state[p]))
                }
                _ => l,
            },
            None => l,
        })
        .collect()
}

/// Eliminates, exactly, the variables other than state and next-state variables that an
/// equation defines, turning opposite bounds into equations between rounds.
fn eliminate_temporaries(ts: &TransitionSystem, mut lits: Vec<Term>) -> Vec<Term> {
    let keep = |v: &Var| ts.state.contains(v) || ts.next.contains(v);
    loop {
        let def = lits.iter().enumerate().find_map(|(i, l)| {
            definitions(l)
                .into_iter()
                .find(|(v, _)| !keep(v))
                .map(|d| (i, d))
        });
        match def {
            Some((i, (v, rhs))) => {
                lits.remove(i);
                let map: FxHashMap<Var, Term> = [(v, rhs)].into_iter().collect();
                let mut next = vec![];
                for l in &lits {
                    let t = subst(l, &map);
                    if t.as_bool() != Some(true) && !next.contains(&t) {
                        next.push(t);
                    }
                }
                lits = next;
            }
            None => {
                let before = lits.len();
                lits = bounds_to_equations(lits);
                if lits.len() == before {
                    return lits;
                }
            }
        }
    }
}

/// Replaces each pair `a <= 0`, `-a <= 0` by `a = 0` (over the integers or the reals), so
/// that the iteration count of an inner loop whose exit fixes it (`n <= 50`, `n >= 50`) is
/// defined by an equation.
fn bounds_to_equations(lits: Vec<Term>) -> Vec<Term> {
    let les: Vec<(usize, Term)> = lits
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match l.get() {
            TermNode::Le(a) => Some((i, mk_lin(a.clone()))),
            TermNode::RLe(a) => Some((i, mk_rlin(a.clone()))),
            _ => None,
        })
        .collect();
    let mut gone = vec![false; lits.len()];
    let mut eqs = vec![];
    for (x, (i, a)) in les.iter().enumerate() {
        for (j, b) in &les[x + 1..] {
            if !gone[*i] && !gone[*j] && a.sort() == b.sort() && *b == mk_neg(a.clone()) {
                gone[*i] = true;
                gone[*j] = true;
                eqs.push(mk_eq(a.clone(), mk_int(0)));
            }
        }
    }
    let mut out: Vec<Term> = lits
        .into_iter()
        .zip(gone)
        .filter(|(_, g)| !g)
        .map(|(l, _)| l)
        .collect();
    out.extend(eqs);
    out
}
