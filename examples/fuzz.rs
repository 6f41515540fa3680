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

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const TARGETS: [&str; 4] = ["smtlib", "fixedpoint", "reply", "passes"];
const MAX_LEN: usize = 256 * 1024;
const MAX_SEED: u64 = 24 * 1024;

// ------------------------------------------------------------------ options

struct Opts {
    seconds: f64,
    out: PathBuf,
    seed: u64,
    targets: Vec<usize>,
    budget: Duration,
    seeds: Vec<PathBuf>,
    worker: bool,
    replay: Vec<PathBuf>,
}

fn usage(msg: &str) -> ! {
    eprintln!("fuzz: {msg}");
    eprintln!(
        "usage: fuzz [--seconds N] [--out DIR] [--seed K] [--targets a,b] [--budget-ms MS] [--seeds DIR]..."
    );
    std::process::exit(2)
}

fn opts() -> Opts {
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

// ------------------------------------------------------------------ randomness, hashing

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn chance(&mut self, k: usize) -> bool {
        self.below(k) == 0
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

fn hash_of<T: Hash + ?Sized>(t: &T) -> u64 {
    let mut h = DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

/// CPU time of the calling thread: the hang budget counts it, not wall-clock time, so that
/// a fuzzer at `nice -n 19` on a loaded machine does not report waits as hangs.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// CPU time (user + system) of process `pid` so far, from /proc.
fn process_cpu(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // fields after the `(comm)`: state is field 3; utime and stime are fields 14 and 15
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf has no preconditions
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some(Duration::from_millis(ticks * 1000 / hz))
}

// ------------------------------------------------------------------ targets

/// Runs target `t` on `input`; returns its outcome signature.
fn run_target(t: usize, input: &[u8]) -> String {
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
            Err(e) => format!("err {}", normalize(&e.msg)),
        },
        "reply" => normalize(&chcsolve::smt::fuzz_answer_readers(&text)),
        "passes" => passes(&text),
        _ => unreachable!(),
    }
}

/// The preprocessing pipeline and the transition-system construction on every system of a
/// mutant that parses, as `solve` runs them, plus the back-translation of a trivial model.
fn passes(text: &str) -> String {
    use chcsolve::frontend::passes::{model_back, preprocess, Model};
    use chcsolve::logic::{eval_bool, mk_true, Assignment, Sort, Value};
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
                    let val = match v.sort {
                        Sort::Int => Value::Int(0.into()),
                        Sort::Bool => Value::Bool(false),
                    };
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
fn bucket(n: usize) -> usize {
    if n < 3 {
        n
    } else {
        2 + (usize::BITS - n.leading_zeros()) as usize
    }
}

/// An error message with numbers and quoted names blanked, so that it names the code path,
/// not the input.
fn normalize(m: &str) -> String {
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

// ------------------------------------------------------------------ s-expression tokens

#[derive(Clone, Copy, PartialEq)]
enum Tok {
    Open,
    Close,
    Num,
    Sym,
    Quoted,
}

/// Tokens (kind, start, end) of an input, comments skipped, never failing.
fn tokens(b: &[u8]) -> Vec<(Tok, usize, usize)> {
    let mut v = vec![];
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'(' => {
                v.push((Tok::Open, i, i + 1));
                i += 1
            }
            b')' => {
                v.push((Tok::Close, i, i + 1));
                i += 1
            }
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1
                }
            }
            b'|' | b'"' => {
                let s = i;
                i += 1;
                while i < b.len() && b[i] != c {
                    i += 1
                }
                i = (i + 1).min(b.len());
                v.push((Tok::Quoted, s, i));
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let s = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && !b"()|\";".contains(&b[i]) {
                    i += 1
                }
                let kind = if b[s..i].iter().all(u8::is_ascii_digit) {
                    Tok::Num
                } else {
                    Tok::Sym
                };
                v.push((kind, s, i));
            }
        }
    }
    v
}

/// Byte spans of subterms: atoms and balanced lists.
fn subterms(toks: &[(Tok, usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let mut stack = vec![];
    for &(k, s, e) in toks {
        match k {
            Tok::Open => stack.push(s),
            Tok::Close => {
                if let Some(s0) = stack.pop() {
                    out.push((s0, e))
                }
            }
            _ => out.push((s, e)),
        }
    }
    out
}

const COMMANDS: [&str; 24] = [
    "(check-sat)",
    "(exit)",
    "(get-model)",
    "(set-logic HORN)",
    "(set-logic QF_LIA)",
    "(declare-fun P (Int) Bool)",
    "(declare-fun Q (Int Bool) Bool)",
    "(declare-fun c () Int)",
    "(declare-const k Int)",
    "(define-fun f ((x Int)) Int x)",
    "(declare-rel R (Int))",
    "(declare-var x Int)",
    "(rule (R 0))",
    "(rule (=> (R x) (R (+ x 1))))",
    "(query R)",
    "(query (R x) :print-certificate true)",
    "(assert false)",
    "(assert (forall ((x Int)) (=> (P x) false)))",
    "(push 1)",
    "(pop 1)",
    "(get-info :reason-unknown)",
    "(set-info :status sat)",
    "(set-option :produce-models true)",
    "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))",
];

const WORDS: [&str; 48] = [
    "and",
    "or",
    "not",
    "=>",
    "xor",
    "=",
    "distinct",
    "ite",
    "<=",
    "<",
    ">=",
    ">",
    "+",
    "-",
    "*",
    "div",
    "mod",
    "abs",
    "true",
    "false",
    "Int",
    "Bool",
    "Real",
    "forall",
    "exists",
    "let",
    "!",
    ":named",
    ":pattern",
    "_",
    "as",
    "assert",
    "check-sat",
    "declare-fun",
    "declare-rel",
    "rule",
    "query",
    "exit",
    "set-logic",
    "HORN",
    "define-fun",
    "declare-var",
    "|x|",
    "||",
    "\"s\"",
    "1.5",
    "#x1F",
    "#b101",
];

const NUMERALS: [&str; 14] = [
    "0",
    "1",
    "-1",
    "(- 1)",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "-9223372036854775808",
    "(- 9223372036854775808)",
    "100000000000000000000000000000000000000",
    "007",
    "(- 0)",
];

struct Mutator {
    rng: Rng,
    /// Symbols seen in the corpus.
    dict: Vec<Vec<u8>>,
    dict_seen: HashSet<Vec<u8>>,
}

impl Mutator {
    fn learn(&mut self, b: &[u8]) {
        for (k, s, e) in tokens(b) {
            if matches!(k, Tok::Sym | Tok::Quoted) && e - s < 40 && self.dict.len() < 5000 {
                let w = b[s..e].to_vec();
                if self.dict_seen.insert(w.clone()) {
                    self.dict.push(w);
                }
            }
        }
    }

    fn word(&mut self) -> Vec<u8> {
        if !self.dict.is_empty() && self.rng.chance(2) {
            self.rng.pick(&self.dict).clone()
        } else {
            self.rng.pick(&WORDS).as_bytes().to_vec()
        }
    }

    fn numeral(&mut self, old: &[u8]) -> Vec<u8> {
        let r = self.rng.below(6);
        match r {
            0 | 1 => {
                // old ± 1 (on the decimal text)
                let s = String::from_utf8_lossy(old).to_string();
                match s.parse::<i128>() {
                    Ok(n) => {
                        let d = if r == 0 { 1 } else { -1 };
                        let m = n.saturating_add(d);
                        if m < 0 {
                            format!("(- {})", -m).into_bytes()
                        } else {
                            m.to_string().into_bytes()
                        }
                    }
                    Err(_) => b"1".to_vec(),
                }
            }
            2 => {
                let n = [20, 40, 100, 1000, 20000][self.rng.below(5)];
                let mut v = vec![b'9'; n];
                v[0] = b'1';
                v
            }
            _ => self.rng.pick(&NUMERALS).as_bytes().to_vec(),
        }
    }

    fn subterm_from<'a>(&mut self, b: &'a [u8]) -> &'a [u8] {
        let st = subterms(&tokens(b));
        if st.is_empty() {
            return b"x";
        }
        let (s, e) = *self.rng.pick(&st);
        &b[s..e]
    }

    /// One mutation of `b` (`other`: another corpus entry, for splicing).
    fn mutate_once(&mut self, b: &mut Vec<u8>, other: &[u8]) {
        let toks = tokens(b);
        let st = subterms(&toks);
        let n = b.len();
        let choice = self.rng.below(20);
        match choice {
            0 if n > 0 => {
                let i = self.rng.below(n);
                b[i] = if self.rng.chance(2) {
                    self.rng.next() as u8
                } else {
                    *self.rng.pick(b"()|\";: \n-0123456789x!")
                };
            }
            1 => {
                let i = self.rng.below(n + 1);
                b.insert(i, *self.rng.pick(b"()|\";: \n-0123456789x!\\#\x00\xff"));
            }
            2 if n > 0 => {
                let i = self.rng.below(n);
                let l = 1 + self.rng.below(16.min(n - i));
                b.drain(i..i + l);
            }
            3 if n > 0 => {
                let i = self.rng.below(n);
                let l = 1 + self.rng.below(64.min(n - i));
                let chunk = b[i..i + l].to_vec();
                let j = self.rng.below(n + 1);
                b.splice(j..j, chunk);
            }
            4 if st.len() >= 2 => {
                // swap two disjoint subterms
                let (a, c) = (*self.rng.pick(&st), *self.rng.pick(&st));
                let (x, y) = if a.0 < c.0 { (a, c) } else { (c, a) };
                if x.1 <= y.0 {
                    let (xs, ys) = (b[x.0..x.1].to_vec(), b[y.0..y.1].to_vec());
                    b.splice(y.0..y.1, xs);
                    b.splice(x.0..x.1, ys);
                }
            }
            5 if !st.is_empty() => {
                // duplicate a subterm next to another one
                let (s, e) = *self.rng.pick(&st);
                let mut chunk = vec![b' '];
                chunk.extend_from_slice(&b[s..e]);
                let (_, at) = *self.rng.pick(&st);
                b.splice(at..at, chunk);
            }
            6 if !st.is_empty() => {
                let (s, e) = *self.rng.pick(&st);
                b.drain(s..e);
            }
            7 if !st.is_empty() => {
                // replace a subterm by one of another input
                let (s, e) = *self.rng.pick(&st);
                let new = if self.rng.chance(2) {
                    self.subterm_from(other).to_vec()
                } else {
                    self.word()
                };
                b.splice(s..e, new);
            }
            8 | 9 => {
                let nums: Vec<_> = toks.iter().filter(|t| t.0 == Tok::Num).collect();
                if !nums.is_empty() {
                    let &&(_, s, e) = self.rng.pick(&nums);
                    let new = self.numeral(&b[s..e].to_vec());
                    b.splice(s..e, new);
                }
            }
            10 => {
                let syms: Vec<_> = toks
                    .iter()
                    .filter(|t| t.0 != Tok::Open && t.0 != Tok::Close)
                    .collect();
                if !syms.is_empty() {
                    let &&(_, s, e) = self.rng.pick(&syms);
                    let new = self.word();
                    b.splice(s..e, new);
                }
            }
            11 => {
                // a command at a top-level boundary (or anywhere)
                let cmd = self.rng.pick(&COMMANDS).as_bytes().to_vec();
                let at = if let Some(&(_, e)) = (!st.is_empty()).then(|| self.rng.pick(&st)) {
                    e
                } else {
                    n
                };
                b.splice(at..at, cmd);
            }
            12 => {
                // unbalance: drop or add a parenthesis
                let parens: Vec<_> = toks
                    .iter()
                    .filter(|t| matches!(t.0, Tok::Open | Tok::Close))
                    .collect();
                if !parens.is_empty() && self.rng.chance(2) {
                    let &&(_, s, _) = self.rng.pick(&parens);
                    b.remove(s);
                } else {
                    let i = self.rng.below(n + 1);
                    b.insert(i, if self.rng.chance(2) { b'(' } else { b')' });
                }
            }
            13 if !st.is_empty() => {
                // deep nesting around a subterm
                let (s, e) = *self.rng.pick(&st);
                let depth = [10, 100, 1000, 5000, 20000][self.rng.below(5)];
                const WRAPS: [&str; 7] =
                    ["(not ", "(and ", "(+ 0 ", "(- ", "(", "(! ", "(=> true "];
                let wrap = self.rng.pick(&WRAPS).as_bytes();
                let mut new = Vec::with_capacity((e - s) + depth * (wrap.len() + 1));
                for _ in 0..depth {
                    new.extend_from_slice(wrap);
                }
                new.extend_from_slice(&b[s..e]);
                for _ in 0..depth {
                    new.push(b')');
                }
                b.splice(s..e, new);
            }
            14 if !st.is_empty() => {
                // a long argument list
                let (s, e) = *self.rng.pick(&st);
                let k = [3, 50, 2000][self.rng.below(3)];
                let op = self.rng.pick(&["and", "or", "+", "=", "distinct", "<="]);
                let mut new = format!("({op}").into_bytes();
                for _ in 0..k {
                    new.push(b' ');
                    new.extend_from_slice(&b[s..e]);
                }
                new.push(b')');
                b.splice(s..e, new);
            }
            15 if !st.is_empty() => {
                // binders and annotations around a subterm
                let (s, e) = *self.rng.pick(&st);
                let t = String::from_utf8_lossy(&b[s..e]).to_string();
                let v = String::from_utf8_lossy(&self.word()).to_string();
                let new = match self.rng.below(6) {
                    0 => format!("(exists (({v} Int)) {t})"),
                    1 => format!("(forall (({v} Int)) {t})"),
                    2 => format!("(let (({v} {t})) {v})"),
                    3 => format!("(! {t} :named {v})"),
                    4 => format!("(let (({v} 1) ({v} 2)) {t})"),
                    _ => format!("(forall () {t})"),
                };
                b.splice(s..e, new.into_bytes());
            }
            16 => {
                // splice: a prefix of this input and a suffix of the other
                if !other.is_empty() {
                    let i = self.rng.below(n + 1);
                    let j = self.rng.below(other.len());
                    b.truncate(i);
                    b.extend_from_slice(&other[j..]);
                }
            }
            17 => {
                // a command name right after an opening parenthesis
                let opens: Vec<_> = toks.iter().filter(|t| t.0 == Tok::Open).collect();
                if !opens.is_empty() {
                    let &&(_, _, e) = self.rng.pick(&opens);
                    let w = self.rng.pick(&WORDS[31..42]);
                    b.splice(e..e, format!("{w} ").into_bytes());
                }
            }
            18 if n > 0 => {
                // truncate
                let i = self.rng.below(n);
                b.truncate(i);
            }
            _ => {
                let i = self.rng.below(n + 1);
                let w = self.word();
                b.splice(i..i, w);
            }
        }
    }

    fn mutant(&mut self, base: &[u8], other: &[u8]) -> Vec<u8> {
        let mut b = base.to_vec();
        let k = 1 + self.rng.below(4);
        for _ in 0..k {
            self.mutate_once(&mut b, other);
            if b.len() > MAX_LEN {
                b.truncate(MAX_LEN);
            }
        }
        b
    }
}

// ------------------------------------------------------------------ seeds

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
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

const FIXEDPOINT_SEEDS: [&str; 3] = [
    "(declare-rel R (Int Int))\n(declare-var x Int)\n(declare-var y Int)\n(rule (R 0 0))\n\
     (rule (=> (and (R x y) (< x 5)) (R (+ x 1) (+ y 2))))\n(query (R 5 10))\n",
    "(declare-rel inv (Int))\n(declare-rel err ())\n(declare-var n Int)\n(rule (inv 0) first)\n\
     (rule (=> (and (inv n) (not (= n 3))) (inv (+ n 1))) step)\n(rule (=> (inv n) err))\n(query err)\n",
    "(set-option :fixedpoint.engine spacer)\n(declare-rel P (Bool Int))\n(declare-var b Bool)\n\
     (declare-var z Int)\n(rule (P true 1))\n(rule (=> (and (P b z) b) (P (not b) (* 2 z))))\n\
     (query (P false 8) :print-certificate true)\n(query (P true 4))\n",
];

const REPLY_SEEDS: [&str; 16] = [
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

static PANIC: Mutex<Option<String>> = Mutex::new(None);

struct Worker {
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
    fn exec(&mut self, t: usize, input: &[u8]) -> Option<String> {
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
    fn consider(&mut self, t: usize, input: Vec<u8>, sig: String, save: bool) {
        if self.seen.insert((t, sig)) {
            if save {
                let dir = self.o.out.join("corpus").join(TARGETS[t]);
                let _ = std::fs::write(dir.join(format!("{:016x}", hash_of(&input))), &input);
            }
            self.m.learn(&input);
            self.corpus[t].push(input);
        }
    }

    fn load(&mut self) {
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

    fn run(&mut self) {
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

    fn beat(&mut self) {
        self.last_beat = Instant::now();
        let corpus: usize = self.corpus.iter().map(Vec::len).sum();
        println!("B {} {} {}", self.execs, self.hangs, corpus);
        let _ = std::io::stdout().flush();
    }
}

fn worker(o: Opts) {
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
    println!(
        "fuzz: seed {}, {} s, targets {}, out {}",
        o.seed,
        o.seconds,
        o.targets
            .iter()
            .map(|&t| TARGETS[t])
            .collect::<Vec<_>>()
            .join(","),
        o.out.display()
    );
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
                        (Some("C"), Some(key)) => {
                            if crash_keys.insert(key.to_string()) {
                                println!(
                                    "fuzz: crash {key} (input in {})",
                                    o.out.join("crashes").display()
                                );
                            }
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
