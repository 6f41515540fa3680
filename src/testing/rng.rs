//! Small deterministic generators for the property tests: a failure reproduces from the
//! test's seed. [`SplitMix`] is splitmix64 (Steele, Lea, Flood, *Fast splittable
//! pseudorandom number generators*, OOPSLA 2014); [`XorShift`] is Marsaglia's xorshift64
//! (*Xorshift RNGs*, J. Stat. Softw. 2003); [`Lcg`] is Knuth's MMIX linear congruential
//! generator, its high bits.

/// What the tests draw: numbers below a bound, in a range, and coin flips.
pub trait Rng {
    fn next(&mut self) -> u64;

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// True with the given chance in percent.
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// splitmix64.
pub struct SplitMix(pub u64);

impl Rng for SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// xorshift64 (the seed must not be 0).
pub struct XorShift(pub u64);

impl Rng for XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A 64-bit linear congruential generator (Knuth's MMIX constants), its bits 33 and up.
pub struct Lcg(pub u64);

impl Rng for Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}
