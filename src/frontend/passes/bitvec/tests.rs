//! The bit-vector pass: its errors, and a property test: random terms of every operator,
//! over variables of widths 1 to 8 with random values, have as integer rewriting the value
//! z3 gives the original (and not any other value), z3 deciding both.

use super::eliminate;
use crate::frontend::parse::split_commands;
use crate::logic::bitvec::{literal, parse_literal};
use crate::smt::{find_solver, SolverKind};
use num_bigint::BigInt;

fn run(text: &str) -> Result<String, String> {
    let cmds = split_commands(text.as_bytes()).map_err(|e| e.to_string())?;
    eliminate(text, &cmds, &[])
        .map(|e| e.text)
        .map_err(|e| e.to_string())
}

#[test]
fn bitvectors_become_bounded_integers_with_the_same_lines() {
    let text = "(set-logic HORN)
(declare-fun P ((_ BitVec 8) Int) Bool)
(assert (forall ((x (_ BitVec 8)) (n Int))
  (=> (P x n) (P (bvadd x #x01) (+ n 1)))))
(check-sat)";
    let out = run(text).unwrap();
    assert_eq!(out.lines().count(), text.lines().count());
    assert!(out.contains("(declare-fun P (Int Int) Bool)"), "{out}");
    assert!(
        out.contains("(=> (and (<= 0 x) (< x 256) (P x n)) (P (let ((!bv1 (+ x 1))) (ite (>= !bv1 256) (- !bv1 256) !bv1)) (+ n 1)))"),
        "{out}"
    );
}

#[test]
fn bad_bitvector_terms_are_errors_with_their_line() {
    let mixed = "(declare-fun P ((_ BitVec 8)) Bool)\n(assert (forall ((x (_ BitVec 8)) (y (_ BitVec 4))) (=> (P (bvadd x y)) false)))";
    let e = run(mixed).unwrap_err();
    assert!(e.contains("line 2") && e.contains("one width"), "{e}");
    let arrays = "(declare-fun P ((Array Int (_ BitVec 8))) Bool)";
    assert!(run(arrays).unwrap_err().contains("inside arrays"));
    let unknown = "(declare-fun P ((_ BitVec 8)) Bool)\n(assert (forall ((x (_ BitVec 8))) (=> (P (bvfoo x)) false)))";
    assert!(run(unknown).unwrap_err().contains("bvfoo"));
}

/// Widths past `MAX_WIDTH` are errors with their line, whether written in a sort, a literal
/// or reached by an operator, instead of `2^w` constants of a billion bits (a fuzzed
/// `(_ BitVec 2147483648)` ran for minutes) or a width that wraps around in 32 bits.
#[test]
fn widths_past_the_limit_are_errors_with_their_line() {
    let wide = |decl: &str, t: &str| {
        format!(
            "(declare-fun P ((_ BitVec 8)) Bool)\n(assert (forall ((x {decl})) (=> (P x) (= {t} {t}))))"
        )
    };
    for (decl, t, w) in [
        ("(_ BitVec 2147483648)", "x", "2147483648"),
        ("(_ BitVec 8)", "(_ bv5 100000)", "100000"),
        (
            "(_ BitVec 8)",
            "((_ zero_extend 4294967290) x)",
            "4294967298",
        ),
        ("(_ BitVec 8)", "((_ sign_extend 70000) x)", "70008"),
        ("(_ BitVec 8)", "((_ repeat 10000) x)", "80000"),
        ("(_ BitVec 8)", "((_ int2bv 70000) 5)", "70000"),
        (
            "(_ BitVec 8)",
            "(concat ((_ zero_extend 65528) x) x)",
            "65544",
        ),
    ] {
        let e = run(&wide(decl, t)).unwrap_err();
        assert!(
            e.contains("line 2") && e.contains(&format!("unsupported bit-vector width {w}")),
            "{t}: {e}"
        );
    }
    // the limit itself is read
    assert!(run(&wide("(_ BitVec 8)", "((_ zero_extend 65528) x)")).is_ok());
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

const BINARY: &[&str] = &[
    "bvadd", "bvsub", "bvmul", "bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvsmod", "bvand", "bvor",
    "bvxor", "bvnand", "bvnor", "bvxnor", "bvshl", "bvlshr", "bvashr", "bvsdiv_i",
];
const COMPARE: &[&str] = &[
    "bvult", "bvule", "bvugt", "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge", "=", "distinct",
];

/// A random literal of width `w`.
fn lit(r: &mut Rng, w: u32) -> String {
    let v = BigInt::from(r.below(1 << w.min(20)));
    match r.below(3) {
        0 => format!("(_ bv{v} {w})"),
        _ => literal(&v, w),
    }
}

/// A random term of width `w` over `x` and `y` of width `vw`.
fn term(r: &mut Rng, w: u32, vw: u32, depth: u32) -> String {
    if depth == 0 || r.below(5) == 0 {
        return match (w == vw, r.below(3)) {
            (true, 0) => "x".into(),
            (true, 1) => "y".into(),
            (false, 0) if w < vw => format!("((_ extract {} 0) y)", w - 1),
            _ => lit(r, w),
        };
    }
    let d = depth - 1;
    match r.below(12) {
        0..=4 => {
            let op = BINARY[r.below(BINARY.len() as u64) as usize];
            // a constant operand often, as in the benchmarks
            let b = if r.below(2) == 0 {
                lit(r, w)
            } else {
                term(r, w, vw, d)
            };
            format!("({op} {} {b})", term(r, w, vw, d))
        }
        5 => format!(
            "({} {})",
            ["bvneg", "bvnot"][r.below(2) as usize],
            term(r, w, vw, d)
        ),
        6 if w >= 2 => {
            let k = 1 + r.below(w as u64 - 1) as u32;
            format!("(concat {} {})", term(r, k, vw, d), term(r, w - k, vw, d))
        }
        7 => {
            let hi = w + r.below(3) as u32;
            let lo = hi + 1 - w;
            format!("((_ extract {hi} {lo}) {})", term(r, hi + 1, vw, d))
        }
        8 if w >= 2 => {
            let k = 1 + r.below(w as u64 - 1) as u32;
            let op = ["zero_extend", "sign_extend"][r.below(2) as usize];
            format!("((_ {op} {k}) {})", term(r, w - k, vw, d))
        }
        9 => {
            let op = ["rotate_left", "rotate_right"][r.below(2) as usize];
            format!("((_ {op} {}) {})", r.below(2 * w as u64), term(r, w, vw, d))
        }
        10 => {
            let op = COMPARE[r.below(COMPARE.len() as u64) as usize];
            let k = vw;
            format!(
                "(ite ({op} {} {}) {} {})",
                term(r, k, vw, d),
                term(r, k, vw, d),
                term(r, w, vw, d),
                term(r, w, vw, d)
            )
        }
        _ if w == 1 => format!("(bvcomp {} {})", term(r, vw, vw, d), term(r, vw, vw, d)),
        _ => format!("((_ int2bv {w}) (+ (bv2nat {}) 3))", term(r, w, vw, d)),
    }
}

/// z3's output on `script`, a line per command that prints.
fn z3(path: &std::path::Path, script: &str) -> Vec<String> {
    crate::testing::z3_output(path, script, 20)
        .lines()
        .map(|l| l.trim().to_string())
        .collect()
}

/// The rewritten assertion of a one-clause input.
fn rewritten(text: &str) -> String {
    let out = run(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    out.lines()
        .find_map(|l| l.strip_prefix("(assert "))
        .and_then(|l| l.strip_suffix(')'))
        .expect("the rewritten assertion")
        .to_string()
}

#[test]
fn random_terms_have_the_values_z3_gives_them() {
    let z3_path = match find_solver(SolverKind::Z3, None) {
        Ok(p) => p,
        Err(e) => return crate::testing::skip(&e),
    };
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let mut cases = vec![];
    for _ in 0..240 {
        let vw = [1, 2, 3, 4, 5, 8][r.below(6) as usize];
        let t = term(&mut r, vw, vw, 3);
        let (vx, vy) = (lit(&mut r, vw), lit(&mut r, vw));
        cases.push((vw, t, vx, vy));
    }
    let compared = compare_with_z3(&z3_path, &cases);
    assert!(
        compared >= 200,
        "only {compared} of {} decided",
        cases.len()
    );
}

/// Compares, for each case `(width, term, x, y)`, the value z3 gives the term with the
/// one of its rewriting (which must have that value and no other); returns how many z3
/// decided.
fn compare_with_z3(z3_path: &std::path::Path, cases: &[(u32, String, String, String)]) -> usize {
    // the values z3 gives the terms
    let script: String = cases
        .iter()
        .map(|(_, t, vx, vy)| format!("(simplify (let ((x {vx}) (y {vy})) {t}))\n"))
        .collect();
    let values = z3(z3_path, &script);
    assert_eq!(values.len(), cases.len(), "{values:?}");
    let mut script = String::new();
    for ((vw, t, vx, vy), v) in cases.iter().zip(&values) {
        let (v, w) = parse_literal(v).unwrap_or_else(|| panic!("z3 gave {v} for {t}"));
        for c in [v.clone(), v + 1] {
            let claim = format!(
                "(declare-fun P () Bool)\n(assert (forall ((x (_ BitVec {vw})) (y (_ BitVec {vw}))) (=> (and (= x {vx}) (= y {vy}) (= {t} {})) P)))",
                literal(&c, w)
            );
            // valid exactly when `t` has value `c`: then `P` follows
            let g = rewritten(&claim).replace(" P)", " false)");
            script.push_str(&format!("(push)\n(assert {g})\n(check-sat)\n(pop)\n"));
        }
    }
    let answers = z3(z3_path, &script);
    assert_eq!(answers.len(), 2 * cases.len(), "{answers:?}");
    let mut compared = 0;
    for (i, (_, t, vx, vy)) in cases.iter().enumerate() {
        let (right, wrong) = (&answers[2 * i], &answers[2 * i + 1]);
        if right == "unknown" || wrong == "unknown" {
            continue;
        }
        // with the right value the clause's body holds (so `false` follows: unsat); with
        // another one it does not (sat)
        assert_eq!(
            (right.as_str(), wrong.as_str()),
            ("unsat", "sat"),
            "{t} with x = {vx}, y = {vy}: its rewriting has another value than {}",
            values[i]
        );
        compared += 1;
    }
    compared
}

#[test]
fn shifts_by_a_variable_have_the_values_z3_gives_them() {
    let z3_path = match find_solver(SolverKind::Z3, None) {
        Ok(p) => p,
        Err(e) => return crate::testing::skip(&e),
    };
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut cases = vec![];
    // up to 256 bits one case per amount, wider the barrel shifter (`encode::CASES_UP_TO`)
    for vw in [1, 2, 3, 5, 8, 13, 64, 256, 300, 512] {
        for op in ["bvshl", "bvlshr", "bvashr"] {
            for _ in 0..6 {
                // the value shifted: random bits, the top one set half of the time
                let x = BigInt::from(r.below(u64::MAX)) * BigInt::from(r.below(u64::MAX))
                    % crate::logic::bitvec::pow2(vw);
                // the amount: below the width, or past it
                let s = match r.below(4) {
                    0 => BigInt::from(vw + r.below(3) as u32),
                    1 => BigInt::from(r.below(u64::MAX)) % crate::logic::bitvec::pow2(vw),
                    _ => BigInt::from(r.below(vw as u64)),
                };
                cases.push((vw, format!("({op} x y)"), literal(&x, vw), literal(&s, vw)));
            }
        }
    }
    let compared = compare_with_z3(&z3_path, &cases);
    assert!(
        compared >= cases.len() * 9 / 10,
        "only {compared} of {} decided",
        cases.len()
    );
}

/// Products by constants past `2^(w-1)` are negations of products by `2^w - c`, and sums with
/// a negated operand (Eldarica's `(bvadd a (bvmul #xff..ff b))` for `a - b`) subtractions:
/// the same values as z3 gives the originals, and the product by `2^w - 1` without a `mod`.
#[test]
fn negations_and_products_by_large_constants_have_the_values_z3_gives_them() {
    let z3_path = match find_solver(SolverKind::Z3, None) {
        Ok(p) => p,
        Err(e) => return crate::testing::skip(&e),
    };
    let one_clause = |vw: u32, t: &str| {
        format!("(declare-fun P () Bool)\n(assert (forall ((x (_ BitVec {vw})) (y (_ BitVec {vw}))) (=> (= {t} x) P)))")
    };
    let ones8 = literal(&BigInt::from(255), 8);
    let product = rewritten(&one_clause(8, &format!("(bvmul {ones8} y)")));
    assert!(!product.contains("mod"), "{product}");
    let mut r = Rng(0x1234_5678_9abc_def1);
    let mut cases = vec![];
    for vw in [1, 2, 3, 5, 8, 32, 64] {
        let m = crate::logic::bitvec::pow2(vw);
        let ones = literal(&(&m - 1), vw);
        for _ in 0..4 {
            let big = (&m - 1) - BigInt::from(r.below(u64::MAX)) % (&m / 2);
            let c = literal(&big, vw);
            let (vx, vy) = (
                literal(&(BigInt::from(r.below(u64::MAX)) % &m), vw),
                literal(&(BigInt::from(r.below(u64::MAX)) % &m), vw),
            );
            for t in [
                format!("(bvmul {c} x)"),
                format!("(bvmul x {c})"),
                format!("(bvmul {ones} x)"),
                format!("(bvadd x (bvmul {ones} y))"),
                format!("(bvadd (bvmul y {ones}) x {c})"),
                format!("(bvadd (bvneg x) y (bvmul y {ones}))"),
                format!("(bvadd (bvneg x) (bvmul {ones} y))"),
            ] {
                cases.push((vw, t, vx.clone(), vy.clone()));
            }
        }
    }
    let compared = compare_with_z3(&z3_path, &cases);
    assert_eq!(compared, cases.len(), "not every case decided");
}
