//! Why a run has no validated answer: a type, so that callers (the CLI's `--stats-json`,
//! the Python package, tests) read it as data; its `Display` is the one line
//! `get-info :reason-unknown` and `--stats` print.

use crate::engine::Stop;
use std::fmt;

/// Why a run ended without a validated answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The run's time limit ([`crate::Options::timeout`]).
    Timeout,
    /// A memory limit, in MB when known (the run's, else the process's).
    MemoryLimit(Option<u64>),
    /// The caller's stop switch ([`crate::Options::cancel`]).
    Interrupted,
    /// Every engine stopped without an answer that passed validation, each for its reason
    /// (in the order they stopped); an answer rejected by the validator is counted in the
    /// statistics, not here.
    EnginesStopped(Vec<(&'static str, Stop)>),
    /// An answer was found but the judge could not decide it (out of time, or its solvers
    /// said unknown): not printed.
    NotValidated(String),
    /// The answer preprocessing found failed validation (a bug, counted as such).
    ValidationFailed,
    /// A quantifier in the clauses could not be eliminated.
    Quantifiers(String),
    /// A solver failed outside the engines (the queries preprocessing answers itself).
    SolverError(String),
}

impl Reason {
    /// A short kind for `--stats-json`: `timeout`, `memory-limit`, `interrupted`,
    /// `engines-stopped`, `not-validated`, `validation-failed`, `quantifiers`,
    /// `solver-error`.
    pub fn kind(&self) -> &'static str {
        match self {
            Reason::Timeout => "timeout",
            Reason::MemoryLimit(_) => "memory-limit",
            Reason::Interrupted => "interrupted",
            Reason::EnginesStopped(_) => "engines-stopped",
            Reason::NotValidated(_) => "not-validated",
            Reason::ValidationFailed => "validation-failed",
            Reason::Quantifiers(_) => "quantifiers",
            Reason::SolverError(_) => "solver-error",
        }
    }
}

/// A short kind of an engine's stop for `--stats-json`.
pub fn stop_kind(s: &Stop) -> &'static str {
    match s {
        Stop::Killed => "killed",
        Stop::Bound(_) => "bound",
        Stop::SolverUnknown => "solver-unknown",
        Stop::SolverError(_) => "solver-error",
        Stop::Unsupported(_) => "unsupported",
        Stop::Bug(_) => "bug",
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Timeout => write!(f, "timeout"),
            Reason::MemoryLimit(Some(mb)) => write!(f, "memory limit of {mb} MB reached"),
            Reason::MemoryLimit(None) => write!(f, "memory limit reached"),
            Reason::Interrupted => write!(f, "interrupted"),
            Reason::EnginesStopped(stops) => {
                let parts: Vec<String> = stops.iter().map(|(e, s)| format!("{e}: {s}")).collect();
                write!(f, "{}", parts.join("; "))
            }
            Reason::NotValidated(e) => write!(f, "could not validate: {e}"),
            Reason::ValidationFailed => write!(f, "validation failed"),
            Reason::Quantifiers(e) | Reason::SolverError(e) => write!(f, "{e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines are those `get-info :reason-unknown` printed before the reasons had a type.
    #[test]
    fn reasons_print_as_one_line_each() {
        assert_eq!(Reason::Timeout.to_string(), "timeout");
        assert_eq!(
            Reason::MemoryLimit(Some(300)).to_string(),
            "memory limit of 300 MB reached"
        );
        let stops = Reason::EnginesStopped(vec![
            (
                "tpa",
                Stop::Unsupported("tpa does not handle arrays".into()),
            ),
            ("pdr", Stop::Bug("the engine panicked".into())),
        ]);
        assert_eq!(
            stops.to_string(),
            "tpa: unsupported: tpa does not handle arrays; pdr: bug: the engine panicked"
        );
        assert_eq!(stops.kind(), "engines-stopped");
        assert_eq!(
            Reason::NotValidated("z3 said unknown".into()).to_string(),
            "could not validate: z3 said unknown"
        );
        assert_eq!(stop_kind(&Stop::Bug(String::new())), "bug");
    }
}
