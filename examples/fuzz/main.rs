//! A self-contained mutation fuzzer for chcsolve's input-facing code, on stable Rust (no
//! cargo-fuzz, no libFuzzer, no new dependency). `scripts/fuzz` wraps it:
//!
//!     cargo run --release --example fuzz -- --seconds 60 [--out DIR] [--seed K]
//!         [--targets smtlib,fixedpoint,reply,passes] [--budget-ms 2000] [--seeds DIR]...
//!     cargo run --release --example fuzz -- --replay FILE [--targets smtlib]   # one input
//!
//! Targets, each call in `catch_unwind` (a panic is a crash; a call over `--budget-ms` of
//! CPU time, default 2000, is a hang, kept in `OUT/hangs/` and not in the corpus):
//!
//! * `smtlib`: `parse_script` on CHC-COMP text (seeds: `bench-chc/`, the shared bench sets);
//! * `fixedpoint`: `parse_script` on z3 fixedpoint text (seeds: `bench-chc/fixedpoint/` and a
//!   few written here);
//! * `reply`: every reader of SMT solver answers (`chcsolve::smt::fuzz_answer_readers`: the
//!   s-expression reader, values, literals, `parse_term`, `parse_goals`, rsmt2's parsers);
//! * `passes`: mutants that still parse, pushed through `preprocess`, the transition-system
//!   construction (`TsAdapter::new`), the back-translation of a trivial model, and the
//!   evaluation of every clause constraint at zero. No SMT solver is started.
//!
//! Mutations: byte-level (flip, insert, delete, duplicate ranges) and s-expression-level
//! (swap, duplicate, delete and splice subterms, numerals moved or made huge, symbols
//! replaced by others seen in the corpus, command names and whole commands inserted,
//! parentheses unbalanced, deep nesting, quantifier/let/annotation wrappers, long argument
//! lists). A mutant is kept in the corpus when it gives its target a new outcome
//! signature (an error message with its numbers and quoted names blanked, or the shape of
//! a parsed system): a coarse stand-in for coverage feedback.
//!
//! The process is a supervisor that runs the fuzzing loop in a child process (itself with
//! `--worker`), so that a crash the loop cannot catch (a stack overflow, an abort, memory
//! exhaustion) or a call that never returns is recorded too: the child writes each input
//! to `OUT/.current` before running it; when the child dies, or prints no heartbeat for
//! `max(10 s, 5 budgets)` of CPU time, the supervisor keeps that input as a crash (or hang) and starts a
//! new child. The corpus (`OUT/corpus/TARGET/`), crashes (`OUT/crashes/`, input and
//! message) and hangs (`OUT/hangs/`) stay in `OUT` between runs.
//!
//! The last line printed: `fuzz: executions N, unique crashes C, hangs H, corpus S ...`;
//! the exit code is 1 when there was a crash.

mod mutate;
mod util;
mod worker;

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use util::*;
use worker::*;

const TARGETS: [&str; 4] = ["smtlib", "fixedpoint", "reply", "passes"];
const MAX_LEN: usize = 256 * 1024;
const MAX_SEED: u64 = 24 * 1024;

// ------------------------------------------------------------------ options

pub(crate) struct Opts {
    seconds: f64,
    out: PathBuf,
    seed: u64,
    targets: Vec<usize>,
    budget: Duration,
    seeds: Vec<PathBuf>,
    worker: bool,
    replay: Vec<PathBuf>,
}

pub(crate) fn usage(msg: &str) -> ! {
    eprintln!("fuzz: {msg}");
    eprintln!(
        "usage: fuzz [--seconds N] [--out DIR] [--seed K] [--targets a,b] [--budget-ms MS] [--seeds DIR]..."
    );
    std::process::exit(2)
}

pub(crate) fn opts() -> Opts {
    let tmp = std::env::var("TMPDIR").unwrap_or_else(|_| "/tmp".into());
    let mut o = Opts {
        seconds: 60.0,
        out: Path::new(&tmp).join("chcsolve-fuzz"),
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
        targets: (0..TARGETS.len()).collect(),
        budget: Duration::from_millis(2000),
        seeds: vec![],
        worker: false,
        replay: vec![],
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let val = |i: &mut usize| -> String {
        *i += 1;
        args.get(*i)
            .cloned()
            .unwrap_or_else(|| usage(&format!("{} needs a value", args[*i - 1])))
    };
    while i < args.len() {
        match args[i].as_str() {
            "--seconds" => {
                o.seconds = val(&mut i)
                    .parse()
                    .unwrap_or_else(|_| usage("bad --seconds"))
            }
            "--out" => o.out = PathBuf::from(val(&mut i)),
            "--seed" => o.seed = val(&mut i).parse().unwrap_or_else(|_| usage("bad --seed")),
            "--budget-ms" => {
                o.budget = Duration::from_millis(
                    val(&mut i)
                        .parse()
                        .unwrap_or_else(|_| usage("bad --budget-ms")),
                )
            }
            "--seeds" => o.seeds.push(PathBuf::from(val(&mut i))),
            "--targets" => {
                o.targets = val(&mut i)
                    .split(',')
                    .map(|t| {
                        TARGETS
                            .iter()
                            .position(|n| *n == t)
                            .unwrap_or_else(|| usage(&format!("unknown target {t}")))
                    })
                    .collect()
            }
            "--worker" => o.worker = true,
            "--replay" => o.replay.push(PathBuf::from(val(&mut i))),
            a => usage(&format!("unknown argument {a}")),
        }
        i += 1;
    }
    if o.seeds.is_empty() {
        o.seeds.push(PathBuf::from("bench-chc"));
    }
    o
}

// ------------------------------------------------------------------ supervisor

fn supervisor(o: Opts) -> i32 {
    for d in ["crashes", "hangs"] {
        std::fs::create_dir_all(o.out.join(d)).expect("cannot create the output directory");
    }
    for t in TARGETS {
        std::fs::create_dir_all(o.out.join("corpus").join(t)).expect("cannot create corpus dir");
    }
    let start = Instant::now();
    let total = Duration::from_secs_f64(o.seconds);
    let watchdog = (o.budget * 5).max(Duration::from_secs(10));
    let exe = std::env::current_exe().expect("current_exe");
    let mut crash_keys: HashSet<String> = HashSet::new();
    let mut hangs = 0usize;
    let mut execs_done = 0u64;
    let mut corpus = 0usize;
    let mut restarts = 0;
    let mut seed = o.seed;
    let targets = o
        .targets
        .iter()
        .map(|&t| TARGETS[t])
        .collect::<Vec<_>>()
        .join(",");
    // The inputs tried follow from the seed, the seed files and the corpus at the start
    // (no clock): the same command on a fresh corpus tries the same inputs in the same order
    // (how far it gets in the time depends on the machine).
    let earlier = std::fs::read_dir(o.out.join("corpus"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|d| std::fs::read_dir(d.path()).map_or(0, |d| d.count()))
        .sum::<usize>();
    let rerun = format!(
        "scripts/fuzz --seed {} --seconds {} --targets {targets} --budget-ms {} --out {}",
        o.seed,
        o.seconds,
        o.budget.as_millis(),
        if earlier == 0 {
            "\"$(mktemp -d)\"".to_string()
        } else {
            format!("COPY-OF-{}", o.out.display())
        }
    );
    println!(
        "fuzz: seed {}, {} s, targets {targets}, out {}, seed files {}, corpus of earlier runs {earlier} inputs",
        o.seed,
        o.seconds,
        o.out.display(),
        o.seeds
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" "),
    );
    if earlier == 0 {
        println!("fuzz: to rerun: {rerun}");
    } else {
        println!(
            "fuzz: to rerun: {rerun} (COPY-OF-{0}: a copy of {0} as it is now, before this run adds to its corpus)",
            o.out.display()
        );
    }
    while start.elapsed() + Duration::from_millis(500) < total && restarts < 200 {
        let left = total - start.elapsed();
        let mut cmd = Command::new(&exe);
        cmd.arg("--worker")
            .args(["--seconds", &format!("{:.3}", left.as_secs_f64())])
            .arg("--out")
            .arg(&o.out)
            .args(["--seed", &seed.to_string()])
            .args(["--budget-ms", &o.budget.as_millis().to_string()])
            .args([
                "--targets",
                &o.targets
                    .iter()
                    .map(|&t| TARGETS[t])
                    .collect::<Vec<_>>()
                    .join(","),
            ]);
        for s in &o.seeds {
            cmd.arg("--seeds").arg(s);
        }
        let stderr = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(o.out.join("worker.stderr"))
            .expect("worker.stderr");
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("cannot start the worker");
        let out = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let mut last = Instant::now();
        let mut last_cpu = Duration::ZERO;
        let (mut w_execs, mut w_corpus) = (0u64, 0usize);
        let mut hung = false;
        loop {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(l) => {
                    last = Instant::now();
                    last_cpu = process_cpu(child.id()).unwrap_or_default();
                    let mut it = l.splitn(2, ' ');
                    match (it.next(), it.next()) {
                        (Some("B"), Some(rest)) => {
                            let v: Vec<u64> =
                                rest.split(' ').filter_map(|x| x.parse().ok()).collect();
                            if v.len() == 3 {
                                w_execs = v[0];
                                w_corpus = v[2] as usize;
                            }
                        }
                        (Some("C"), Some(key)) if crash_keys.insert(key.to_string()) => {
                            println!(
                                "fuzz: crash {key} (input in {})",
                                o.out.join("crashes").display()
                            );
                        }
                        (Some("H"), Some(name)) => {
                            hangs += 1;
                            println!(
                                "fuzz: hang {name} (over the {} ms CPU budget)",
                                o.budget.as_millis()
                            );
                        }
                        _ => {}
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    // CPU time spent since the last heartbeat (wall time only as a backstop,
                    // for a worker that blocks without computing)
                    let cpu = process_cpu(child.id()).unwrap_or_default();
                    if cpu.saturating_sub(last_cpu) > watchdog || last.elapsed() > watchdog * 30 {
                        let _ = child.kill();
                        hung = true;
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        let status = child.wait().expect("wait");
        execs_done += w_execs;
        corpus = corpus.max(w_corpus);
        if status.success() && !hung {
            break;
        }
        // the worker died or hung on the input in OUT/.current
        let cur = std::fs::read(o.out.join(".current")).unwrap_or_default();
        let nl = cur.iter().position(|&c| c == b'\n').unwrap_or(0);
        let target = String::from_utf8_lossy(&cur[..nl]).to_string();
        let input = cur.get(nl + 1..).unwrap_or_default().to_vec();
        let h = hash_of(&input);
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(o.out.join(".skip"))
        {
            let _ = writeln!(f, "{h:016x}");
        }
        let name = format!("{target}-{h:016x}");
        if hung {
            hangs += 1;
            let _ = std::fs::write(o.out.join("hangs").join(format!("{name}.in")), &input);
            println!(
                "fuzz: hang {name}: no heartbeat in {} s of CPU, worker killed",
                watchdog.as_secs()
            );
        } else {
            let key = format!("{target}:died {status}");
            let _ = std::fs::write(o.out.join("crashes").join(format!("{name}.in")), &input);
            let _ = std::fs::write(
                o.out.join("crashes").join(format!("{name}.txt")),
                format!("worker died: {status}; see worker.stderr\n"),
            );
            if crash_keys.insert(key.clone()) {
                println!("fuzz: crash {key} (input {name}.in)");
            }
        }
        restarts += 1;
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
    }
    let mut by_target: HashMap<&str, usize> = HashMap::new();
    for t in TARGETS {
        let n = std::fs::read_dir(o.out.join("corpus").join(t)).map_or(0, |d| d.count());
        by_target.insert(t, n);
    }
    println!(
        "fuzz: executions {execs_done}, unique crashes {}, hangs {hangs}, corpus {corpus} ({} saved in {}) in {:.0} s",
        crash_keys.len(),
        by_target.values().sum::<usize>(),
        o.out.join("corpus").display(),
        start.elapsed().as_secs_f64()
    );
    if !crash_keys.is_empty() {
        println!("fuzz: FAILED with seed {}; to rerun: {rerun}", o.seed);
        println!(
            "fuzz: to replay one saved crash alone: cargo run --release --example fuzz -- --replay {}/FILE.in --targets TARGET",
            o.out.join("crashes").display()
        );
    }
    i32::from(!crash_keys.is_empty())
}

/// `--replay FILE`: runs the targets on saved inputs (crashes, hangs) in this process and
/// prints each outcome and CPU time; a panic is printed as such.
fn replay(o: &Opts) {
    for f in &o.replay {
        let input = std::fs::read(f).unwrap_or_else(|e| usage(&format!("{}: {e}", f.display())));
        for &t in &o.targets {
            let cpu0 = thread_cpu();
            let r = catch_unwind(AssertUnwindSafe(|| run_target(t, &input)));
            let took = thread_cpu().saturating_sub(cpu0).as_secs_f64();
            let what = match r {
                Ok(sig) => sig.chars().take(120).collect::<String>(),
                Err(_) => "PANIC".into(),
            };
            println!("{} {}: {took:.3} s: {what}", f.display(), TARGETS[t]);
        }
    }
}

fn main() {
    let o = opts();
    if !o.replay.is_empty() {
        let o2 = Opts {
            replay: o.replay.clone(),
            ..o
        };
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn(move || replay(&o2))
            .expect("thread")
            .join()
            .expect("replay");
        return;
    }
    if o.worker {
        worker(o);
    } else {
        std::process::exit(supervisor(o));
    }
}
