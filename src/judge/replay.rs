//! The judge of one run: the input's text, its solvers, and the folder where a rejected
//! answer is written with its input so that the check can be replayed.

use super::spare::{warm, Warm};
use super::{judge_with_fallback, JudgeSolver, Judgment, Source, Witness};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Judges the answers of one solved system.
#[derive(Clone, Debug)]
pub struct JudgeRun {
    pub source: Source,
    pub solvers: Vec<JudgeSolver>,
    /// Proves the assertions a model leaves open for `solvers` (cvc5 beside z3, when found
    /// and not already a judge).
    pub fallback: Option<JudgeSolver>,
    /// Where rejected answers go (else `$TMPDIR/chcsolve-rejected`).
    pub replay_dir: Option<PathBuf>,
    /// The spare processes of [`JudgeRun::warm_up`], killed with the run if not taken.
    pub spares: Arc<OnceLock<Warm>>,
}

/// The judges of a run: z3, with cvc5 beside it when `twice` (then `cvc5` must be found);
/// else cvc5, when found, as the fallback for the models of an input `text` that converts
/// integers to bit-vectors ([`super::model::check`]).
pub fn judges<E>(
    z3: PathBuf,
    cvc5: Result<PathBuf, E>,
    twice: bool,
    text: Option<&str>,
) -> Result<(Vec<JudgeSolver>, Option<JudgeSolver>), E> {
    let mut solvers = vec![JudgeSolver::Z3(z3)];
    if twice {
        solvers.push(JudgeSolver::Cvc5(cvc5?));
        return Ok((solvers, None));
    }
    let converts = text.is_some_and(super::conversions);
    Ok((
        solvers,
        cvc5.ok().filter(|_| converts).map(JudgeSolver::Cvc5),
    ))
}

impl JudgeRun {
    /// Starts a spare process for each judge, once per run ([`super::spare`]): called when
    /// an engine answers, so the judge's solver starts while the answer is validated (a
    /// counterexample is completed by the validator's z3 before it is judged) instead of
    /// after. Not at the run's start: on two cores the spares' start would take CPU from
    /// the engines on the small files, whose answers come within 0.1 s.
    pub fn warm_up(&self) {
        self.spares.get_or_init(|| warm(&self.solvers));
    }

    /// Judges `w` until `deadline`.
    pub fn judge(&self, w: Witness<'_>, deadline: Option<Instant>) -> Judgment {
        judge_with_fallback(
            &self.source.text,
            self.source.index,
            w,
            &self.solvers,
            self.fallback.as_ref(),
            deadline,
        )
    }

    /// Writes the input (`input.smt2`), the answer as it would be printed (`answer.txt`:
    /// the answer word, then the witness) and the judge's reason (`reason.txt`) into a new
    /// folder under the replay folder; says where (or why it could not).
    pub fn write_replay(&self, w: Witness<'_>, word: &str, reason: &str) -> String {
        let root = self
            .replay_dir
            .clone()
            .unwrap_or_else(|| std::env::temp_dir().join("chcsolve-rejected"));
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let dir = root.join(format!(
            "{stamp}-{}-{}",
            std::process::id(),
            self.source.index
        ));
        let kind = match w {
            Witness::Model(_) => "model",
            Witness::Derivation(_) => "derivation",
            Witness::Accelerated(_) => "accelerated",
            Witness::KInductive(_) => "kinductive",
        };
        let r = std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(dir.join("input.smt2"), &*self.source.text))
            .and_then(|()| {
                std::fs::write(dir.join("answer.txt"), format!("{word}\n{}\n", w.text()))
            })
            .and_then(|()| {
                std::fs::write(
                    dir.join("reason.txt"),
                    format!(
                        "problem {} of the input ({kind}), judges {:?}:\n{reason}\n",
                        self.source.index + 1,
                        self.solvers
                    ),
                )
            });
        match r {
            Ok(()) => format!("input and answer written to {}", dir.display()),
            Err(e) => format!("could not write them to {}: {e}", dir.display()),
        }
    }
}
