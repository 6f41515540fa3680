//! Counterexamples of inputs whose clauses the front-end does not translate (recursive
//! datatypes), found on the input's own text by unfolding derivation trees
//! ([`crate::engine::treebmc`]) and judged against that text before they are printed.

use super::{Options, Outcome, Source, Stats, Validate, Verdict};
use crate::chc::ChcSystem;
use crate::engine::treebmc::{golem, read, search, Limits, NoCex, SearchStats};
use crate::judge::{JudgeRun, JudgeSolver, Judgment, Witness};
use crate::smt::{KillSwitch, SolverKind};
use std::sync::Arc;
use std::time::Instant;

/// The name the lane reports under (`--stats`' winner).
pub const NAME: &str = "treebmc";

/// Searches a derivation of `false` in the first problem of `text` (CHC-COMP format) until
/// `opts.timeout`, and judges it: an `unsat` outcome whose witness is the judged derivation
/// in Golem's format (its [`Verdict::Unsat`] holds no clause-graph steps: there is no
/// clause graph), or `None` (not read, none found in time, not accepted).
pub fn solve_by_unfolding(text: &str, opts: &Options) -> Option<Outcome> {
    let start = Instant::now();
    let deadline = opts.timeout.map(|t| start + t);
    let z3 = opts.paths.find(SolverKind::Z3).ok()?;
    let cs = match read(text) {
        Ok(cs) => cs,
        Err(e) => {
            log::info!("{NAME}: the clauses are not read: {e}");
            return None;
        }
    };
    let mut st = SearchStats::default();
    let kill = KillSwitch::new();
    let found = search(&cs, &z3, &kill, deadline, Limits::default(), &mut st);
    log::info!(
        "{NAME}: {} checks, {} nodes in {:.3}s",
        st.checks,
        st.nodes,
        st.seconds
    );
    let d = match found {
        Ok(d) => d,
        Err(NoCex::Solver(e)) => {
            log::info!("{NAME}: stopped: {e}");
            return None;
        }
        Err(e) => {
            log::info!("{NAME}: no derivation: {e:?}");
            return None;
        }
    };
    let g = golem(&cs, &d);
    let mut solvers = vec![JudgeSolver::Z3(z3)];
    if opts.validate == Validate::Twice {
        solvers.push(JudgeSolver::Cvc5(opts.paths.find(SolverKind::Cvc5).ok()?));
    }
    let judge = JudgeRun {
        source: Source {
            text: Arc::from(text),
            index: 0,
        },
        solvers,
        replay_dir: opts
            .replay_dir
            .clone()
            .or_else(|| opts.tee_dir.as_ref().map(|d| d.join("rejected"))),
    };
    let t = Instant::now();
    let w = Witness::Derivation(&g);
    let j = judge.judge(w, deadline);
    let mut stats = Stats {
        judgments: 1,
        judge_seconds: t.elapsed().as_secs_f64(),
        judges: match opts.validate {
            Validate::Once => "z3",
            Validate::Twice => "z3+cvc5",
        },
        ..Stats::default()
    };
    match j {
        Judgment::Accepted => {}
        Judgment::Rejected(e) => {
            let at = judge.write_replay(w, "unsat", &e);
            log::error!("{NAME}: derivation REJECTED by the judge (a bug): {e}; {at}");
            return None;
        }
        Judgment::Undecided(e) => {
            log::warn!("{NAME}: the judge could not decide the derivation: {e}");
            return None;
        }
    }
    stats.winner = Some(NAME);
    stats.validation = Some(format!(
        "judged a derivation of {} steps on the input's text",
        d.steps.len()
    ));
    stats.total_seconds = start.elapsed().as_secs_f64();
    Some(Outcome {
        verdict: Verdict::Unsat(vec![]),
        system: ChcSystem::default(),
        stats,
        witness: Some(g),
    })
}
