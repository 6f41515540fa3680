//! Runs a schedule of engines: one thread per *lane* (a core), each lane running its engines
//! one after another, each for its time slice. Every engine is started through
//! [`crate::engine::Engine`], built by [`EngineKind::make`] from the run's options. Answers come back as [`Report`]s; the caller validates
//! them, and [`Portfolio::stop`] kills every engine still running.
//!
//! What runs where is decided in [`crate::schedule`], not here.

use crate::engine::{Answer, EngineKind, EngineOptions, EngineStats, Problem, Stop};
use crate::schedule::{Lane, Step, NICE};
use crate::smt::{KillSwitch, SolverConfig};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// What one engine reported.
pub struct Report {
    pub engine: EngineKind,
    pub answer: Answer,
    pub stats: EngineStats,
    pub seconds: f64,
}

enum Msg {
    Report(Report),
    LaneDone,
}

/// One lane's controls: the kill switch of the engine it runs now, and its stop flag.
struct LaneCtl {
    current: Arc<Mutex<KillSwitch>>,
    stopped: Arc<AtomicBool>,
}

/// A running schedule: lane threads and their controls.
pub struct Portfolio {
    rx: mpsc::Receiver<Msg>,
    lanes: Vec<LaneCtl>,
    /// Lanes still running.
    pub running: usize,
}

/// Sends `LaneDone` when the lane's thread ends, also by a panic.
struct DoneGuard(mpsc::Sender<Msg>);

impl Drop for DoneGuard {
    fn drop(&mut self) {
        let _ = self.0.send(Msg::LaneDone);
    }
}

impl Portfolio {
    /// Starts one thread per lane; every engine is built from `opts` and gets its own
    /// solver processes. A nice lane's thread lowers its own priority first, and the solvers
    /// it starts inherit it.
    pub fn start(
        lanes: &[Lane],
        problem: &Problem,
        opts: &EngineOptions,
        smt: &SolverConfig,
    ) -> Portfolio {
        let opts = Arc::new(opts.clone());
        let (tx, rx) = mpsc::channel();
        let mut ctls = vec![];
        for (i, lane) in lanes.iter().enumerate() {
            let ctl = LaneCtl {
                current: Arc::new(Mutex::new(KillSwitch::new())),
                stopped: Arc::new(AtomicBool::new(false)),
            };
            let (current, stopped) = (ctl.current.clone(), ctl.stopped.clone());
            let (lane, problem, smt, tx) = (lane.clone(), problem.clone(), smt.clone(), tx.clone());
            let opts = opts.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("lane{i}{}", if lane.nice { "-nice" } else { "" }))
                .stack_size(256 << 20)
                .spawn(move || {
                    let guard = DoneGuard(tx);
                    if lane.nice {
                        lower_priority();
                    }
                    let ctl = (&*current, &*stopped);
                    run_lane(&lane.steps, (&problem, &opts), &smt, ctl, &guard.0);
                });
            match spawned {
                Ok(_) => ctls.push(ctl),
                Err(err) => log::error!("cannot start lane {i}: {err}"),
            }
        }
        Portfolio {
            rx,
            running: ctls.len(),
            lanes: ctls,
        }
    }

    /// The next report, waiting at most until `deadline`; `None` at the deadline or when
    /// every lane has ended.
    pub fn next(&mut self, deadline: Option<Instant>) -> Option<Report> {
        while self.running > 0 {
            let msg = match deadline {
                Some(d) => self
                    .rx
                    .recv_timeout(d.saturating_duration_since(Instant::now()))
                    .ok()?,
                None => self.rx.recv().ok()?,
            };
            match msg {
                Msg::Report(r) => return Some(r),
                Msg::LaneDone => self.running -= 1,
            }
        }
        None
    }

    /// Stops the solver processes of every lane (SIGSTOP) while an answer is validated, so
    /// that the validation has the CPU; [`Self::resume`] when it fails.
    pub fn pause(&self) {
        for l in &self.lanes {
            l.current.lock().unwrap_or_else(|e| e.into_inner()).pause();
        }
    }

    /// Lets the lanes paused by [`Self::pause`] go on.
    pub fn resume(&self) {
        for l in &self.lanes {
            l.current.lock().unwrap_or_else(|e| e.into_inner()).resume();
        }
    }

    /// Stops every lane: kills the solvers of the engine it runs, and starts no other.
    pub fn stop(&self) {
        for l in &self.lanes {
            l.stopped.store(true, Ordering::SeqCst);
            l.current
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .kill_all();
        }
    }
}

impl Drop for Portfolio {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Lowers the calling thread's priority to [`NICE`] (on Linux niceness is a thread's, and a
/// process or thread started from the thread inherits it: the lane's solvers, and its slice
/// and deadline timers, which may then wake a little late under load; the run's own deadline
/// and its stop are the main thread's). Raising it back would need privileges, so only a
/// lane's own thread calls this, for its whole life.
fn lower_priority() {
    // SAFETY: plain libc calls on the calling thread's own id; no pointers involved.
    let r = unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, NICE) };
    if r != 0 {
        log::warn!(
            "a nice lane keeps its priority: {}",
            std::io::Error::last_os_error()
        );
    }
}

/// Runs the lane's engines in order until one of them answers, or the lane is stopped.
/// When every step has ended without an answer and time is left, the engines that their
/// slice ended run again, in order, without a slice: the lane's time is not left idle
/// (`pdr | spacer:2,trl` under load: Spacer needs 2.3 s, TRL gives up in 0.1 s, and the
/// lane sat idle for the last 1.7 s).
fn run_lane(
    lane: &[Step],
    (problem, opts): (&Problem, &EngineOptions),
    smt: &SolverConfig,
    ctl: (&Mutex<KillSwitch>, &AtomicBool),
    tx: &mpsc::Sender<Msg>,
) {
    let mut cut = vec![];
    for step in lane {
        match run_step(step.engine, step.slice, (problem, opts), smt, ctl, tx) {
            StepEnd::Answered => return,
            StepEnd::SliceOver => cut.push(step.engine),
            StepEnd::GaveUp => {}
        }
    }
    for engine in cut {
        log::info!("{}: runs again for the lane's time left", engine.name());
        if let StepEnd::Answered = run_step(engine, None, (problem, opts), smt, ctl, tx) {
            return;
        }
    }
}

/// How one step of a lane ended.
enum StepEnd {
    /// With an answer, or the lane was stopped, or the report could not be sent.
    Answered,
    /// Unknown, when its time slice was over.
    SliceOver,
    /// Unknown, before the end of its slice.
    GaveUp,
}

/// Runs one engine, for `slice` if given; reports what it answered.
fn run_step(
    engine: EngineKind,
    slice: Option<Duration>,
    (problem, opts): (&Problem, &EngineOptions),
    smt: &SolverConfig,
    (current, stopped): (&Mutex<KillSwitch>, &AtomicBool),
    tx: &mpsc::Sender<Msg>,
) -> StepEnd {
    let kill = KillSwitch::new();
    {
        let mut cur = current.lock().unwrap_or_else(|e| e.into_inner());
        if stopped.load(Ordering::SeqCst) {
            return StepEnd::Answered;
        }
        *cur = kill.clone();
    }
    // the slice's end kills the engine's solvers; the engine then returns Unknown(Killed)
    let timer = slice.map(|s| kill.kill_after(s, "time slice"));
    let mut cfg = smt.clone();
    cfg.kill = kill;
    let report = run_engine(engine, problem, opts, &cfg);
    let over = timer.is_some_and(|t| t.fired());
    let answered = !report.answer.is_unknown();
    if tx.send(Msg::Report(report)).is_err() || answered || stopped.load(Ordering::SeqCst) {
        // an answer ends the lane: if it fails validation, the other lanes go on
        return StepEnd::Answered;
    }
    if over {
        StepEnd::SliceOver
    } else {
        StepEnd::GaveUp
    }
}

/// Runs one engine to its end; a panic becomes `Unknown(Bug)` (and is logged as a bug).
fn run_engine(
    e: EngineKind,
    problem: &Problem,
    opts: &EngineOptions,
    cfg: &SolverConfig,
) -> Report {
    let start = Instant::now();
    let ran = catch_unwind(AssertUnwindSafe(|| {
        let mut engine = e.make(opts);
        if let Err(what) = engine.supports(&problem.features) {
            log::info!("{}: does not take {what}, steps aside", e.name());
            let why = format!("{} does not take {what}", e.name());
            return (
                Answer::Unknown(Stop::Unsupported(why)),
                EngineStats::default(),
            );
        }
        let answer = engine.solve(problem, cfg);
        (answer, engine.stats())
    }));
    let (answer, stats) = ran.unwrap_or_else(|_| {
        log::error!("{}: the engine panicked (a bug)", e.name());
        cfg.kill.kill_all();
        (
            Answer::Unknown(Stop::Bug("the engine panicked".into())),
            EngineStats::default(),
        )
    });
    let seconds = start.elapsed().as_secs_f64();
    log::info!("{}: finished after {seconds:.2}s", e.name());
    Report {
        engine: e,
        answer,
        stats,
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::{find_solver, SolverKind};
    use crate::testing::timing::{bound, slack, solver_baseline};

    fn problem(path: &str) -> Problem {
        let text =
            std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let sys = crate::frontend::parse_str(&text).unwrap();
        let (psys, _) = crate::frontend::passes::preprocess(&sys);
        let ts = crate::ts::TsAdapter::new(&psys).map(Arc::new);
        Problem {
            ts,
            features: crate::chc::Features::of(&sys).preprocessed(&psys),
            input: None,
            graph: Arc::new(psys),
            seeds: Default::default(),
        }
    }

    fn yices() -> SolverConfig {
        let p = find_solver(SolverKind::Yices, None).expect("the tests need yices");
        SolverConfig::new(SolverKind::Yices, p)
    }

    fn step(engine: EngineKind, slice: Option<f64>) -> Step {
        Step {
            engine,
            slice: slice.map(Duration::from_secs_f64),
        }
    }

    fn is_unknown(a: &Answer) -> bool {
        a.is_unknown()
    }

    fn start_lanes(lanes: &[Vec<Step>], p: &Problem) -> Portfolio {
        let lanes: Vec<Lane> = lanes.iter().map(|steps| Lane::new(steps)).collect();
        Portfolio::start(&lanes, p, &EngineOptions::default(), &yices())
    }

    /// BMC never ends on a safe system: its slice must end it, and the lane's next engine
    /// must then run and answer.
    #[test]
    fn a_slice_ends_an_engine_and_the_lane_moves_on() {
        let p = problem("bench-chc/gen/counter-10-sat.smt2");
        // the load now, for the margin after the slice
        let most = bound(Duration::from_secs(1), solver_baseline(&yices()));
        let start = Instant::now();
        let mut pf = start_lanes(
            &[vec![
                step(EngineKind::Bmc, Some(1.0)),
                step(EngineKind::Pdr, None),
            ]],
            &p,
        );
        let deadline = Some(start + Duration::from_secs(30));
        let first = pf.next(deadline).expect("bmc reports");
        assert_eq!(first.engine, EngineKind::Bmc);
        assert!(is_unknown(&first.answer));
        let t = start.elapsed();
        // not before its slice; after it, within a margin that scales with the load
        assert!(
            t >= Duration::from_millis(900) && t < most,
            "bmc ended after {t:?}, its slice is 1s (bound {most:?})"
        );
        let second = pf.next(deadline).expect("pdr reports");
        assert_eq!(second.engine, EngineKind::Pdr);
        assert!(matches!(second.answer, Answer::Safe(_)));
        assert!(pf.next(deadline).is_none() && pf.running == 0);
    }

    /// When every step of a lane has ended without an answer, the engines whose slice ended
    /// them run again without one: on a safe system, BMC cut after 0.3 s twice, then BMC
    /// again for the lane's time left (until stopped), where the lane used to end.
    #[test]
    fn engines_cut_by_their_slice_get_the_lanes_time_left() {
        let p = problem("bench-chc/gen/counter-10-sat.smt2");
        let start = Instant::now();
        let mut pf = start_lanes(
            &[vec![
                step(EngineKind::Bmc, Some(0.3)),
                step(EngineKind::Bmc, Some(0.3)),
            ]],
            &p,
        );
        let deadline = Some(start + Duration::from_secs(30));
        for _ in 0..2 {
            let r = pf.next(deadline).expect("bmc reports");
            assert!(r.engine == EngineKind::Bmc && is_unknown(&r.answer));
        }
        assert!(pf
            .next(Some(Instant::now() + Duration::from_secs(1)))
            .is_none());
        assert_eq!(pf.running, 1, "the lane ended with time left");
        pf.stop();
        let r = pf
            .next(deadline)
            .expect("the third bmc reports when stopped");
        assert!(r.engine == EngineKind::Bmc && is_unknown(&r.answer));
        assert!(pf.next(deadline).is_none() && pf.running == 0);
    }

    /// Spacer and transition-system engines run side by side; an engine that gives up hands
    /// its lane to the next one at once.
    #[test]
    fn lanes_run_in_parallel_and_an_engine_that_gives_up_hands_over() {
        let p = problem("bench-chc/gen/counter-10-unsat.smt2");
        let mut pf = start_lanes(
            &[
                // kind on an unsafe system answers (its base case is BMC)
                vec![step(EngineKind::Spacer, None)],
                vec![
                    step(EngineKind::Kind, Some(20.0)),
                    step(EngineKind::Bmc, None),
                ],
            ],
            &p,
        );
        let deadline = Some(Instant::now() + Duration::from_secs(30));
        let mut seen = vec![];
        while let Some(r) = pf.next(deadline) {
            assert!(!is_unknown(&r.answer), "{} gave up", r.engine.name());
            seen.push(r.engine);
        }
        seen.sort_by_key(|e| e.name());
        assert_eq!(seen, vec![EngineKind::Kind, EngineKind::Spacer]);
        // a non-linear problem: a transition-system engine gives up, Spacer then runs
        let p = Problem { ts: None, ..p };
        let mut pf = start_lanes(
            &[vec![
                step(EngineKind::Pdr, Some(20.0)),
                step(EngineKind::Spacer, None),
            ]],
            &p,
        );
        let a = pf.next(deadline).unwrap();
        assert!(a.engine == EngineKind::Pdr && is_unknown(&a.answer));
        let b = pf.next(deadline).unwrap();
        assert!(b.engine == EngineKind::Spacer && !is_unknown(&b.answer));
    }

    /// A nice lane's solver processes run at `NICE` (they inherit it from the lane's
    /// thread); the other lane's keep the niceness of this process, whatever it is (the
    /// suite may run under `nice -n 19`).
    #[test]
    fn a_nice_lane_and_its_solvers_run_at_low_priority() {
        let own = crate::smt::niceness(std::process::id() as i32).unwrap();
        if own >= NICE {
            // Both lanes are at NICE whether or not the nice lane lowers its priority: the
            // assertion below holds but tells nothing about `lower_priority`. It does at
            // any niceness below NICE (a plain `cargo test`).
            eprintln!(
                "a_nice_lane_and_its_solvers_run_at_low_priority: this process runs at \
                 niceness {own}, the nice lane's own level: the test is vacuous here"
            );
        }
        let p = problem("bench-chc/gen/counter-10-sat.smt2");
        let bmc = vec![step(EngineKind::Bmc, None)];
        let lanes = [Lane::new(&bmc), Lane::nice(&bmc)];
        let pf = Portfolio::start(&lanes, &p, &EngineOptions::default(), &yices());
        // each lane's first solver process, as soon as its engine has started one
        let mut seen = [None, None];
        let start = Instant::now();
        while seen.contains(&None) && start.elapsed() < Duration::from_secs(20) {
            for (i, lane) in pf.lanes.iter().enumerate() {
                let pids = lane.current.lock().unwrap().pids();
                seen[i] = seen[i].or(pids.first().and_then(|&p| crate::smt::niceness(p)));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        pf.stop();
        assert_eq!(
            seen,
            [Some(own), Some(NICE)],
            "niceness of each lane's solver"
        );
    }

    /// `stop` kills the running engine of every lane, and no later engine starts.
    #[test]
    fn stop_ends_every_lane() {
        let p = problem("bench-chc/gen/counter-10-sat.smt2");
        let mut pf = start_lanes(
            &[
                vec![
                    step(EngineKind::Bmc, Some(20.0)),
                    step(EngineKind::Bmc, None),
                ],
                vec![step(EngineKind::Bmc, None)],
            ],
            &p,
        );
        let prompt = slack(solver_baseline(&yices()));
        std::thread::sleep(Duration::from_millis(500));
        let start = Instant::now();
        pf.stop();
        let deadline = Some(start + Duration::from_secs(10));
        let mut reports = 0;
        while let Some(r) = pf.next(deadline) {
            assert!(is_unknown(&r.answer));
            reports += 1;
        }
        assert_eq!(pf.running, 0, "a lane still runs");
        assert_eq!(
            reports, 2,
            "one report per lane: the second bmc must not start"
        );
        // at once: within a margin that scales with the load (a lane that ignored the
        // stop would run until the deadline, 10 s, or forever)
        let took = start.elapsed();
        assert!(
            took < prompt,
            "stopped {took:?} after stop() (bound {prompt:?})"
        );
    }
}
