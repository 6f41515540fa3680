//! Predicate abstraction (Hajdu & Micskei, Sect. 2.2.1): a state is a formula over its location's
//! variables built from the precision's predicates; the order is implication.
//!
//! Boolean: the strongest Boolean combination entailed by `expr(s) /\ op`, by enumerating
//! the models of `expr(s) /\ op /\ /\_i (b_i <-> p_i')` projected onto fresh Booleans `b_i`,
//! a cube per model. Split: the same, each cube a successor of its own. Cartesian: the
//! strongest conjunction, `p_i` when `expr(s) /\ op /\ not p_i'` is unsatisfiable and
//! `not p_i` when `expr(s) /\ op /\ p_i'` is. With no predicates, each is a feasibility
//! check giving `true`.

use super::cfa::{Cfa, EdgeId, Loc};
use super::domain::{atoms, check, sat, Domain, Precision};
use super::{DomainKind, Granularity, Refutation, Split};
use crate::engine::Stop;
use crate::logic::*;
use crate::smt::Smt;
use rustc_hash::FxHashMap;

pub struct Pred {
    kind: DomainKind,
    split: Split,
    /// Predicates over the parameters `x0 ..`.
    prec: Precision<Term>,
    /// `a ⊑ b` results.
    leq_cache: FxHashMap<(Term, Term), bool>,
}

impl Pred {
    pub fn new(cfa: &Cfa, kind: DomainKind, granularity: Granularity, split: Split) -> Pred {
        Pred {
            kind,
            split,
            prec: Precision::new(granularity, cfa.locs()),
            leq_cache: FxHashMap::default(),
        }
    }

    /// The predicates of `loc`, over its variables.
    fn preds_at(&self, cfa: &Cfa, loc: Loc) -> Vec<Term> {
        self.prec
            .at(loc)
            .iter()
            .filter_map(|p| cfa.from_params(loc, p))
            .collect()
    }

    /// In an open scope holding `expr(s) /\ op`: the Boolean abstraction, as cubes.
    fn cubes(&self, smt: &mut Smt, next: &[Term], preds: &[Term]) -> Result<Vec<Term>, Stop> {
        let bs: Vec<Var> = (0..next.len())
            .map(|i| Var {
                name: format!("cg!b{i}").into(),
                sort: Sort::Bool,
            })
            .collect();
        for (b, p) in bs.iter().zip(next) {
            smt.assert(&mk_eq(mk_var_of(b), p.clone()))?;
        }
        let mut cubes = vec![];
        // satisfiable as `expr(s) /\ op` was (the b_i are fresh)
        if !check(smt)? {
            return Ok(cubes);
        }
        loop {
            let m = smt.get_model(&bs)?;
            let mut cube = vec![];
            let mut block = vec![];
            for (b, p) in bs.iter().zip(preds) {
                let on = m[b] == Value::Bool(true);
                cube.push(if on { p.clone() } else { mk_not(p.clone()) });
                block.push(if on {
                    mk_not(mk_var_of(b))
                } else {
                    mk_var_of(b)
                });
            }
            cubes.push(mk_and(cube));
            smt.assert(&mk_or(block))?;
            if !check(smt)? {
                return Ok(cubes);
            }
        }
    }

    /// In an open scope holding `expr(s) /\ op`: the Cartesian abstraction.
    fn cartesian(&self, smt: &mut Smt, next: &[Term], preds: &[Term]) -> Result<Term, Stop> {
        let mut lits = vec![];
        for (p_next, p) in next.iter().zip(preds) {
            if !sat(smt, &[mk_not(p_next.clone())])? {
                lits.push(p.clone());
            } else if !sat(smt, std::slice::from_ref(p_next))? {
                lits.push(mk_not(p.clone()));
            }
        }
        Ok(mk_and(lits))
    }
}

impl Domain for Pred {
    type State = Term;

    fn precision_size(&self) -> usize {
        self.prec.size()
    }

    fn init(&self) -> Term {
        mk_true()
    }

    fn post(&mut self, smt: &mut Smt, cfa: &Cfa, s: &Term, e: EdgeId) -> Result<Vec<Term>, Stop> {
        let edge = cfa.edge(e);
        let preds = self.preds_at(cfa, edge.to);
        let next: Vec<Term> = preds.iter().map(|p| cfa.to_next(edge.to, p)).collect();
        smt.push()?;
        let r = (|| {
            smt.assert(s)?;
            smt.assert(&edge.op)?;
            if !check(smt)? {
                return Ok(vec![]);
            }
            if preds.is_empty() {
                return Ok(vec![mk_true()]);
            }
            match self.kind {
                DomainKind::PredCart => Ok(vec![self.cartesian(smt, &next, &preds)?]),
                DomainKind::PredSplit => self.cubes(smt, &next, &preds),
                _ => Ok(vec![mk_or(self.cubes(smt, &next, &preds)?)]),
            }
        })();
        smt.pop()?;
        r
    }

    fn leq(&mut self, smt: &mut Smt, a: &Term, b: &Term) -> Result<bool, Stop> {
        if a == b || b.as_bool() == Some(true) || a.as_bool() == Some(false) {
            return Ok(true);
        }
        if let Some(&r) = self.leq_cache.get(&(a.clone(), b.clone())) {
            return Ok(r);
        }
        let r = !sat(smt, &[a.clone(), mk_not(b.clone())])?;
        self.leq_cache.insert((a.clone(), b.clone()), r);
        Ok(r)
    }

    fn expr(&self, _cfa: &Cfa, _loc: Loc, s: &Term) -> Term {
        s.clone()
    }

    fn refine(&mut self, cfa: &Cfa, locs: &[Loc], r: &Refutation) -> Result<bool, Stop> {
        let Refutation::Itp(is) = r else {
            return Err(Stop::Unsupported(
                "predicate abstraction needs interpolants, not variable sets".into(),
            ));
        };
        let mut changed = false;
        let m = locs.len() - 1;
        for (j, &loc) in locs.iter().enumerate().take(m).skip(1) {
            let f = &is[j];
            let pieces = match self.split {
                Split::Whole => vec![f.clone()],
                Split::Conjuncts => conjuncts(f),
                Split::Atoms => {
                    let mut out = vec![];
                    atoms(f, &mut out);
                    out
                }
            };
            for p in pieces {
                if p.as_bool().is_none() {
                    changed |= self.prec.add(loc, cfa.to_params(loc, &p));
                }
            }
        }
        Ok(changed)
    }
}
