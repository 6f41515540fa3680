//! Bit-vectors as the engines see them: a `w`-bit value is the `Int` in `[0, 2^w)` that its
//! bits write in binary (unsigned). The front-end pass `frontend/passes/bitvec/` rewrites
//! the input into this reading; [`Bitvecs`] is the way back, so that answers are written in
//! the input's sorts: models over `(_ BitVec w)` parameters, derivations with `#x`/`#b`
//! literals. See docs/bitvectors.md.

use num_bigint::BigInt;
use num_traits::{One, Zero};

mod lift;
pub use lift::lifted_shifts;

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

/// The widest bit-vector the front-end reads: a `w`-bit value's range is the constant `2^w`,
/// which for widths past this costs more to write than any solver query could use (the
/// CHC-COMP tracks use at most 256). Wider sorts and terms are refused with an error.
pub const MAX_WIDTH: u64 = 1 << 16;

/// `w` as a width, or the error for a width of 0 or past [`MAX_WIDTH`].
pub fn checked_width(w: u64) -> Result<u32, String> {
    if w == 0 || w > MAX_WIDTH {
        Err(format!(
            "unsupported bit-vector width {w}: widths from 1 to {MAX_WIDTH} are read"
        ))
    } else {
        Ok(w as u32)
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

/// Does `t` hold a `div` or `mod`?
pub fn divides(t: &crate::logic::Term) -> bool {
    use crate::logic::TermNode;
    crate::logic::has_subterm(t, |n| matches!(n, TermNode::Div(..) | TermNode::Mod(..)))
}

/// A model's body (over integer parameters that were bit-vectors, of the widths `widths`
/// gives by name) written in bit-vector terms, so that a solver checks it without mixing
/// theories: integers are bit-vectors of one width `W` wide enough that no subterm
/// overflows as a signed value (`bvadd`, `bvmul` by constants, `bvsle`, `bvsmod` and
/// `bvsdiv` by constants for `mod` and `div`), parameters zero-extended to `W`. `None` when
/// the body holds other sorts or operators (the caller then binds `bv2nat` of the
/// parameters).
pub fn body_in_bitvectors(
    t: &crate::logic::Term,
    widths: &rustc_hash::FxHashMap<String, u32>,
) -> Option<String> {
    let mut max = BigInt::one();
    formula_bound(t, widths, &mut max)?;
    let w = max.bits() as u32 + 2;
    let mut out = String::new();
    formula_bv(t, widths, w, &mut out)?;
    Some(out)
}

/// Checks that formula `t` can be written in bit-vectors; raises `max` to the bound of
/// every integer subterm.
fn formula_bound(
    t: &crate::logic::Term,
    widths: &rustc_hash::FxHashMap<String, u32>,
    max: &mut BigInt,
) -> Option<()> {
    use crate::logic::{Sort, TermNode};
    match t.get() {
        TermNode::Bool(_) => Some(()),
        TermNode::Var(v) => (v.sort == Sort::Bool).then_some(()),
        TermNode::Not(a) => formula_bound(a, widths, max),
        TermNode::And(xs) | TermNode::Or(xs) => {
            xs.iter().try_for_each(|x| formula_bound(x, widths, max))
        }
        TermNode::Iff(a, b) => {
            formula_bound(a, widths, max)?;
            formula_bound(b, widths, max)
        }
        TermNode::Ite(c, a, b) => {
            formula_bound(c, widths, max)?;
            formula_bound(a, widths, max)?;
            formula_bound(b, widths, max)
        }
        TermNode::Le(l) | TermNode::EqZ(l) => lin_bound(l, widths, max).map(|_| ()),
        _ => None,
    }
}

fn lin_bound(
    l: &crate::logic::Lin,
    widths: &rustc_hash::FxHashMap<String, u32>,
    max: &mut BigInt,
) -> Option<BigInt> {
    let mut b = num_traits::Signed::abs(&l.k);
    for (x, c) in &l.terms {
        b += num_traits::Signed::abs(c) * int_bound(x, widths, max)?;
    }
    if b > *max {
        *max = b.clone();
    }
    Some(b)
}

/// A bound on the absolute value of integer term `t` (and on its subterms, into `max`).
fn int_bound(
    t: &crate::logic::Term,
    widths: &rustc_hash::FxHashMap<String, u32>,
    max: &mut BigInt,
) -> Option<BigInt> {
    use crate::logic::TermNode;
    let b = match t.get() {
        TermNode::Var(v) => pow2(*widths.get(&*v.name)?),
        TermNode::Int(n) => num_traits::Signed::abs(n),
        TermNode::Lin(l) => lin_bound(l, widths, max)?,
        TermNode::Ite(c, a, b) => {
            formula_bound(c, widths, max)?;
            int_bound(a, widths, max)?.max(int_bound(b, widths, max)?)
        }
        // `t - t mod c` is computed on the way to `div`
        TermNode::Div(a, c) | TermNode::Mod(a, c) => {
            int_bound(a, widths, max)? + num_traits::Signed::abs(c)
        }
        _ => return None,
    };
    if b > *max {
        *max = b.clone();
    }
    Some(b)
}

fn formula_bv(
    t: &crate::logic::Term,
    widths: &rustc_hash::FxHashMap<String, u32>,
    w: u32,
    out: &mut String,
) -> Option<()> {
    use crate::logic::TermNode;
    use std::fmt::Write;
    if out.len() > 1 << 20 {
        return None;
    }
    let list = |out: &mut String, h: &str, xs: &[&crate::logic::Term]| {
        let _ = write!(out, "({h}");
        for x in xs {
            out.push(' ');
            formula_bv(x, widths, w, out)?;
        }
        out.push(')');
        Some(())
    };
    match t.get() {
        TermNode::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        TermNode::Var(v) => out.push_str(&crate::logic::smt_symbol(&v.name)),
        TermNode::Not(a) => list(out, "not", &[a])?,
        TermNode::And(xs) if xs.is_empty() => out.push_str("true"),
        TermNode::Or(xs) if xs.is_empty() => out.push_str("false"),
        TermNode::And(xs) => list(out, "and", &xs.iter().collect::<Vec<_>>())?,
        TermNode::Or(xs) => list(out, "or", &xs.iter().collect::<Vec<_>>())?,
        TermNode::Iff(a, b) => list(out, "=", &[a, b])?,
        TermNode::Ite(c, a, b) => list(out, "ite", &[c, a, b])?,
        TermNode::Le(l) => {
            out.push_str("(bvsle ");
            lin_bv(l, widths, w, out)?;
            let _ = write!(out, " {})", literal(&BigInt::zero(), w));
        }
        TermNode::EqZ(l) => {
            out.push_str("(= ");
            lin_bv(l, widths, w, out)?;
            let _ = write!(out, " {})", literal(&BigInt::zero(), w));
        }
        _ => return None,
    }
    Some(())
}

fn lin_bv(
    l: &crate::logic::Lin,
    widths: &rustc_hash::FxHashMap<String, u32>,
    w: u32,
    out: &mut String,
) -> Option<()> {
    if l.terms.is_empty() {
        out.push_str(&literal(&l.k, w));
        return Some(());
    }
    let n = l.terms.len() + usize::from(!l.k.is_zero());
    if n > 1 {
        out.push_str("(bvadd");
    }
    for (x, c) in &l.terms {
        if n > 1 {
            out.push(' ');
        }
        if c.is_one() {
            int_bv(x, widths, w, out)?;
        } else {
            out.push_str(&format!("(bvmul {} ", literal(c, w)));
            int_bv(x, widths, w, out)?;
            out.push(')');
        }
    }
    if !l.k.is_zero() {
        out.push(' ');
        out.push_str(&literal(&l.k, w));
    }
    if n > 1 {
        out.push(')');
    }
    Some(())
}

fn int_bv(
    t: &crate::logic::Term,
    widths: &rustc_hash::FxHashMap<String, u32>,
    w: u32,
    out: &mut String,
) -> Option<()> {
    use crate::logic::TermNode;
    match t.get() {
        TermNode::Var(v) => {
            let vw = *widths.get(&*v.name)?;
            let name = crate::logic::smt_symbol(&v.name);
            out.push_str(&format!("((_ zero_extend {}) {name})", w - vw));
        }
        TermNode::Int(n) => out.push_str(&literal(n, w)),
        TermNode::Lin(l) => lin_bv(l, widths, w, out)?,
        TermNode::Ite(c, a, b) => {
            out.push_str("(ite ");
            formula_bv(c, widths, w, out)?;
            out.push(' ');
            int_bv(a, widths, w, out)?;
            out.push(' ');
            int_bv(b, widths, w, out)?;
            out.push(')');
        }
        TermNode::Mod(a, c) => {
            // for a positive divisor, `bvsmod` is the remainder in [0, c) like `mod`
            let c = literal(&num_traits::Signed::abs(c), w);
            out.push_str("(bvsmod ");
            int_bv(a, widths, w, out)?;
            out.push_str(&format!(" {c})"));
        }
        TermNode::Div(a, c) => {
            // floor division: exact division of `a - a mod |c|`, negated for `c < 0`
            let neg = num_traits::Signed::is_negative(c);
            let c = literal(&num_traits::Signed::abs(c), w);
            let mut x = String::new();
            int_bv(a, widths, w, &mut x)?;
            let q = format!("(bvsdiv (bvsub {x} (bvsmod {x} {c})) {c})");
            if neg {
                out.push_str(&format!("(bvneg {q})"));
            } else {
                out.push_str(&q);
            }
        }
        _ => return None,
    }
    Some(())
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

    /// Random bodies over two 3-bit parameters (linear, `mod`, `div`, `ite`) written in
    /// bit-vector terms hold at exactly the points where the integer body does, z3
    /// evaluating the bit-vector ones.
    #[test]
    fn bodies_in_bitvectors_agree_with_the_integer_bodies() {
        use crate::logic::{eval_bool, mk_add, mk_ge, mk_ite, mk_le, mk_mod, mk_var, Sort};
        use crate::logic::{mk_div, mk_eq, mk_int, mk_mul_const, mk_not, Assignment, Var};
        let z3_path = match crate::smt::find_solver(crate::smt::SolverKind::Z3, None) {
            Ok(p) => p,
            Err(e) => return crate::testing::skip(&e),
        };
        let (x, y) = (mk_var("x", Sort::Int), mk_var("y", Sort::Int));
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut below = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as i64
        };
        let widths: rustc_hash::FxHashMap<String, u32> =
            [("x".to_string(), 3), ("y".to_string(), 3)]
                .into_iter()
                .collect();
        let mut cases = vec![];
        for _ in 0..60 {
            let atom = |b: &mut dyn FnMut(u64) -> i64| {
                let v = if b(2) == 0 { x.clone() } else { y.clone() };
                match b(4) {
                    0 => mk_mod(v, BigInt::from(b(5) + 2)),
                    1 => mk_div(v, BigInt::from(b(7) - 3).max(BigInt::from(1))),
                    2 => mk_mul_const(&BigInt::from(b(9) - 4), v),
                    _ => v,
                }
            };
            let a = atom(&mut below);
            let b = atom(&mut below);
            let sum = mk_add(vec![a.clone(), b, mk_int(below(11) - 5)]);
            let f = match below(4) {
                0 => mk_le(sum, mk_int(below(9) - 4)),
                1 => mk_eq(sum, mk_int(below(5))),
                2 => mk_not(mk_ge(
                    mk_ite(mk_le(a, mk_int(2)), sum, x.clone()),
                    y.clone(),
                )),
                _ => mk_ge(mk_mod(sum, BigInt::from(below(3) + 2)), mk_int(1)),
            };
            let bv = body_in_bitvectors(&f, &widths).expect("a body in bit-vectors");
            for (vx, vy) in [(0, 0), (7, 3), (4, 5), (1, 6), (3, 7), (6, 2)] {
                let mut m = Assignment::default();
                for (n, v) in [("x", vx), ("y", vy)] {
                    let var = Var {
                        name: n.into(),
                        sort: Sort::Int,
                    };
                    m.insert(var, crate::logic::Value::Int(v.into()));
                }
                let want = eval_bool(&f, &m).unwrap();
                let script = format!(
                    "(simplify (let ((x {}) (y {})) {bv}))\n",
                    literal(&BigInt::from(vx), 3),
                    literal(&BigInt::from(vy), 3)
                );
                cases.push((script, want, f.clone()));
            }
        }
        let all: String = cases.iter().map(|c| c.0.as_str()).collect();
        let got: Vec<String> = crate::testing::z3_output(&z3_path, &all, 20)
            .lines()
            .map(|l| l.trim().to_string())
            .collect();
        assert_eq!(got.len(), cases.len(), "{got:?}");
        for ((script, want, f), g) in cases.iter().zip(&got) {
            assert_eq!(g, if *want { "true" } else { "false" }, "{f:?}: {script}");
        }
    }
}
