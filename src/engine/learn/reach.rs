//! The states an unrolling reaches within a bound, as a quantifier-free formula over the
//! state variables: a union of model-based projections (cubes), enumerated depth by depth
//! with a fresh solver. When every reachable state of a (possibly extended) system is
//! reached within the bound, this union is closed under the transition relation: an
//! inductive invariant, which the validator checks like any other.

use crate::engine::Stop;
use crate::logic::*;
use crate::smt::{SatResult, Smt, SolverConfig};
use crate::ts::TransitionSystem;
use rustc_hash::{FxHashMap, FxHashSet};

/// `\/_{i < b} exists (all but state@i). /\ phi(i)`, projected onto the state variables,
/// with at most `max_cubes` cubes. `phi(i)` is the unrolling that ends at depth `i`.
/// Returns the formula and its number of cubes.
pub fn reachable_states(
    ts: &TransitionSystem,
    smt_cfg: &SolverConfig,
    label: &str,
    b: usize,
    max_cubes: usize,
    phi: &dyn Fn(usize) -> Vec<Term>,
) -> Result<(Term, usize), Stop> {
    let mut smt = Smt::new(smt_cfg, label)?;
    let mut cubes: Vec<Term> = vec![];
    let state = &ts.state;
    for i in 0..b {
        let phi = phi(i);
        let keep: Vec<Var> = state.iter().map(|s| ts.at_var(s, i)).collect();
        let all: Vec<Var> = {
            let mut v: FxHashSet<Var> = FxHashSet::default();
            for t in &phi {
                v.extend(free_vars(t));
            }
            v.extend(keep.iter().cloned());
            v.into_iter().collect()
        };
        let elim: Vec<Var> = all.iter().filter(|v| !keep.contains(v)).cloned().collect();
        smt.push()?;
        for v in &all {
            smt.declare(v)?;
        }
        for t in &phi {
            smt.assert(t)?;
        }
        let to_state: FxHashMap<Var, Term> = keep
            .iter()
            .zip(state)
            .map(|(k, s)| (k.clone(), mk_var_of(s)))
            .collect();
        let from_state: FxHashMap<Var, Term> = keep
            .iter()
            .zip(state)
            .map(|(k, s)| (s.clone(), mk_var_of(k)))
            .collect();
        // cubes found at lower depths already cover part of this depth
        for c in &cubes {
            smt.assert(&mk_not(subst(c, &from_state)))?;
        }
        loop {
            match smt.check_sat()? {
                SatResult::Unsat => break,
                SatResult::Unknown => return Err(Stop::SolverUnknown),
                SatResult::Sat => {}
            }
            if cubes.len() >= max_cubes {
                return Err(Stop::SolverError(format!(
                    "{label}: the reachable states need more than {max_cubes} cubes"
                )));
            }
            let m = smt.get_model(&all)?;
            let p = mbp::project(&phi, &m, &elim).map_err(Stop::SolverError)?;
            let cube = mk_and(p.lits);
            smt.assert(&mk_not(cube.clone()))?;
            cubes.push(subst(&cube, &to_state));
        }
        smt.pop()?;
    }
    let n = cubes.len();
    Ok((mk_or(cubes), n))
}
