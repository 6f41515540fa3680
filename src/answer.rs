//! What chcsolve prints for each command of a script: the answer line in the reading of the
//! input's format, and the output of `get-model` and `get-info` after it.

use crate::chc::ChcSystem;
use crate::frontend::{Command, Format};
use crate::Verdict;

/// The answer line: CHC-COMP's reading (`sat`: the clauses have a model), or z3's reading
/// of a fixedpoint query (`sat`: the queried relation is reachable), the opposite one.
pub fn answer_line(format: Format, v: &Verdict) -> &'static str {
    // by the word, so that every kind of unsat answer (also an accelerated one) is flipped
    match (format, v.word()) {
        (Format::Fixedpoint, "sat") => "unsat",
        (Format::Fixedpoint, "unsat") => "sat",
        (_, w) => w,
    }
}

/// An SMT-LIB string literal.
fn string(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\"").replace(['\n', '\r'], " "))
}

/// The output of a `get-model` or `get-info` after the last answer (`None` before any):
/// the model when there is one (a clause-graph model: after CHC-COMP's `sat`, after a
/// query's `unsat`), else an `(error ...)` line as z3 prints it.
pub fn command_output(cmd: &Command, last: Option<(&ChcSystem, &Verdict)>) -> String {
    match cmd {
        Command::Solve { .. } => String::new(),
        Command::GetModel { line } => match last {
            Some((sys, Verdict::Sat(m))) => crate::witness::model_to_smtlib(sys, m),
            _ => format!("(error \"line {line}: model is not available\")"),
        },
        Command::GetInfo { flag, .. } => match flag.as_str() {
            "reason-unknown" => {
                let why = match last {
                    Some((_, Verdict::Unknown(why))) => why.to_string(),
                    Some(_) => String::new(),
                    None => "no check-sat or query yet".into(),
                };
                format!("(:reason-unknown {})", string(&why))
            }
            "name" => "(:name \"chcsolve\")".into(),
            "version" => format!("(:version {})", string(env!("CARGO_PKG_VERSION"))),
            _ => "unsupported".into(),
        },
    }
}
