//! Queries that need no predicate: a query clause whose body has no predicate fails
//! exactly when its constraint is satisfiable (a one-step derivation of false).

use super::*;

impl Run<'_> {
    /// Is `c.constraint` satisfiable? Returns values for the clause's variables if so.
    pub(super) fn direct_query(
        &self,
        c: &crate::chc::Clause,
        smt: &SolverConfig,
    ) -> Result<Option<Assignment>, String> {
        let mut s = Smt::new(smt, "direct-query").map_err(|e| e.to_string())?;
        let vars = c.vars();
        for v in &vars {
            s.declare(v).map_err(|e| e.to_string())?;
        }
        s.assert(&c.constraint).map_err(|e| e.to_string())?;
        match s.check_sat().map_err(|e| e.to_string())? {
            SatResult::Sat => Ok(Some(s.get_model(&vars).map_err(|e| e.to_string())?)),
            SatResult::Unsat => Ok(None),
            SatResult::Unknown => Err("solver answered unknown on a query clause".into()),
        }
    }
}
