//! The worker: the targets, the seeds and the fuzzing loop.

use super::mutate::*;
use super::util::*;
use super::*;
use std::collections::HashSet;
use std::io::{Seek, SeekFrom, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

// ------------------------------------------------------------------ targets

/// Runs target `t` on `input`; returns its outcome signature.
pub(crate) fn run_target(t: usize, input: &[u8]) -> String {
    let text = String::from_utf8_lossy(input);
    match TARGETS[t] {
        "smtlib" | "fixedpoint" => match chcsolve::frontend::parse_script(&text) {
            Ok(s) => format!(
                "ok {:?} {} {}",
                s.format,
                bucket(s.systems.len()),
                s.systems
                    .iter()
                    .take(3)
                    .map(|sys| format!(
                        "{}/{}/{}",
                        bucket(sys.preds.len()),
                        bucket(sys.clauses.len()),
                        sys.is_linear()
                    ))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Err(e) => {
                check_error_line(&e);
                format!("err {}", normalize(&e.msg))
            }
        },
        "reply" => normalize(&chcsolve::smt::fuzz_answer_readers(&text)),
        "passes" => passes(&text),
        _ => unreachable!(),
    }
}

/// Bad input must come out as the one line chcsolve prints and exits 1 with:
/// `(error "line N: ...")` (`(error "...")` when no line is at fault). A parser that
/// panicked is an error line now, but still a crash for the fuzzer.
pub(crate) fn check_error_line(e: &chcsolve::frontend::InputError) {
    let line = e.to_string();
    let well_formed = !line.contains('\n')
        && line.starts_with("(error \"")
        && line.ends_with("\")")
        && (e.line == 0 || line.starts_with(&format!("(error \"line {}: ", e.line)));
    assert!(well_formed, "malformed error line: {line}");
    assert!(
        !e.msg.contains("the parser failed"),
        "the parser panicked: {line}"
    );
}

/// The preprocessing pipeline and the transition-system construction on every system of a
/// mutant that parses, as `solve` runs them, plus the back-translation of a trivial model.
pub(crate) fn passes(text: &str) -> String {
    use chcsolve::chc::Model;
    use chcsolve::frontend::passes::{model_back, preprocess};
    use chcsolve::logic::{eval_bool, mk_true, Assignment};
    let script = match chcsolve::frontend::parse_script(text) {
        Ok(s) => s,
        Err(e) => return format!("parse-err {}", normalize(&e.msg)),
    };
    let mut sig = String::new();
    for sys in script.systems.iter().take(4) {
        // every constraint at the all-zero point (errors such as division by zero are fine)
        for c in &sys.clauses {
            let a: Assignment = c
                .vars()
                .into_iter()
                .map(|v| {
                    let val = v.sort.default_value();
                    (v, val)
                })
                .collect();
            let _ = eval_bool(&c.constraint, &a);
        }
        let (psys, backs) = preprocess(sys);
        let ts = chcsolve::ts::TsAdapter::new(&psys);
        let model: Model = match &ts {
            Some(ad) => ad.model(&psys, &mk_true()),
            None => psys.pred_ids().map(|p| (p, mk_true())).collect(),
        };
        let back = model_back(&backs, model);
        sig.push_str(&format!(
            "{}/{}>{}/{}:{}:{} ",
            bucket(sys.preds.len()),
            bucket(sys.clauses.len()),
            bucket(psys.preds.len()),
            bucket(psys.clauses.len()),
            ts.map_or(0, |a| 1 + bucket(a.ts.state.len())),
            bucket(back.len())
        ));
    }
    sig
}

/// 0, 1, 2, then log2 classes.
pub(crate) fn bucket(n: usize) -> usize {
    if n < 3 {
        n
    } else {
        2 + (usize::BITS - n.leading_zeros()) as usize
    }
}

/// An error message with numbers and quoted names blanked, so that it names the code path,
/// not the input.
pub(crate) fn normalize(m: &str) -> String {
    let mut out = String::new();
    let mut in_quote = false;
    let mut last_digit = false;
    for c in m.chars().take(200) {
        if c == '`' {
            in_quote = !in_quote;
            if in_quote {
                out.push_str("`_`");
            }
            continue;
        }
        if in_quote {
            continue;
        }
        if c.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
            continue;
        }
        last_digit = false;
        out.push(c);
    }
    out
}

// ------------------------------------------------------------------ seeds

pub(crate) fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "smt2") {
            out.push(p);
        }
    }
}

pub(crate) const FIXEDPOINT_SEEDS: [&str; 3] = [
    "(declare-rel R (Int Int))\n(declare-var x Int)\n(declare-var y Int)\n(rule (R 0 0))\n\
     (rule (=> (and (R x y) (< x 5)) (R (+ x 1) (+ y 2))))\n(query (R 5 10))\n",
    "(declare-rel inv (Int))\n(declare-rel err ())\n(declare-var n Int)\n(rule (inv 0) first)\n\
     (rule (=> (and (inv n) (not (= n 3))) (inv (+ n 1))) step)\n(rule (=> (inv n) err))\n(query err)\n",
    "(set-option :fixedpoint.engine spacer)\n(declare-rel P (Bool Int))\n(declare-var b Bool)\n\
     (declare-var z Int)\n(rule (P true 1))\n(rule (=> (and (P b z) b) (P (not b) (* 2 z))))\n\
     (query (P false 8) :print-certificate true)\n(query (P true 4))\n",
];

pub(crate) const REPLY_SEEDS: [&str; 16] = [
    "sat",
    "unsat\n",
    "unknown",
    "(error \"line 1 column 5: unknown constant x\")",
    "((x 5) (y (- 3)))",
    "((x (- 123456789012345678901234567890)) (b true))",
    "(goals (goal (<= x 3) (>= y 0) :precision precise :depth 1))",
    "(goals (goal false :precision precise :depth 1) (goal b (= x (+ y 1))))",
    "(let ((a!1 (+ x 1))) (and (<= a!1 y) b))",
    "(! (=> b (= x y)) :named foo)",
    "(|a b| (not b))",
    "(ite b x (div y 3))",
    "(and (= (mod x 2) 0) (distinct x y (abs y)) (< x y 7))",
    "(or (not b) (xor b (>= (* 3 x) (- y))))",
    "(interpolants (<= x 0) (and b (< y 2)))",
    "(model (define-fun x () Int 5) (define-fun b () Bool false))",
];

// ------------------------------------------------------------------ worker

pub(crate) static PANIC: Mutex<Option<String>> = Mutex::new(None);

pub(crate) struct Worker {
    o: Opts,
    m: Mutator,
    corpus: Vec<Vec<Vec<u8>>>,
    seen: HashSet<(usize, String)>,
    crash_keys: HashSet<String>,
    hangs: usize,
    execs: u64,
    current: std::fs::File,
    skip: HashSet<u64>,
    last_beat: Instant,
}

impl Worker {
    pub(crate) fn exec(&mut self, t: usize, input: &[u8]) -> Option<String> {
        // the input where the supervisor finds it if this call never returns
        let _ = self.current.seek(SeekFrom::Start(0));
        let _ = self.current.set_len(0);
        let _ = self
            .current
            .write_all(format!("{}\n", TARGETS[t]).as_bytes());
        let _ = self.current.write_all(input);
        let _ = self.current.flush();
        *PANIC.lock().unwrap() = None;
        let (start, cpu0) = (Instant::now(), thread_cpu());
        let r = catch_unwind(AssertUnwindSafe(|| run_target(t, input)));
        let (wall, took) = (start.elapsed(), thread_cpu().saturating_sub(cpu0));
        self.execs += 1;
        if self.last_beat.elapsed() > Duration::from_millis(500) {
            self.beat();
        }
        match r {
            Ok(sig) => {
                if took > self.o.budget {
                    self.hangs += 1;
                    let name = format!("{}-{:016x}", TARGETS[t], hash_of(input));
                    let dir = self.o.out.join("hangs");
                    let _ = std::fs::write(dir.join(format!("{name}.in")), input);
                    let _ = std::fs::write(
                        dir.join(format!("{name}.txt")),
                        format!(
                            "{} took {:.2} s of CPU ({:.2} s wall)\n",
                            TARGETS[t],
                            took.as_secs_f64(),
                            wall.as_secs_f64()
                        ),
                    );
                    println!("H {name}");
                    // not kept in the corpus: its mutants would be slow too
                    return None;
                }
                Some(sig)
            }
            Err(_) => {
                let msg = PANIC
                    .lock()
                    .unwrap()
                    .take()
                    .unwrap_or_else(|| "panic".into());
                // one crash per target and panic location
                let loc = msg.lines().next().unwrap_or("").to_string();
                let key = format!("{}:{}", TARGETS[t], loc);
                if self.crash_keys.insert(key.clone()) {
                    let name = format!("{}-{:016x}", TARGETS[t], hash_of(&key));
                    let dir = self.o.out.join("crashes");
                    let _ = std::fs::write(dir.join(format!("{name}.in")), input);
                    let _ = std::fs::write(dir.join(format!("{name}.txt")), &msg);
                }
                println!("C {key}");
                None
            }
        }
    }

    /// Keeps `input` for target `t` when its outcome is new.
    pub(crate) fn consider(&mut self, t: usize, input: Vec<u8>, sig: String, save: bool) {
        if self.seen.insert((t, sig)) {
            if save {
                let dir = self.o.out.join("corpus").join(TARGETS[t]);
                let _ = std::fs::write(dir.join(format!("{:016x}", hash_of(&input))), &input);
            }
            self.m.learn(&input);
            self.corpus[t].push(input);
        }
    }

    pub(crate) fn load(&mut self) {
        let mut files = vec![];
        for d in self.o.seeds.clone() {
            collect_files(&d, &mut files);
        }
        let mut seeds: Vec<(usize, Vec<u8>)> = vec![];
        for f in files {
            if std::fs::metadata(&f).map_or(true, |m| m.len() > MAX_SEED) {
                continue;
            }
            let Ok(b) = std::fs::read(&f) else { continue };
            let fp = String::from_utf8_lossy(&b).contains("declare-rel");
            let text_targets: &[usize] = if fp { &[1, 3] } else { &[0, 3] };
            for &t in text_targets {
                seeds.push((t, b.clone()));
            }
            // reply seeds: a few subterms of the file
            for _ in 0..3 {
                let s = self.m.subterm_from(&b).to_vec();
                seeds.push((2, s));
            }
        }
        for s in FIXEDPOINT_SEEDS {
            seeds.push((1, s.as_bytes().to_vec()));
            seeds.push((3, s.as_bytes().to_vec()));
        }
        for s in REPLY_SEEDS {
            seeds.push((2, s.as_bytes().to_vec()));
        }
        // the corpus of earlier runs
        for (t, name) in TARGETS.iter().enumerate() {
            let mut fs: Vec<_> = std::fs::read_dir(self.o.out.join("corpus").join(name))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .collect();
            fs.sort();
            for f in fs {
                if let Ok(b) = std::fs::read(&f) {
                    seeds.push((t, b));
                }
            }
        }
        for (t, b) in seeds {
            if !self.o.targets.contains(&t) || self.skip.contains(&hash_of(&b)) {
                continue;
            }
            if let Some(sig) = self.exec(t, &b) {
                self.consider(t, b, sig, false);
            }
        }
    }

    pub(crate) fn run(&mut self) {
        let deadline = Instant::now() + Duration::from_secs_f64(self.o.seconds);
        self.beat();
        self.load();
        let slice = Duration::from_millis(200);
        let mut ti = self.m.rng.below(self.o.targets.len());
        let mut slice_end = Instant::now() + slice;
        loop {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            if now >= slice_end {
                ti = (ti + 1) % self.o.targets.len();
                slice_end = now + slice;
            }
            let t = self.o.targets[ti];
            if self.corpus[t].is_empty() {
                self.corpus[t].push(b"(check-sat)".to_vec());
            }
            let base = self.m.rng.below(self.corpus[t].len());
            let other = self.m.rng.below(self.corpus[t].len());
            let (base, other) = (self.corpus[t][base].clone(), self.corpus[t][other].clone());
            let mutant = self.m.mutant(&base, &other);
            if let Some(sig) = self.exec(t, &mutant) {
                if self.corpus[t].len() < 20000 {
                    self.consider(t, mutant, sig, true);
                }
            }
        }
        self.beat();
    }

    pub(crate) fn beat(&mut self) {
        self.last_beat = Instant::now();
        let corpus: usize = self.corpus.iter().map(Vec::len).sum();
        println!("B {} {} {}", self.execs, self.hangs, corpus);
        let _ = std::io::stdout().flush();
    }
}

pub(crate) fn worker(o: Opts) {
    std::panic::set_hook(Box::new(|info| {
        let loc = info.location().map_or_else(
            || "?".into(),
            |l| format!("{}:{}:{}", l.file(), l.line(), l.column()),
        );
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        *PANIC.lock().unwrap() = Some(format!("{loc}\n{payload}"));
    }));
    let skip: HashSet<u64> = std::fs::read_to_string(o.out.join(".skip"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| u64::from_str_radix(l.trim(), 16).ok())
        .collect();
    let current = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .open(o.out.join(".current"))
        .expect("cannot write OUT/.current");
    let seed = o.seed;
    let mut w = Worker {
        o,
        m: Mutator {
            rng: Rng(seed | 1),
            dict: vec![],
            dict_seen: HashSet::new(),
        },
        corpus: vec![vec![]; TARGETS.len()],
        seen: HashSet::new(),
        crash_keys: HashSet::new(),
        hangs: 0,
        execs: 0,
        current,
        skip,
        last_beat: Instant::now(),
    };
    // the solver runs its parser on a thread with a 1 GiB stack (src/main.rs); so does this
    std::thread::Builder::new()
        .name("fuzz".into())
        .stack_size(1 << 30)
        .spawn(move || w.run())
        .expect("thread")
        .join()
        .expect("worker thread");
}
