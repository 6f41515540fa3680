//! The `imc` engine (McMillan's interpolation-based model checking) on the problems of
//! `bench-chc/` with answers known by construction: never a wrong answer, safety proofs and
//! counterexamples on the ones it is expected to solve. Each sat/unsat is re-validated here,
//! on top of the validation inside the solver.

mod common;

use chcsolve::engine::EngineKind;
use chcsolve::{solve_str, Options};
use common::{bench_dir, read_tsv, solve_checked};
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

/// Solves `path` with IMC alone; panics on a wrong answer or a witness that fails
/// validation (inside the solver or here). Returns the verdict word.
fn run(path: &str, expected: &str, secs: u64) -> &'static str {
    solve_checked(path, expected, vec![EngineKind::Imc], secs)
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

/// IMC alone, for its own answer (not the abstract-interpretation pass's).
fn imc_alone() -> Options {
    Options {
        engines: vec![EngineKind::Imc],
        timeout: Some(Duration::from_secs(30)),
        absint: chcsolve::absint::Config {
            enabled: false,
            ..Default::default()
        },
        ..Options::default()
    }
}

/// IMC's counter `key` in a run's statistics.
fn imc_count(out: &chcsolve::Outcome, key: &str) -> u64 {
    let run = (out.stats.engines.iter())
        .find(|r| r.name == "imc")
        .expect("imc reported");
    match run.stats.counters.iter().find(|(k, _)| *k == key) {
        Some((_, chcsolve::engine::Counter::Count(n))) => *n,
        other => panic!("imc's counter {key}: {other:?}"),
    }
}

/// IMC's certificate is a disjunction of interpolants; its `--stats` counters say how it
/// got there (a bound, interpolants, fixpoint iterations).
#[test]
fn imc_reports_its_counters() {
    let input = std::fs::read_to_string(bench_dir().join("gen/counter-10-sat.smt2")).unwrap();
    let opts = imc_alone();
    let out = solve_str(&input, &opts).unwrap();
    assert_eq!(out.verdict.word(), "sat");
    let get = |key: &str| imc_count(&out, key);
    assert!(get("k") >= 1);
    assert!(get("interpolants") >= 1);
    assert!(get("fixpoint iterations") >= get("interpolants"));
    assert!(get("invariant disjuncts") >= 1);
}

/// The interpolation counters belong to a run: two runs in one process each report their
/// own queries (the second's are not added to the first's). For IMC, every interpolant it
/// counts is one checked interpolant of a backend, so the two figures agree run by run.
#[test]
fn interpolation_stats_are_per_run() {
    let input = std::fs::read_to_string(bench_dir().join("gen/counter-10-sat.smt2")).unwrap();
    let opts = imc_alone();
    for run in 1..=2 {
        let out = solve_str(&input, &opts).unwrap();
        assert_eq!(out.verdict.word(), "sat");
        let imc = imc_count(&out, "interpolants");
        let itp: u64 = out
            .stats
            .interpolation
            .iter()
            .map(|(_, s)| s.interpolants)
            .sum();
        let asked: u64 = out.stats.interpolation.iter().map(|(_, s)| s.asked).sum();
        assert!(imc >= 1, "run {run}: imc made no interpolant");
        assert_eq!(
            itp, imc,
            "run {run}: the backends' interpolants are not this run's: {:?}",
            out.stats.interpolation
        );
        assert!(asked >= itp, "run {run}: {:?}", out.stats.interpolation);
    }
}
