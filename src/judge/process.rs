//! The judge's solver process: started with `std::process` for one check (not through the
//! engines' `Smt` wrapper), fed text, read line by line, and killed at its deadline or when
//! dropped.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::Instant;

/// A judge: the solver and its binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeSolver {
    Z3(PathBuf),
    Cvc5(PathBuf),
}

impl JudgeSolver {
    /// The command that limits each following `check-sat` to `limit`.
    pub(super) fn per_check_limit(&self, limit: std::time::Duration) -> String {
        let ms = limit.as_millis().max(1);
        match self {
            JudgeSolver::Z3(_) => format!("(set-option :timeout {ms})\n"),
            JudgeSolver::Cvc5(_) => format!("(set-option :tlimit-per {ms})\n"),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            JudgeSolver::Z3(_) => "z3",
            JudgeSolver::Cvc5(_) => "cvc5",
        }
    }
}

/// Why a process gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed (the process was killed).
    Timeout,
    /// It died or could not be started.
    Died(String),
}

/// A `check-sat` answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Sat,
    Unsat,
    Unknown,
}

/// A running judge process.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Set by the watchdog when it killed the process at the deadline.
    fired: Arc<AtomicBool>,
    /// Dropping it stops the watchdog, which is then joined (before the child is reaped, so
    /// that it cannot kill a recycled PID).
    cancel: Option<Sender<()>>,
    watchdog: Option<std::thread::JoinHandle<()>>,
    /// Text sent is written in cvc5's names ([`cvc5_dialect`]).
    cvc5: bool,
}

const SYNC: &str = "chcjudge-sync";

/// A solver process just started, with its reader thread: not yet watched by a deadline.
pub(super) struct Started {
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// An empty check was sent ([`Started::prime`]) and its answer is still to be read.
    priming: bool,
}

impl Drop for Started {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            crate::smt::sigkill(child.id() as i32);
            let _ = child.wait();
        }
    }
}

impl Started {
    /// Whether the process has not exited.
    pub(super) fn alive(&self) -> bool {
        self.child
            .as_ref()
            .is_some_and(|c| crate::smt::is_alive(c.id() as i32))
    }

    /// Sends one empty check in a scope of its own, so that the solver's set-up of its
    /// first `check-sat` (about 10 ms for z3 5.4) runs before the process is wanted; the
    /// process is left as it was, with nothing declared or asserted. Its answer is read by
    /// [`Started::primed`] when the process is taken. For z3 only (cvc5 would take the
    /// check as fixing its logic); false when it could not be sent.
    pub(super) fn prime(&mut self, solver: &JudgeSolver) -> bool {
        if !matches!(solver, JudgeSolver::Z3(_)) {
            return true;
        }
        self.priming = self.stdin.as_mut().is_some_and(|s| {
            s.write_all(b"(push 1)\n(check-sat)\n(pop 1)\n")
                .and_then(|()| s.flush())
                .is_ok()
        });
        self.priming
    }

    /// Reads the answer of the empty check [`Started::prime`] sent, if any: false when it
    /// did not come by `deadline` (at most 2 s from now) or was not `sat`.
    fn primed(&mut self, deadline: Option<Instant>) -> bool {
        if !self.priming {
            return true;
        }
        self.priming = false;
        let most = Instant::now() + std::time::Duration::from_secs(2);
        let until = deadline.map_or(most, |d| d.min(most));
        let wait = until.saturating_duration_since(Instant::now());
        matches!(self.lines.recv_timeout(wait), Ok(l) if l.trim() == "sat")
    }
}

/// Starts `solver` with a thread that reads its output line by line.
pub(super) fn spawn(solver: &JudgeSolver) -> Result<Started, Stop> {
    let mut cmd = match solver {
        JudgeSolver::Z3(p) => {
            let mut c = Command::new(p);
            c.args(["-in", "-smt2"]);
            c
        }
        JudgeSolver::Cvc5(p) => {
            let mut c = Command::new(p);
            c.args(["--lang", "smt2", "--incremental"]);
            c
        }
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| Stop::Died(format!("cannot start {}: {e}", solver.name())))?;
    if crate::smt::shutting_down() {
        let _ = child.kill();
        let _ = child.wait();
        return Err(Stop::Died("shutting down".into()));
    }
    let stdout = child.stdout.take().expect("piped");
    let stdin = child.stdin.take();
    // from here on a failure drops `started`, which kills the child
    let (tx, lines) = channel();
    let started = Started {
        child: Some(child),
        stdin,
        lines,
        priming: false,
    };
    std::thread::Builder::new()
        .name("judge-reader".into())
        .spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        })
        .map_err(|e| Stop::Died(format!("cannot start a reader thread: {e}")))?;
    Ok(started)
}

impl Process {
    /// Starts the solver (or takes a spare one, [`super::spare`]), to be killed at
    /// `deadline`.
    pub fn start(solver: &JudgeSolver, deadline: Option<Instant>) -> Result<Process, Stop> {
        let spare = super::spare::take(solver, deadline)
            .filter(|s| s.alive())
            .and_then(|mut s| s.primed(deadline).then_some(s));
        let mut started = match spare {
            Some(s) => s,
            None => spawn(solver)?,
        };
        if crate::smt::shutting_down() {
            return Err(Stop::Died("shutting down".into()));
        }
        let child = started.child.take().expect("a started child");
        let stdin = started.stdin.take();
        let lines = std::mem::replace(&mut started.lines, channel().1);
        drop(started);
        let fired = Arc::new(AtomicBool::new(false));
        let (cancel, cancelled) = channel::<()>();
        let pid = child.id() as i32;
        // from here on a failure drops `p`, which kills and reaps the child
        let mut p = Process {
            child,
            stdin,
            lines,
            fired: fired.clone(),
            cancel: Some(cancel),
            watchdog: None,
            cvc5: matches!(solver, JudgeSolver::Cvc5(_)),
        };
        if let Some(d) = deadline {
            let w = std::thread::Builder::new()
                .name("judge-deadline".into())
                .spawn(move || {
                    let wait = d.saturating_duration_since(Instant::now());
                    if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                        cancelled.recv_timeout(wait)
                    {
                        fired.store(true, Ordering::SeqCst);
                        // our own child, not yet reaped (the Process owns it and waits
                        // for it only after this thread is cancelled), with its descendants
                        crate::smt::sigkill(pid);
                    }
                })
                .map_err(|e| Stop::Died(format!("cannot start a deadline thread: {e}")))?;
            p.watchdog = Some(w);
        }
        if matches!(solver, JudgeSolver::Cvc5(_)) {
            p.send("(set-logic ALL)\n")?;
        }
        Ok(p)
    }

    fn stop(&self, what: String) -> Stop {
        if self.fired.load(Ordering::SeqCst) {
            Stop::Timeout
        } else {
            Stop::Died(what)
        }
    }

    /// Sends text (whole commands).
    pub fn send(&mut self, text: &str) -> Result<(), Stop> {
        let text = if self.cvc5 {
            cvc5_dialect(text)
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        let r = match &mut self.stdin {
            Some(s) => s.write_all(text.as_bytes()).and_then(|()| s.flush()),
            None => return Err(Stop::Died("closed".into())),
        };
        r.map_err(|e| self.stop(format!("the judge's solver died: {e}")))
    }

    /// The next line the solver prints.
    fn line(&mut self) -> Result<String, Stop> {
        self.lines
            .recv()
            .map_err(|_| self.stop("the judge's solver died".into()))
    }

    /// Waits until every command sent so far is done; returns the errors they printed.
    pub fn sync(&mut self) -> Result<Vec<String>, Stop> {
        self.send(&format!("(echo \"{SYNC}\")\n"))?;
        let mut errors = vec![];
        loop {
            let l = self.line()?;
            let t = l.trim().trim_matches('"');
            if t == SYNC {
                return Ok(errors);
            }
            if !t.is_empty() && t != "success" {
                errors.push(l);
            }
        }
    }

    /// Reads the answer of the next `check-sat` sent; an error printed before it is returned
    /// instead.
    pub fn answer(&mut self) -> Result<Result<Answer, String>, Stop> {
        let mut error = None;
        loop {
            let l = self.line()?;
            match l.trim() {
                "sat" => return Ok(error.map_or(Ok(Answer::Sat), Err)),
                "unsat" => return Ok(error.map_or(Ok(Answer::Unsat), Err)),
                "unknown" => return Ok(error.map_or(Ok(Answer::Unknown), Err)),
                "" | "success" => {}
                _ => {
                    error.get_or_insert(l);
                }
            }
        }
    }
}

/// z3's names of the integer and bit-vector conversions (SMT-LIB 2.7's, which the CHC-COMP
/// files use) as cvc5 1.0.3 reads them: `int_to_bv` is `int2bv` and `ubv_to_int` is
/// `bv2nat`, the same functions (the value modulo `2^n`; the unsigned value). Only whole
/// symbols are renamed: a quoted `|int_to_bv|` or a longer name that contains one stays.
pub fn cvc5_dialect(text: &str) -> std::borrow::Cow<'_, str> {
    const NAMES: [(&str, &str); 2] = [("int_to_bv", "int2bv"), ("ubv_to_int", "bv2nat")];
    if !NAMES.iter().any(|(z3, _)| text.contains(z3)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let boundary = |i: Option<usize>| {
        i.and_then(|i| bytes.get(i))
            .is_none_or(|c| c.is_ascii_whitespace() || *c == b'(' || *c == b')')
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    'scan: while i < text.len() {
        for (z3, cvc5) in NAMES {
            if text[i..].starts_with(z3)
                && boundary(i.checked_sub(1))
                && boundary(Some(i + z3.len()))
            {
                out.push_str(cvc5);
                i += z3.len();
                continue 'scan;
            }
        }
        let c = text[i..].chars().next().expect("in bounds");
        out.push(c);
        i += c.len_utf8();
    }
    std::borrow::Cow::Owned(out)
}

impl Drop for Process {
    fn drop(&mut self) {
        self.cancel.take();
        if let Some(w) = self.watchdog.take() {
            let _ = w.join();
        }
        // with its descendants: a solver script may run the solver as its child
        crate::smt::sigkill(self.child.id() as i32);
        let _ = self.child.wait();
    }
}
