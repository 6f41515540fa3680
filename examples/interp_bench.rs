//! Measures the interpolation backends on sequence interpolation problems taken from BMC
//! unrollings of CHC files: for each linear file of a list, the deepest bound `k <= K` at
//! which `Init(s0) /\ T(s0,s1) /\ ... /\ T(s(k-1),sk) /\ Query(sk)` is unsatisfiable gives
//! the sequence `[Init /\ T0, T1, ..., T(k-1) /\ Query]` (the cuts are the states `s1..s(k-1)`).
//! Every backend is asked every problem; each answer is checked by the interpolation layer.
//!
//! ```sh
//! cargo run --release --example interp_bench -- LIST.tsv [--every N] [--depth K] [--timeout S]
//! ```
//!
//! Prints one line per problem (to stderr) and a table per backend: problems answered
//! (checked interpolants), unknown, check failures, total and median time, mean DAG size.

use chcsolve::frontend::{parse_str, passes::preprocess};
use chcsolve::interp::{Backend, Interp, InterpConfig, Interpolator};
use chcsolve::logic::{dag_size, mk_and, Term};
use chcsolve::smt::{find_solver, KillSwitch, SatResult, Smt, SolverConfig, SolverKind};
use chcsolve::ts::TsAdapter;
use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut list = None;
    let (mut every, mut depth, mut timeout) = (1usize, 4usize, 5u64);
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--every" => {
                every = args[i + 1].parse().unwrap();
                i += 1
            }
            "--depth" => {
                depth = args[i + 1].parse().unwrap();
                i += 1
            }
            "--timeout" => {
                timeout = args[i + 1].parse().unwrap();
                i += 1
            }
            a => list = Some(a.to_string()),
        }
        i += 1;
    }
    let list = list.expect("usage: interp_bench LIST.tsv [--every N] [--depth K] [--timeout S]");
    let dir = Path::new(&list).parent().unwrap().to_path_buf();
    let text = std::fs::read_to_string(&list).unwrap();
    let files: Vec<String> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next().map(str::to_string))
        .enumerate()
        .filter(|(i, _)| i % every == 0)
        .map(|(_, f)| f)
        .collect();

    let yices = SolverConfig::new(
        SolverKind::Yices,
        find_solver(SolverKind::Yices, None).unwrap(),
    );
    let kill = KillSwitch::new();
    let base = SolverConfig {
        kill: kill.clone(),
        ..yices.clone()
    };
    let mut cfg = InterpConfig::for_engine(&Backend::ALL, &base);
    cfg.timeout = Duration::from_secs(timeout);
    let backends = cfg.backends.clone();
    let mut ip = Interpolator::new(cfg);
    // per backend: answered, unknown, failures, times, sizes
    let mut rows: Vec<(usize, usize, usize, Vec<f64>, Vec<usize>)> =
        backends.iter().map(|_| (0, 0, 0, vec![], vec![])).collect();
    let mut problems = 0;
    for f in &files {
        let Some(parts) = problem(&dir.join(f), depth, &yices) else {
            continue;
        };
        problems += 1;
        let size: usize = parts.iter().map(dag_size).sum();
        let mut line = format!("{f}: {} parts, size {size}:", parts.len());
        for (j, (b, _)) in backends.iter().enumerate() {
            let t = Instant::now();
            let r = ip.ask(j, &parts);
            let secs = t.elapsed().as_secs_f64();
            let row = &mut rows[j];
            match r {
                Interp::Interpolant(itps) => {
                    row.0 += 1;
                    row.3.push(secs);
                    let s: usize = itps.iter().map(dag_size).sum();
                    row.4.push(s);
                    line += &format!(" {b} {secs:.2}s/{s}");
                }
                Interp::Sat(_) => {
                    row.2 += 1;
                    line += &format!(" {b} SAT?");
                }
                Interp::Unknown(e) => {
                    if e.contains("check failed") {
                        row.2 += 1;
                    } else {
                        row.1 += 1;
                    }
                    row.3.push(secs);
                    line += &format!(" {b} - ({})", e.chars().take(80).collect::<String>());
                }
            }
        }
        eprintln!("{line}");
    }
    println!(
        "{} files, {problems} problems (depth <= {depth}, {timeout} s per query)",
        files.len()
    );
    println!("| backend | answered | unknown | check failures | total time | median time | mean interpolant size |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for ((b, _), (ok, unk, fail, mut times, sizes)) in backends.iter().zip(rows) {
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let total: f64 = times.iter().sum();
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        let mean = if sizes.is_empty() {
            0.0
        } else {
            sizes.iter().sum::<usize>() as f64 / sizes.len() as f64
        };
        println!(
            "| {b} | {ok} of {problems} | {unk} | {fail} | {total:.1} s | {median:.3} s | {mean:.1} |"
        );
    }
}

/// The sequence problem of one file, or `None` (non-linear, unreadable, counterexample
/// before depth 1, or nothing unsatisfiable).
fn problem(path: &Path, depth: usize, cfg: &SolverConfig) -> Option<Vec<Term>> {
    let text = std::fs::read_to_string(path).ok()?;
    let sys = parse_str(&text).ok()?;
    let (psys, _) = preprocess(&sys);
    let ad = TsAdapter::new(&psys)?;
    let ts = &ad.ts;
    let mut smt = Smt::new(cfg, "interp-bench-bmc").ok()?;
    let mut best = None;
    for k in 1..=depth {
        let mut parts = vec![];
        for i in 0..k {
            let mut p = vec![ts.at(&ts.trans, i)];
            if i == 0 {
                p.insert(0, ts.at(&ts.init, 0));
            }
            if i == k - 1 {
                p.push(ts.at(&ts.query, k));
            }
            parts.push(mk_and(p));
        }
        if parts.len() < 2 {
            continue;
        }
        smt.push().ok()?;
        smt.assert(&mk_and(parts.clone())).ok()?;
        let r = smt.check_sat().ok()?;
        smt.pop().ok()?;
        match r {
            SatResult::Unsat => best = Some(parts),
            _ => break,
        }
    }
    best
}
