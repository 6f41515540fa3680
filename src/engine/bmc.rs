//! Bounded model checking, incremental: Alg. 1 of Frohn & Giesl, *Accelerated Bounded Model
//! Checking* (arXiv, 2024), without acceleration.
//!
//! One solver holds `init@0 /\ trans@0 /\ .. /\ trans@(k-1)`; at each depth `k` the query
//! `query@k` is checked under a push, then `trans@k` is added for good ([`BmcSteps`]).

use super::unroll::BmcSteps;
use super::{log_progress, Stop, TsAnswer, TsEngine, Unroller};
use crate::smt::{Smt, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;

/// BMC settings.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Give up after this depth (default: none, run until killed).
    pub max_depth: Option<usize>,
}

pub struct Bmc {
    cfg: Config,
    depth: usize,
    smt: SmtStats,
}

impl Bmc {
    pub fn new(cfg: Config) -> Bmc {
        Bmc {
            cfg,
            depth: 0,
            smt: SmtStats::default(),
        }
    }

    fn run(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> Result<TsAnswer, Stop> {
        let mut b = BmcSteps::new(Unroller::new(Smt::new(smt, "bmc")?));
        let r = self.unroll(ts, &mut b);
        self.smt = b.stats();
        r
    }

    fn unroll(&mut self, ts: &TransitionSystem, b: &mut BmcSteps) -> Result<TsAnswer, Stop> {
        for k in 0.. {
            if self.cfg.max_depth.is_some_and(|m| k > m) {
                return Err(Stop::Bound(k - 1));
            }
            self.depth = k;
            log_progress("bmc: depth", k);
            if let Some(vals) = b.check(ts, k)? {
                return Ok(TsAnswer::Unsafe { k, vals });
            }
        }
        unreachable!()
    }
}

impl TsEngine for Bmc {
    fn name(&self) -> &'static str {
        "bmc"
    }

    fn solve(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> TsAnswer {
        self.run(ts, smt).unwrap_or_else(TsAnswer::Unknown)
    }

    /// Every sort, arrays included (BMC, k-induction and PDR's projection work over arrays).
    fn supports(&self, _f: &crate::chc::Features) -> Result<(), &'static str> {
        Ok(())
    }

    fn stats(&self) -> crate::engine::EngineStats {
        crate::engine::EngineStats::new(self.smt, vec![("depth", self.depth.into())])
    }
}
