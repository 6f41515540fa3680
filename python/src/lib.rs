//! The Python module `chcsolve`: `solve`, `solve_file` and `solve_all` over the chcsolve
//! library, with the GIL released while the engines run and Ctrl-C stopping them.
//!
//! A run happens on a thread of its own (with the binary's large stack). The calling thread
//! waits for it without the GIL, waking every [`POLL`] to let Python run its signal handlers
//! ([`Python::check_signals`]); a `KeyboardInterrupt` sets the run's [`Options::cancel`]
//! switch, which kills every engine's solver processes as the time limit does, waits for the
//! run to end, and raises.

mod result;
mod values;

use chcsolve::engine::EngineKind;
use chcsolve::frontend::{parse_script, Format};
use chcsolve::smt::SolverKind;
use chcsolve::{solve_each, Options, Outcome, SolveError};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use result::SolveResult;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// How often the waiting thread looks for a pending signal (Ctrl-C).
const POLL: Duration = Duration::from_millis(50);

/// The library's options from the keyword arguments shared by every entry point.
fn options(
    timeout: Option<f64>,
    engines: Option<Vec<String>>,
    jobs: Option<usize>,
    solver: Option<String>,
    expand: bool,
) -> PyResult<Options> {
    let timeout = match timeout {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            return Err(PyValueError::new_err(format!(
                "timeout must be a positive number of seconds, not {t}"
            )))
        }
        t => t.map(Duration::from_secs_f64),
    };
    let engines = engines
        .unwrap_or_default()
        .iter()
        .map(|name| {
            <EngineKind as clap::ValueEnum>::from_str(name, true).map_err(|_| {
                let known: Vec<&str> = <EngineKind as clap::ValueEnum>::value_variants()
                    .iter()
                    .map(|e| e.name())
                    .collect();
                PyValueError::new_err(format!(
                    "unknown engine {name:?}; the engines are {}",
                    known.join(", ")
                ))
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let solver = solver
        .map(|s| SolverKind::from_str(&s).map_err(PyValueError::new_err))
        .transpose()?;
    if jobs == Some(0) {
        return Err(PyValueError::new_err("jobs must be at least 1"));
    }
    Ok(Options {
        engines,
        jobs,
        solver,
        timeout,
        expand,
        cancel: Some(Arc::new(AtomicBool::new(false))),
        ..Options::default()
    })
}

/// Runs `f` on a thread of its own and waits for it without the GIL; on a pending signal
/// (a `KeyboardInterrupt`, say) sets `cancel`, waits for `f` to stop, and raises it.
fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    cancel: Arc<AtomicBool>,
    f: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, mut rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("chcsolve".into())
        // as the binary's solving thread: the front-end recurses on deep terms
        .stack_size(1 << 30)
        .spawn(move || {
            let _ = tx.send(f());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the solving thread: {e}")))?;
    loop {
        let (r, back) = py.detach(move || (rx.recv_timeout(POLL), rx));
        rx = back;
        match r {
            Ok(v) => return Ok(v),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("chcsolve: the solving thread panicked"))
            }
        }
        if let Err(e) = py.check_signals() {
            cancel.store(true, Ordering::SeqCst);
            // the run ends within the library's cancel poll, its solvers killed
            py.detach(move || drop(rx.recv()));
            return Err(e);
        }
    }
}

/// Parses `text` and solves each of its queries; the format, and one outcome per query.
fn run(
    py: Python<'_>,
    text: String,
    opts: Options,
) -> PyResult<(Format, Vec<Result<Outcome, SolveError>>)> {
    let cancel = opts.cancel.clone().expect("options() sets a cancel switch");
    let parsed = interruptible(py, cancel, move || {
        let script = parse_script(&text)?;
        drop(text);
        let mut outs = vec![];
        solve_each(script.systems, &opts, |o| outs.push(o));
        Ok((script.format, outs))
    })?;
    parsed.map_err(|e: chcsolve::frontend::InputError| PyValueError::new_err(e.to_string()))
}

/// The result of one outcome, or the exception for a run that could not start.
fn to_result(
    py: Python<'_>,
    format: Format,
    out: Result<Outcome, SolveError>,
) -> PyResult<SolveResult> {
    match out {
        Ok(o) => SolveResult::new(py, format, o),
        Err(e @ SolveError::Input(_)) => Err(PyValueError::new_err(e.to_string())),
        Err(e @ SolveError::Setup(_)) => Err(PyRuntimeError::new_err(e.to_string())),
    }
}

/// Solves a problem given as text: CHC-COMP's SMT-LIB format (`declare-fun`, `assert`,
/// `check-sat`) or z3's fixedpoint format with one `query`.
///
/// `timeout` is in seconds (the answer is then `unknown` with `reason_unknown` "timeout");
/// `engines` names engines to run side by side instead of the default schedule (as
/// `--engine`); `jobs` is the cores the default schedule is chosen for; `solver` the SMT
/// solver of the engines ("z3", "yices", "cvc5", "smtinterpol"); `expand` gives every step
/// of a derivation found through accelerated loops (else such a derivation comes as
/// `derivation_text` only). Raises ValueError on input chcsolve does not accept and
/// RuntimeError when no solver is found; Ctrl-C stops the run and its solver processes.
#[pyfunction]
#[pyo3(signature = (text, timeout=None, engines=None, jobs=None, solver=None, expand=true))]
fn solve(
    py: Python<'_>,
    text: String,
    timeout: Option<f64>,
    engines: Option<Vec<String>>,
    jobs: Option<usize>,
    solver: Option<String>,
    expand: bool,
) -> PyResult<SolveResult> {
    let opts = options(timeout, engines, jobs, solver, expand)?;
    let (format, mut outs) = run(py, text, opts)?;
    match outs.len() {
        1 => to_result(py, format, outs.pop().expect("one outcome")),
        0 => Err(PyValueError::new_err("no query (check-sat or query) in the input")),
        n => Err(PyValueError::new_err(format!(
            "{n} queries in the input: use chcsolve.solve_all"
        ))),
    }
}

/// Solves the problem in the file at `path`; the arguments are those of `solve`.
#[pyfunction]
#[pyo3(signature = (path, timeout=None, engines=None, jobs=None, solver=None, expand=true))]
fn solve_file(
    py: Python<'_>,
    path: std::path::PathBuf,
    timeout: Option<f64>,
    engines: Option<Vec<String>>,
    jobs: Option<usize>,
    solver: Option<String>,
    expand: bool,
) -> PyResult<SolveResult> {
    let text = std::fs::read_to_string(&path).map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!("cannot read {}: {e}", path.display()))
    })?;
    solve(py, text, timeout, engines, jobs, solver, expand)
}

/// Solves every query of a text (a fixedpoint script may ask several, each over the rules
/// stated before it), within `timeout` for all of them together; one result per query.
#[pyfunction]
#[pyo3(signature = (text, timeout=None, engines=None, jobs=None, solver=None, expand=true))]
fn solve_all(
    py: Python<'_>,
    text: String,
    timeout: Option<f64>,
    engines: Option<Vec<String>>,
    jobs: Option<usize>,
    solver: Option<String>,
    expand: bool,
) -> PyResult<Vec<SolveResult>> {
    let opts = options(timeout, engines, jobs, solver, expand)?;
    let (format, outs) = run(py, text, opts)?;
    outs.into_iter()
        .map(|o| to_result(py, format, o))
        .collect()
}

#[pymodule]
fn chcsolve(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_file, m)?)?;
    m.add_function(wrap_pyfunction!(solve_all, m)?)?;
    m.add_class::<SolveResult>()?;
    m.add_class::<result::Step>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
