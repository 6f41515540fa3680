//! The unfolding on small datatype systems: the derivation it finds is accepted by the
//! judge against the original text.

use super::*;
use crate::judge::{judge, JudgeSolver, Judgment, Witness};
use crate::testing::rng::{Rng as _, XorShift as Rng};
use std::time::Duration;

/// The derivation of `text`'s counterexample, judged by z3; `None` when there is none.
pub(super) fn judged(text: &str, limits: Limits) -> Result<(String, Judgment), NoCex> {
    let z3 = crate::testing::z3();
    let cs = read(text).map_err(|e| NoCex::Solver(e.to_string()))?;
    let deadline = Some(Instant::now() + Duration::from_secs(60));
    let mut stats = SearchStats::default();
    let d = search(&cs, &z3, &KillSwitch::new(), deadline, limits, &mut stats)?;
    let g = golem(&cs, &d);
    let j = judge(
        text,
        0,
        Witness::Derivation(&g),
        &[JudgeSolver::Z3(z3.path)],
        deadline,
    );
    Ok((g, j))
}

/// Lists built by appending: `app` is a non-linear clause system (append's length is the
/// sum of the lengths), with a planted bug: the length of a list of 3 is claimed to be 2.
const APPEND: &str = "(set-logic HORN)
(declare-datatypes ((L 0)) (((cons (hd Int) (tl L)) (nil))))
(declare-fun len (L Int) Bool)
(declare-fun app (L L L) Bool)
(assert (forall ((n Int)) (=> (= n 0) (len nil n))))
(assert (forall ((x Int) (l L) (n Int)) (=> (len l n) (len (cons x l) (+ n 1)))))
(assert (forall ((l L)) (app nil l l)))
(assert (forall ((x Int) (a L) (b L) (c L)) (=> (app a b c) (app (cons x a) b (cons x c)))))
(assert (forall ((a L) (b L) (c L) (n Int) (m Int) (k Int))
  (=> (and (app a b c) (len a n) (len b m) (len c k) (= n 2) (= m 1) (not (= k 2))) false)))
(check-sat)
";

#[test]
fn append_counterexample_is_judged() {
    let (g, j) = judged(APPEND, Limits::default()).unwrap();
    assert_eq!(j, Judgment::Accepted, "{g}");
    assert!(g.contains("(cons"), "{g}");
    assert!(g.trim_end().ends_with(|c: char| c.is_ascii_digit()), "{g}");
}

#[test]
fn safe_system_has_no_short_derivation() {
    let safe = APPEND.replace("(not (= k 2))", "(not (= k 3))");
    let r = judged(
        &safe,
        Limits {
            depth: 4,
            nodes: 10_000,
        },
    );
    assert!(
        matches!(r, Err(NoCex::Bound { .. } | NoCex::Nodes { .. })),
        "{r:?}"
    );
}

/// A rule of a random system over predicates `P_i(N, Int)` (`N`: Peano naturals).
#[derive(Clone, Debug)]
enum Rule {
    /// `P_i(S^k Z, c)`.
    Fact { i: usize, k: u32, c: i64 },
    /// `P_j(x, n) => P_i(S x, n + a)`.
    Step { i: usize, j: usize, a: i64 },
    /// `P_j(x, n) /\ P_k(y, m) => P_i(S x, n + 2 m)`: two children, which a derivation
    /// must not confuse (with `j = k` they are two instances of one predicate).
    Join { i: usize, j: usize, k: usize },
}

fn nat(k: u32) -> String {
    (0..k).fold("Z".to_string(), |acc, _| format!("(S {acc})"))
}

/// A random system with a planted counterexample: the facts derivable in a few rounds are
/// computed here, and the query refutes one of the deepest (its `N` and its `Int`).
fn planted(seed: u64) -> String {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let preds = 2 + r.below(3) as usize;
    let c = r.below(3) as i64;
    let mut rules = vec![
        Rule::Fact { i: 0, k: 0, c },
        Rule::Fact {
            i: 0,
            k: 1,
            c: c + 1,
        },
        Rule::Join {
            i: r.below(preds as u64) as usize,
            j: 0,
            k: 0,
        },
    ];
    for _ in 0..2 + r.below(4) {
        let i = r.below(preds as u64) as usize;
        rules.push(match r.below(3) {
            0 => Rule::Fact {
                i,
                k: r.below(2) as u32,
                c: r.below(5) as i64 - 2,
            },
            1 => Rule::Step {
                i,
                j: r.below(preds as u64) as usize,
                a: r.below(5) as i64 - 2,
            },
            _ => Rule::Join {
                i,
                j: r.below(preds as u64) as usize,
                k: r.below(preds as u64) as usize,
            },
        });
    }
    // forward: (pred, nat, int) facts and the round they appeared in
    let mut facts: Vec<(usize, u32, i64, usize)> = vec![];
    for round in 0..4 {
        let old = facts.clone();
        let mut add = |f: (usize, u32, i64)| {
            if !facts.iter().any(|g| (g.0, g.1, g.2) == f) && facts.len() < 200 {
                facts.push((f.0, f.1, f.2, round));
            }
        };
        for rule in &rules {
            match *rule {
                Rule::Fact { i, k, c } => add((i, k, c)),
                Rule::Step { i, j, a } => {
                    for f in old.iter().filter(|f| f.0 == j) {
                        add((i, f.1 + 1, f.2 + a));
                    }
                }
                Rule::Join { i, j, k } => {
                    for f in old.iter().filter(|f| f.0 == j) {
                        for g in old.iter().filter(|g| g.0 == k) {
                            add((i, f.1 + 1, f.2 + 2 * g.2));
                        }
                    }
                }
            }
        }
    }
    let target = facts
        .iter()
        .max_by_key(|f| (f.3, f.1))
        .copied()
        .unwrap_or((0, 0, 0, 0));
    let mut t = String::from("(set-logic HORN)\n(declare-datatypes ((N 0)) (((Z) (S (p N)))))\n");
    for i in 0..preds {
        t += &format!("(declare-fun P{i} (N Int) Bool)\n");
    }
    for rule in &rules {
        t += &match *rule {
            Rule::Fact { i, k, c } => format!(
                "(assert (forall ((n Int)) (=> (= n {c}) (P{i} {} n))))\n",
                nat(k)
            ),
            Rule::Step { i, j, a } => format!(
                "(assert (forall ((x N) (n Int)) (=> (P{j} x n) (P{i} (S x) (+ n {a})))))\n"
            ),
            Rule::Join { i, j, k } => format!(
                "(assert (forall ((x N) (y N) (n Int) (m Int)) (=> (and (P{j} x n) (P{k} y m)) (P{i} (S x) (+ n (* 2 m))))))\n"
            ),
        };
    }
    t += &format!(
        "(assert (forall ((x N) (n Int)) (=> (and (P{} x n) (= x {}) (= n {})) false)))\n(check-sat)\n",
        target.0,
        nat(target.1),
        target.2
    );
    t
}

#[test]
fn planted_counterexamples_are_found_and_judged() {
    let mut deep = 0;
    for seed in 1..=30 {
        let text = planted(seed);
        let (g, j) = judged(&text, Limits::default()).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        assert_eq!(j, Judgment::Accepted, "{text}\n{g}");
        if g.lines().count() > 4 {
            deep += 1;
        }
    }
    // most planted facts need a few steps
    assert!(deep >= 10, "only {deep} derivations of more than 2 steps");
}

#[test]
fn bench_chc_adt_counterexamples_are_found_and_judged() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bench-chc/adt");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.starts_with("cex-") && n.ends_with("-unsat.smt2")
        })
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let (g, j) = judged(&text, Limits::default()).unwrap_or_else(|e| panic!("{f:?}: {e:?}"));
        assert_eq!(j, Judgment::Accepted, "{f:?}\n{g}");
    }
}
