//! chcsolve: a solver for constrained Horn clauses over linear integer arithmetic.
//!
//! Call [`solve_str`] with a CHC-COMP problem; the [`Outcome`] holds a [`Verdict`] that the
//! independent [`validate`] module has checked against the original clauses.

pub mod answer;
pub mod engine;
pub mod frontend;
pub mod interp;
pub mod logic;
pub mod portfolio;
pub mod schedule;
pub mod smt;
pub mod solve;
pub mod spacer;
pub mod ts;
pub mod validate;
pub mod witness;

pub use solve::{
    solve_each, solve_str, solve_system, Options, Outcome, SolveError, Stats, Verdict,
};
