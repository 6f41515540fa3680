//! The fields Karr's analysis runs over ([`super::karr`]): the rationals, for affine
//! equalities, and the integers modulo a prime `P`, for affine congruences modulo `P`
//! (parity relations such as `x + y = 1 mod 2`, which survive whatever variables
//! preprocessing chose to eliminate, unlike the per-argument congruences of
//! [`super::congruence`]).

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational as Q;
use num_traits::{One, ToPrimitive, Zero};
use std::fmt::Debug;

/// A field with exact arithmetic.
pub trait Field: Clone + Debug + PartialEq + Eq {
    fn zero() -> Self;
    fn one() -> Self;
    fn is_zero(&self) -> bool;
    fn of_int(k: &BigInt) -> Self;
    fn add(&self, o: &Self) -> Self;
    fn sub(&self, o: &Self) -> Self;
    fn mul(&self, o: &Self) -> Self;
    fn neg(&self) -> Self {
        Self::zero().sub(self)
    }
    /// The inverse of a nonzero element.
    fn recip(&self) -> Self;
}

impl Field for Q {
    fn zero() -> Self {
        Zero::zero()
    }
    fn one() -> Self {
        One::one()
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn of_int(k: &BigInt) -> Self {
        Q::from_integer(k.clone())
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    fn recip(&self) -> Self {
        Q::recip(self)
    }
}

/// An integer modulo the prime `P` (kept in `0..P`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fp<const P: u64>(u64);

impl<const P: u64> Fp<P> {
    /// Its representative in `0..P`.
    pub fn value(&self) -> u64 {
        self.0
    }
}

impl<const P: u64> Field for Fp<P> {
    fn zero() -> Self {
        Fp(0)
    }
    fn one() -> Self {
        Fp(1 % P)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0
    }
    fn of_int(k: &BigInt) -> Self {
        let r = k.mod_floor(&BigInt::from(P));
        Fp(r.to_u64().expect("a remainder in 0..P"))
    }
    fn add(&self, o: &Self) -> Self {
        Fp((self.0 + o.0) % P)
    }
    fn sub(&self, o: &Self) -> Self {
        Fp((self.0 + P - o.0) % P)
    }
    fn mul(&self, o: &Self) -> Self {
        Fp(((self.0 as u128 * o.0 as u128) % P as u128) as u64)
    }
    /// Fermat: `x^(P-2)`.
    fn recip(&self) -> Self {
        assert!(self.0 != 0, "the inverse of zero");
        let (mut base, mut e, mut acc) = (*self, P - 2, Fp::<P>::one());
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.mul(&base);
            }
            base = base.mul(&base);
            e >>= 1;
        }
        acc
    }
}
