//! The `chcsolve` command: reads a CHC-COMP problem or a z3 fixedpoint file and prints
//! `sat`, `unsat` or `unknown` per `check-sat` or query.

use chcsolve::answer::{answer_line, command_output};
use chcsolve::chc::ChcSystem;
use chcsolve::frontend::stream::CommandReader;
use chcsolve::frontend::{parse_script, Command, Format, InputError};
use chcsolve::interactive::{Reply, Session};
use chcsolve::smt::{kill_all_children, SolverKind, SolverPaths};
use chcsolve::{solve_each, Options, Outcome, Progress, SolveError, Validate, Verdict};
use clap::Parser;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

// Output that a closed pipe cannot turn into a panic: `chcsolve --version | head -1`, or a
// caller that stops reading, must not abort the run (println! panics on EPIPE).
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

#[path = "cli/engines.rs"]
mod engines;
#[path = "cli/stats.rs"]
mod stats;
use stats::{print_progress, print_stats, stats_json};

/// Counts the heap for `--memory-limit` (see `chcsolve::mem`).
#[global_allocator]
static ALLOC: chcsolve::mem::CountingAlloc = chcsolve::mem::CountingAlloc;

/// Solves constrained Horn clauses over linear integer arithmetic (CHC-COMP format or z3's
/// fixedpoint format, detected from the commands).
///
/// CHC-COMP input: prints one line, `sat` (the clauses have a model: the program is safe),
/// `unsat` (a derivation of false exists: a real counterexample) or `unknown`. Fixedpoint
/// input (declare-rel, rule, query): one line per query in z3's reading, the OPPOSITE:
/// `sat` when the queried relation is reachable (unsafe), `unsat` when it is not (safe).
/// Every sat/unsat is checked against the original clauses before it is printed.
/// `(get-model)` and `(get-info :reason-unknown)` after an answer print the model and the
/// reason. Exit code 0 for any answers, 1 for bad input (one line `(error "...")`), 2 when
/// no SMT solver can be found.
///
/// With `-` or `--interactive`, commands are read from standard input and each is acted on
/// as soon as it is read (for tools that talk to one solver process over a pipe): see
/// `--interactive`.
#[derive(Parser, Debug)]
#[command(name = "chcsolve", disable_version_flag = true)]
struct Cli {
    /// The problem file (SMT-LIB2 with `(set-logic HORN)`, or z3 fixedpoint); `-` reads
    /// standard input in the interactive mode.
    #[arg(required_unless_present_any = ["version", "interactive"])]
    file: Option<String>,

    /// Read commands from standard input and act on each as soon as it is read (also with
    /// `-` as the file): `(check-sat)` and each fixedpoint `(query ...)` answer at once;
    /// `(get-model)`, `(get-info :reason-unknown)`, `(push n)`, `(pop n)`, `(reset)` and
    /// `(exit)` work as in SMT-LIB solvers; rules and clauses may be added between checks.
    /// `(set-option :timeout MS)` limits each later check (else `--timeout` does). A bad
    /// command prints `(error "line N: ...")` and the session goes on (exit code 1 at the end).
    #[arg(long)]
    interactive: bool,

    /// Print chcsolve's version and the SMT solvers found (path and version), then exit.
    #[arg(short = 'V', long)]
    version: bool,

    /// Cores to schedule the default portfolio for (default: the cores the machine offers).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,

    /// The SMT solver the engines use (default: yices when found, else z3). The validator
    /// always uses z3.
    #[arg(long)]
    solver: Option<SolverKind>,

    /// Wall-clock limit in seconds for the whole run; when it passes, prints `unknown` and
    /// kills every solver process.
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,

    /// Memory limit in MB: on chcsolve's own heap (when it passes, prints `unknown`, logs
    /// `; memory limit of MB MB reached` on standard error and kills every solver process)
    /// and, separately, on the address space of each solver process (a solver that runs out
    /// fails, and its engine gives up).
    #[arg(long, value_name = "MB")]
    memory_limit: Option<u64>,

    /// After sat, print the model: one quantifier-free `(define-fun P ((x0 Int) ...) Bool ...)`
    /// per predicate of the input, under its declared name; after unsat, the derivation of
    /// false in Golem's format (numbered ground facts, each with the steps it derives from),
    /// or, for a certified accelerated counterexample, its steps and `(segment ...)`s (a cycle
    /// of clauses run `n` times).
    #[arg(long)]
    print_witness: bool,

    /// Expand accelerated counterexamples into every concrete step and replay them, instead
    /// of certifying their segments (implied by `--print-witness` in the `golem` format, which
    /// has no segments; `--witness-format list` prints the segments).
    #[arg(long)]
    expand: bool,

    /// While an engine's answer is validated and judged, stop the other engines' solver
    /// processes (SIGSTOP; SIGCONT if the answer fails): `on` or `off` (default: off).
    #[arg(long, value_name = "on|off", value_parser = engines::on_off)]
    pause_to_check: Option<bool>,

    /// How --print-witness prints a counterexample: `golem` (the default: Golem's numbered
    /// derivation) or `list` (our clause applications with the line of each clause and the
    /// value of every variable).
    #[arg(long, value_enum, default_value = "golem", value_name = "FORMAT")]
    witness_format: WitnessFormat,

    /// Who judges every answer against the original text before it is printed: `once` (a
    /// fresh z3 process; for a model of an input that converts integers to bit-vectors,
    /// cvc5 proves what z3 leaves open) or `twice` (z3 and cvc5, both must accept).
    #[arg(long, value_enum, default_value = "once", value_name = "once|twice")]
    validate: ValidateArg,

    /// Print statistics to standard error: times, clauses, engine counters, SMT queries and
    /// time in the solver, answers validated.
    #[arg(long)]
    stats: bool,

    /// Print the statistics as one JSON object on standard error (for scripts).
    #[arg(long)]
    stats_json: bool,

    /// Write every command sent to every solver process into DIR (one file per process), so
    /// a run can be replayed with the solver alone.
    #[arg(long, value_name = "DIR")]
    tee: Option<PathBuf>,

    /// Path of the z3 binary (else $CHCSOLVE_Z3, solvers/bin/z3, then PATH).
    #[arg(long, value_name = "PATH")]
    z3: Option<PathBuf>,

    /// Path of the yices-smt2 binary (else $CHCSOLVE_YICES, solvers/bin/yices-smt2, then PATH).
    #[arg(long, value_name = "PATH")]
    yices: Option<PathBuf>,

    /// Path of the cvc5 binary (else $CHCSOLVE_CVC5, then PATH).
    #[arg(long, value_name = "PATH")]
    cvc5: Option<PathBuf>,

    /// Path of the SMTInterpol jar (else $CHCSOLVE_SMTINTERPOL).
    #[arg(long, value_name = "JAR")]
    smtinterpol: Option<PathBuf>,

    /// Invariants by abstract interpretation (affine equalities, congruences, intervals),
    /// checked by the solver, before the engines: the answer when they block every query,
    /// else lemmas for PDR and Spacer: `on` or `off`.
    #[arg(long, value_name = "on|off", value_parser = engines::on_off)]
    absint: Option<bool>,

    #[command(flatten)]
    engines: engines::EngineArgs,

    /// More log on standard error: -v progress, -vv details, -vvv every solver command.
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
}

/// The answer lines still owed (one until the input is parsed, then one per query); held
/// while an answer and its witness are printed, so that a signal neither interleaves with
/// them nor leaves a query unanswered.
static OWED: std::sync::Mutex<usize> = std::sync::Mutex::new(1);

/// The judges of `--validate`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ValidateArg {
    Once,
    Twice,
}

/// The counterexample formats of `--print-witness`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum WitnessFormat {
    Golem,
    List,
}

/// Kills solver processes, prints `unknown` for each answer still owed, and exits when
/// SIGINT or SIGTERM arrives.
fn handle_signals() {
    // SAFETY: plain libc calls on a local signal set; the signals are blocked in this
    // thread before any other thread exists, so every thread inherits the mask and only
    // the waiting thread receives them.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        std::thread::spawn(move || {
            let mut sig = 0;
            libc::sigwait(&set, &mut sig);
            // every solver, also one started while this runs (the judge's too)
            chcsolve::smt::shut_down();
            let owed = OWED.lock().unwrap_or_else(|e| e.into_inner());
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            for _ in 0..*owed {
                let _ = writeln!(out, "unknown");
            }
            let _ = out.flush();
            std::process::exit(128 + sig);
        });
    }
}

fn read_input(file: &str) -> Result<String, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    String::from_utf8(bytes).map_err(|_| format!("{file} is not UTF-8 text"))
}

/// The interactive mode: each command of standard input acted on as soon as it is read,
/// its output flushed (see `chcsolve::interactive`); returns the exit code, 1 when some
/// command was an error.
fn run_interactive(cli: &Cli, opts: Options) -> i32 {
    *OWED.lock().unwrap_or_else(|e| e.into_inner()) = 0;
    let mut session = Session::new(opts);
    let mut reader = CommandReader::new(std::io::stdin().lock());
    let mut code = 0;
    while let Some(cmd) = reader.next_command() {
        let reply = match cmd {
            Ok(cmd) => {
                // a signal while it is solving prints `unknown` for it
                let owed = chcsolve::interactive::answers(&cmd.text) as usize;
                *OWED.lock().unwrap_or_else(|e| e.into_inner()) = owed;
                session.act(&cmd)
            }
            Err(e) => Reply::Error(e.to_string()),
        };
        let mut owed = OWED.lock().unwrap_or_else(|e| e.into_inner());
        match reply {
            Reply::Exit => break,
            Reply::Silent => {}
            Reply::Text(t) => outln!("{t}"),
            Reply::Error(e) => {
                outln!("{e}");
                code = 1;
            }
            Reply::Answer(format) => {
                if let Some(o) = session.last() {
                    print_answer(cli, format, o);
                }
            }
        }
        *owed = 0;
        use std::io::Write;
        let _ = std::io::stdout().flush();
    }
    code
}

/// `--version`: ours, then each SMT solver as it would be found (flags, environment,
/// `solvers/bin`, `PATH`) with the version it prints.
fn print_version(cli: &Cli) {
    outln!("chcsolve {}", env!("CARGO_PKG_VERSION"));
    let paths = solver_paths(cli);
    for kind in SolverKind::ALL {
        match paths.find(kind) {
            Ok(p) => outln!(
                "{kind}: {} ({})",
                p.display(),
                chcsolve::smt::solver_version(kind, &p).unwrap_or_else(|| "version unknown".into())
            ),
            Err(_) => outln!("{kind}: not found"),
        }
    }
}

/// The binaries named by `--z3`, `--yices`, `--cvc5` and `--smtinterpol`.
fn solver_paths(cli: &Cli) -> SolverPaths {
    SolverPaths {
        z3: cli.z3.clone(),
        yices: cli.yices.clone(),
        cvc5: cli.cvc5.clone(),
        smtinterpol: cli.smtinterpol.clone(),
    }
}

/// Logs, once, that the memory limit ended the run.
fn report_memory_limit() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let mb = chcsolve::mem::limit_mb().unwrap_or(0);
        errln!("; memory limit of {mb} MB reached");
    });
}

/// What the solving thread sends: the parsed script's commands, then each outcome in turn.
// (a few messages per run: boxing the large variant would save nothing)
#[allow(clippy::large_enum_variant)]
enum Msg {
    Parsed(Result<(Format, Vec<Command>), InputError>),
    Solved(Result<Outcome, SolveError>),
}

/// An answer line, with the witness and the statistics when asked for.
fn print_answer(cli: &Cli, format: Format, o: &Outcome) {
    outln!("{}", answer_line(format, &o.verdict));
    if cli.print_witness {
        // the witness as the judge accepted it, when it was judged
        let judged = o.witness.as_deref();
        match &o.verdict {
            Verdict::Sat(_) | Verdict::UnsatAccelerated(_) if judged.is_some() => {
                outln!("{}", judged.unwrap_or_default())
            }
            // a derivation found on the input's text (recursive datatypes) has no
            // clause-graph steps
            Verdict::Unsat(c)
                if judged.is_some()
                    && (c.is_empty() || cli.witness_format == WitnessFormat::Golem) =>
            {
                out!("{}", judged.unwrap_or_default())
            }
            Verdict::Sat(m) => {
                outln!("{}", chcsolve::witness::model_to_smtlib(&o.system, m))
            }
            Verdict::Unsat(c) => match cli.witness_format {
                WitnessFormat::Golem => {
                    out!("{}", chcsolve::witness::cex_to_golem(&o.system, c))
                }
                WitnessFormat::List => {
                    outln!("{}", chcsolve::witness::cex_to_text(&o.system, c))
                }
            },
            Verdict::UnsatAccelerated(c) => {
                outln!("{}", chcsolve::witness::accel_cex_to_text(&o.system, c))
            }
            // never with --print-witness, which asks for a model
            Verdict::SatKInductive { .. } | Verdict::Unknown(_) => {}
        }
    }
    if let Verdict::Unknown(why) = &o.verdict {
        log::info!("unknown: {why}");
    }
    if cli.stats {
        print_stats(o);
    }
    if cli.stats_json {
        errln!("{}", stats_json(o));
    }
}

/// Prints each command's output in order, each answer as its outcome arrives (`unknown` for
/// every answer still owed once the time is up); returns the exit code.
fn run_script(
    cli: &Cli,
    format: Format,
    commands: &[Command],
    recv: impl Fn() -> Option<Msg>,
    progress: &Progress,
    start: Instant,
) -> i32 {
    let answers = commands
        .iter()
        .filter(|c| matches!(c, Command::Solve { .. }))
        .count();
    *OWED.lock().unwrap_or_else(|e| e.into_inner()) = answers;
    let timed_out = (
        ChcSystem::default(),
        Verdict::Unknown(chcsolve::Reason::Timeout),
    );
    let mut last: Option<Outcome> = None;
    let mut out_of_time = false;
    for c in commands {
        if !matches!(c, Command::Solve { .. }) {
            let l = match &last {
                _ if out_of_time => Some((&timed_out.0, &timed_out.1)),
                Some(o) => Some((&o.system, &o.verdict)),
                None => None,
            };
            outln!("{}", command_output(c, l));
            continue;
        }
        let r = if out_of_time { None } else { recv() };
        let mut owed = OWED.lock().unwrap_or_else(|e| e.into_inner());
        match r {
            Some(Msg::Solved(Ok(o))) => {
                print_answer(cli, format, &o);
                last = Some(o);
            }
            Some(Msg::Solved(Err(e))) => {
                outln!("{e}");
                *owed = 0;
                return 2;
            }
            None | Some(Msg::Parsed(_)) => {
                out_of_time = true;
                outln!("unknown");
                if cli.stats || cli.stats_json {
                    print_progress(progress, start.elapsed().as_secs_f64(), cli.stats_json);
                }
            }
        }
        *owed -= 1;
    }
    0
}

fn main() {
    handle_signals();
    let cli = Cli::parse();
    // from the start, so that reading and parsing the input count too
    chcsolve::mem::set_limit_mb(cli.memory_limit);
    let level = match cli.verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level))
        .format_timestamp_millis()
        .init();
    if cli.version {
        print_version(&cli);
        return;
    }
    let engine_options = match cli.engines.options() {
        Ok(c) => c,
        Err(e) => {
            outln!("(error \"{}\")", e.replace('"', "\"\""));
            std::process::exit(1);
        }
    };
    let file = cli.file.clone().unwrap_or_else(|| "-".into());
    let interactive = cli.interactive || file == "-";
    if interactive && file != "-" {
        outln!("(error \"--interactive reads standard input: give no file, or `-`\")");
        std::process::exit(1);
    }
    let input = if interactive {
        String::new()
    } else {
        match read_input(&file) {
            Ok(s) => s,
            Err(e) => {
                outln!("(error \"{}\")", e.replace('"', "\"\""));
                std::process::exit(1);
            }
        }
    };
    let timeout = cli.timeout.map(Duration::from_secs_f64);
    let progress = Progress::new();
    let start = Instant::now();
    let opts = Options {
        engines: cli.engines.engine.clone(),
        schedule: cli.engines.schedule.clone().map(|l| l.0),
        jobs: cli.jobs,
        solver: cli.solver,
        paths: solver_paths(&cli),
        // the library stops a little before the hard limit below
        timeout: timeout.map(|t| t.saturating_sub(Duration::from_millis(300))),
        tee_dir: cli.tee.clone(),
        progress: Some(progress.clone()),
        // Golem's format has no segments: a derivation printed in it is every ground step
        expand: cli.expand || (cli.print_witness && cli.witness_format == WitnessFormat::Golem),
        memory_limit: cli.memory_limit,
        pause_to_check: cli.pause_to_check.unwrap_or(false),
        engine_options,
        cancel: None,
        validate: match cli.validate {
            ValidateArg::Once => Validate::Once,
            ValidateArg::Twice => Validate::Twice,
        },
        replay_dir: None,
        // a model is made only when it will be printed: a k-inductive invariant that passes
        // the k-induction check is the answer otherwise
        need_model: cli.print_witness || interactive || input.contains("get-model"),
        absint: {
            let d = chcsolve::absint::Config::default();
            chcsolve::absint::Config {
                enabled: cli.absint.unwrap_or(d.enabled),
                ..d
            }
        },
    };
    if let Some(dir) = &cli.tee {
        if let Err(e) = std::fs::create_dir_all(dir) {
            outln!("(error \"cannot create {}: {e}\")", dir.display());
            std::process::exit(1);
        }
    }
    if interactive {
        // a thread with a large stack, as for the solving thread below (deep terms)
        let code = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("session".into())
                .stack_size(1 << 30)
                .spawn_scoped(scope, || run_interactive(&cli, opts))
                .expect("cannot start the session thread")
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e))
        });
        let printed = OWED.lock().unwrap_or_else(|e| e.into_inner());
        kill_all_children();
        drop(printed);
        std::process::exit(code);
    }
    let deadline = timeout.map(|t| Instant::now() + t + Duration::from_millis(200));
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("solve".into())
        .stack_size(1 << 30)
        .spawn(move || {
            let start = Instant::now();
            if let Some(p) = &opts.progress {
                p.stage("parsing");
            }
            let parsed = parse_script(&input);
            // the judge reads the original text
            let text: std::sync::Arc<str> = input.into();
            match parsed {
                Err(e) => drop(tx.send(Msg::Parsed(Err(e)))),
                Ok(script) => {
                    let parse_seconds = start.elapsed().as_secs_f64();
                    if let Some(p) = &opts.progress {
                        p.record("parse-seconds", format!("{parse_seconds:.3}"));
                    }
                    let _ = tx.send(Msg::Parsed(Ok((script.format, script.commands))));
                    solve_each(script.systems, Some(text), &opts, |mut o| {
                        if let Ok(o) = &mut o {
                            o.stats.parse_seconds = parse_seconds;
                        }
                        let _ = tx.send(Msg::Solved(o));
                    });
                }
            }
        })
        .expect("cannot start the solving thread");
    // the next message; `None` at the deadline or at the memory limit (logged once)
    let recv = || loop {
        if chcsolve::mem::over_limit() {
            report_memory_limit();
            return None;
        }
        let now = Instant::now();
        let wait = match deadline {
            Some(d) if d <= now => return None,
            Some(d) => chcsolve::mem::wait_at_most(d - now),
            None => chcsolve::mem::wait_at_most(Duration::MAX),
        };
        match rx.recv_timeout(wait) {
            Ok(m) => return Some(m),
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
        }
    };
    let code = match recv() {
        None => {
            let mut owed = OWED.lock().unwrap_or_else(|e| e.into_inner());
            outln!("unknown");
            *owed = 0;
            // the time limit ended the run before the library returned: what it got to
            if cli.stats || cli.stats_json {
                print_progress(&progress, start.elapsed().as_secs_f64(), cli.stats_json);
            }
            0
        }
        Some(Msg::Parsed(Err(e))) => {
            let mut owed = OWED.lock().unwrap_or_else(|e| e.into_inner());
            outln!("{e}");
            *owed = 0;
            1
        }
        Some(Msg::Parsed(Ok((format, commands)))) => {
            run_script(&cli, format, &commands, recv, &progress, start)
        }
        Some(Msg::Solved(_)) => unreachable!("the parse result comes first"),
    };
    let printed = OWED.lock().unwrap_or_else(|e| e.into_inner());
    use std::io::Write;
    let _ = std::io::stdout().flush();
    kill_all_children();
    drop(printed);
    std::process::exit(code);
}
