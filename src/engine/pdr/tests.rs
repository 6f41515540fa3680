//! PDR on the problems of `bench-chc/` (answers known by construction), with every witness
//! re-validated, and the cube algebra of generalization on small cubes.

use super::generalize::{pair_sums, shadow};
use crate::engine::EngineKind;
use crate::logic::*;
use crate::smt::{SolverConfig, SolverKind};
use crate::{solve_str, validate, Options, Verdict};
use std::path::PathBuf;
use std::time::Duration;

fn bench_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench-chc")
}

/// Problems PDR must prove safe: their invariants are bounds, parities and relations that
/// generalization finds (a regression here is a lost generalization).
const MUST_SOLVE: &[&str] = &[
    "gen/chain-20-sat.smt2",
    "gen/counter-1000000-sat.smt2",
    "gen/div2-sat.smt2",
    "gen/divneg-sat.smt2",
    "gen/flag-alternate-sat.smt2",
    "gen/flag-parity2-sat.smt2",
    "gen/mod3-sat.smt2",
    "gen/modneg-sat.smt2",
    "gen/nested-3x4-sat.smt2",
    "gen/phase-1000-sat.smt2",
    "gen/phase-twoloop-sat.smt2",
    "gen/updown-100000-sat.smt2",
    "gen/wide-120-sat.smt2",
];

/// Solves one problem with PDR alone; panics on a wrong answer or a witness the validator
/// rejects. Returns the verdict word.
fn run(path: &str, expected: &str, z3: &SolverConfig) -> &'static str {
    let input = std::fs::read_to_string(bench_dir().join(path)).unwrap();
    let opts = Options {
        engines: vec![EngineKind::Pdr],
        timeout: Some(Duration::from_secs(10)),
        ..Options::default()
    };
    let out = solve_str(&input, &opts).unwrap_or_else(|e| panic!("{path}: {e}"));
    match &out.verdict {
        Verdict::Sat(m) => validate::check_model(&out.system, m, z3, None)
            .unwrap_or_else(|e| panic!("{path}: {e}")),
        // a derivation found on the input's text (recursive datatypes, beside the engines):
        // no clause-graph steps, its judged witness is judged again here
        Verdict::Unsat(c) if c.is_empty() => {
            use crate::judge::{judge, JudgeSolver, Judgment, Witness};
            let w = out.witness.as_deref().unwrap_or_default();
            let j = judge(
                &input,
                0,
                Witness::Derivation(w),
                &[JudgeSolver::Z3(z3.path.clone())],
                None,
            );
            assert_eq!(j, Judgment::Accepted, "{path}: {w}");
        }
        Verdict::Unsat(c) => {
            validate::check_cex(&out.system, c).unwrap_or_else(|e| panic!("{path}: {e}"))
        }
        Verdict::UnsatAccelerated(c) => validate::check_accel_cex(&out.system, c, z3, None)
            .map(|_| ())
            .unwrap_or_else(|e| panic!("{path}: {e}")),
        Verdict::SatKInductive { .. } => panic!("{path}: no model, though one was asked for"),
        Verdict::Unknown(_) => {}
    }
    assert_eq!(
        out.stats.validation_failures, 0,
        "{path}: a witness failed validation"
    );
    let got = out.verdict.word();
    assert!(
        got == "unknown" || got == expected,
        "{path}: WRONG answer {got}, expected {expected}"
    );
    got
}

#[test]
fn pdr_is_never_wrong_and_solves_the_planted_safe_problems() {
    let Some(z3) = crate::testing::solver(SolverKind::Z3) else {
        return;
    };
    let text = std::fs::read_to_string(bench_dir().join("expected.tsv")).unwrap();
    let rows: Vec<(String, String)> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once('\t'))
        .map(|(p, e)| (p.to_string(), e.to_string()))
        .collect();
    let rows = std::sync::Mutex::new(rows);
    let solved = std::sync::Mutex::new(vec![]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some((path, expected)) = rows.lock().unwrap().pop() else {
                    break;
                };
                if run(&path, &expected, &z3) != "unknown" {
                    solved.lock().unwrap().push(path);
                }
            });
        }
    });
    let solved = solved.into_inner().unwrap();
    eprintln!("pdr solved {} problems", solved.len());
    for p in MUST_SOLVE {
        assert!(solved.iter().any(|s| s == p), "{p}: not solved");
    }
}

fn v(name: &str) -> Term {
    mk_var(name, Sort::Int)
}

#[test]
fn shadow_resolves_bounds_of_the_eliminated_variable() {
    // x <= y /\ y <= z + 1 /\ 2y >= w  without y:  x <= z + 1 /\ 2x <= ... (real shadow)
    let (x, y, z, w) = (v("x"), v("y"), v("z"), v("w"));
    let cube = vec![
        mk_le(x.clone(), y.clone()),
        mk_le(y.clone(), mk_add(vec![z.clone(), mk_int(1)])),
        mk_ge(mk_mul_const(&2.into(), y.clone()), w.clone()),
        mk_le(w.clone(), mk_int(7)),
    ];
    let s = shadow(&cube, &y).unwrap();
    let expected = vec![
        mk_le(w.clone(), mk_int(7)),
        mk_le(x.clone(), mk_add(vec![z.clone(), mk_int(1)])),
        mk_le(
            w.clone(),
            mk_add(vec![mk_mul_const(&2.into(), z.clone()), mk_int(2)]),
        ),
    ];
    assert_eq!(s, expected);
    // no lower bound on z: nothing to resolve
    assert!(shadow(&cube, &z).is_none());
    // y under a mod: not a bound
    let m = mk_eq(mk_mod(y.clone(), 2.into()), mk_int(0));
    assert!(shadow(&[cube[0].clone(), cube[1].clone(), m], &y).is_none());
}

#[test]
fn pair_sums_relate_the_bounds_of_a_cube() {
    // i2 >= k + 1 /\ i0 <= k  gives  i2 - i0 >= 1, for every k
    let (i0, i2) = (v("i0"), v("i2"));
    for k in [0, 5, 1000] {
        let cube = vec![
            mk_ge(i2.clone(), mk_int(k + 1)),
            mk_le(i0.clone(), mk_int(k)),
        ];
        let s = pair_sums(&cube).unwrap();
        assert_eq!(s, vec![mk_ge(mk_sub(i2.clone(), i0.clone()), mk_int(1))]);
    }
    assert!(pair_sums(&[mk_le(i0, mk_int(3))]).is_none());
}
