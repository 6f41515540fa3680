//! The engine boundary: every engine is built from the one options value and answers on the
//! clause graph; transition-system answers come back as certificates of the clauses.

use super::*;
use crate::engine::{EngineKind, EngineOptions, Named};
use crate::testing::{engine_smt, z3};
use crate::validate;
use std::sync::Arc;

/// The preprocessed clause graph of a bench-chc file, as the portfolio gets it.
fn problem(path: &str) -> Problem {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let sys = crate::frontend::parse_str(&text).unwrap();
    let (psys, _) = crate::frontend::passes::preprocess(&sys);
    Problem {
        ts: crate::ts::TsAdapter::new(&psys).map(Arc::new),
        features: crate::chc::Features::of(&sys).preprocessed(&psys),
        input: None,
        graph: Arc::new(psys),
        seeds: Default::default(),
    }
}

#[test]
fn every_engine_is_built_from_the_options_and_named_as_the_cli_names_it() {
    let opts = EngineOptions::default();
    for &e in EngineKind::ALL {
        let engine = e.make(&opts);
        // spacer-local is Spacer with another setting
        let expected = if e == EngineKind::SpacerLocal {
            "spacer"
        } else {
            e.name()
        };
        assert_eq!(engine.name(), expected);
        assert_eq!(e.name().parse::<EngineKind>(), Ok(e));
    }
    let err = "tpa2".parse::<EngineKind>().unwrap_err();
    assert!(err.contains("split-tpa") && err.contains("`tpa2`"), "{err}");
}

/// A transition-system engine's invariant and path come back as a model and a derivation
/// of the clause graph, which the validator accepts on that graph.
#[test]
fn transition_system_answers_come_back_as_certificates_of_the_clauses() {
    let opts = EngineOptions::default();
    let safe = problem("bench-chc/gen/counter-10-sat.smt2");
    match EngineKind::Pdr.make(&opts).solve(&safe, &engine_smt()) {
        Answer::Safe(m) => validate::check_model(&safe.graph, &m, &z3(), None)
            .unwrap_or_else(|e| panic!("pdr's model rejected: {e}")),
        a => panic!("pdr: {a:?}"),
    }
    let bad = problem("bench-chc/gen/counter-10-unsat.smt2");
    for e in [EngineKind::Bmc, EngineKind::Kind, EngineKind::Pdr] {
        match e.make(&opts).solve(&bad, &engine_smt()) {
            Answer::Unsafe(cex) => validate::check_cex(&bad.graph, &cex)
                .unwrap_or_else(|err| panic!("{}: derivation rejected: {err}", e.name())),
            a => panic!("{}: {a:?}", e.name()),
        }
    }
    // ABMC's accelerated path: certified segment by segment, or expanded
    match EngineKind::Abmc.make(&opts).solve(&bad, &engine_smt()) {
        Answer::UnsafeAccel(a) => {
            let acex = a.segments(&bad.graph).expect("its segments map to clauses");
            validate::check_accel_cex(&bad.graph, &acex, &z3(), None).unwrap();
            let (cex, steps) = a.expand(None).unwrap();
            assert_eq!(steps, 10);
            validate::check_cex(&bad.graph, &cex).unwrap();
        }
        Answer::Unsafe(cex) => validate::check_cex(&bad.graph, &cex).unwrap(),
        a => panic!("abmc: {a:?}"),
    }
}

#[test]
fn a_transition_system_engine_steps_aside_on_non_linear_clauses() {
    let p = Problem {
        ts: None,
        ..problem("bench-chc/gen/counter-10-sat.smt2")
    };
    match EngineKind::Pdr
        .make(&EngineOptions::default())
        .solve(&p, &engine_smt())
    {
        Answer::Unknown(Stop::Unsupported(why)) => assert!(why.contains("non-linear")),
        a => panic!("pdr on a non-linear problem: {a:?}"),
    }
}

#[test]
fn counters_are_typed() {
    assert_eq!(Counter::from(3usize), Counter::Count(3));
    assert_eq!(Counter::from("z3"), Counter::Text("z3".into()));
    assert_eq!(Counter::Seconds(0.25).to_string(), "0.250");
}
