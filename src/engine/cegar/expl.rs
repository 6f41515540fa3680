//! The explicit-value domain (Hajdu & Micskei, Sect. 2.2.1 and 3.1.1): a state maps each variable
//! of its location to a value or to "unknown" (top); the precision is the set of tracked
//! variables.
//!
//! The transfer function asks the solver: `expr(s) /\ op` unsatisfiable gives no successor;
//! otherwise the assignments of the tracked next-state variables are enumerated, blocking
//! each one found. At most `k` (`MaxEnum`) of them: each is a successor. More than `k`: one
//! successor, in which a tracked variable has a value only when `expr(s) /\ op` fixes it
//! (`expr(s) /\ op /\ x' != v` unsatisfiable), and is unknown otherwise.

use super::cfa::{Cfa, EdgeId, Loc};
use super::domain::{check, differs, Domain, Precision};
use super::{Granularity, Refutation};
use crate::engine::Stop;
use crate::logic::*;
use crate::smt::Smt;

/// A state: per variable of the location, its value or `None` (unknown).
pub type ExplState = Vec<Option<Value>>;

pub struct Expl {
    prec: Precision<usize>,
    /// `0`: no limit.
    max_enum: usize,
}

impl Expl {
    pub fn new(cfa: &Cfa, granularity: Granularity, max_enum: usize) -> Expl {
        Expl {
            prec: Precision::new(granularity, cfa.locs()),
            max_enum,
        }
    }

    /// The tracked variables of `loc`, by index.
    fn tracked(&self, cfa: &Cfa, loc: Loc) -> Vec<usize> {
        let n = cfa.vars[loc.idx()].len();
        self.prec
            .at(loc)
            .iter()
            .copied()
            .filter(|&k| k < n)
            .collect()
    }

    /// Tracks each variable of `lj` that `f` mentions.
    fn track_vars_of(&mut self, cfa: &Cfa, loc: Loc, f: &Term) -> bool {
        let mut changed = false;
        for v in free_vars(f) {
            if let Some(k) = cfa.vars[loc.idx()].iter().position(|w| *w == v) {
                changed |= self.prec.add(loc, k);
            }
        }
        changed
    }
}

/// `expr(s)` over `vars`.
pub fn expr_over(vars: &[Var], s: &ExplState) -> Term {
    mk_and(
        vars.iter()
            .zip(s)
            .filter_map(|(v, x)| x.as_ref().map(|x| mk_eq(mk_var_of(v), x.to_term())))
            .collect(),
    )
}

impl Domain for Expl {
    type State = ExplState;

    fn precision_size(&self) -> usize {
        self.prec.size()
    }

    fn init(&self) -> ExplState {
        vec![]
    }

    fn post(
        &mut self,
        smt: &mut Smt,
        cfa: &Cfa,
        s: &ExplState,
        e: EdgeId,
    ) -> Result<Vec<ExplState>, Stop> {
        let edge = cfa.edge(e);
        let to = edge.to;
        let arity = cfa.vars[to.idx()].len();
        let tracked = self.tracked(cfa, to);
        let next: Vec<Var> = tracked
            .iter()
            .map(|&k| cfa.next[to.idx()][k].clone())
            .collect();
        smt.push()?;
        let r = self.enumerate(smt, cfa, s, e, &next);
        smt.pop()?;
        let Some(found) = r? else {
            return Ok(vec![]);
        };
        let lift = |vals: Vec<Option<Value>>| {
            let mut st = vec![None; arity];
            for (&k, v) in tracked.iter().zip(vals) {
                st[k] = v;
            }
            st
        };
        Ok(found.into_iter().map(lift).collect())
    }

    fn leq(&mut self, _smt: &mut Smt, a: &ExplState, b: &ExplState) -> Result<bool, Stop> {
        Ok(b.iter().enumerate().all(|(k, y)| match y {
            None => true,
            Some(y) => a.get(k).and_then(|x| x.as_ref()) == Some(y),
        }))
    }

    fn expr(&self, cfa: &Cfa, loc: Loc, s: &ExplState) -> Term {
        expr_over(&cfa.vars[loc.idx()], s)
    }

    fn refine(&mut self, cfa: &Cfa, locs: &[Loc], r: &Refutation) -> Result<bool, Stop> {
        let mut changed = false;
        let m = locs.len() - 1;
        for (j, &loc) in locs.iter().enumerate().take(m).skip(1) {
            match r {
                Refutation::Itp(is) => changed |= self.track_vars_of(cfa, loc, &is[j]),
                Refutation::Vars(vs) => {
                    for &k in &vs[j] {
                        changed |= self.prec.add(loc, k);
                    }
                }
            }
        }
        Ok(changed)
    }
}

impl Expl {
    /// In an open scope: asserts `expr(s) /\ op`; `None` when unsatisfiable, else the
    /// successor valuations of `next` (each `None` where unknown).
    fn enumerate(
        &self,
        smt: &mut Smt,
        cfa: &Cfa,
        s: &ExplState,
        e: EdgeId,
        next: &[Var],
    ) -> Result<Option<Vec<Vec<Option<Value>>>>, Stop> {
        let edge = cfa.edge(e);
        smt.assert(&expr_over(&cfa.vars[edge.from.idx()], s))?;
        smt.assert(&edge.op)?;
        if !check(smt)? {
            return Ok(None);
        }
        if next.is_empty() {
            return Ok(Some(vec![vec![]]));
        }
        let first = smt.get_model(next)?;
        let mut found: Vec<Vec<Value>> = vec![];
        let mut model = first.clone();
        // enumerate inside a scope of its own: the blocking clauses go with it
        smt.push()?;
        let exceeded = loop {
            let vals: Vec<Value> = next.iter().map(|v| model[v].clone()).collect();
            let block = mk_or(next.iter().zip(&vals).map(|(v, x)| differs(v, x)).collect());
            found.push(vals);
            smt.assert(&block)?;
            if !check(smt)? {
                break false;
            }
            if self.max_enum != 0 && found.len() >= self.max_enum {
                break true;
            }
            model = smt.get_model(next)?;
        };
        smt.pop()?;
        if !exceeded {
            return Ok(Some(
                found
                    .into_iter()
                    .map(|vs| vs.into_iter().map(Some).collect())
                    .collect(),
            ));
        }
        // too many: a variable keeps a value only when the transition fixes it
        let mut vals = vec![];
        for v in next {
            let x = &first[v];
            smt.push()?;
            smt.assert(&differs(v, x))?;
            let other = check(smt)?;
            smt.pop()?;
            vals.push((!other).then(|| x.clone()));
        }
        Ok(Some(vec![vals]))
    }
}
