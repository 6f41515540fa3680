//! The `imc` engine (McMillan's interpolation-based model checking) on the problems of
//! `bench-chc/` with answers known by construction: never a wrong answer, safety proofs and
//! counterexamples on the ones it is expected to solve. Each sat/unsat is re-validated here,
//! on top of the validation inside the solver.

mod common;

use chcsolve::engine::EngineKind;
use chcsolve::smt::{find_solver, SolverConfig, SolverKind};
use chcsolve::{solve_str, validate, Options, Verdict};
use common::{bench_dir, read_tsv};
use std::sync::Mutex;
use std::time::Duration;

/// Seconds per problem in the sweep over every file.
const LIMIT: u64 = 5;

/// Safe problems IMC must prove within [`LIMIT`].
const MUST_PROVE: &[&str] = &[
    "gen/counter-10-sat.smt2",
    "gen/counter-100-sat.smt2",
    "gen/chain-5-sat.smt2",
    "gen/chain-20-sat.smt2",
    "gen/divneg-sat.smt2",
];

/// Unsafe problems IMC must refute within [`LIMIT`] (by its BMC, at every bound; deep
/// counterexamples are slow, since the fixpoint loop runs at every bound before it).
const MUST_REFUTE: &[&str] = &[
    "gen/counter-10-unsat.smt2",
    "gen/chain-5-unsat.smt2",
    "gen/chain-20-unsat.smt2",
    "gen/mod2-unsat.smt2",
];

fn z3() -> SolverConfig {
    SolverConfig::new(
        SolverKind::Z3,
        find_solver(SolverKind::Z3, None).expect("z3: run solvers/install"),
    )
}

/// Solves `path` with IMC alone; panics on a wrong answer or a witness that fails
/// validation (inside the solver or here). Returns the verdict word.
fn run(path: &str, expected: &str, secs: u64) -> &'static str {
    let input = std::fs::read_to_string(bench_dir().join(path)).unwrap();
    let opts = Options {
        engines: vec![EngineKind::Imc],
        timeout: Some(Duration::from_secs(secs)),
        ..Options::default()
    };
    let out = solve_str(&input, &opts).unwrap_or_else(|e| panic!("{path}: {e}"));
    match &out.verdict {
        Verdict::Sat(m) => validate::check_model(&out.system, m, &z3(), None)
            .unwrap_or_else(|e| panic!("{path}: {e}")),
        Verdict::Unsat(c) => {
            validate::check_cex(&out.system, c).unwrap_or_else(|e| panic!("{path}: {e}"))
        }
        Verdict::UnsatAccelerated(c) => validate::check_accel_cex(&out.system, c, &z3(), None)
            .map(|_| ())
            .unwrap_or_else(|e| panic!("{path}: {e}")),
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
fn imc_is_never_wrong_and_solves_the_planted_problems() {
    let rows = read_tsv(&bench_dir().join("expected.tsv"), &["path", "expected"]);
    for p in MUST_PROVE.iter().chain(MUST_REFUTE) {
        assert!(
            rows.iter().any(|r| r[0] == *p),
            "{p} is not in expected.tsv"
        );
    }
    let rows = Mutex::new(rows);
    let solved = Mutex::new(vec![]);
    let failures = Mutex::new(vec![]);
    // two threads: the machine has two cores
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(r) = rows.lock().unwrap().pop() else {
                    break;
                };
                match std::panic::catch_unwind(|| run(&r[0], &r[1], LIMIT)) {
                    Ok(got) if got != "unknown" => solved.lock().unwrap().push(r[0].clone()),
                    Ok(_) => {}
                    Err(e) => {
                        let msg = e
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default();
                        failures.lock().unwrap().push(msg);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{failures:#?}");
    let solved = solved.into_inner().unwrap();
    eprintln!("imc solved {} problems: {solved:?}", solved.len());
    for p in MUST_PROVE.iter().chain(MUST_REFUTE) {
        assert!(
            solved.iter().any(|s| s == p),
            "imc did not solve {p}; it solved {solved:?}"
        );
    }
}

/// IMC's certificate is a disjunction of interpolants; its `--stats` counters say how it
/// got there (a bound, interpolants, fixpoint iterations).
#[test]
fn imc_reports_its_counters() {
    let input = std::fs::read_to_string(bench_dir().join("gen/counter-10-sat.smt2")).unwrap();
    let opts = Options {
        engines: vec![EngineKind::Imc],
        timeout: Some(Duration::from_secs(30)),
        ..Options::default()
    };
    let out = solve_str(&input, &opts).unwrap();
    assert_eq!(out.verdict.word(), "sat");
    let (_, _, counters, _) = out
        .stats
        .engines
        .iter()
        .find(|(name, ..)| name == "imc")
        .expect("imc reported");
    let get = |key: &str| -> u64 {
        counters
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or_else(|| panic!("no counter {key}: {counters:?}"))
    };
    assert!(get("k") >= 1);
    assert!(get("interpolants") >= 1);
    assert!(get("fixpoint iterations") >= get("interpolants"));
    assert!(get("invariant disjuncts") >= 1);
}
