//! Killing solver processes: the shared kill switch and the last-resort child killer.

use rustc_hash::FxHashSet;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Set by [`shut_down`]: the process is exiting, every solver started from now on is killed.
static SHUTDOWN: AtomicBool = AtomicBool::new(false);

/// For the binary's signal handler: kills every child process now, and every solver process
/// started from now on as soon as it registers, until no child is alive (at most 200 ms),
/// so that nothing is left running after the exit.
pub fn shut_down() {
    SHUTDOWN.store(true, Ordering::SeqCst);
    let start = std::time::Instant::now();
    loop {
        kill_all_children();
        if child_pids().into_iter().all(|p| !is_alive(p))
            || start.elapsed() > std::time::Duration::from_millis(200)
        {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// True once [`shut_down`] was called.
pub fn shutting_down() -> bool {
    SHUTDOWN.load(Ordering::SeqCst)
}

/// [`KillSwitch::kill_after`]'s timer: dropping it before the limit keeps the switch alive.
pub struct KillTimer {
    _done: mpsc::Sender<()>,
    fired: Arc<AtomicBool>,
}

impl KillTimer {
    /// Whether the limit passed and the switch was killed.
    pub fn fired(&self) -> bool {
        self.fired.load(Ordering::SeqCst)
    }
}

/// A switch shared by all solvers of one engine (clone it to share it).
///
/// [`KillSwitch::kill_all`] sends SIGKILL to every live solver process started with it, from
/// any thread; a call blocked on such a solver then fails with
/// [`SmtError::Killed`](super::SmtError::Killed), and so does every later attempt to start or
/// use a solver with this switch.
#[derive(Clone, Default)]
pub struct KillSwitch(Arc<Inner>);

#[derive(Default)]
struct Inner {
    killed: AtomicBool,
    /// Between [`KillSwitch::pause`] and [`KillSwitch::resume`]: the processes are stopped
    /// (SIGSTOP), and so is every process registered meanwhile.
    paused: AtomicBool,
    /// PIDs of the live processes. A PID leaves the set before its process is reaped, so a
    /// PID in the set is never recycled for another process.
    pids: Mutex<FxHashSet<i32>>,
}

impl KillSwitch {
    /// A fresh switch, not killed.
    pub fn new() -> KillSwitch {
        KillSwitch::default()
    }

    /// Kills the switch once `limit` has passed, unless the returned timer is dropped first
    /// (a time slice's end, a deadline of one task); `what` names the limit in the log.
    pub fn kill_after(&self, limit: Duration, what: &'static str) -> KillTimer {
        let (done, wait) = mpsc::channel::<()>();
        let fired = Arc::new(AtomicBool::new(false));
        let (kill, flag) = (self.clone(), fired.clone());
        let _ = std::thread::Builder::new()
            .name("kill-after".into())
            .spawn(move || {
                if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                    log::info!("{what} of {:.1}s over", limit.as_secs_f64());
                    flag.store(true, Ordering::SeqCst);
                    kill.kill_all();
                }
            });
        KillTimer { _done: done, fired }
    }

    /// Kills every registered solver process now, and makes every later start fail.
    pub fn kill_all(&self) {
        let pids = self.lock();
        self.0.killed.store(true, Ordering::SeqCst);
        for &pid in pids.iter() {
            sigkill(pid);
        }
        log::debug!("kill switch: killed {} solver process(es)", pids.len());
    }

    /// Stops every registered process (SIGSTOP) until [`Self::resume`]: its CPU goes to
    /// whoever needs it more (the validation of another engine's answer). A query to a
    /// stopped solver waits; a solver's own time limit keeps running and may end it.
    pub fn pause(&self) {
        let pids = self.lock();
        self.0.paused.store(true, Ordering::SeqCst);
        for &pid in pids.iter() {
            signal(pid, libc::SIGSTOP);
        }
    }

    /// Lets the processes stopped by [`Self::pause`] go on (SIGCONT).
    pub fn resume(&self) {
        let pids = self.lock();
        self.0.paused.store(false, Ordering::SeqCst);
        for &pid in pids.iter() {
            signal(pid, libc::SIGCONT);
        }
    }

    /// True between [`Self::pause`] and [`Self::resume`].
    pub fn is_paused(&self) -> bool {
        self.0.paused.load(Ordering::SeqCst)
    }

    /// True once [`Self::kill_all`] was called.
    pub fn is_killed(&self) -> bool {
        self.0.killed.load(Ordering::SeqCst)
    }

    /// Number of registered (live) processes.
    pub fn live(&self) -> usize {
        self.lock().len()
    }

    /// The PIDs of the live processes.
    #[cfg(test)]
    pub(crate) fn pids(&self) -> Vec<i32> {
        self.lock().iter().copied().collect()
    }

    /// Registers a new process. When the switch is already killed, kills it and returns false.
    pub(super) fn register(&self, pid: i32) -> bool {
        let mut pids = self.lock();
        if self.is_killed() || shutting_down() {
            sigkill(pid);
            return false;
        }
        if self.is_paused() {
            signal(pid, libc::SIGSTOP);
        }
        pids.insert(pid);
        true
    }

    /// Forgets a process, which must not have been reaped yet.
    pub(super) fn unregister(&self, pid: i32) {
        self.lock().remove(&pid);
    }

    fn lock(&self) -> MutexGuard<'_, FxHashSet<i32>> {
        self.0.pids.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl fmt::Debug for KillSwitch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KillSwitch")
            .field("killed", &self.is_killed())
            .field("live", &self.live())
            .finish()
    }
}

/// Sends SIGKILL to `pid` and its descendants (ignored for non-positive PIDs); a stopped
/// process dies too.
pub(crate) fn sigkill(pid: i32) {
    signal(pid, libc::SIGKILL);
}

/// Sends `sig` to `pid` and to every descendant it has now (ignored for non-positive PIDs).
/// A solver named by the user may be a script that runs the solver as its child instead of
/// `exec`ing it (a module loader, a logging wrapper): the signal must reach that child too,
/// or it runs on after the script is killed, to the end of its query or longer.
fn signal(pid: i32, sig: libc::c_int) {
    if pid <= 0 {
        return;
    }
    // the whole tree first: once the parent dies, its children are re-parented
    let family = descendants(pid);
    for p in std::iter::once(pid).chain(family) {
        // SAFETY: kill(2) has no memory-safety preconditions.
        unsafe {
            libc::kill(p, sig);
        }
    }
}

/// The PIDs of the descendants of `pid`, from `/proc/PID/task/TID/children` (the children
/// each of its threads started); empty when the kernel does not provide that file.
pub(super) fn descendants(pid: i32) -> Vec<i32> {
    let mut out = vec![];
    let mut todo = vec![pid];
    while let Some(p) = todo.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
            continue;
        };
        for t in tasks.flatten() {
            let Ok(text) = std::fs::read_to_string(t.path().join("children")) else {
                continue;
            };
            for c in text
                .split_whitespace()
                .filter_map(|c| c.parse::<i32>().ok())
            {
                // a cycle cannot happen, but a bound keeps a broken /proc from looping
                if c > 0 && !out.contains(&c) && out.len() < 4096 {
                    out.push(c);
                    todo.push(c);
                }
            }
        }
    }
    out
}

/// `f` of the fields of `/proc/PID/stat` after the command name (the state letter, the
/// parent PID, ...), read without copying them.
fn with_stat_fields<R>(
    pid: i32,
    f: impl FnOnce(std::str::SplitWhitespace<'_>) -> Option<R>,
) -> Option<R> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state ppid ...", where comm may contain spaces and parentheses.
    f(s[s.rfind(')')? + 1..].split_whitespace())
}

/// The state letter and parent PID of a process, from `/proc/PID/stat`.
fn proc_stat(pid: i32) -> Option<(char, i32)> {
    with_stat_fields(pid, |mut it| {
        let state = it.next()?.chars().next()?;
        let ppid = it.next()?.parse().ok()?;
        Some((state, ppid))
    })
}

/// The niceness of a process (field 19 of `/proc/PID/stat`).
#[cfg(test)]
pub(crate) fn niceness(pid: i32) -> Option<i32> {
    with_stat_fields(pid, |mut it| it.nth(16)?.parse().ok())
}

/// True when the process exists and is not a zombie.
pub(crate) fn is_alive(pid: i32) -> bool {
    matches!(proc_stat(pid), Some((state, _)) if state != 'Z' && state != 'X')
}

/// The PIDs of the child processes of this process.
pub(super) fn child_pids() -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return vec![];
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| matches!(proc_stat(pid), Some((_, ppid)) if ppid == me))
        .collect()
}

/// Kills every child process of this process (found by scanning `/proc/*/stat` for a parent
/// PID equal to ours) with SIGKILL. A last resort for the binary at exit or timeout.
pub fn kill_all_children() {
    let kids = child_pids();
    for &pid in &kids {
        sigkill(pid);
    }
    if !kids.is_empty() {
        log::debug!("killed {} child process(es)", kids.len());
    }
}

/// A time limit on one solver process: when it passes before the guard is dropped, the
/// process is killed (SIGKILL), so a call blocked on it fails, and [`Deadline::fired`] says
/// why. Made by [`Smt::deadline`](super::Smt::deadline).
pub struct Deadline {
    cancel: Option<std::sync::mpsc::Sender<()>>,
    fired: Arc<AtomicBool>,
}

impl Deadline {
    pub(super) fn start(pid: i32, limit: std::time::Duration) -> Deadline {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let fired = Arc::new(AtomicBool::new(false));
        let f = fired.clone();
        let spawned = std::thread::Builder::new()
            .name("smt-deadline".into())
            .spawn(move || {
                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(limit) {
                    f.store(true, Ordering::SeqCst);
                    sigkill(pid);
                }
            });
        if let Err(e) = spawned {
            log::debug!("cannot start a deadline thread: {e}");
        }
        Deadline {
            cancel: Some(tx),
            fired,
        }
    }

    /// True when the limit passed and the process was killed.
    pub fn fired(&self) -> bool {
        self.fired.load(Ordering::SeqCst)
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        // Dropping the sender wakes the thread, which then exits without killing.
        self.cancel.take();
    }
}
