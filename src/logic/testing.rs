//! Helpers for the property tests that build random terms (`logic::qe`, `interp`).

use super::*;

/// The generator of these tests (a 64-bit LCG, [`crate::testing::rng::Lcg`]); the trait
/// [`crate::testing::rng::Rng`] gives its methods.
pub use crate::testing::rng::Lcg as Rng;

/// The integer variable `name`.
pub fn iv(name: &str) -> Term {
    mk_var(name, Sort::Int)
}
