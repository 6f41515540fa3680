//! The library from many threads: eight `solve_str` calls at once in one process (different
//! files, different time limits, one with a memory limit it passes) answer as eight
//! separate calls do; one call's limits and statistics do not leak into the others.

mod common;

use chcsolve::{solve_str, Options};
use common::bench_dir;
use std::time::Duration;

/// Counts the heap, as the binary does, so that the memory limit is a real one.
#[global_allocator]
static ALLOC: chcsolve::mem::CountingAlloc = chcsolve::mem::CountingAlloc;

/// (file, time limit in seconds, memory limit in MB)
const RUNS: [(&str, u64, Option<u64>); 8] = [
    ("cegar/choice-sat.smt2", 40, None),
    ("cegar/equal-sat.smt2", 45, None),
    ("cegar/flags-unsat.smt2", 50, None),
    ("gen/chain-20-sat.smt2", 55, None),
    ("gen/chain-5-unsat.smt2", 60, None),
    ("gen/div2-sat.smt2", 65, None),
    ("gen/mod3-unsat.smt2", 70, None),
    // far below what the process already holds: this one stops at its limit
    ("gen/divneg-unsat.smt2", 40, Some(2)),
];

fn run(i: usize) -> (String, u32, u32) {
    let (file, secs, mb) = RUNS[i];
    let text = std::fs::read_to_string(bench_dir().join(file)).unwrap();
    let opts = Options {
        timeout: Some(Duration::from_secs(secs)),
        memory_limit: mb,
        jobs: Some(1),
        ..Options::default()
    };
    let out = solve_str(&text, &opts).unwrap();
    let word = match &out.verdict {
        chcsolve::Verdict::Unknown(chcsolve::Reason::MemoryLimit(_)) => "unknown (memory)",
        chcsolve::Verdict::Unknown(why) => {
            eprintln!("{file}: unknown: {why}");
            "unknown"
        }
        v => v.word(),
    };
    (word.to_string(), out.stats.judgments, out.stats.validations)
}

#[test]
fn eight_solves_at_once_answer_as_alone() {
    // the process's heap stays over the 2 MB limit of the last run throughout
    let ballast = std::hint::black_box(vec![1u8; 8 << 20]);
    let alone: Vec<_> = (0..RUNS.len()).map(run).collect();
    let together: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..RUNS.len()).map(|i| s.spawn(move || run(i))).collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (i, (a, t)) in alone.iter().zip(&together).enumerate() {
        assert_eq!(a, t, "{}: alone {a:?}, together {t:?}", RUNS[i].0);
    }
    // the memory-limited run stopped at its limit, the others answered and were judged once
    assert_eq!(alone[7].0, "unknown (memory)");
    for (w, judged, _) in &alone[..7] {
        assert!(w == "sat" || w == "unsat", "{alone:?}");
        assert_eq!(*judged, 1, "{alone:?}");
    }
    drop(ballast);
}
