//! Starting a solver process: command line, PID handshake and stderr drain.

use super::{SolverConfig, SolverKind};
use crate::logic::{Sort, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The shell script that starts every solver: prints the shell's PID (rsmt2 hides the PID of
/// the processes it spawns), waits for a line on stdin (sent once the stderr drain is in
/// place), then becomes the solver, so the PID is the solver's.
pub(super) const LAUNCHER: &str = "echo $$; read go || exit 1; exec \"$0\" \"$@\"";

/// Number of stderr lines kept to explain a solver's death.
const STDERR_TAIL: usize = 20;

/// Program and arguments for a solver kind.
pub(super) fn command_line(cfg: &SolverConfig) -> (String, Vec<String>) {
    let path = cfg.path.to_string_lossy().into_owned();
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    match cfg.kind {
        SolverKind::Z3 => (path, s(&["-in", "-smt2"])),
        SolverKind::Yices if cfg.interpolation => (path, s(&["--incremental", "--mcsat"])),
        SolverKind::Yices => (path, s(&["--incremental"])),
        SolverKind::Cvc5 if cfg.interpolation => (
            path,
            s(&[
                "--incremental",
                "--produce-models",
                "--produce-interpolants",
                "--lang",
                "smt2",
            ]),
        ),
        SolverKind::Cvc5 => (
            path,
            s(&["--incremental", "--produce-models", "--lang", "smt2"]),
        ),
        SolverKind::SmtInterpol => ("java".into(), vec!["-jar".into(), path, "-q".into()]),
    }
}

/// Sets `RLIMIT_AS` (soft and hard) of the process `pid` to `mb` MB.
///
/// The solver processes are spawned inside rsmt2, which offers no `pre_exec` hook, so the
/// limit is set from outside with `prlimit(2)` while the [`LAUNCHER`] shell waits for its
/// go-ahead line; the `exec` that turns it into the solver keeps the limit. An allocation
/// beyond it fails in the solver, which then dies or reports an error: either way the call
/// fails like any solver failure and the engine answers unknown.
pub(super) fn limit_address_space(pid: i32, mb: u64) -> Result<(), String> {
    let bytes = mb.saturating_mul(1 << 20) as libc::rlim_t;
    let lim = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: plain system call on a PID we own; the old limit is not asked for.
    let r = unsafe { libc::prlimit(pid, libc::RLIMIT_AS, &lim, std::ptr::null_mut()) };
    if r != 0 {
        return Err(format!(
            "cannot limit its memory to {mb} MB: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

/// Reads the PID line printed by [`LAUNCHER`], before anything else is read.
pub(super) fn read_pid<R: Read>(r: &mut R) -> Result<i32, String> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while line.len() < 32 {
        match r.read(&mut byte) {
            Ok(0) => return Err("the process exited at once".into()),
            Ok(_) if byte[0] == b'\n' => break,
            Ok(_) => line.push(byte[0]),
            Err(e) => return Err(format!("reading its PID: {e}")),
        }
    }
    let text = String::from_utf8_lossy(&line);
    text.trim()
        .parse()
        .map_err(|_| format!("expected a PID, got `{text}`"))
}

/// The last lines a solver wrote on stderr.
#[derive(Default)]
pub(super) struct StderrTail {
    lines: VecDeque<String>,
    /// Set when the drain reached the end of the stream (or never started).
    done: bool,
}

/// The lines of `tail`, after waiting up to `max` for the drain to reach the end of stderr.
pub(super) fn wait_tail(tail: &Mutex<StderrTail>, max: Duration) -> Vec<String> {
    let start = std::time::Instant::now();
    while start.elapsed() < max {
        match tail.lock() {
            Ok(t) if !t.done => {}
            _ => break,
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    match tail.lock() {
        Ok(t) => t.lines.iter().cloned().collect(),
        Err(_) => vec![],
    }
}

/// Drains the solver's stderr (which rsmt2 pipes but never reads) through
/// `/proc/PID/fd/2`, logging each line at debug level and keeping the last ones.
pub(super) fn drain_stderr(pid: i32, label: &str) -> Arc<Mutex<StderrTail>> {
    let tail = Arc::new(Mutex::new(StderrTail::default()));
    let file = match std::fs::File::open(format!("/proc/{pid}/fd/2")) {
        Ok(f) => f,
        Err(e) => {
            log::debug!("[{label}] cannot drain stderr of pid {pid}: {e}");
            tail.lock().unwrap().done = true;
            return tail;
        }
    };
    let (t, label) = (tail.clone(), label.to_string());
    let spawned = std::thread::Builder::new()
        .name(format!("stderr-{label}"))
        .spawn(move || {
            let mut reader = BufReader::new(file);
            let mut buf = Vec::new();
            // Lines, not necessarily UTF-8; a very long "line" is cut at 64 KiB.
            while let Ok(n) = (&mut reader).take(1 << 16).read_until(b'\n', &mut buf) {
                if n == 0 {
                    break;
                }
                let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                buf.clear();
                log::debug!("[{label}] stderr: {line}");
                if let Ok(mut t) = t.lock() {
                    if t.lines.len() == STDERR_TAIL {
                        t.lines.pop_front();
                    }
                    t.lines.push_back(line);
                }
            }
            if let Ok(mut t) = t.lock() {
                t.done = true;
            }
        });
    if let Err(e) = spawned {
        log::debug!("cannot start a stderr thread: {e}");
        tail.lock().unwrap().done = true;
    }
    tail
}

pub(super) fn sort_name(s: Sort) -> String {
    s.to_string()
}

pub(super) fn default_value(s: Sort) -> Value {
    s.default_value()
}
