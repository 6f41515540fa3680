//! The native half of the Python package `chcsolve` (`chcsolve._native`; the API is
//! `chcsolve/__init__.py`): `solve_all` runs the library on a text and returns each query's
//! outcome as plain Python data ([`convert`]), `evaluate` applies a model to values.
//!
//! The module is declared through pyo3's FFI rather than its macros (see Cargo.toml).
//! A run happens on a thread of its own (with the binary's large stack). The calling thread
//! waits for it without the GIL, waking every [`POLL`] to let Python run its signal handlers
//! ([`Python::check_signals`]); a `KeyboardInterrupt` sets the run's [`Options::cancel`]
//! switch, which kills every engine's solver processes as the time limit does, waits for the
//! run to end, and raises.

mod convert;

use chcsolve::engine::{EngineKind, Named};
use chcsolve::frontend::{parse_script, Format};
use chcsolve::smt::SolverKind;
use chcsolve::{solve_each, Options, Outcome, SolveError};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyList, PyTuple};
use std::ptr;
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
            name.to_lowercase().parse::<EngineKind>().map_err(|_| {
                let known: Vec<&str> = EngineKind::ALL.iter().map(|e| e.name()).collect();
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
                return Err(PyRuntimeError::new_err(
                    "chcsolve: the solving thread panicked",
                ))
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
        // the text is kept for the judge (every answer checked against it)
        let text: std::sync::Arc<str> = std::sync::Arc::from(text);
        let script = parse_script(&text)?;
        let mut outs = vec![];
        solve_each(script.systems, Some(text), &opts, |o| outs.push(o));
        Ok((script.format, outs))
    })?;
    parsed.map_err(|e: chcsolve::frontend::InputError| PyValueError::new_err(e.to_string()))
}

/// `solve_all(text, timeout, engines, jobs, solver, expand)` -> `(format, [outcome])`, each
/// outcome a dict ([`convert::outcome`]); raises ValueError on bad input and RuntimeError
/// when no solver is found.
fn solve_all(py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
    #[allow(clippy::type_complexity)]
    let (text, timeout, engines, jobs, solver, expand): (
        String,
        Option<f64>,
        Option<Vec<String>>,
        Option<usize>,
        Option<String>,
        bool,
    ) = args.extract()?;
    let opts = options(timeout, engines, jobs, solver, expand)?;
    let (format, outs) = run(py, text, opts)?;
    let list = PyList::empty(py);
    for o in outs {
        match o {
            Ok(o) => list.append(convert::outcome(py, format, o)?)?,
            Err(e @ SolveError::Input(_)) => return Err(PyValueError::new_err(e.to_string())),
            Err(e @ SolveError::Setup(_)) => return Err(PyRuntimeError::new_err(e.to_string())),
        }
    }
    let format = match format {
        Format::ChcComp => "chc-comp",
        Format::Fixedpoint => "fixedpoint",
    };
    Ok((format, list).into_pyobject(py)?.into_any().unbind())
}

/// `evaluate(model, pred, args)` -> bool: the model (the `handle` of an outcome) applied to
/// values.
fn evaluate(py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
    let (handle, pred, values): (Bound<'_, PyAny>, String, Bound<'_, PyAny>) = args.extract()?;
    let capsule = handle
        .cast::<PyCapsule>()
        .map_err(|_| PyValueError::new_err("not a model handle"))?;
    let p = capsule.pointer_checked(Some(convert::MODEL))?;
    // SAFETY: a capsule of this name holds a `Held` (convert::outcome), alive while it is
    let held = unsafe { p.cast::<convert::Held>().as_ref() };
    let b = convert::evaluate(held, &pred, &values)?;
    Ok(pyo3::types::PyBool::new(py, b)
        .to_owned()
        .into_any()
        .unbind())
}

/// Calls `f` on the arguments of a C call from Python, turning its error or panic into a
/// raised exception.
fn call(
    args: *mut ffi::PyObject,
    f: fn(Python<'_>, &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>>,
) -> *mut ffi::PyObject {
    Python::attach(|py| {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // SAFETY: METH_VARARGS passes a borrowed tuple
            let args = unsafe { Bound::from_borrowed_ptr(py, args) };
            let args = args.cast::<PyTuple>().map_err(PyErr::from)?;
            f(py, args)
        }));
        match r {
            Ok(Ok(v)) => v.into_ptr(),
            Ok(Err(e)) => {
                e.restore(py);
                ptr::null_mut()
            }
            Err(_) => {
                PyRuntimeError::new_err("chcsolve panicked (a bug)").restore(py);
                ptr::null_mut()
            }
        }
    })
}

unsafe extern "C" fn c_solve_all(
    _module: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    call(args, solve_all)
}

unsafe extern "C" fn c_evaluate(
    _module: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    call(args, evaluate)
}

static mut METHODS: [ffi::PyMethodDef; 3] = [
    ffi::PyMethodDef {
        ml_name: c"solve_all".as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            PyCFunction: c_solve_all,
        },
        ml_flags: ffi::METH_VARARGS,
        ml_doc: c"solve_all(text, timeout, engines, jobs, solver, expand) -> (format, [outcome])"
            .as_ptr(),
    },
    ffi::PyMethodDef {
        ml_name: c"evaluate".as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            PyCFunction: c_evaluate,
        },
        ml_flags: ffi::METH_VARARGS,
        ml_doc: c"evaluate(handle, pred, args) -> bool".as_ptr(),
    },
    ffi::PyMethodDef::zeroed(),
];

static mut MODULE: ffi::PyModuleDef = ffi::PyModuleDef {
    m_base: ffi::PyModuleDef_HEAD_INIT,
    m_name: c"chcsolve._native".as_ptr(),
    m_doc: c"The compiled half of chcsolve's Python package.".as_ptr(),
    m_size: 0,
    m_methods: (&raw mut METHODS).cast(),
    m_slots: ptr::null_mut(),
    m_traverse: None,
    m_clear: None,
    m_free: None,
};

/// The module's entry point, which Python calls on `import chcsolve._native`.
///
/// # Safety
/// Called by the Python interpreter, with the GIL held, once per import.
#[allow(non_snake_case)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PyInit__native() -> *mut ffi::PyObject {
    // SAFETY: MODULE is only handed to Python, which keeps it for the process's life
    unsafe { ffi::PyModuleDef_Init(&raw mut MODULE) }
}
