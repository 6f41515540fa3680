//! The abstract-interpretation pass in the pipeline ([`crate::absint`]): run after
//! preprocessing, its invariants are the answer when they block every query, and otherwise
//! seeds for the engines.

use super::{progress, Options, Run, Verdict};
use crate::absint::{analyze, Outcome, Seeds};
use crate::chc::Model;
use crate::chc::{ChcSystem, PredId};
use crate::frontend::passes::{model_back, BackTranslate};
use crate::logic::*;
use crate::smt::SolverConfig;
use crate::ts::TsAdapter;
use std::time::{Duration, Instant};

/// The pass's figures for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct AbsintStats {
    /// `off`, `skipped (why)`, `gave up (why)`, `answered`, `seeded`.
    pub outcome: String,
    pub seconds: f64,
    pub candidates: usize,
    /// Candidates the solver proved inductive together.
    pub kept: usize,
    pub queries: usize,
}

impl Run<'_> {
    /// Runs the pass on the preprocessed `psys`: `Err(verdict)` when its invariants are
    /// a validated answer, else the invariants that survived the check, per predicate
    /// (empty when the pass was off, skipped, or gave up).
    pub(super) fn absint(
        &mut self,
        psys: &ChcSystem,
        backs: &[Box<dyn BackTranslate>],
        opts: &Options,
        smt: &SolverConfig,
    ) -> Result<Vec<(PredId, Term)>, Verdict> {
        if !opts.absint.enabled {
            self.stats.absint.outcome = "off".into();
            return Ok(vec![]);
        }
        progress(opts, |p| p.stage("abstract interpretation"));
        let start = Instant::now();
        // a tenth of the run's time at most
        let mut budget = opts.absint.budget;
        if let Some(left) = self.remaining() {
            budget = budget.min(left / 10);
        }
        let out = analyze(
            psys,
            &self.features,
            &opts.absint,
            smt,
            budget.max(Duration::from_millis(1)),
        );
        let st = &mut self.stats.absint;
        st.seconds = start.elapsed().as_secs_f64();
        progress(opts, |p| {
            p.record("absint-seconds", format!("{:.3}", st.seconds))
        });
        let (invariants, blocks) = match out {
            Outcome::Skipped(why) => {
                st.outcome = format!("skipped ({why})");
                return Ok(vec![]);
            }
            Outcome::GaveUp(why) => {
                st.outcome = format!("gave up ({why})");
                return Ok(vec![]);
            }
            Outcome::Done {
                invariants,
                blocks_queries,
                candidates,
                kept,
                queries,
            } => {
                st.candidates = candidates;
                st.kept = kept;
                st.queries = queries;
                (invariants, blocks_queries)
            }
        };
        log::info!(
            "absint: {} of {} candidates inductive in {:.3}s{}",
            self.stats.absint.kept,
            self.stats.absint.candidates,
            self.stats.absint.seconds,
            if blocks { ", blocking every query" } else { "" }
        );
        let per_pred: Vec<(PredId, Term)> = psys
            .pred_ids()
            .zip(invariants)
            .filter(|(_, inv)| !inv.is_empty())
            .map(|(p, inv)| (p, mk_and(inv)))
            .collect();
        for (p, inv) in &per_pred {
            log::debug!("absint: {} {}", psys.pred(*p).name, inv);
        }
        if blocks {
            let mut model: Model = psys.pred_ids().map(|p| (p, mk_true())).collect();
            model.extend(per_pred.iter().cloned());
            if let Some(v) = self.accept_model(model_back(backs, model), "absint") {
                self.stats.absint.outcome = "answered".into();
                return Err(v);
            }
        }
        self.stats.absint.outcome = if per_pred.is_empty() {
            "nothing kept".into()
        } else {
            "seeded".into()
        };
        Ok(per_pred)
    }
}

/// The seeds of the engines: the invariants per predicate, and for PDR as cubes over the
/// transition system of `adapter`.
pub(super) fn seeds(
    psys: &ChcSystem,
    per_pred: Vec<(PredId, Term)>,
    adapter: Option<&TsAdapter>,
    linear_input: bool,
) -> Seeds {
    let ts_cubes = match adapter {
        Some(a) => per_pred
            .iter()
            .filter_map(|(p, inv)| a.seed_cube(psys, *p, inv))
            .collect(),
        None => vec![],
    };
    Seeds {
        per_pred,
        ts_cubes,
        by_default: linear_input,
    }
}
