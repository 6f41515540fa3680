//! Builds a CHC problem in code, without text, and solves it with chosen engines, cores
//! and a time limit.
//!
//! ```sh
//! cargo run --release --example build_in_code -- [STEP]
//! ```
//! The problem: `x = 0 => Inv(x)`, `Inv(x) /\ y = x + STEP => Inv(y)`,
//! `Inv(x) /\ x = 7 => false`. The answer is `unsat` when STEP divides 7 (e.g. 1), else
//! `sat` (the default STEP 2 keeps `x` even); the example checks it.

use chcsolve::chc::{ChcSystem, Clause, PredApp, PredDecl, PredId};
use chcsolve::engine::EngineKind;
use chcsolve::logic::*;
use chcsolve::{solve_system, Options, Verdict};
use std::time::Duration;

fn main() {
    let step: i64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("an integer step"))
        .unwrap_or(2);
    let x = mk_var("x", Sort::Int);
    let y = mk_var("y", Sort::Int);
    let inv = PredId(0);
    let app = |t: &Term| PredApp {
        pred: inv,
        args: vec![t.clone()],
    };
    let sys = ChcSystem {
        preds: vec![PredDecl {
            name: "Inv".into(),
            sorts: vec![Sort::Int],
        }],
        clauses: vec![
            Clause {
                body: vec![],
                constraint: mk_eq(x.clone(), mk_int(0)),
                head: Some(app(&x)),
                line: 0,
            },
            Clause {
                body: vec![app(&x)],
                constraint: mk_eq(y.clone(), mk_add(vec![x.clone(), mk_int(step)])),
                head: Some(app(&y)),
                line: 0,
            },
            Clause {
                body: vec![app(&x)],
                constraint: mk_eq(x.clone(), mk_int(7)),
                head: None,
                line: 0,
            },
        ],
        ..ChcSystem::default()
    };
    print!("{sys}");
    for (engines, jobs) in [(vec![], Some(2)), (vec![EngineKind::Pdr], None)] {
        let opts = Options {
            engines: engines.clone(),
            jobs,
            timeout: Some(Duration::from_secs(20)),
            ..Options::default()
        };
        let out = solve_system(sys.clone(), &opts).expect("solvers found");
        let names: Vec<&str> = engines.iter().map(|e| e.name()).collect();
        println!(
            "engines {:?} (empty: the default schedule), jobs {jobs:?}: {} (by {})",
            names,
            out.verdict.word(),
            out.stats.winner.unwrap_or("none")
        );
        let want = if step > 0 && 7 % step == 0 {
            "unsat"
        } else {
            "sat"
        };
        assert_eq!(out.verdict.word(), want, "{:?}", out.verdict);
        if let Verdict::Sat(m) = &out.verdict {
            println!("{}", chcsolve::witness::model_to_smtlib(&out.system, m));
        }
    }
}
