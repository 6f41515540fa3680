//! Every engine on the problems of `bench-chc/` with answers known by construction.
//! Each sat/unsat is re-validated here, on top of the validation inside the solver.

mod common;

use chcsolve::engine::EngineKind;
use chcsolve::smt::{find_solver, SolverKind};
use chcsolve::{solve_str, validate, Options, Verdict};
use common::{bench_dir, read_tsv, solve_checked, z3};
use std::time::Duration;

/// Problems the default portfolio may leave unknown within the test's time limit, and why.
/// Everything else in bench-chc/expected.tsv must be answered correctly.
/// (Empty since ABMC's counterexamples of 10^6 steps are certified without expanding them;
/// `counter-1000000` was here.)
const HARD: &[(&str, &str)] = &[
    (
        "array/copy-sat.smt2",
        "needs the array equality `a = b` as a lemma, which PDR's cubes of model values never propose",
    ),
    (
        "array/summary-sat.smt2",
        "Spacer needs a summary over `select` terms that projection by model values does not give",
    ),
];

/// Counterexamples of 100 steps and more: the per-engine test leaves them out (PDR is slow
/// on them); `bmc_finds_counterexamples_of_depth_50_and_more` and the portfolio cover them.
const DEEP: &[&str] = &[
    "gen/counter-1000-unsat.smt2",
    "gen/counter-10000-unsat.smt2",
    "gen/updown-1000-unsat.smt2",
    "gen/updown-10000-unsat.smt2",
    "gen/phase-100-unsat.smt2",
    "gen/nested-10x10-unsat.smt2",
    "gen/zigzag-100-unsat.smt2",
    // only acceleration reaches these within the limit: the portfolio test and
    // `abmc_finds_deep_counterexamples_at_small_bounds` cover them
    "gen/counter-100000-unsat.smt2",
    "gen/updown-100000-unsat.smt2",
    "gen/phase-1000-unsat.smt2",
    "gen/nested-20x50-unsat.smt2",
    "gen/zigzag-1000-unsat.smt2",
    // 10^6 steps: ABMC's certified segments (tests/accel_cex.rs and the portfolio)
    "gen/counter-1000000-unsat.smt2",
    "gen/updown-1000000-unsat.smt2",
    "gen/phase-500000-unsat.smt2",
    "gen/nested-1000x1000-unsat.smt2",
    // a 16-bit counter to 1000 (bench-chc/bv)
    "bv/deep-unsat.smt2",
    // 10^6 steps along x' = x + 1/4 (`the_real_schedule_finds_a_million_step_counterexample`)
    "real/quarter-million-unsat.smt2",
];

/// Solves `path` and checks the answer is not wrong; re-validates any witness.
/// Returns the verdict word.
fn run(path: &str, expected: &str, engines: Vec<EngineKind>, secs: u64) -> &'static str {
    solve_checked(path, expected, engines, secs)
}

/// Runs `f` over the rows on two threads (the machine has two cores).
fn par_rows(
    rows: Vec<Vec<String>>,
    f: impl Fn(&str, &str) -> Option<String> + Sync,
) -> Vec<String> {
    let rows = std::sync::Mutex::new(rows);
    let failures = std::sync::Mutex::new(vec![]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(r) = rows.lock().unwrap().pop() else {
                    break;
                };
                if let Some(fail) = f(&r[0], &r[1]) {
                    failures.lock().unwrap().push(fail);
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

#[test]
fn portfolio_answers_every_known_problem() {
    let rows = read_tsv(&bench_dir().join("expected.tsv"), &["path", "expected"]);
    assert!(
        rows.len() >= 40,
        "bench-chc/expected.tsv lists too few problems"
    );
    let failures = par_rows(rows, |path, expected| {
        let hard = HARD.iter().any(|(h, _)| *h == path);
        let got = run(path, expected, vec![], if hard { 3 } else { 60 });
        (!hard && got != expected).then(|| format!("{path}: {got}, expected {expected}"))
    });
    assert!(failures.is_empty(), "unsolved: {failures:#?}");
}

/// Every engine answers a `Real` problem of `bench-chc/real/` (its answer validated, in the
/// solver and again here): each is listed with one it solves within seconds on its own.
#[test]
fn every_engine_answers_a_real_problem() {
    let cases = [
        (EngineKind::Bmc, "real/halfstep-unsat.smt2", "unsat"),
        (EngineKind::Kind, "real/halve-sat.smt2", "sat"),
        (EngineKind::Pdr, "real/halve-sat.smt2", "sat"),
        (EngineKind::Spacer, "real/converge-sat.smt2", "sat"),
        (EngineKind::Abmc, "real/deep-unsat.smt2", "unsat"),
        (EngineKind::Trl, "real/window-unsat.smt2", "unsat"),
        (EngineKind::Imc, "real/converge-sat.smt2", "sat"),
        (EngineKind::Tpa, "real/halfstep-unsat.smt2", "unsat"),
        (EngineKind::SplitTpa, "real/halfstep-unsat.smt2", "unsat"),
        (EngineKind::Pdkind, "real/phases-sat.smt2", "sat"),
        (EngineKind::Cegar, "real/converge-sat.smt2", "sat"),
        (EngineKind::Pdr, "real/mixed-sat.smt2", "sat"),
        (EngineKind::Kind, "real/kind2-sat.smt2", "sat"),
    ];
    let rows = cases
        .iter()
        .enumerate()
        .map(|(i, (_, p, e))| vec![i.to_string(), format!("{p}\t{e}")])
        .collect();
    let failures = par_rows(rows, |i, pe| {
        let (e, _, _) = cases[i.parse::<usize>().unwrap()];
        let (path, expected) = pe.split_once('\t').unwrap();
        let got = run(path, expected, vec![e], 60);
        (got != expected).then(|| format!("{}: {path}: {got}, expected {expected}", e.name()))
    });
    assert!(failures.is_empty(), "{failures:#?}");
}

/// On a system with arrays, BMC, k-induction, PDR and Spacer answer (validated), and every
/// other engine steps aside at once with `unknown` (never a wrong answer, never a crash):
/// "at once" is its run's stop reason, unsupported, after no solver query at all.
/// A linear system over `Int` with arrays.
fn with_arrays() -> chcsolve::chc::Features {
    chcsolve::chc::Features {
        linear: true,
        linear_input: true,
        ints: true,
        arrays: true,
        ..Default::default()
    }
}

#[test]
fn arrays_are_left_to_the_engines_that_handle_them() {
    let answers = [
        (EngineKind::Bmc, "array/store-kept-unsat.smt2", "unsat"),
        (EngineKind::Kind, "array/nested-unsat.smt2", "unsat"),
        (EngineKind::Pdr, "array/store-kept-sat.smt2", "sat"),
        (EngineKind::Pdr, "array/swap-sat.smt2", "sat"),
        (EngineKind::Spacer, "array/nested-sat.smt2", "sat"),
        (EngineKind::Spacer, "array/summary-unsat.smt2", "unsat"),
    ];
    for (e, path, expected) in answers {
        assert!(e.supports(&with_arrays()).is_ok());
        assert_eq!(
            run(path, expected, vec![e], 60),
            expected,
            "{}: {path}",
            e.name()
        );
    }
    let input = std::fs::read_to_string(bench_dir().join("array/swap-unsat.smt2")).unwrap();
    for e in <EngineKind as chcsolve::engine::Named>::ALL
        .iter()
        .filter(|e| e.supports(&with_arrays()).is_err())
    {
        // a schedule runs as given: the engine is asked, and steps aside
        let opts = Options {
            schedule: Some(chcsolve::schedule::each_alone(&[*e])),
            timeout: Some(Duration::from_secs(60)),
            absint: chcsolve::absint::Config {
                enabled: false,
                ..Default::default()
            },
            ..Options::default()
        };
        let out = solve_str(&input, &opts).unwrap();
        assert_eq!(out.verdict.word(), "unknown", "{}", e.name());
        let runs: Vec<_> = out
            .stats
            .engines
            .iter()
            .filter(|r| r.name == e.name())
            .collect();
        assert!(!runs.is_empty(), "{} did not report", e.name());
        for r in runs {
            assert!(
                matches!(r.stop, Some(chcsolve::engine::Stop::Unsupported(_)))
                    && r.stats.smt.queries == 0,
                "{} did not step aside at once: stopped by {:?} after {} solver queries",
                e.name(),
                r.stop,
                r.stats.smt.queries
            );
        }
        // named with `--engine`, it is not run: the default schedule answers instead
        let opts = Options {
            engines: vec![*e],
            timeout: Some(Duration::from_secs(60)),
            ..Options::default()
        };
        let out = solve_str(&input, &opts).unwrap();
        assert_eq!(out.verdict.word(), "unsat", "{}", e.name());
        assert!(out.stats.engines.iter().all(|r| r.name != e.name()));
    }
}

#[test]
fn bmc_finds_counterexamples_of_depth_50_and_more() {
    for (path, min_steps) in [
        ("gen/counter-50-unsat.smt2", 50),
        ("gen/counter-1000-unsat.smt2", 1000),
    ] {
        let input = std::fs::read_to_string(bench_dir().join(path)).unwrap();
        let opts = Options {
            engines: vec![EngineKind::Bmc],
            timeout: Some(Duration::from_secs(60)),
            ..Options::default()
        };
        let out = solve_str(&input, &opts).unwrap();
        let Verdict::Unsat(cex) = &out.verdict else {
            panic!("{path}: expected unsat, got {}", out.verdict.word())
        };
        assert!(
            cex.len() > min_steps,
            "{path}: counterexample of {} steps",
            cex.len()
        );
        validate::check_cex(&out.system, cex).unwrap();
    }
}

#[test]
fn every_engine_is_never_wrong_on_unsat_problems() {
    let rows: Vec<Vec<String>> = read_tsv(&bench_dir().join("expected.tsv"), &["path", "expected"])
        .into_iter()
        .filter(|r| {
            r[1] == "unsat"
                && !HARD.iter().any(|(h, _)| *h == r[0])
                && !DEEP.contains(&r[0].as_str())
        })
        .collect();
    for e in [
        EngineKind::Bmc,
        EngineKind::Kind,
        EngineKind::Pdr,
        EngineKind::Abmc,
    ] {
        // an engine that does not handle arrays steps aside (`arrays_are_left_to_the_engines_that_handle_them`)
        let rows: Vec<Vec<String>> = rows
            .iter()
            .filter(|r| {
                e.supports(&with_arrays()).is_ok()
                    || !(r[0].starts_with("array/")
                        || std::fs::read_to_string(bench_dir().join(&r[0]))
                            .is_ok_and(|t| t.contains("Array")))
            })
            .cloned()
            .collect();
        let failures = par_rows(rows, |path, expected| {
            let got = run(path, expected, vec![e], 60);
            (got != expected).then(|| format!("{}: {path}: {got}", e.name()))
        });
        assert!(failures.is_empty(), "{failures:#?}");
    }
}

#[test]
fn kind_proves_safety_with_a_validated_model() {
    for path in [
        "gen/counter-100-sat.smt2",
        "hand/let-sat.smt2",
        "gen/mod2-sat.smt2",
    ] {
        assert_eq!(
            run(path, "sat", vec![EngineKind::Kind], 30),
            "sat",
            "{path}"
        );
    }
}

#[test]
fn pdr_proves_safety_where_k_induction_cannot() {
    for path in [
        "gen/updown-100-sat.smt2",
        "gen/nested-3x4-sat.smt2",
        "gen/phase-twoloop-sat.smt2",
        "gen/wide-120-sat.smt2",
    ] {
        assert_eq!(run(path, "sat", vec![EngineKind::Pdr], 60), "sat", "{path}");
    }
}

/// ABMC's own counters for a run: its bound at the answer.
fn abmc_depth(out: &chcsolve::Outcome) -> usize {
    let run = (out.stats.engines.iter())
        .find(|r| r.name == "abmc")
        .expect("abmc reported");
    match run.stats.counters.iter().find(|(k, _)| *k == "depth") {
        Some((_, chcsolve::engine::Counter::Count(n))) => *n as usize,
        other => panic!("abmc depth: {other:?}"),
    }
}

#[test]
fn abmc_finds_deep_counterexamples_at_small_bounds() {
    // (problem, concrete length at least): the counterexample ABMC finds is expanded into
    // every concrete step and replayed; its bound must stay far below that length
    for (path, min_steps) in [
        ("gen/counter-1000-unsat.smt2", 1000),
        ("gen/counter-100000-unsat.smt2", 100_000),
        ("gen/updown-10000-unsat.smt2", 10_000),
        ("gen/phase-1000-unsat.smt2", 2000),
        ("gen/nested-20x50-unsat.smt2", 1000),
    ] {
        let input = std::fs::read_to_string(bench_dir().join(path)).unwrap();
        let opts = Options {
            engines: vec![EngineKind::Abmc],
            timeout: Some(Duration::from_secs(120)),
            // every concrete step, replayed (the certified path is tested below)
            expand: true,
            ..Options::default()
        };
        let out = solve_str(&input, &opts).unwrap();
        let Verdict::Unsat(cex) = &out.verdict else {
            panic!("{path}: expected unsat, got {}", out.verdict.word())
        };
        validate::check_cex(&out.system, cex).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(
            cex.len() > min_steps,
            "{path}: counterexample of {} steps",
            cex.len()
        );
        let depth = abmc_depth(&out);
        assert!(
            depth * 20 < cex.len(),
            "{path}: bound {depth} for a counterexample of {} steps",
            cex.len()
        );
    }
}

/// ABMC is never wrong on any known problem (at 10 s each, where `unknown` is allowed), and
/// proves planted safe problems whose reachable states its blocking clauses exhaust: those
/// run without a time limit that load could reach (ABMC answers them in 0.1 s when idle; a
/// limit of 10 minutes only stops a broken build), and the proof must have used blocking
/// clauses at a small depth (ABMC's own counters), whatever the machine's speed.
#[test]
fn abmc_is_never_wrong_and_proves_safety_by_blocking() {
    let rows = read_tsv(&bench_dir().join("expected.tsv"), &["path", "expected"]);
    let failures = par_rows(rows, |path, expected| {
        run(path, expected, vec![EngineKind::Abmc], 10);
        None
    });
    assert!(failures.is_empty(), "{failures:#?}");
    for path in ["gen/counter-1000-sat.smt2", "gen/counter-100000-sat.smt2"] {
        let input = std::fs::read_to_string(bench_dir().join(path)).unwrap();
        let opts = Options {
            engines: vec![EngineKind::Abmc],
            timeout: Some(Duration::from_secs(600)),
            absint: chcsolve::absint::Config {
                enabled: false,
                ..Default::default()
            },
            ..Options::default()
        };
        let out = solve_str(&input, &opts).unwrap();
        let Verdict::Sat(m) = &out.verdict else {
            panic!("abmc did not prove {path} safe: {:?}", out.verdict)
        };
        validate::check_model(&out.system, m, &z3(), None)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let run = (out.stats.engines.iter())
            .find(|r| r.name == "abmc")
            .expect("abmc reported");
        let blocking = run
            .stats
            .count("blocking clauses")
            .expect("blocking counter");
        assert!(
            blocking > 0,
            "{path}: proved safe without a blocking clause"
        );
        let depth = abmc_depth(&out);
        assert!(
            depth <= 10,
            "{path}: proved at depth {depth}, not by blocking clauses at a small bound"
        );
    }
}

/// `--solver` works for every engine on every installed solver: z3, yices, cvc5 and
/// SMTInterpol (the last two skip with a message when absent). Each answer is validated.
#[test]
fn every_engine_runs_on_every_solver() {
    let engines = [
        EngineKind::Bmc,
        EngineKind::Kind,
        EngineKind::Pdr,
        EngineKind::Abmc,
    ];
    for kind in [
        SolverKind::Z3,
        SolverKind::Yices,
        SolverKind::Cvc5,
        SolverKind::SmtInterpol,
    ] {
        if let Err(e) = find_solver(kind, None) {
            chcsolve::testing::missing(kind, &format!("on {kind}: {e}"));
            continue;
        }
        for e in engines {
            let mut cases = vec![("gen/counter-10-unsat.smt2", "unsat")];
            if e != EngineKind::Bmc {
                cases.push(("gen/counter-10-sat.smt2", "sat"));
            }
            for (path, expected) in cases {
                let input = std::fs::read_to_string(bench_dir().join(path)).unwrap();
                let opts = Options {
                    engines: vec![e],
                    solver: Some(kind),
                    timeout: Some(Duration::from_secs(60)),
                    // the engine's own answer, not the abstract-interpretation pass's
                    absint: chcsolve::absint::Config {
                        enabled: false,
                        ..Default::default()
                    },
                    ..Options::default()
                };
                let out = solve_str(&input, &opts).unwrap_or_else(|err| panic!("{path}: {err}"));
                match &out.verdict {
                    Verdict::Sat(m) => validate::check_model(&out.system, m, &z3(), None)
                        .unwrap_or_else(|err| panic!("{path}: {err}")),
                    Verdict::Unsat(c) => validate::check_cex(&out.system, c)
                        .unwrap_or_else(|err| panic!("{path}: {err}")),
                    Verdict::UnsatAccelerated(c) => {
                        validate::check_accel_cex(&out.system, c, &z3(), None)
                            .map(|_| ())
                            .unwrap_or_else(|err| panic!("{path}: {err}"))
                    }
                    Verdict::SatKInductive { .. } => {
                        panic!("{kind}, engine {e:?}, {path}: no model, though one was asked for")
                    }
                    Verdict::Unknown(why) => {
                        panic!("{kind}, engine {e:?}, {path}: unknown ({why})")
                    }
                }
                assert_eq!(out.verdict.word(), expected, "{kind}, engine {e:?}, {path}");
            }
        }
    }
}

/// The default schedule for reals on 2 cores finds a counterexample of 10^6 steps along a
/// rational increment (`x' = x + 1/4` until `x >= 250000`) within 5 s: ABMC's slice
/// accelerates it; unrolled (PDR, Spacer, k-induction) it is out of reach.
#[test]
fn the_real_schedule_finds_a_million_step_counterexample() {
    let path = bench_dir().join("real/quarter-million-unsat.smt2");
    let input = std::fs::read_to_string(&path).unwrap();
    let opts = Options {
        jobs: Some(2),
        timeout: Some(Duration::from_secs(5)),
        ..Options::default()
    };
    let out = solve_str(&input, &opts).unwrap();
    match &out.verdict {
        Verdict::UnsatAccelerated(c) => {
            validate::check_accel_cex(&out.system, c, &z3(), None).unwrap();
        }
        Verdict::Unsat(c) => validate::check_cex(&out.system, c).unwrap(),
        v => panic!("expected unsat within 5 s, got {}", v.word()),
    }
    assert_eq!(out.stats.winner, Some("abmc"));
}
