//! ISFEASIBLE and REFINE's core: a derivation of `U` replayed on the original clauses.

use super::Prep;
use crate::chc::{Cex, CexStep};
use crate::chc::{Clause, PredApp};
use crate::engine::Stop;
use crate::logic::*;
use crate::smt::{SatResult, Smt, SolverConfig};
use rustc_hash::FxHashMap;

/// ISFEASIBLE: the clause tree of `cex` (a derivation in `U`, whose clauses are `P`'s in the
/// same order) on `P`'s clauses, each instance's variables renamed apart, each conjunct
/// behind its Σ literal. Sat: the derivation with the model's values (a counterexample of
/// `P`). Unsat: the (clause, conjunct) pairs of the unsat core over Σ.
#[allow(clippy::type_complexity)]
pub fn is_feasible(
    prep: &Prep,
    cex: &Cex,
    smt_cfg: &SolverConfig,
    stats: &mut crate::smt::SmtStats,
) -> Result<Result<Cex, Vec<(usize, usize)>>, Stop> {
    let sys = prep.sys;
    let mut smt = Smt::new(smt_cfg, "spacer-abs-feasible")?;
    let mut sigma: FxHashMap<(usize, usize), Term> = FxHashMap::default();
    let mut renamed: Vec<Clause> = vec![];
    let mut vars: Vec<Vec<(Var, Var)>> = vec![];
    for (s, step) in cex.iter().enumerate() {
        let i = step.clause.idx();
        let c = &sys.clauses[i];
        let pairs: Vec<(Var, Var)> = c
            .vars()
            .into_iter()
            .map(|v| {
                let w = Var {
                    name: format!("abs!{s}!{}", v.name).into(),
                    sort: v.sort,
                };
                (v, w)
            })
            .collect();
        let map: FxHashMap<Var, Term> = pairs
            .iter()
            .map(|(v, w)| (v.clone(), mk_var_of(w)))
            .collect();
        let app = |a: &PredApp| PredApp {
            pred: a.pred,
            args: a.args.iter().map(|t| subst(t, &map)).collect(),
        };
        let r = Clause {
            body: c.body.iter().map(app).collect(),
            constraint: mk_true(),
            head: c.head.as_ref().map(app),
            line: c.line,
        };
        for (k, part) in prep.conj[i].iter().enumerate() {
            let part = subst(part, &map);
            let lit = sigma
                .entry((i, k))
                .or_insert_with(|| {
                    mk_var_of(&Var {
                        name: format!("abs!s{i}_{k}").into(),
                        sort: Sort::Bool,
                    })
                })
                .clone();
            smt.assert(&mk_implies(lit, part))?;
        }
        for (b, &p) in r.body.iter().zip(&step.premises) {
            let Some(h) = renamed.get(p).and_then(|c: &Clause| c.head.as_ref()) else {
                return Err(Stop::Bug(
                    "spacer abstraction: a malformed derivation".into(),
                ));
            };
            for (x, y) in b.args.iter().zip(&h.args) {
                smt.assert(&mk_eq(x.clone(), y.clone()))?;
            }
        }
        for (_, w) in &pairs {
            smt.declare(w)?;
        }
        renamed.push(r);
        vars.push(pairs);
    }
    let lits: Vec<Term> = sigma.values().cloned().collect();
    let r = smt.check_sat_assuming(&lits)?;
    let out = match r {
        SatResult::Unknown => Err(Stop::SolverUnknown),
        SatResult::Sat => {
            let mut out = vec![];
            for (s, step) in cex.iter().enumerate() {
                let ws: Vec<Var> = vars[s].iter().map(|(_, w)| w.clone()).collect();
                let vals = smt.get_values(&ws)?;
                out.push(CexStep {
                    clause: step.clause,
                    vals: vars[s].iter().map(|(v, _)| v.clone()).zip(vals).collect(),
                    premises: step.premises.clone(),
                });
            }
            Ok(Ok(out))
        }
        SatResult::Unsat => {
            let core = smt.unsat_assumptions()?;
            let back: FxHashMap<Term, (usize, usize)> =
                sigma.into_iter().map(|(ik, t)| (t, ik)).collect();
            Ok(Err(core
                .iter()
                .filter_map(|t| back.get(t).copied())
                .collect()))
        }
    };
    *stats += smt.stats();
    out
}
