//! Runs engines in parallel threads on one transition system; the first answer that
//! passes validation wins and the others are killed.

use crate::engine::{EngineKind, Stop, TsAnswer};
use crate::smt::{KillSwitch, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Instant;

/// What one engine reported.
pub struct Report {
    pub engine: EngineKind,
    pub answer: TsAnswer,
    pub counters: Vec<(&'static str, String)>,
    pub smt: SmtStats,
    pub seconds: f64,
}

/// A running portfolio: engine threads and their kill switches.
pub struct Portfolio {
    rx: mpsc::Receiver<Report>,
    kills: Vec<KillSwitch>,
    pub running: usize,
}

impl Portfolio {
    /// Starts each engine in its own thread, with its own solver processes.
    pub fn start(
        engines: &[EngineKind],
        ts: Arc<TransitionSystem>,
        smt: &SolverConfig,
    ) -> Portfolio {
        let (tx, rx) = mpsc::channel();
        let mut kills = vec![];
        for &e in engines {
            let mut cfg = smt.clone();
            cfg.kill = KillSwitch::new();
            kills.push(cfg.kill.clone());
            let (tx, tx_err) = (tx.clone(), tx.clone());
            let ts = ts.clone();
            let spawned = std::thread::Builder::new()
                .name(e.name().into())
                .stack_size(256 << 20)
                .spawn(move || {
                    let start = Instant::now();
                    let mut engine = e.make();
                    let answer = engine.solve(&ts, &cfg);
                    let (counters, smt) = engine.stats();
                    log::info!(
                        "{}: finished after {:.2}s",
                        e.name(),
                        start.elapsed().as_secs_f64()
                    );
                    let _ = tx.send(Report {
                        engine: e,
                        answer,
                        counters,
                        smt,
                        seconds: start.elapsed().as_secs_f64(),
                    });
                });
            if let Err(err) = spawned {
                let _ = tx_err.send(Report {
                    engine: e,
                    answer: TsAnswer::Unknown(Stop::SolverError(err.to_string())),
                    counters: vec![],
                    smt: SmtStats::default(),
                    seconds: 0.0,
                });
            }
        }
        Portfolio {
            rx,
            kills,
            running: engines.len(),
        }
    }

    /// The next report, waiting at most until `deadline`.
    pub fn next(&mut self, deadline: Option<Instant>) -> Option<Report> {
        if self.running == 0 {
            return None;
        }
        let r = match deadline {
            Some(d) => self
                .rx
                .recv_timeout(d.saturating_duration_since(Instant::now()))
                .ok(),
            None => self.rx.recv().ok(),
        };
        if r.is_some() {
            self.running -= 1;
        }
        r
    }

    /// Kills every engine's solvers; the engine threads then stop on their own.
    pub fn stop(&self) {
        for k in &self.kills {
            k.kill_all();
        }
    }
}

impl Drop for Portfolio {
    fn drop(&mut self) {
        self.stop();
    }
}
