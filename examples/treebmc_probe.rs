//! Runs the derivation-tree unfolding alone on one file and judges its answer (a
//! measurement aid): prints `unsat` (judged), `unknown` and why, and the time.
use chcsolve::engine::treebmc::{golem, read, search, Limits, SearchStats};
use chcsolve::judge::{judge, JudgeSolver, Judgment, Witness};
use chcsolve::smt::{KillSwitch, SolverConfig, SolverKind};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: treebmc_probe FILE.smt2 [SECONDS]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path).expect("read");
    let secs: f64 = args.get(2).map_or(5.0, |s| s.parse().unwrap());
    let z3 = std::path::PathBuf::from(std::env::var("CHCSOLVE_Z3").expect("CHCSOLVE_Z3"));
    let cfg = SolverConfig::new(SolverKind::Z3, z3.clone());
    let t = Instant::now();
    let deadline = Some(t + Duration::from_secs_f64(secs));
    let cs = match read(&text) {
        Ok(c) => c,
        Err(e) => return println!("unknown (unread: {e}) {:.2}", t.elapsed().as_secs_f64()),
    };
    let mut st = SearchStats::default();
    match search(
        &cs,
        &cfg,
        &KillSwitch::new(),
        deadline,
        Limits::default(),
        &mut st,
    ) {
        Ok(d) => {
            let g = golem(&cs, &d);
            let j = judge(
                &text,
                0,
                Witness::Derivation(&g),
                &[JudgeSolver::Z3(z3)],
                None,
            );
            let w = if j == Judgment::Accepted {
                "unsat"
            } else {
                "REJECTED"
            };
            println!(
                "{w} steps {} nodes {} checks {} {:.2} {:?}",
                d.steps.len(),
                st.nodes,
                st.checks,
                t.elapsed().as_secs_f64(),
                j
            );
        }
        Err(e) => println!(
            "unknown {e:?} nodes {} checks {} {:.2}",
            st.nodes,
            st.checks,
            t.elapsed().as_secs_f64()
        ),
    }
}
