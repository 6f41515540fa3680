//! Shifts written back as shifts in printed models: by a variable amount, and by a constant
//! amount followed by `extract`.
//!
//! The front-end pass writes `bvshl`, `bvlshr` and `bvashr` of a `w`-bit value `x` by a
//! term `s` as one case per amount (`frontend/passes/bitvec/encode.rs`, `Enc::shift`):
//! `(ite (= s 0) x (ite (= s 1) (mod (* 2 x) 2^w) ... 0))` for `bvshl`, `(div x 2^c)` for
//! `bvlshr`, `(mod (div sx 2^c) 2^w)` of the signed value `sx` for `bvashr`. An engine's
//! invariant copies such a term from a clause, and a judge then has to prove that the
//! copy agrees with the input's `bvshl` on every input, case by case over `mod`s of large
//! constants against bit-blasted shifts: z3 could not decide that in 27 s for Solidity's
//! `shift_left_uint32.sol_5`, where the same model written with `bvshl` takes it 1 s.
//!
//! [`lifted_shifts`] finds those case chains in a term and gives each its bit-vector text,
//! `(bv2nat (bvshl X S))`, with `X` and `S` the bit-vector views of the operands: exactly
//! the same integer, for every value of the free variables, when both operands are values
//! in `[0, 2^w)`, which `Lifter::view` shows by their shape (a `mod 2^w`, a literal, an `ite` of
//! such, or a shift written back). A term it cannot show that for stays as it is. Once the
//! amount is a constant the chain is gone, and `((_ extract hi lo) (bvshl x c))` reads
//! `(div (mod (* 2^c x) 2^w) 2^lo)`: that is written back as `extract` of a `bvmul`. The judge
//! checks every printed model anyway; this only makes its checks decidable in time.

use super::pow2;
use crate::logic::{smt_text_with, Lin, Term, TermNode};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use rustc_hash::FxHashMap;

/// The shifts written back, by the uid of their integer term: the text that replaces it in
/// a printed term (for [`crate::logic::smt_text_with`]).
pub fn lifted_shifts(t: &Term) -> FxHashMap<u64, String> {
    let mut l = Lifter::default();
    let mut order = vec![];
    let mut seen = rustc_hash::FxHashSet::default();
    post_order(t, &mut seen, &mut order);
    for n in order {
        if let Some((op, w, x, s)) = shift_chain(&n) {
            let (Some(vx), Some(vs)) = (l.view(&x, w), l.view(&s, w)) else {
                continue;
            };
            let bv = format!("({op} {vx} {vs})");
            l.texts.insert(n.uid(), format!("(bv2nat {bv})"));
            l.bv.insert(n.uid(), (w, bv));
        } else if let Some((w, lo, c, x)) = high_bits_of_product(&n) {
            // a shift by a constant amount, then `extract`: the chain once the amount is
            // known (Solidity's `fixedbytes` index `b[i]` with `i` a constant)
            let Some(vx) = l.view(&x, w) else {
                continue;
            };
            let bv = format!("((_ extract {} {lo}) (bvmul (_ bv{c} {w}) {vx}))", w - 1);
            l.texts.insert(n.uid(), format!("(bv2nat {bv})"));
            l.bv.insert(n.uid(), (w - lo, bv));
        } else if let Some((w, c, x)) = ashr_by_constant(&n) {
            // an arithmetic shift once the amount is known
            let Some(vx) = l.view(&x, w) else {
                continue;
            };
            let bv = format!("(bvashr {vx} (_ bv{c} {w}))");
            l.texts.insert(n.uid(), format!("(bv2nat {bv})"));
            l.bv.insert(n.uid(), (w, bv));
        } else if let Some((w, bv)) = l.over_lifted(&n) {
            l.texts.insert(n.uid(), format!("(bv2nat {bv})"));
            l.bv.insert(n.uid(), (w, bv));
        }
    }
    l.texts
}

/// `t` as `(div (mod (* c x) 2^w) 2^lo)` with `0 < lo < w` and `1 < c < 2^w`: bits
/// `w-1..lo` of the `w`-bit product `c x`, as `(w, lo, c, x)`.
fn high_bits_of_product(t: &Term) -> Option<(u32, u32, BigInt, Term)> {
    let TermNode::Div(a, d) = t.get() else {
        return None;
    };
    let TermNode::Mod(p, m) = a.get() else {
        return None;
    };
    let (w, lo) = (log2(m)?, log2(d)?);
    let TermNode::Lin(Lin { terms, k }) = p.get() else {
        return None;
    };
    let [(x, c)] = terms.as_slice() else {
        return None;
    };
    let ok = k.is_zero() && lo > 0 && lo < w && *c > BigInt::one() && *c < pow2(w);
    ok.then(|| (w, lo, c.clone(), x.clone()))
}

/// `t` as `(mod (div sx 2^c) 2^w)` of the encoder's signed value `sx` of `x`, with
/// `0 < c < w`: the case of `bvashr`'s chain for the amount `c`, as `(w, c, x)`.
fn ashr_by_constant(t: &Term) -> Option<(u32, u32, Term)> {
    let TermNode::Mod(a, m) = t.get() else {
        return None;
    };
    let TermNode::Div(sx, d) = a.get() else {
        return None;
    };
    let (w, c) = (log2(m)?, log2(d)?);
    let TermNode::Ite(_, _, x) = sx.get() else {
        return None;
    };
    (c > 0 && c < w && signed_of(sx, x, w)).then(|| (w, c, x.clone()))
}

/// `k` when `n` is `2^k`.
fn log2(n: &BigInt) -> Option<u32> {
    let k = u32::try_from(n.bits()).ok()?.checked_sub(1)?;
    (*n == pow2(k)).then_some(k)
}

fn post_order(t: &Term, seen: &mut rustc_hash::FxHashSet<u64>, out: &mut Vec<Term>) {
    // iterative: model bodies can be deep
    let mut stack = vec![(t.clone(), false)];
    while let Some((n, done)) = stack.pop() {
        if done {
            out.push(n);
            continue;
        }
        if !seen.insert(n.uid()) {
            continue;
        }
        stack.push((n.clone(), true));
        if matches!(n.get(), TermNode::Exists(..)) {
            continue;
        }
        let mut kids = vec![];
        n.push_children_rev(&mut kids);
        for k in kids {
            if !seen.contains(&k.uid()) {
                stack.push((k.clone(), false));
            }
        }
    }
}

#[derive(Default)]
struct Lifter {
    /// The integer text of each lifted chain.
    texts: FxHashMap<u64, String>,
    /// Its width and bit-vector text.
    bv: FxHashMap<u64, (u32, String)>,
}

/// `x` when `(ite c a b)` is the encoder's `(-x) mod 2^w` of a `w`-bit `x`:
/// `(ite (= x 0) 0 (- 2^w x))` (`Enc::neg`, which `bvneg` and products by constants past
/// `2^(w-1)` become).
fn negation<'t>(c: &'t Term, a: &Term, b: &'t Term, m: &BigInt) -> Option<&'t Term> {
    let (TermNode::EqZ(z), TermNode::Int(zero), TermNode::Lin(d)) = (c.get(), a.get(), b.get())
    else {
        return None;
    };
    let ([(x, cx)], [(y, cy)]) = (z.terms.as_slice(), d.terms.as_slice()) else {
        return None;
    };
    let ok = zero.is_zero()
        && z.k.is_zero()
        && x.uid() == y.uid()
        && cx.abs().is_one()
        && (-cy).is_one()
        && d.k == *m;
    ok.then_some(y)
}

impl Lifter {
    /// The integer text of `t`, lifted chains written as theirs.
    fn text(&self, t: &Term) -> String {
        smt_text_with(t, &self.texts)
    }

    /// A `w`-bit term whose `bv2nat` is `t` for every value of its variables, when `t`'s
    /// shape shows that it lies in `[0, 2^w)`; `None` otherwise.
    fn view(&self, t: &Term, w: u32) -> Option<String> {
        if let Some((v, bv)) = self.bv.get(&t.uid()) {
            return (*v == w).then(|| bv.clone());
        }
        let m = pow2(w);
        match t.get() {
            TermNode::Int(n) if !n.is_negative() && *n < m => Some(format!("(_ bv{n} {w})")),
            TermNode::Ite(c, a, b) => {
                if let Some(x) = negation(c, a, b, &m) {
                    return Some(format!("(bvneg {})", self.view(x, w)?));
                }
                let (va, vb) = (self.view(a, w)?, self.view(b, w)?);
                Some(format!("(ite {} {va} {vb})", self.text(c)))
            }
            TermNode::Mod(a, d) if *d == m => Some(self.wrapped(a, w)),
            _ => None,
        }
    }

    /// A term over a shift already written back, `T` of width `w`, as the width and text of
    /// the same value in bit-vectors: `(mod (* c T) 2^w)` as `(bvmul c T)` and
    /// `(div T 2^lo)` as `((_ extract w-1 lo) T)` and the encoder's `(-T) mod 2^w` as
    /// `(bvneg T)`, the forms in which Solidity's SMTChecker reads a signed result (its sign
    /// bit, and `bvmul` by -1 of a negative one).
    /// Both are the same integer for every `w`-bit `T`. Other terms: `None`.
    fn over_lifted(&self, t: &Term) -> Option<(u32, String)> {
        match t.get() {
            TermNode::Mod(a, d) => {
                let TermNode::Lin(Lin { terms, k }) = a.get() else {
                    return None;
                };
                let ([(x, c)], true) = (terms.as_slice(), k.is_zero()) else {
                    return None;
                };
                let (w, bx) = self.bv.get(&x.uid())?;
                let m = pow2(*w);
                let c = ((c % &m) + &m) % &m;
                (*d == m && !c.is_one()).then(|| (*w, format!("(bvmul (_ bv{c} {w}) {bx})")))
            }
            TermNode::Ite(c, a, b) => {
                let TermNode::Lin(Lin { terms, .. }) = b.get() else {
                    return None;
                };
                let [(x, _)] = terms.as_slice() else {
                    return None;
                };
                let (w, bx) = self.bv.get(&x.uid())?;
                negation(c, a, b, &pow2(*w)).map(|_| (*w, format!("(bvneg {bx})")))
            }
            TermNode::Div(x, d) => {
                let (w, bx) = self.bv.get(&x.uid())?;
                let lo = log2(d).filter(|lo| *lo > 0 && lo < w)?;
                Some((w - lo, format!("((_ extract {} {lo}) {bx})", w - 1)))
            }
            _ => None,
        }
    }

    /// The `w`-bit term of `a mod 2^w`: a product by a constant as `bvmul` (as the input's
    /// `bvmul` by a literal is written), anything else as `int2bv` (which takes its argument
    /// modulo `2^w`).
    fn wrapped(&self, a: &Term, w: u32) -> String {
        if let TermNode::Lin(Lin { terms, k }) = a.get() {
            if let ([(x, c)], true) = (terms.as_slice(), k.is_zero()) {
                let m = pow2(w);
                let c = ((c % &m) + &m) % &m;
                if let Some(vx) = self.view(x, w).filter(|_| !c.is_one()) {
                    return format!("(bvmul (_ bv{c} {w}) {vx})");
                }
            }
        }
        format!("((_ int2bv {w}) {})", self.text(a))
    }
}

/// `t` as a shift by a variable amount in the encoder's case chain: the operator, the
/// width, the shifted term and the amount.
fn shift_chain(t: &Term) -> Option<(&'static str, u32, Term, Term)> {
    let mut cases = vec![];
    let mut s: Option<Term> = None;
    let mut rest = t.clone();
    while let TermNode::Ite(c, a, b) = rest.get() {
        let Some((amount, k)) = equals_constant(c) else {
            break;
        };
        if s.as_ref().is_some_and(|s| *s != amount) || k != BigInt::from(cases.len()) {
            break;
        }
        s = Some(amount);
        cases.push(a.clone());
        let next = b.clone();
        rest = next;
    }
    let w = u32::try_from(cases.len()).ok().filter(|&w| w >= 2)?;
    let (s, x) = (s?, cases[0].clone());
    let m = pow2(w);
    let is = |t: &Term, expected: &dyn Fn(&TermNode) -> bool| expected(t.get());
    // bvshl: `2^c x mod 2^w`, 0 past the width
    let shl = (1..w).all(|c| {
        is(&cases[c as usize], &|n| match n {
            TermNode::Mod(a, d) if *d == m => times(a, &x) == Some(pow2(c)),
            _ => false,
        })
    }) && is_zero(&rest);
    if shl {
        return Some(("bvshl", w, x, s));
    }
    // bvlshr: `x div 2^c`, 0 past the width
    let lshr = (1..w).all(|c| {
        is(
            &cases[c as usize],
            &|n| matches!(n, TermNode::Div(a, d) if *a == x && *d == pow2(c)),
        )
    }) && is_zero(&rest);
    if lshr {
        return Some(("bvlshr", w, x, s));
    }
    // bvashr: `(sx div 2^c) mod 2^w` of the signed value `sx` of `x`; past the width, all
    // ones when `x` is negative, else 0
    let sx = match cases[1].get() {
        TermNode::Mod(a, d) if *d == m => match a.get() {
            TermNode::Div(sx, two) if *two == pow2(1) => sx.clone(),
            _ => return None,
        },
        _ => return None,
    };
    let ashr = signed_of(&sx, &x, w)
        && (1..w).all(|c| {
            is(&cases[c as usize], &|n| match n {
                TermNode::Mod(a, d) if *d == m => {
                    matches!(a.get(), TermNode::Div(b, e) if *b == sx && *e == pow2(c))
                }
                _ => false,
            })
        })
        && sign_fill(&rest, &x, w);
    ashr.then_some(("bvashr", w, x, s))
}

/// `c` as `s = k` for an integer term `s` and a constant `k`.
fn equals_constant(c: &Term) -> Option<(Term, BigInt)> {
    let TermNode::EqZ(Lin { terms, k }) = c.get() else {
        return None;
    };
    let [(s, a)] = terms.as_slice() else {
        return None;
    };
    // a s + k = 0
    if a.is_one() {
        Some((s.clone(), -k))
    } else if (-a).is_one() {
        Some((s.clone(), k.clone()))
    } else {
        None
    }
}

/// The constant `c` when `a` is `c x`.
fn times(a: &Term, x: &Term) -> Option<BigInt> {
    match a.get() {
        TermNode::Lin(Lin { terms, k }) if k.is_zero() => match terms.as_slice() {
            [(y, c)] if y == x => Some(c.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn is_zero(t: &Term) -> bool {
    matches!(t.get(), TermNode::Int(n) if n.is_zero())
}

/// Is `sx` the encoder's signed value of `x`: `(ite (>= x 2^(w-1)) (- x 2^w) x)`?
fn signed_of(sx: &Term, x: &Term, w: u32) -> bool {
    let TermNode::Ite(c, a, b) = sx.get() else {
        return false;
    };
    b == x && negative(c, x, w) && {
        matches!(a.get(), TermNode::Lin(Lin { terms, k })
            if *k == -pow2(w) && matches!(terms.as_slice(), [(y, one)] if y == x && one.is_one()))
    }
}

/// Is `c` the test `x >= 2^(w-1)`, as the term layer writes it (`2^(w-1) - x <= 0`)?
fn negative(c: &Term, x: &Term, w: u32) -> bool {
    matches!(c.get(), TermNode::Le(Lin { terms, k })
        if *k == pow2(w - 1) && matches!(terms.as_slice(), [(y, a)] if y == x && (-a).is_one()))
}

/// Is `t` `(ite (>= x 2^(w-1)) 2^w-1 0)`, the arithmetic shift past the width?
fn sign_fill(t: &Term, x: &Term, w: u32) -> bool {
    let TermNode::Ite(c, a, b) = t.get() else {
        return false;
    };
    negative(c, x, w)
        && matches!(a.get(), TermNode::Int(n) if *n == pow2(w) - BigInt::one())
        && is_zero(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{free_vars, SmtTerm};
    use crate::smt::{find_solver, SolverKind};

    /// The constraint of the fact of an input that defines `r` as `(op x s)` of width `w`,
    /// as the front-end writes it (with the encoder's case chain); `x` is converted as
    /// Solidity's SMTChecker converts a signed value (`ite` on its sign, `bvmul` by -1),
    /// the amount is `3 s`. With `signed`, the result is read as Solidity reads a signed
    /// one: by its sign bit, and `bvmul` by -1 when negative.
    fn encoded(op: &str, w: u32, signed: bool) -> Term {
        let ones = pow2(w) - 1;
        let x = format!(
            "(ite (>= x 0) ((_ int_to_bv {w}) x) (bvmul (_ bv{ones} {w}) ((_ int_to_bv {w}) (- x))))"
        );
        let term = match op.strip_prefix("extract ") {
            // a shift by a constant (`op` is `extract HI LO BY`), then `extract`
            Some(args) => {
                let a: Vec<&str> = args.split(' ').collect();
                format!(
                    "((_ extract {} {}) (bvshl {x} (_ bv{} {w})))",
                    a[0], a[1], a[2]
                )
            }
            None => match op.strip_prefix("bvashr by ") {
                // an arithmetic shift by a constant amount
                Some(by) => format!("(bvashr {x} (_ bv{by} {w}))"),
                None => format!("({op} {x} (bvmul (_ bv3 {w}) ((_ int_to_bv {w}) s)))"),
            },
        };
        let value = if signed {
            format!(
                "(ite (= ((_ extract {h} {h}) {term}) #b0) (ubv_to_int {term}) \
                 (* (- 1) (ubv_to_int (bvmul (_ bv{ones} {w}) {term}))))",
                h = w - 1
            )
        } else {
            format!("(ubv_to_int {term})")
        };
        let text = format!(
            "(set-logic HORN)
(declare-fun P (Int Int Int) Bool)
(assert (forall ((x Int) (s Int) (r Int))
  (=> (= r {value}) (P x s r))))
(assert (forall ((x Int) (s Int) (r Int)) (=> (and (P x s r) (< r 0)) false)))
"
        );
        let sys = crate::frontend::parse::parse_str(&text).unwrap_or_else(|e| panic!("{e}"));
        let fact = sys.clauses.iter().find(|c| c.head.is_some());
        fact.expect("the fact").constraint.clone()
    }

    /// Every shift by a variable amount is written back as that shift, and z3 proves the
    /// written-back term equal to the encoder's for every integer value of the variables
    /// (outside `[0, 2^w)` too) for widths 2 to 5 (wider ones take z3 minutes).
    #[test]
    fn shift_chains_are_written_back_as_the_same_shifts() {
        let z3 = match find_solver(SolverKind::Z3, None) {
            Ok(p) => p,
            Err(e) => return crate::testing::skip(&e),
        };
        let mut script = String::new();
        let mut cases = vec![];
        let mut ops = vec![];
        for w in [2, 3, 4, 5, 8, 32, 256] {
            for op in ["bvshl", "bvlshr", "bvashr"] {
                ops.push((w, op.to_string(), format!("({op} ")));
            }
        }
        // shifts by a constant, then `extract HI LO`
        for (w, hi, lo, by) in [(4, 3, 2, 1), (5, 4, 1, 2), (6, 5, 3, 3), (80, 79, 72, 40)] {
            ops.push((
                w,
                format!("extract {hi} {lo} {by}"),
                format!("(_ extract {hi} {lo})"),
            ));
        }
        // arithmetic shifts by a constant amount
        for (w, by) in [(4, 1), (5, 3), (256, 2)] {
            ops.push((w, format!("bvashr by {by}"), "(bvashr ".to_string()));
        }
        // results read as signed values: the sign bit and `bvmul` by -1 over the shift (which
        // the encoder writes as a negation)
        for w in [2, 3, 4, 5, 8, 256] {
            for op in ["bvshl", "bvashr"] {
                ops.push((
                    w,
                    format!("signed {op}"),
                    format!("(_ extract {0} {0}) & (bvneg ({op} ", w - 1),
                ));
            }
        }
        for (w, op, written) in ops {
            let (t, lifts) = match op.strip_prefix("signed ") {
                Some(op) => (encoded(op, w, true), 3),
                None => (encoded(&op, w, false), 1),
            };
            let lifted = lifted_shifts(&t);
            // (a `bvashr` chain's cases are shifts by constants, written back on their own)
            assert!(lifted.len() >= lifts, "{op} of width {w}: {}", SmtTerm(&t));
            let back = smt_text_with(&t, &lifted);
            for part in written.split(" & ") {
                assert!(
                    back.contains(part),
                    "{op} of width {w}: no {part} in {back}"
                );
            }
            if w > 6 {
                continue;
            }
            let decls: String = free_vars(&t)
                .iter()
                .map(|v| format!("(declare-fun {} () Int)\n", v.name))
                .collect();
            script.push_str(&format!(
                "(push)\n{decls}(assert (not (= {} {back})))\n(check-sat)\n(pop)\n",
                SmtTerm(&t)
            ));
            cases.push(format!("{op} of width {w}"));
        }
        let out = crate::testing::z3_output(&z3, &script, 60);
        let answers: Vec<&str> = out.lines().map(str::trim).collect();
        assert_eq!(answers.len(), cases.len(), "{out}");
        for (case, a) in cases.iter().zip(answers) {
            assert_eq!(a, "unsat", "{case}: the written-back term differs");
        }
    }

    /// The length of the s-expression at the start of `s`.
    fn sexp_len(s: &str) -> usize {
        let mut depth = 0;
        for (i, ch) in s.char_indices() {
            match ch {
                '(' => depth += 1,
                ')' if depth == 1 => return i + 1,
                ')' => depth -= 1,
                _ => {}
            }
        }
        s.len()
    }

    /// A case chain whose shifted value is not known to be a `w`-bit value (a bare
    /// variable, which may be negative or past `2^w`) stays as it is.
    #[test]
    fn a_chain_over_a_value_out_of_range_stays() {
        let t = encoded("bvshl", 4, false);
        let lifted = lifted_shifts(&t);
        assert_eq!(lifted.len(), 1);
        // the same chain over `x` itself
        let text = SmtTerm(&t).to_string();
        let x = text.find("(ite (<= 0 x)").expect("the value shifted");
        let text = text.replacen(&text[x..x + sexp_len(&text[x..])], "x", usize::MAX);
        assert!(text.contains("(* 2 x)"), "{text}");
        let sys = crate::frontend::parse::parse_str(&format!(
            "(set-logic HORN)
(declare-fun P (Int Int Int) Bool)
(assert (forall ((x Int) (s Int) (r Int)) (=> {text} (P x s r))))
(assert (forall ((x Int) (s Int) (r Int)) (=> (and (P x s r) (< r 0)) false)))
"
        ))
        .unwrap_or_else(|e| panic!("{e}"));
        let fact = sys
            .clauses
            .iter()
            .find(|c| c.head.is_some())
            .expect("the fact");
        assert!(
            lifted_shifts(&fact.constraint).is_empty(),
            "{}",
            SmtTerm(&fact.constraint)
        );
    }
}
