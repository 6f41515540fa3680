//! Pieces shared by the engines that learn transitions from traces of a BMC unrolling
//! (`abmc`, `trl`): the reachable states of a blocked unrolling as a quantifier-free formula
//! ([`reach`]), the plain BMC unrolling that runs beside them ([`plain`]), and the
//! syntactic implicants that name the steps of a trace ([`strict`]).

pub mod plain;
pub mod reach;

use crate::logic::*;
use num_bigint::BigInt;

/// `l`, with a disequality `lin != 0` replaced by the strict inequality `a` satisfies.
pub fn strict(l: &Term, a: &Assignment) -> Term {
    if let TermNode::Not(e) = l.get() {
        if let TermNode::EqZ(lin) = e.get() {
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
