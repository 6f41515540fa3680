//! The concrete counterexample behind a chain of proof obligations.

use super::context::Cube;
use crate::engine::{Stop, Unroller};
use crate::logic::*;
use crate::smt::{SatResult, Smt, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;

/// Solves `init@0 /\ trans@0 .. trans@(k-1) /\ query@k /\ cube_j@j` in a fresh solver, where
/// `cubes` are the obligations of the chain with their steps. Each cube lies in the
/// preimage of the next (the projections under-approximate), so a path exists; its model
/// is over step-indexed variables, as BMC gives it.
pub fn replay(
    ts: &TransitionSystem,
    cfg: &SolverConfig,
    k: usize,
    cubes: &[(usize, Cube)],
    stats: &mut SmtStats,
) -> Result<Assignment, Stop> {
    let mut u = Unroller::new(Smt::new(cfg, "pdr-cex")?);
    let r = solve(ts, &mut u, k, cubes);
    *stats += u.smt.stats();
    r
}

fn solve(
    ts: &TransitionSystem,
    u: &mut Unroller,
    k: usize,
    cubes: &[(usize, Cube)],
) -> Result<Assignment, Stop> {
    u.assert_at(ts, &ts.init, 0)?;
    for i in 0..k {
        u.assert_at(ts, &ts.trans, i)?;
    }
    u.assert_at(ts, &ts.query, k)?;
    for (step, cube) in cubes {
        u.assert_at(ts, &mk_and(cube.clone()), *step)?;
    }
    match u.check()? {
        SatResult::Sat => Ok(u.model()?),
        SatResult::Unknown => Err(Stop::SolverUnknown),
        SatResult::Unsat => Err(Stop::Bug(format!(
            "pdr: the counterexample of length {k} does not exist"
        ))),
    }
}
