//! Solves a CHC-COMP file and walks the answer: the model per predicate, or the
//! counterexample step by step.
//!
//! ```sh
//! cargo run --release --example solve_file -- [FILE.smt2] [--timeout SECS]
//! ```
//! Without a file it solves `bench-chc/gen/counter-10-unsat.smt2` and
//! `bench-chc/gen/counter-10-sat.smt2`.

use chcsolve::{solve_str, Options, Verdict};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut files = vec![];
    let mut opts = Options::default();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--timeout" {
            opts.timeout = Some(Duration::from_secs_f64(
                args[i + 1].parse().expect("seconds"),
            ));
            i += 1;
        } else {
            files.push(args[i].clone());
        }
        i += 1;
    }
    if files.is_empty() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/bench-chc/gen");
        files = vec![
            format!("{dir}/counter-10-unsat.smt2"),
            format!("{dir}/counter-10-sat.smt2"),
        ];
    }
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let out = match solve_str(&text, &opts) {
            Ok(out) => out,
            Err(e) => {
                println!("{file}: {e}");
                std::process::exit(1);
            }
        };
        println!("{file}: {}", out.verdict.word());
        match &out.verdict {
            Verdict::Sat(model) => {
                for pid in out.system.pred_ids() {
                    let decl = out.system.pred(pid);
                    let params: Vec<String> =
                        decl.params().iter().map(|v| v.name.to_string()).collect();
                    match model.get(&pid) {
                        Some(f) => println!("  {}({}) := {f}", decl.name, params.join(", ")),
                        None => println!("  {}({}) := false", decl.name, params.join(", ")),
                    }
                }
            }
            Verdict::SatKInductive { k, .. } => println!("  a {k}-inductive invariant"),
            Verdict::Unsat(cex) => {
                for (i, step) in cex.iter().enumerate() {
                    let clause = &out.system.clauses[step.clause.idx()];
                    let head = match &clause.head {
                        Some(h) => out.system.pred(h.pred).name.clone(),
                        None => "false".into(),
                    };
                    let mut vals: Vec<String> = step
                        .vals
                        .iter()
                        .map(|(v, x)| format!("{}={x}", v.name))
                        .collect();
                    vals.sort();
                    println!(
                        "  step {i}: clause at line {} derives {head} from steps {:?}; {}",
                        clause.line,
                        step.premises,
                        vals.join(" ")
                    );
                }
            }
            Verdict::UnsatAccelerated(cex) => {
                println!("{}", chcsolve::witness::accel_cex_to_text(&out.system, cex))
            }
            Verdict::Unknown(why) => println!("  ({why})"),
        }
        println!(
            "  validated: {} of {} checks passed, winner {}",
            out.stats.validations - out.stats.validation_failures,
            out.stats.validations,
            out.stats.winner.unwrap_or("none")
        );
    }
}
