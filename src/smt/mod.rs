//! SMT solver processes (z3, yices, cvc5, SmtInterpol) driven over pipes through rsmt2.
//!
//! The entry point is [`Smt`]: one solver process speaking SMT-LIB 2 on its standard input and
//! output, with terms of [`crate::logic`]. Every process is registered in a [`KillSwitch`] so
//! that another thread can kill all solvers of an engine at once; a call blocked on a killed
//! solver then returns [`SmtError::Killed`]. [`find_solver`] locates solver binaries and
//! [`kill_all_children`] is the last-resort cleanup of the binary.
//!
//! rsmt2 falls short in a few places, which this module works around:
//!
//! * it hides the child's PID: the solver is started through `/bin/sh`, which prints its PID
//!   and then `exec`s the solver (so the PID is the solver's);
//! * it pipes the solver's stderr and never reads it: the pipe is reopened through
//!   `/proc/PID/fd/2` and drained by a thread that logs each line at debug level;
//! * it cannot read the answer of a command it does not know (`get-unsat-assumptions`,
//!   `get-info`, raw queries): such answers are read by a separate [`rsmt2::parse::SmtParser`]
//!   fed byte by byte from the solver's output, so it never reads past the answer.

mod array_value;
mod extensionality;
mod interp_stats;
mod kill;
mod parse;
mod process;
#[cfg(test)]
mod real_roundtrip_tests;
mod sexp_term;
mod solver;
#[cfg(test)]
mod tests;

pub use interp_stats::{BackendStats, InterpStats};
pub(crate) use kill::is_alive;
#[cfg(test)]
pub(crate) use kill::niceness;
pub(crate) use kill::sigkill;
pub use kill::{kill_all_children, shut_down, shutting_down, Deadline, KillSwitch, KillTimer};
#[doc(hidden)]
pub use parse::fuzz_answer_readers;
pub use sexp_term::{parse_goals, parse_term};
pub use solver::Smt;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

/// The supported solvers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SolverKind {
    /// Z3, run as `z3 -in -smt2`.
    Z3,
    /// Yices 2, run as `yices-smt2 --incremental`.
    Yices,
    /// cvc5, run as `cvc5 --incremental --produce-models --lang smt2`.
    Cvc5,
    /// SmtInterpol, run as `java -jar smtinterpol.jar -q`.
    SmtInterpol,
}

impl SolverKind {
    /// All kinds, in a fixed order.
    pub const ALL: [SolverKind; 4] = [
        SolverKind::Z3,
        SolverKind::Yices,
        SolverKind::Cvc5,
        SolverKind::SmtInterpol,
    ];

    /// The short name used on the command line ("z3", "yices", "cvc5", "smtinterpol").
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Yices => "yices",
            SolverKind::Cvc5 => "cvc5",
            SolverKind::SmtInterpol => "smtinterpol",
        }
    }

    /// The file name of the binary (for SmtInterpol: of the jar).
    pub fn binary_name(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Yices => "yices-smt2",
            SolverKind::Cvc5 => "cvc5",
            SolverKind::SmtInterpol => "smtinterpol.jar",
        }
    }

    /// The environment variable that may hold the binary's path.
    pub fn env_var(self) -> &'static str {
        match self {
            SolverKind::Z3 => "CHCSOLVE_Z3",
            SolverKind::Yices => "CHCSOLVE_YICES",
            SolverKind::Cvc5 => "CHCSOLVE_CVC5",
            SolverKind::SmtInterpol => "CHCSOLVE_SMTINTERPOL",
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SolverKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "z3" => Ok(SolverKind::Z3),
            "yices" | "yices2" | "yices-smt2" => Ok(SolverKind::Yices),
            "cvc5" => Ok(SolverKind::Cvc5),
            "smtinterpol" => Ok(SolverKind::SmtInterpol),
            _ => Err(format!(
                "unknown solver `{s}` (expected z3, yices, cvc5 or smtinterpol)"
            )),
        }
    }
}

/// How to start a solver.
#[derive(Clone, Debug)]
pub struct SolverConfig {
    /// Which solver (decides the command line and the SMT-LIB dialect).
    pub kind: SolverKind,
    /// The binary (for SmtInterpol: the jar, run with `java -jar`).
    pub path: PathBuf,
    /// When set, every command sent to every solver is also written to
    /// `DIR/<label>-<n>.smt2` (`n` unique within the process), which the solver alone can
    /// replay (`z3 DIR/file.smt2`, `yices-smt2 --incremental DIR/file.smt2`).
    pub tee_dir: Option<PathBuf>,
    /// Shared by all solvers of one engine: killing it kills them all.
    pub kill: KillSwitch,
    /// Start the solver in its interpolating mode: SmtInterpol with `:produce-interpolants`,
    /// cvc5 with `--produce-interpolants`, yices with `--mcsat` and
    /// `:produce-unsat-model-interpolants`; z3 needs nothing. See [`crate::interp`].
    pub interpolation: bool,
    /// When set, each solver process gets `RLIMIT_AS` of this many MB (set on the launcher
    /// before it becomes the solver, see [`super::process::limit_address_space`]); a solver
    /// that dies of it fails like any other, and its engine answers unknown.
    pub memory_limit_mb: Option<u64>,
    /// The queries may mention `Real` terms: solvers that need a logic are started in
    /// `QF_LIRA` instead of `QF_LIA`.
    pub reals: bool,
    /// The queries may mention arrays: solvers that need a logic get `QF_AUFLIA` (or
    /// `QF_AUFLIRA` with reals).
    pub arrays: bool,
    /// The queries are over bit-vectors and Booleans (the native bit-vector lanes):
    /// solvers that need a logic get `QF_UFBV`.
    pub bitvecs: bool,
    /// The binaries the user named for every solver kind, so that the other solvers an
    /// engine starts (interpolation backends and their checkers, [`crate::interp`]) are the
    /// same ones the user asked for.
    pub paths: SolverPaths,
    /// The run's interpolation counters: every clone of this configuration (the engines',
    /// their interpolation backends') records into the same sink, [`SolverConfig::new`]
    /// starts a fresh one. See [`InterpStats`].
    pub interp_stats: InterpStats,
}

/// The binary named for each solver kind (`--z3`, `--yices`, `--cvc5`, `--smtinterpol`);
/// a kind without one is found by [`find_solver`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolverPaths {
    pub z3: Option<PathBuf>,
    pub yices: Option<PathBuf>,
    pub cvc5: Option<PathBuf>,
    pub smtinterpol: Option<PathBuf>,
}

impl SolverPaths {
    /// The binary named for `kind`, if any.
    pub fn get(&self, kind: SolverKind) -> Option<&Path> {
        match kind {
            SolverKind::Z3 => self.z3.as_deref(),
            SolverKind::Yices => self.yices.as_deref(),
            SolverKind::Cvc5 => self.cvc5.as_deref(),
            SolverKind::SmtInterpol => self.smtinterpol.as_deref(),
        }
    }

    /// The binary of `kind`: the one named, else as [`find_solver`] finds it.
    pub fn find(&self, kind: SolverKind) -> Result<PathBuf, String> {
        find_solver(kind, self.get(kind))
    }
}

impl SolverConfig {
    /// A configuration without tee and with a fresh kill switch.
    pub fn new(kind: SolverKind, path: impl Into<PathBuf>) -> SolverConfig {
        SolverConfig {
            kind,
            path: path.into(),
            tee_dir: None,
            kill: KillSwitch::new(),
            interpolation: false,
            memory_limit_mb: None,
            reals: false,
            arrays: false,
            bitvecs: false,
            paths: SolverPaths::default(),
            interp_stats: InterpStats::new(),
        }
    }

    /// The same solver in its interpolating mode (see [`SolverConfig::interpolation`]).
    pub fn interpolating(&self) -> SolverConfig {
        SolverConfig {
            interpolation: true,
            ..self.clone()
        }
    }
}

/// The answer to a satisfiability check. `Unknown` is an answer, not an error.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SatResult {
    /// Satisfiable.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up.
    Unknown,
}

impl fmt::Display for SatResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SatResult::Sat => "sat",
            SatResult::Unsat => "unsat",
            SatResult::Unknown => "unknown",
        })
    }
}

/// A failure to talk to a solver.
///
/// After any error other than [`SmtError::Spawn`], the [`Smt`] is unusable (its process is
/// killed, since its output may be out of sync) and every further call fails.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SmtError {
    /// The process could not be started or did not answer the handshake.
    Spawn(String),
    /// Reading from or writing to the process failed (typically: it died).
    Io(String),
    /// The solver answered with an error, or with something that could not be parsed.
    Solver(String),
    /// The solver was killed through its [`KillSwitch`] or [`Smt::kill`].
    Killed,
}

impl fmt::Display for SmtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SmtError::Spawn(m) => write!(f, "cannot start SMT solver: {m}"),
            SmtError::Io(m) => write!(f, "SMT solver I/O error: {m}"),
            SmtError::Solver(m) => write!(f, "SMT solver error: {m}"),
            SmtError::Killed => write!(f, "SMT solver killed"),
        }
    }
}

impl std::error::Error for SmtError {}

/// Counters of one solver.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SmtStats {
    /// Number of `check-sat` and `check-sat-assuming` commands.
    pub queries: u64,
    /// Wall-clock time spent waiting for their answers.
    pub solver_time: Duration,
}

impl std::ops::AddAssign for SmtStats {
    fn add_assign(&mut self, o: SmtStats) {
        self.queries += o.queries;
        self.solver_time += o.solver_time;
    }
}

/// The first line the solver prints for its version flag (at most 5 s).
pub fn solver_version(kind: SolverKind, path: &Path) -> Option<String> {
    let mut cmd = match kind {
        SolverKind::SmtInterpol => {
            let mut c = std::process::Command::new("java");
            c.arg("-jar").arg(path).arg("-version");
            c
        }
        _ => {
            let mut c = std::process::Command::new(path);
            c.arg("--version");
            c
        }
    };
    let mut child = cmd
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    let start = std::time::Instant::now();
    while child.try_wait().ok()?.is_none() {
        if start.elapsed() > std::time::Duration::from_secs(5) {
            sigkill(child.id() as i32);
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(String::from)
}

/// Locates a solver binary, in this order: `explicit` (a command-line flag), the environment
/// variable ([`SolverKind::env_var`]), `<project>/solvers/bin/<name>` (the project being this
/// crate's directory, or `../../` from the running executable's directory), then `PATH`.
///
/// The error says that none was found and names the install command `solvers/install`.
pub fn find_solver(kind: SolverKind, explicit: Option<&Path>) -> Result<PathBuf, String> {
    let usable = |p: &Path| is_usable(kind, p);
    if let Some(p) = explicit {
        return if usable(p) {
            Ok(p.to_path_buf())
        } else {
            Err(format!(
                "{kind}: `{}` is not an executable file",
                p.display()
            ))
        };
    }
    if let Some(v) = std::env::var_os(kind.env_var()).filter(|v| !v.is_empty()) {
        let p = PathBuf::from(&v);
        if usable(&p) {
            return Ok(p);
        }
        if let Some(p) = search_path(kind, &v.to_string_lossy()) {
            return Ok(p);
        }
        return Err(format!(
            "{kind}: {}=`{}` is not an executable file",
            kind.env_var(),
            p.display()
        ));
    }
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("solvers/bin")];
    if let Some(exe_dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        dirs.push(exe_dir.join("../../solvers/bin"));
    }
    for d in &dirs {
        let p = d.join(kind.binary_name());
        if usable(&p) {
            return Ok(p);
        }
    }
    if let Some(p) = search_path(kind, kind.binary_name()) {
        return Ok(p);
    }
    if kind == SolverKind::SmtInterpol {
        let p = PathBuf::from("/usr/share/java/smtinterpol.jar");
        if usable(&p) {
            return Ok(p);
        }
    }
    Err(format!(
        "{kind} not found: looked for `{}` in {}, {}/solvers/bin and PATH; \
         install it with `solvers/install`, set {} or pass its path explicitly",
        kind.binary_name(),
        kind.env_var(),
        env!("CARGO_MANIFEST_DIR"),
        kind.env_var()
    ))
}

/// A file that can be run: executable, or for SmtInterpol any readable file (a jar).
fn is_usable(kind: SolverKind, p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    match std::fs::metadata(p) {
        Ok(m) if m.is_file() => {
            kind == SolverKind::SmtInterpol || m.permissions().mode() & 0o111 != 0
        }
        _ => false,
    }
}

/// `name` in a directory of `PATH` (only bare names are searched).
fn search_path(kind: SolverKind, name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return None;
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_usable(kind, p))
}
