//! The judge: checks a printed answer against the ORIGINAL TEXT of the input, sharing
//! nothing with the solver (not the parser, the normalizer, the term layer, the printer or
//! the `Smt` wrapper).
//!
//! Its own s-expression reader ([`sexp`]) locates the commands, the predicate declarations
//! and the assertions of the problem ([`input`]; a fixedpoint file is turned into
//! assertions by text alone); it never interprets a term: a solver process of its own
//! ([`process`]: z3, and cvc5 too with `--validate twice`) decides everything.
//!
//! - a model ([`model`]): its `define-fun`s replace the `declare-fun`s, and the negation of
//!   every assertion must be unsat (CHC-COMP's model validation);
//! - a derivation in Golem's format ([`derivation`]): every step must be a ground instance
//!   of an assertion, from earlier steps, the last one deriving `false`;
//! - an accelerated counterexample (our list format with `(segment ...)`s): the same for
//!   every concrete step, a segment's end taken as given by the derivation and its start
//!   the fact before it; each segment's certificate (its formula implies runs of its cycle,
//!   and holds at its ends) is proven over the original assertions' text ([`segment`]).
//!
//! Every solver must accept. A judge that cannot decide in time, answers `unknown` or
//! cannot read an assertion leaves the answer [`Judgment::Undecided`], never rejected.

mod datatypes;
mod derivation;
mod ground;
mod input;
mod kinductive;
mod model;
mod polarity;
mod process;
pub mod reading;
mod replay;
mod segment;
mod sexp;
mod spare;

pub use model::conversions;
pub use process::JudgeSolver;
pub use replay::{judges, JudgeRun};

use derivation::{Fact, Step};
use process::Stop;
use std::sync::Arc;
use std::time::Instant;

/// The input's text and which of its problems a system is (the k-th `check-sat` or
/// `query`): what an answer is judged against.
#[derive(Clone, Debug)]
pub struct Source {
    pub text: Arc<str>,
    pub index: usize,
}

/// What the judge says about an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgment {
    Accepted,
    /// Wrong, or not a witness at all: a bug in whatever produced it.
    Rejected(String),
    /// Not decided (time, `unknown`, an assertion the judge cannot split, a dead solver).
    Undecided(String),
}

/// An answer in its printed form.
#[derive(Clone, Copy, Debug)]
pub enum Witness<'a> {
    /// The `define-fun`s printed after `sat`, between parentheses.
    Model(&'a str),
    /// Golem's derivation, printed after `unsat`.
    Derivation(&'a str),
    /// The list format of an accelerated counterexample (`(step ..)`, `(segment ..)`).
    Accelerated(&'a str),
    /// A k-inductive invariant, `(k-inductive K ((define-fun P ..) ..))`: a `sat` answer
    /// judged by the k-induction conditions ([`kinductive`]).
    KInductive(&'a str),
}

impl Witness<'_> {
    /// The printed text.
    pub fn text(&self) -> &str {
        match self {
            Witness::Model(t)
            | Witness::Derivation(t)
            | Witness::Accelerated(t)
            | Witness::KInductive(t) => t,
        }
    }
}

fn stopped(e: Stop) -> Judgment {
    match e {
        Stop::Timeout => Judgment::Undecided("out of time".into()),
        Stop::Died(m) => Judgment::Undecided(m),
    }
}

/// Judges `witness` as an answer to problem `index` (0-based: the k-th `check-sat` or
/// `query`) of `text`, with every solver of `solvers` (each must accept), until `deadline`.
///
/// A panic anywhere in the judge is an undecided judgment (the answer is then not printed:
/// `unknown`), never a crash of the run.
pub fn judge(
    text: &str,
    index: usize,
    witness: Witness<'_>,
    solvers: &[JudgeSolver],
    deadline: Option<Instant>,
) -> Judgment {
    judge_with_fallback(text, index, witness, solvers, None, deadline)
}

/// [`judge`], where the assertions a model leaves open for a solver of `solvers` (it
/// answers `unknown` or runs out of its share of the time) may be proven by `fallback`
/// instead ([`model::check`]). Derivations and certificates are judged as by [`judge`].
pub fn judge_with_fallback(
    text: &str,
    index: usize,
    witness: Witness<'_>,
    solvers: &[JudgeSolver],
    fallback: Option<&JudgeSolver>,
    deadline: Option<Instant>,
) -> Judgment {
    let run = || judge_here(text, index, witness, solvers, fallback, deadline);
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Judgment::Undecided(format!("the judge panicked: {why}"))
    })
}

fn judge_here(
    text: &str,
    index: usize,
    witness: Witness<'_>,
    solvers: &[JudgeSolver],
    fallback: Option<&JudgeSolver>,
    deadline: Option<Instant>,
) -> Judgment {
    let p = match input::problem(text, index) {
        Ok(p) => p,
        Err(e) => return Judgment::Undecided(format!("cannot read the input: {e}")),
    };
    let steps = match witness {
        Witness::Model(_) | Witness::KInductive(_) => None,
        Witness::Derivation(d) => Some(derivation::golem(&p, d).map(|s| (s, vec![]))),
        Witness::Accelerated(d) => Some(accelerated(&p, d)),
    };
    if let Some(Err(e)) = &steps {
        return Judgment::Rejected(format!("malformed derivation: {e}"));
    }
    let one = |s: &JudgeSolver| match (&witness, &steps) {
        (Witness::Model(m), _) => model::check(text, &p, m, s, fallback, deadline),
        (Witness::KInductive(w), _) => kinductive::check(text, &p, w, s, deadline),
        (_, Some(Ok((steps, segs)))) => match derivation::check(text, &p, steps, s, deadline) {
            Judgment::Accepted => {
                let t = Instant::now();
                let j = segment::check(text, &p, segs, s, deadline);
                log::info!(
                    "{}: {} segments judged in {:.3}s",
                    s.name(),
                    segs.len(),
                    t.elapsed().as_secs_f64()
                );
                j
            }
            j => j,
        },
        _ => unreachable!("checked above"),
    };
    let verdicts: Vec<Judgment> = std::thread::scope(|scope| {
        let handles: Vec<_> = solvers
            .iter()
            .map(|s| {
                std::thread::Builder::new()
                    .name("judge".into())
                    .stack_size(crate::mem::BIG_STACK)
                    .spawn_scoped(scope, || one(s))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h
                    .join()
                    .unwrap_or_else(|_| Judgment::Undecided("the judge panicked".into())),
                Err(e) => Judgment::Undecided(format!("cannot start the judge's thread: {e}")),
            })
            .collect()
    });
    if solvers.is_empty() {
        return Judgment::Undecided("no judge".into());
    }
    let rejected = verdicts.iter().find(|v| matches!(v, Judgment::Rejected(_)));
    let undecided = verdicts
        .iter()
        .find(|v| matches!(v, Judgment::Undecided(_)));
    rejected
        .or(undecided)
        .cloned()
        .unwrap_or(Judgment::Accepted)
}

/// The steps of an accelerated counterexample printed in the list format: a chain, each
/// `(step i (line L) fact ..)` judged from the fact before it, each `(segment i from to
/// ..)` starting at the fact before it and giving `to`; and its segments.
fn accelerated(
    p: &input::Problem,
    text: &str,
) -> Result<(Vec<Step>, Vec<segment::Segment>), String> {
    let all = sexp::read_one(text)?;
    let links = all.list().ok_or("not a list of steps")?;
    let mut steps = vec![Step {
        fact: Fact::True,
        premises: vec![],
        given: true,
    }];
    let mut segs = vec![];
    for (k, l) in links.iter().enumerate() {
        let items = l.list().unwrap_or_default();
        let premises = vec![k];
        match (l.head(), items) {
            (Some("step"), [_, _, _, f, ..]) => steps.push(Step {
                fact: derivation::fact(p, f)?,
                premises,
                given: false,
            }),
            (Some("segment"), items) => {
                let seg = segment::read(p, k, items)?;
                if k == 0 || steps[k].fact != Fact::App(seg.pred, seg.from.clone()) {
                    return Err(format!("segment {k} does not start at the fact before it"));
                }
                steps.push(Step {
                    fact: Fact::App(seg.pred, seg.to.clone()),
                    premises,
                    given: true,
                });
                segs.push(seg);
            }
            _ => return Err(format!("not a step or a segment: {l}")),
        }
    }
    Ok((steps, segs))
}

#[cfg(test)]
mod tests;
