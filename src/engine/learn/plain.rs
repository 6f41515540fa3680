//! A plain BMC unrolling in its own solver, advanced beside an engine whose own unrolling
//! carries learned transitions: it gets as much time as the engine, so the engine's
//! counterexamples are a superset of BMC's at half its speed.

use crate::engine::{Stop, TsAnswer, Unroller};
use crate::smt::{SatResult, Smt, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;
use std::time::Instant;

pub struct PlainBmc {
    u: Option<Unroller>,
    label: String,
    /// Steps unrolled so far.
    pub depth: usize,
    /// Seconds spent so far.
    pub seconds: f64,
}

impl PlainBmc {
    /// `label` names its solver (e.g. `abmc-bmc`).
    pub fn new(label: &str) -> PlainBmc {
        PlainBmc {
            u: None,
            label: label.to_string(),
            depth: 0,
            seconds: 0.0,
        }
    }

    pub fn stats(&self) -> SmtStats {
        self.u.as_ref().map(|u| u.smt.stats()).unwrap_or_default()
    }

    /// Unrolls until this BMC has had `budget` seconds in all. Returns a counterexample if
    /// it finds one.
    pub fn advance(
        &mut self,
        ts: &TransitionSystem,
        smt: &SolverConfig,
        budget: f64,
    ) -> Result<Option<TsAnswer>, Stop> {
        if self.u.is_none() {
            let mut u = Unroller::new(Smt::new(smt, &self.label)?);
            u.assert_at(ts, &ts.init, 0)?;
            self.u = Some(u);
        }
        let u = self.u.as_mut().unwrap();
        while self.seconds < budget {
            let t0 = Instant::now();
            let k = self.depth;
            u.push()?;
            u.assert_at(ts, &ts.query, k)?;
            match u.check()? {
                SatResult::Sat => {
                    let vals = u.model()?;
                    log::info!(
                        "{}: plain BMC found a counterexample at depth {k}",
                        self.label
                    );
                    return Ok(Some(TsAnswer::Unsafe { k, vals }));
                }
                SatResult::Unknown => return Err(Stop::SolverUnknown),
                SatResult::Unsat => {}
            }
            u.pop()?;
            u.assert_at(ts, &ts.trans, k)?;
            self.depth += 1;
            self.seconds += t0.elapsed().as_secs_f64();
        }
        Ok(None)
    }
}
