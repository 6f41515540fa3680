//! The counterexample lane of inputs with recursive datatypes: the clauses the engines see
//! are an abstraction of the input's (sizes, [`crate::logic::adt`]), whose counterexamples
//! prove nothing, so derivations are searched on the input's own text by unfolding
//! derivation trees ([`crate::engine::treebmc`]) beside the portfolio, and judged against
//! that text before they are printed.

use super::{Reason, Run, Source, Verdict};
use crate::engine::treebmc::{golem, read, search, Limits, NoCex, SearchStats};
use crate::judge::Witness;
use crate::smt::{KillSwitch, SolverConfig};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The name the lane reports under (`--stats`' winner).
pub const NAME: &str = "treebmc";

/// How often the portfolio's wait looks at the lane while it runs.
pub const POLL: Duration = Duration::from_millis(50);

/// A running search: its answer (a derivation in Golem's format and its steps, or
/// nothing) comes through `rx`; dropping it kills its solver.
pub struct Lane {
    rx: mpsc::Receiver<Option<(String, usize)>>,
    kill: KillSwitch,
    done: bool,
}

impl Drop for Lane {
    fn drop(&mut self) {
        self.kill.kill_all();
    }
}

impl Lane {
    /// Starts the search on the first problem of `source` (CHC-COMP format; another problem
    /// or a text the reader refuses starts nothing) with the z3 at `z3`, until `deadline`.
    pub fn start(source: &Source, z3: SolverConfig, deadline: Option<Instant>) -> Option<Lane> {
        if source.index != 0 {
            return None;
        }
        let cs = match read(&source.text) {
            Ok(cs) => cs,
            Err(e) => {
                log::info!("{NAME}: the clauses are not read: {e}");
                return None;
            }
        };
        let kill = KillSwitch::new();
        let k = kill.clone();
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name(NAME.into())
            .stack_size(crate::mem::BIG_STACK)
            .spawn(move || {
                let mut st = SearchStats::default();
                let found = search(&cs, &z3, &k, deadline, Limits::default(), &mut st);
                log::info!(
                    "{NAME}: {} checks, {} nodes in {:.3}s",
                    st.checks,
                    st.nodes,
                    st.seconds
                );
                let out = match found {
                    Ok(d) => Some((golem(&cs, &d), d.steps.len())),
                    Err(NoCex::Solver(e)) => {
                        log::info!("{NAME}: stopped: {e}");
                        None
                    }
                    Err(e) => {
                        log::info!("{NAME}: no derivation: {e:?}");
                        None
                    }
                };
                let _ = tx.send(out);
            });
        if let Err(e) = spawned {
            log::warn!("{NAME}: cannot start its thread: {e}");
            return None;
        }
        Some(Lane {
            rx,
            kill,
            done: false,
        })
    }

    /// Still searching?
    pub fn running(&self) -> bool {
        !self.done
    }

    /// The derivation, when the search ended with one by `until` (`None`: now).
    fn answer(&mut self, until: Option<Instant>) -> Option<(String, usize)> {
        if self.done {
            return None;
        }
        let got = match until {
            None => self.rx.try_recv().ok(),
            Some(d) => self
                .rx
                .recv_timeout(d.saturating_duration_since(Instant::now()))
                .ok(),
        };
        match got {
            Some(a) => {
                self.done = true;
                a
            }
            None if until.is_some() => {
                self.done = true;
                None
            }
            None => None,
        }
    }
}

impl Run<'_> {
    /// Starts the lane when the input has recursive datatypes and its text is known.
    pub(super) fn start_unfolding(&mut self) {
        if self.orig.adt.is_none() {
            return;
        }
        if let Some(j) = &self.judge {
            self.unfold = Lane::start(&j.source, self.z3.clone(), self.deadline);
        }
    }

    /// The lane's judged answer, if it has one now, or, with `wait`, by the deadline.
    pub(super) fn unfolded(&mut self, wait: bool) -> Option<Verdict> {
        let lane = self.unfold.as_mut()?;
        let until = if wait {
            Some(
                self.deadline
                    .unwrap_or_else(|| Instant::now() + Duration::from_secs(1 << 30)),
            )
        } else {
            None
        };
        let (g, steps) = lane.answer(until)?;
        // the judge is this answer's validation (its rejection counts as a failure)
        self.stats.validations += 1;
        match self.judge(Witness::Derivation(&g), "unsat", NAME) {
            Ok(()) => {
                log::info!("{NAME}: a derivation of {steps} steps judged");
                self.stats.validation = Some(format!(
                    "judged a derivation of {steps} steps on the input's text"
                ));
                self.stats.winner = Some(NAME);
                // no clause-graph steps: the witness is the judged text
                Some(Verdict::Unsat(vec![]))
            }
            Err(Some(v)) => Some(v),
            Err(None) => None,
        }
    }

    /// Waits for the lane after the portfolio ended without an answer.
    pub(super) fn unfolded_or(&mut self, v: Verdict) -> Verdict {
        match &v {
            Verdict::Unknown(Reason::EnginesStopped(_)) => self.unfolded(true).unwrap_or(v),
            _ => v,
        }
    }
}
