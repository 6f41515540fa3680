//! Pieces shared by the engines that learn transitions from traces of a BMC unrolling
//! (`abmc`, `trl`): the reachable states of a blocked unrolling as a quantifier-free formula
//! ([`reach`]), the plain BMC unrolling that runs beside them ([`plain`]), and the
//! syntactic implicants that name the steps of a trace ([`strict`]).

pub mod plain;
pub mod reach;

use crate::logic::*;
use crate::ts::TransitionSystem;
use num_bigint::BigInt;
use num_traits::Signed;
use rustc_hash::FxHashMap;

/// `l`, with a disequality `lin != 0` replaced by the strict inequality `a` satisfies
/// (over the integers `lin + 1 <= 0` or `-lin + 1 <= 0`, over the reals `lin < 0` or
/// `-lin < 0`).
pub fn strict(l: &Term, a: &Assignment) -> Term {
    if let TermNode::Not(e) = l.get() {
        match e.get() {
            TermNode::EqZ(lin) => {
                let v = eval_int(&mk_lin(lin.clone()), a).unwrap_or_default();
                let mut lt = if v < BigInt::from(0) {
                    lin.clone()
                } else {
                    lin.neg()
                };
                // lin < 0  <=>  lin + 1 <= 0
                lt.k += 1;
                return mk_le_lin(lt);
            }
            TermNode::REqZ(lin) => {
                let negative = matches!(
                    eval(&mk_rlin(lin.clone()), a),
                    Ok(Value::Real(v)) if v.is_negative()
                );
                return mk_rlt_lin(if negative { lin.clone() } else { lin.neg() });
            }
            _ => {}
        }
    }
    l.clone()
}

/// The syntactic implicant of `phi` under `a`: its literals true in `a` (disequalities made
/// strict), sorted and without duplicates, so that equal implicants compare equal.
pub fn implicant_key(phi: &Term, a: &Assignment) -> Result<Vec<Term>, String> {
    let imp = mbp::implicant(phi, a)?;
    let mut lits: Vec<Term> = imp.iter().map(|l| strict(l, a)).collect();
    lits.sort_by_key(|t| t.uid());
    lits.dedup();
    Ok(lits)
}

/// What step `j` of an extended unrolling runs, given `id = id@j`: `0 <= id <= learned`
/// when the step is on (`0` the transition formula, `l + 1` learned transition `l`), else
/// `id = -1`.
pub fn id_range(id: Term, learned: usize, on: bool) -> Term {
    if on {
        let hi = mk_int(learned as i64);
        mk_and(vec![mk_le(mk_int(0), id.clone()), mk_le(id, hi)])
    } else {
        mk_eq(id, mk_int(-1))
    }
}

/// The value of `id@j` in `model` (`0`, the transition formula, when it has none).
pub fn step_id(ts: &TransitionSystem, id: &Var, model: &Assignment, j: usize) -> usize {
    model
        .get(&ts.at_var(id, j))
        .and_then(|v| match v {
            Value::Int(i) => i.try_into().ok(),
            _ => None,
        })
        .unwrap_or(0usize)
}

/// The implicants of the transition formula seen on traces, each once, by number.
#[derive(Clone, Default)]
pub struct Implicants {
    pub all: Vec<Vec<Term>>,
    index: FxHashMap<Vec<Term>, usize>,
}

impl Implicants {
    /// The number of `lits`, added when new.
    pub fn intern(&mut self, lits: Vec<Term>) -> usize {
        if let Some(&o) = self.index.get(&lits) {
            return o;
        }
        self.all.push(lits.clone());
        self.index.insert(lits, self.all.len() - 1);
        self.all.len() - 1
    }
}

/// The unrolling of depth `i` from what was asserted (each term with the depth from which
/// it belongs): the input of [`reach::reachable_states`].
pub fn prefix(asserted: &[(usize, Term)], i: usize, on: impl Fn(usize) -> Term) -> Vec<Term> {
    let mut phi: Vec<Term> = asserted
        .iter()
        .filter(|(top, _)| *top <= i)
        .map(|(_, t)| t.clone())
        .collect();
    phi.extend((0..i).map(on));
    phi
}
