//! A parsed input as a script: the problems to solve, one per `check-sat` or `query`, and
//! the commands that print something after them (`get-model`, `get-info`), in order.

use crate::chc::ChcSystem;

/// The input language of a file, detected from the commands it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// CHC-COMP: `declare-fun`, `assert`, `check-sat`. `sat` means the clauses have a model.
    ChcComp,
    /// z3's fixedpoint format: `declare-rel`, `declare-var`, `rule`, `query`. A query asks
    /// whether a relation is reachable, so `sat` means a derivation exists: the opposite
    /// reading of CHC-COMP's `sat`.
    Fixedpoint,
}

/// A command that prints a line (or more).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Solve the next system of [`Script::systems`] and print the answer.
    Solve { line: usize },
    /// `(get-model)`: the model of the last answer, when it has one.
    GetModel { line: usize },
    /// `(get-info :flag)`; `flag` without its colon.
    GetInfo { flag: String, line: usize },
}

/// A parsed input.
#[derive(Debug)]
pub struct Script {
    pub format: Format,
    /// In input order; the k-th [`Command::Solve`] solves `systems[k]`.
    pub commands: Vec<Command>,
    /// One clause graph per `check-sat` or `query`: a fixedpoint query's system holds the
    /// rules stated before it and the query clause `P(x) => false`.
    pub systems: Vec<ChcSystem>,
}
