//! The abstract-interpretation pass on the planted problems of `bench-chc/absint/`: it
//! answers the three whose invariant it finds (an affine equality, a parity fact, two
//! copies of a loop), which PDR and Spacer alone leave unknown; and its invariants seed
//! PDR and Spacer on the fourth, which it cannot answer alone. Every answer is validated
//! inside the solver and again here.

mod common;

use chcsolve::engine::EngineKind;
use chcsolve::{absint, solve_str, validate, Options, Verdict};
use common::{bench_dir, z3};
use std::time::Duration;

/// The planted problems only the pass proves.
const ONLY_THE_PASS: &[&str] = &[
    "absint/affine-sat.smt2",
    "absint/parity-sat.smt2",
    "absint/copies-sat.smt2",
];

fn solve(path: &str, engines: Vec<EngineKind>, on: bool, secs: u64) -> chcsolve::Outcome {
    solve_with(path, engines, on, secs, Default::default())
}

fn solve_with(
    path: &str,
    engines: Vec<EngineKind>,
    on: bool,
    secs: u64,
    engine_options: chcsolve::engine::EngineOptions,
) -> chcsolve::Outcome {
    let input = std::fs::read_to_string(bench_dir().join(path)).unwrap();
    solve_input(path, &input, engines, on, secs, engine_options)
}

fn solve_input(
    path: &str,
    input: &str,
    engines: Vec<EngineKind>,
    on: bool,
    secs: u64,
    engine_options: chcsolve::engine::EngineOptions,
) -> chcsolve::Outcome {
    let opts = Options {
        engines,
        timeout: Some(Duration::from_secs(secs)),
        // a budget far over the milliseconds the pass needs: the tests of this suite run
        // side by side, and a solver started on a busy machine can take a second
        absint: absint::Config {
            enabled: on,
            budget: Duration::from_secs(20),
            ..Default::default()
        },
        engine_options,
        ..Options::default()
    };
    let out = solve_str(input, &opts).unwrap_or_else(|e| panic!("{path}: {e}"));
    if let Verdict::Sat(m) = &out.verdict {
        validate::check_model(&out.system, m, &z3(), None)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    assert_ne!(out.verdict.word(), "unsat", "{path}: WRONG answer unsat");
    out
}

#[test]
fn the_pass_answers_the_planted_problems() {
    for path in ONLY_THE_PASS {
        let out = solve(path, vec![], true, 30);
        assert_eq!(out.verdict.word(), "sat", "{path}: {:?}", out.stats.absint);
        assert_eq!(out.stats.winner, Some("absint"), "{path}");
        assert_eq!(out.stats.absint.outcome, "answered", "{path}");
    }
}

/// What makes the planted problems worth having: PDR and Spacer alone do not prove them
/// within seconds (they are unknown at 10 s on a quiet machine; 3 s here).
#[test]
fn pdr_and_spacer_alone_leave_the_planted_problems_unknown() {
    let mut solved = vec![];
    for path in ONLY_THE_PASS {
        for e in [EngineKind::Pdr, EngineKind::Spacer] {
            let out = solve(path, vec![e], false, 3);
            if out.verdict.word() != "unknown" {
                solved.push(format!("{}: {path}", e.name()));
            }
        }
    }
    assert!(solved.is_empty(), "solved without the pass: {solved:?}");
}

/// On a problem the pass cannot answer alone, its invariants are lemmas of PDR's and
/// Spacer's first frames, and the engines' models (which include them) validate.
#[test]
fn the_invariants_seed_pdr_and_spacer() {
    let path = "absint/seeded-sat.smt2";
    for e in [EngineKind::Pdr, EngineKind::Spacer] {
        let out = solve(path, vec![e], true, 30);
        assert_eq!(out.verdict.word(), "sat", "{}", e.name());
        assert_eq!(out.stats.winner, Some(e.name()));
        assert_eq!(out.stats.absint.outcome, "seeded");
        assert!(out.stats.absint.kept >= 1);
    }
}

/// `--pdr-seeds off` and `--spacer-seeds off`: the pass still runs and seeds, the engine
/// takes none of its invariants (its `seeds` counter is 0; with the switch on it is not).
#[test]
fn each_engine_can_decline_the_seeds() {
    let path = "absint/seeded-sat.smt2";
    for e in [EngineKind::Pdr, EngineKind::Spacer] {
        for take in [true, false] {
            let mut engine_options = chcsolve::engine::EngineOptions::default();
            engine_options.pdr.use_seeds = Some(take);
            engine_options.spacer.use_seeds = Some(take);
            let out = solve_with(path, vec![e], true, 30, engine_options);
            assert_eq!(out.stats.absint.outcome, "seeded", "{}", e.name());
            let run = out.stats.engines.iter().find(|r| r.name == e.name());
            let seeds = run.and_then(|r| r.stats.count("seeds"));
            if take {
                assert!(seeds.is_some_and(|n| n >= 1), "{}: {seeds:?}", e.name());
            } else {
                assert_eq!(seeds, Some(0), "{}", e.name());
            }
        }
    }
}

/// Left to the system (no switch), Spacer takes the seeds when the input's clauses are
/// linear and not when they are not: the same problem with a query that reads two copies of
/// the invariant (a clause with two body predicates) is seeded by the pass as before, and
/// Spacer's `seeds` counter stays 0 (docs/absint.md).
#[test]
fn by_default_only_linear_inputs_seed_the_engines() {
    let path = "absint/seeded-sat.smt2";
    let linear = std::fs::read_to_string(bench_dir().join(path)).unwrap();
    let query = "(=> (and (Inv x y) (or";
    assert!(linear.contains(query));
    let non_linear = linear.replace(query, "(=> (and (Inv x y) (Inv y x) (or");
    for (input, want) in [(&linear, true), (&non_linear, false)] {
        let out = solve_input(
            path,
            input,
            vec![EngineKind::Spacer],
            true,
            30,
            Default::default(),
        );
        assert_eq!(out.stats.absint.outcome, "seeded", "linear: {want}");
        let run = out.stats.engines.iter().find(|r| r.name == "spacer");
        let seeds = run.and_then(|r| r.stats.count("seeds"));
        if want {
            assert!(seeds.is_some_and(|n| n >= 1), "linear: {seeds:?}");
        } else {
            assert_eq!(seeds, Some(0), "non-linear");
        }
    }
}

/// Off means off: no candidates, no queries.
#[test]
fn the_switch_turns_the_pass_off() {
    let out = solve("absint/parity-sat.smt2", vec![EngineKind::Bmc], false, 2);
    assert_eq!(out.stats.absint.outcome, "off");
    assert_eq!(out.stats.absint.queries, 0);
    assert_eq!(out.verdict.word(), "unknown");
}
