//! Bit-vectors as the engines see them: a `w`-bit value is the `Int` in `[0, 2^w)` that its
//! bits write in binary (unsigned). The front-end pass `frontend/passes/bitvec/` rewrites
//! the input into this reading; [`Bitvecs`] is the way back, so that answers are written in
//! the input's sorts: models over `(_ BitVec w)` parameters, derivations with `#x`/`#b`
//! literals. See docs/bitvectors.md.

use num_bigint::BigInt;
use num_traits::{One, Zero};

/// `2^w`.
pub fn pow2(w: u32) -> BigInt {
    BigInt::one() << w as usize
}

/// The value and width of a literal atom `#x..` (4 bits a digit) or `#b..` (1 bit a digit).
pub fn parse_literal(a: &str) -> Option<(BigInt, u32)> {
    let (radix, bits, digits) = if let Some(d) = a.strip_prefix("#x") {
        (16, 4, d)
    } else if let Some(d) = a.strip_prefix("#b") {
        (2, 1, d)
    } else {
        return None;
    };
    if digits.is_empty() {
        return None;
    }
    let v = BigInt::parse_bytes(digits.as_bytes(), radix)?;
    Some((v, bits * digits.len() as u32))
}

/// The literal of value `v` (taken modulo `2^w`) of width `w`: `#x..` when `w` is a
/// multiple of 4, else `#b..`.
pub fn literal(v: &BigInt, w: u32) -> String {
    let m = pow2(w);
    let mut v = v % &m;
    if v < BigInt::zero() {
        v += &m;
    }
    if w.is_multiple_of(4) && w > 0 {
        let s = v.to_str_radix(16);
        format!("#x{}{s}", "0".repeat(w as usize / 4 - s.len()))
    } else {
        let s = v.to_str_radix(2);
        format!("#b{}{s}", "0".repeat((w as usize).saturating_sub(s.len())))
    }
}

/// The width of the sort text `(_ BitVec w)`, if it is one.
pub fn sort_width(s: &str) -> Option<u32> {
    let inner = s.strip_prefix('(')?.strip_suffix(')')?;
    let mut it = inner.split_whitespace();
    match (it.next(), it.next(), it.next(), it.next()) {
        (Some("_"), Some("BitVec"), Some(w), None) => w.parse().ok().filter(|&w| w > 0),
        _ => None,
    }
}

/// What was a bit-vector in the input: the width of each predicate argument (`None` for
/// the other sorts), by predicate index.
#[derive(Clone, Debug, Default)]
pub struct Bitvecs {
    pub preds: Vec<Vec<Option<u32>>>,
}

impl Bitvecs {
    /// Does predicate `p` have a bit-vector argument?
    pub fn changes(&self, p: usize) -> bool {
        self.preds
            .get(p)
            .is_some_and(|a| a.iter().any(Option::is_some))
    }

    /// The width of argument `i` of predicate `p`, if it was a bit-vector.
    pub fn width(&self, p: usize, i: usize) -> Option<u32> {
        self.preds.get(p).and_then(|a| a.get(i).copied().flatten())
    }

    /// The parameters of a model's `define-fun` over the input's sorts, and the `let`
    /// bindings (`(x (bv2nat x))`) that give the integers the body reads: `(params, binds)`.
    pub fn params(&self, p: usize, names: &[(String, String)]) -> (String, String) {
        let mut params = vec![];
        let mut binds = vec![];
        for (i, (n, sort)) in names.iter().enumerate() {
            match self.width(p, i) {
                Some(w) => {
                    params.push(format!("({n} (_ BitVec {w}))"));
                    binds.push(format!("({n} (bv2nat {n}))"));
                }
                None => params.push(format!("({n} {sort})")),
            }
        }
        (params.join(" "), binds.join(" "))
    }

    /// Argument `i` of predicate `p` with the integer value `v` as the input writes it.
    pub fn arg(&self, p: usize, i: usize, v: &crate::logic::Value) -> String {
        match (self.width(p, i), v) {
            (Some(w), crate::logic::Value::Int(n)) => literal(n, w),
            _ => v.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_read_and_print() {
        assert_eq!(parse_literal("#x0a"), Some((BigInt::from(10), 8)));
        assert_eq!(parse_literal("#b101"), Some((BigInt::from(5), 3)));
        assert_eq!(parse_literal("#x"), None);
        assert_eq!(parse_literal("#xg1"), None);
        assert_eq!(literal(&BigInt::from(10), 8), "#x0a");
        assert_eq!(literal(&BigInt::from(-1), 8), "#xff");
        assert_eq!(literal(&BigInt::from(5), 3), "#b101");
        assert_eq!(literal(&BigInt::from(1), 1), "#b1");
        assert_eq!(sort_width("(_ BitVec 32)"), Some(32));
        assert_eq!(sort_width("(_ BitVec 0)"), None);
        assert_eq!(sort_width("Int"), None);
    }
}
