//! CEGAR on the planted problems of `bench-chc/cegar/` (answers known by construction), in
//! several configurations; every answer is checked by the validator against the system CEGAR
//! was given, and the pipeline test against the original clauses.

use super::*;
use crate::frontend::parse_str;
use crate::smt::KillSwitch;
use crate::{solve_str, validate, Options, Verdict};
use std::time::Duration;

pub(super) use crate::testing::{engine_smt, z3};

/// The planted problems: name, text, expected answer.
pub(super) const PROBLEMS: &[(&str, &str, &str)] = &[
    (
        "counter-sat",
        include_str!("../../../bench-chc/cegar/counter-sat.smt2"),
        "sat",
    ),
    (
        "counter-unsat",
        include_str!("../../../bench-chc/cegar/counter-unsat.smt2"),
        "unsat",
    ),
    (
        "flags-sat",
        include_str!("../../../bench-chc/cegar/flags-sat.smt2"),
        "sat",
    ),
    (
        "flags-unsat",
        include_str!("../../../bench-chc/cegar/flags-unsat.smt2"),
        "unsat",
    ),
    (
        "equal-sat",
        include_str!("../../../bench-chc/cegar/equal-sat.smt2"),
        "sat",
    ),
    (
        "equal-unsat",
        include_str!("../../../bench-chc/cegar/equal-unsat.smt2"),
        "unsat",
    ),
    (
        "locs-sat",
        include_str!("../../../bench-chc/cegar/locs-sat.smt2"),
        "sat",
    ),
    (
        "locs-unsat",
        include_str!("../../../bench-chc/cegar/locs-unsat.smt2"),
        "unsat",
    ),
    (
        "choice-sat",
        include_str!("../../../bench-chc/cegar/choice-sat.smt2"),
        "sat",
    ),
];

fn problem(name: &str) -> (&'static str, &'static str) {
    let (_, text, expected) = PROBLEMS
        .iter()
        .find(|(n, _, _)| *n == name)
        .unwrap_or_else(|| panic!("no problem {name}"));
    (text, expected)
}

/// Runs CEGAR with `cfg` on `text` for at most `secs` seconds; returns the answer word after
/// validating any witness against the system it was given (a rejected one panics).
fn run(name: &str, text: &str, cfg: &Config, secs: u64) -> &'static str {
    run_counting(name, text, cfg, secs).0
}

/// [`run`], with the engine's counters.
pub(super) fn run_counting(
    name: &str,
    text: &str,
    cfg: &Config,
    secs: u64,
) -> (&'static str, Counters) {
    let sys = parse_str(text).unwrap();
    let kill = KillSwitch::new();
    let smt = SolverConfig {
        kill: kill.clone(),
        ..engine_smt()
    };
    let timer = {
        let kill = kill.clone();
        std::thread::spawn(move || {
            let start = std::time::Instant::now();
            while start.elapsed() < Duration::from_secs(secs) && !kill.is_killed() {
                std::thread::sleep(Duration::from_millis(20));
            }
            kill.kill_all();
        })
    };
    let mut cegar = Cegar::new(cfg.clone());
    let answer = cegar.solve(&sys, &smt);
    kill.kill_all();
    timer.join().unwrap();
    let word = match answer {
        Answer::UnsafeAccel(_) => panic!("{name}: cegar answered with accelerated segments"),
        Answer::SafeKInductive { .. } => panic!("{name}: cegar answered with k-induction"),
        Answer::UnsafeInput(_) | Answer::SafeInput { .. } => {
            panic!("{name}: cegar answered over the input's clauses")
        }
        Answer::Safe(m) => {
            validate::check_model(&sys, &m, &z3(), None)
                .unwrap_or_else(|e| panic!("{name} {cfg:?}: model rejected: {e}\n{m:?}"));
            "sat"
        }
        Answer::Unsafe(c) => {
            validate::check_cex(&sys, &c)
                .unwrap_or_else(|e| panic!("{name} {cfg:?}: counterexample rejected: {e}"));
            "unsat"
        }
        Answer::Unknown(why) => {
            log::info!("{name}: unknown ({why})");
            "unknown"
        }
    };
    (word, cegar.counters)
}

fn cfg(domain: DomainKind, refinement: Refinement) -> Config {
    Config {
        domain,
        refinement,
        ..Config::default()
    }
}

/// `cfg` must answer every problem of `solves` correctly, and no other one wrongly.
pub(super) fn check_config(cfg: &Config, solves: &[&str]) {
    let mut failures = vec![];
    for (name, text, expected) in PROBLEMS {
        let must = solves.contains(name);
        let got = run(name, text, cfg, if must { 30 } else { 5 });
        if got != "unknown" && got != *expected {
            panic!("{name} {cfg:?}: WRONG answer {got}, expected {expected}");
        }
        if must && got != *expected {
            failures.push(format!("{name}: {got}"));
        }
    }
    assert!(failures.is_empty(), "{cfg:?}: unsolved {failures:?}");
}

/// What explicit values can prove: finitely many values of the relevant variables.
pub(super) const EXPL_SOLVES: &[&str] = &[
    "counter-sat",
    "counter-unsat",
    "flags-sat",
    "flags-unsat",
    "locs-unsat",
];

/// Everything.
pub(super) const PRED_SOLVES: &[&str] = &[
    "locs-sat",
    "counter-sat",
    "counter-unsat",
    "flags-sat",
    "flags-unsat",
    "equal-sat",
    "equal-unsat",
    "locs-unsat",
    "choice-sat",
];

#[test]
fn expl_with_sequence_interpolants() {
    check_config(&cfg(DomainKind::Expl, Refinement::SeqItp), EXPL_SOLVES);
}

#[test]
fn expl_with_unsat_cores() {
    check_config(&cfg(DomainKind::Expl, Refinement::UnsatCore), EXPL_SOLVES);
}

#[test]
fn expl_with_explicit_value_interpolation() {
    check_config(&cfg(DomainKind::Expl, Refinement::ExplItp), EXPL_SOLVES);
}

#[test]
fn pred_cart_with_sequence_interpolants() {
    check_config(&cfg(DomainKind::PredCart, Refinement::SeqItp), PRED_SOLVES);
}

#[test]
fn pred_bool_with_sequence_interpolants() {
    check_config(&cfg(DomainKind::PredBool, Refinement::SeqItp), PRED_SOLVES);
}

#[test]
fn pred_split_with_sequence_interpolants() {
    check_config(&cfg(DomainKind::PredSplit, Refinement::SeqItp), PRED_SOLVES);
}

#[test]
fn pred_cart_with_binary_interpolants() {
    // backward binary interpolation refines one location per counterexample: enough here
    check_config(
        &cfg(DomainKind::PredCart, Refinement::BwBinItp),
        PRED_SOLVES,
    );
    // forward binary interpolation often cannot (Hajdu & Micskei, Sect. 4.2.4): never wrong, and it
    // refutes the unsafe ones, whose traces become feasible
    check_config(
        &cfg(DomainKind::PredCart, Refinement::FwBinItp),
        &["counter-unsat", "flags-unsat", "equal-unsat", "locs-unsat"],
    );
}

#[test]
fn search_orders_pruning_granularity_and_splitting() {
    let base = cfg(DomainKind::PredCart, Refinement::SeqItp);
    for search in ["dfs", "err", "err:2:1"] {
        let c = Config {
            search: search.parse().unwrap(),
            ..base.clone()
        };
        check_config(&c, PRED_SOLVES);
    }
    let c = Config {
        prune: Prune::Full,
        ..base.clone()
    };
    check_config(&c, PRED_SOLVES);
    let c = Config {
        precision: Granularity::Global,
        ..base.clone()
    };
    check_config(&c, PRED_SOLVES);
    for split in [Split::Conjuncts, Split::Atoms] {
        let c = Config {
            split,
            domain: DomainKind::PredBool,
            ..base.clone()
        };
        check_config(&c, PRED_SOLVES);
    }
    let c = Config {
        precision: Granularity::Global,
        search: Search::Dfs,
        ..cfg(DomainKind::Expl, Refinement::UnsatCore)
    };
    check_config(&c, EXPL_SOLVES);
}

#[test]
fn max_enum_bounds_the_explicit_successors() {
    let (text, _) = problem("choice-sat");
    for refinement in [Refinement::SeqItp, Refinement::UnsatCore] {
        // three choices of x: with k = 1, x is unknown and the refutation cannot be expressed
        let one = Config {
            max_enum: 1,
            ..cfg(DomainKind::Expl, refinement)
        };
        assert_eq!(run("choice-sat", text, &one, 10), "unknown");
        for k in [3, 0] {
            let c = Config {
                max_enum: k,
                ..one.clone()
            };
            assert_eq!(run("choice-sat", text, &c, 30), "sat", "k = {k}");
        }
    }
}

#[test]
fn impossible_combinations_and_non_linear_clauses_are_rejected() {
    for domain in [
        DomainKind::PredCart,
        DomainKind::PredBool,
        DomainKind::PredSplit,
    ] {
        for refinement in [Refinement::UnsatCore, Refinement::ExplItp] {
            assert!(cfg(domain, refinement).check().is_err());
        }
    }
    assert!(Config::default().check().is_ok());
    assert!("err:2".parse::<Search>().is_err());
    assert!("bogus".parse::<Search>().is_err());
    assert_eq!(
        "err:2:1".parse::<Search>(),
        Ok(Search::Err { w_e: 2, w_d: 1 })
    );
    let sys = parse_str(
        "(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (P y)) (P (+ x y)))))
(assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))
(check-sat)",
    )
    .unwrap();
    let a = Cegar::new(Config::default()).solve(&sys, &engine_smt());
    assert!(
        matches!(&a, Answer::Unknown(Stop::Unsupported(w)) if w.contains("non-linear")),
        "{a:?}"
    );
    let bad = cfg(DomainKind::PredCart, Refinement::UnsatCore);
    let (text, _) = problem("counter-sat");
    let a = Cegar::new(bad).solve(&parse_str(text).unwrap(), &engine_smt());
    assert!(matches!(a, Answer::Unknown(Stop::Unsupported(_))), "{a:?}");
}

#[test]
fn the_cfa_gives_each_location_its_own_variables() {
    let (text, _) = problem("locs-sat");
    let sys = parse_str(text).unwrap();
    let cfa = Cfa::new(&sys).unwrap();
    // init, error, P, Q
    assert_eq!(cfa.locs(), 4);
    let p = Loc::of(crate::chc::PredId(0));
    let q = Loc::of(crate::chc::PredId(1));
    assert_eq!(cfa.vars[p.idx()].len(), 2);
    assert_eq!(cfa.vars[q.idx()].len(), 3);
    assert!(cfa.vars[p.idx()]
        .iter()
        .all(|v| !cfa.vars[q.idx()].contains(v)));
    assert!(cfa.vars[Loc::INIT.idx()].is_empty() && cfa.vars[Loc::ERROR.idx()].is_empty());
    // a fact, two loops, the link P -> Q, two queries
    assert_eq!(cfa.edges.len(), 6);
    assert_eq!(cfa.out[Loc::INIT.idx()].len(), 1);
    assert_eq!(cfa.out[p.idx()].len(), 3);
    // P reaches the error location directly (its query), as does Q
    assert_eq!(cfa.dist_err[p.idx()], Some(1));
    assert_eq!(cfa.dist_err[q.idx()], Some(1));
    assert_eq!(cfa.dist_err[Loc::INIT.idx()], Some(2));
    // an edge's label at position j: source at version j-1, target at version j
    let link = cfa
        .edges
        .iter()
        .position(|e| e.from == p && e.to == q)
        .unwrap();
    let f = cfa.op_at(cfa::EdgeId(link as u32), 3);
    let names: Vec<String> = free_vars(&f).iter().map(|v| v.name.to_string()).collect();
    assert!(names.iter().any(|n| n.ends_with("@2")) && names.iter().any(|n| n.ends_with("@3")));
    assert!(
        names.iter().all(|n| n.ends_with("@2") || n.ends_with("@3")),
        "{names:?}"
    );
}

#[test]
fn the_pipeline_validates_cegar_answers_on_the_original_clauses() {
    for (name, text, expected) in PROBLEMS {
        let opts = Options {
            engines: vec![crate::engine::EngineKind::Cegar],
            timeout: Some(Duration::from_secs(30)),
            engine_options: crate::engine::EngineOptions {
                cegar: Config {
                    domain: DomainKind::PredBool,
                    ..Config::default()
                },
                ..Default::default()
            },
            ..Options::default()
        };
        let out = solve_str(text, &opts).unwrap();
        match &out.verdict {
            Verdict::Sat(m) => {
                validate::check_model(&out.system, m, &z3(), None).unwrap();
            }
            Verdict::Unsat(c) => validate::check_cex(&out.system, c).unwrap(),
            _ => {}
        }
        assert_eq!(out.verdict.word(), *expected, "{name}");
    }
}

#[test]
fn multi_seq_refines_several_counterexamples_at_once() {
    check_config(
        &cfg(DomainKind::PredCart, Refinement::MultiSeq),
        PRED_SOLVES,
    );
    // locs-unsat needs, in the explicit domain with several paths refined at once, the
    // variables that SMTInterpol's sequence interpolants name; the binary backends' name
    // only variables the precision tracks already (then the engine says unknown, never a
    // wrong answer, which check_config checks on every problem)
    let expl: Vec<&str> = match crate::smt::find_solver(crate::smt::SolverKind::SmtInterpol, None) {
        Ok(_) => EXPL_SOLVES.to_vec(),
        Err(e) => {
            crate::testing::missing(crate::smt::SolverKind::SmtInterpol, &e);
            EXPL_SOLVES
                .iter()
                .copied()
                .filter(|&p| p != "locs-unsat")
                .collect()
        }
    };
    check_config(&cfg(DomainKind::Expl, Refinement::MultiSeq), &expl);
    // exploring everything: the unsafe problems and the finite explicit ones
    let all = Config {
        max_cex: 0,
        ..cfg(DomainKind::Expl, Refinement::MultiSeq)
    };
    check_config(
        &all,
        &["counter-sat", "counter-unsat", "flags-sat", "flags-unsat"],
    );
}

#[test]
fn multi_seq_refines_only_the_paths_without_an_earlier_refinement() {
    // root -> a -> b, root -> c -> d (locations and edges do not matter here)
    let mut arg: Arg<()> = Arg::new(());
    let root = arg::NodeId(0);
    let e = cfa::EdgeId(0);
    let l = Loc::of(crate::chc::PredId(0));
    let a = arg.add(l, (), Some((root, e)));
    let b = arg.add(l, (), Some((a, e)));
    let c = arg.add(l, (), Some((root, e)));
    let d = arg.add(l, (), Some((c, e)));
    assert!(arg.is_ancestor(root, b) && arg.is_ancestor(a, b));
    assert!(!arg.is_ancestor(b, a) && !arg.is_ancestor(a, a) && !arg.is_ancestor(c, b));
    // b lies below a: its path waits; d is on its own; two paths at one node both refine
    assert_eq!(refine::minimal_set(&arg, &[b, a, d]), vec![1, 2]);
    assert_eq!(refine::minimal_set(&arg, &[b, d, b]), vec![0, 1, 2]);
    assert_eq!(refine::minimal_set(&arg, &[d, c, a, b, root]), vec![4]);
    // a pruned subtree leaves its parent unexpanded and its nodes dead
    arg.prune_below_parent(b);
    assert!(!arg.node(b).alive && arg.node(a).alive && arg.node(d).alive);
    arg.prune_all();
    assert!(!arg.node(a).alive && !arg.node(d).alive && arg.node(root).alive);
    assert_eq!(arg.unmarked().collect::<Vec<_>>(), vec![root]);
}
