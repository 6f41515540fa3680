//! Helpers for the property tests that build random terms (`logic::qe`, `interp`).

use super::*;

/// A small deterministic generator (64-bit LCG); no dependency for a test.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
}

/// The integer variable `name`.
pub fn iv(name: &str) -> Term {
    mk_var(name, Sort::Int)
}
