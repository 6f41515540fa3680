//! A plain BMC unrolling in its own solver, advanced beside an engine whose own unrolling
//! carries learned transitions: it gets as much time as the engine, so the engine's
//! counterexamples are a superset of BMC's at half its speed.

use crate::engine::unroll::BmcSteps;
use crate::engine::{Stop, TsAnswer, Unroller};
use crate::smt::{Smt, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;
use std::time::Instant;

pub struct PlainBmc {
    b: Option<BmcSteps>,
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
            b: None,
            label: label.to_string(),
            depth: 0,
            seconds: 0.0,
        }
    }

    pub fn stats(&self) -> SmtStats {
        self.b.as_ref().map(BmcSteps::stats).unwrap_or_default()
    }

    /// Unrolls until this BMC has had `budget` seconds in all. Returns a counterexample if
    /// it finds one.
    pub fn advance(
        &mut self,
        ts: &TransitionSystem,
        smt: &SolverConfig,
        budget: f64,
    ) -> Result<Option<TsAnswer>, Stop> {
        if self.b.is_none() {
            self.b = Some(BmcSteps::new(Unroller::new(Smt::new(smt, &self.label)?)));
        }
        let b = self.b.as_mut().unwrap();
        while self.seconds < budget {
            let t0 = Instant::now();
            let k = self.depth;
            if let Some(vals) = b.check(ts, k)? {
                log::info!(
                    "{}: plain BMC found a counterexample at depth {k}",
                    self.label
                );
                return Ok(Some(TsAnswer::Unsafe { k, vals }));
            }
            self.depth += 1;
            self.seconds += t0.elapsed().as_secs_f64();
        }
        Ok(None)
    }
}
