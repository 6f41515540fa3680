//! An outcome as plain Python data for `chcsolve/__init__.py`, values as Python numbers
//! (`Int` as `int`, `Real` as `fractions.Fraction`, never `float`), and the model kept in
//! Rust (a capsule) for [`evaluate`], which uses the project's exact evaluator.

use chcsolve::answer::answer_line;
use chcsolve::chc::CexStep;
use chcsolve::chc::ChcSystem;
use chcsolve::engine::Counter;
use chcsolve::frontend::Format;
use chcsolve::logic::{eval, eval_bool, Assignment, Rat, Sort, Value};
use chcsolve::{Model, Outcome, Stats, Verdict};
use num_bigint::BigInt;
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyCapsule, PyDict, PyFloat, PyInt, PyList};
use std::ffi::CStr;

/// The name of the capsules that hold a [`Held`].
pub const MODEL: &CStr = c"chcsolve._native.model";

/// A model with the system it is over, behind an outcome's `handle`.
pub struct Held {
    system: ChcSystem,
    model: Model,
}

/// The dict of one outcome: `status`, `reason_unknown`, `model` (name -> `define-fun`),
/// `model_text`, `derivation` (a list of step dicts), `derivation_text`, `predicates`
/// (name -> sorts), `stats` and `handle` (the model, for [`evaluate`]); absent parts None.
pub fn outcome<'py>(py: Python<'py>, format: Format, o: Outcome) -> PyResult<Bound<'py, PyDict>> {
    let Outcome {
        verdict,
        system,
        stats,
        ..
    } = o;
    let d = PyDict::new(py);
    d.set_item("status", answer_line(format, &verdict))?;
    let predicates = PyDict::new(py);
    for p in &system.preds {
        let sorts: Vec<String> = p.sorts.iter().map(|s| s.to_string()).collect();
        predicates.set_item(&p.name, sorts)?;
    }
    d.set_item("predicates", predicates)?;
    d.set_item("stats", stats_dict(py, &stats)?)?;
    for k in [
        "reason_unknown",
        "model",
        "model_text",
        "derivation",
        "derivation_text",
        "handle",
    ] {
        d.set_item(k, py.None())?;
    }
    match verdict {
        Verdict::Sat(model) => {
            let m = PyDict::new(py);
            for p in system.pred_ids() {
                m.set_item(
                    &system.pred(p).name,
                    chcsolve::witness::define_fun(&system, &model, p),
                )?;
            }
            d.set_item("model", m)?;
            d.set_item(
                "model_text",
                chcsolve::witness::model_to_smtlib(&system, &model),
            )?;
            let held = Held { system, model };
            d.set_item("handle", PyCapsule::new_with_value(py, held, MODEL)?)?;
        }
        Verdict::Unsat(cex) => {
            let steps = PyList::empty(py);
            for s in &cex {
                steps.append(step(py, &system, s)?)?;
            }
            d.set_item("derivation", steps)?;
            d.set_item(
                "derivation_text",
                chcsolve::witness::cex_to_text(&system, &cex),
            )?;
        }
        Verdict::UnsatAccelerated(acex) => {
            d.set_item(
                "derivation_text",
                chcsolve::witness::accel_cex_to_text(&system, &acex),
            )?;
        }
        // not given: the package asks for models
        Verdict::SatKInductive { .. } => {}
        Verdict::Unknown(why) => d.set_item("reason_unknown", why.to_string())?,
    }
    Ok(d)
}

/// One derivation step: `clause` (0-based), `line`, `head` (None for the query), `args`
/// (the head's values), `body` (`(name, values)` per application), `premises`, `values`.
fn step<'py>(py: Python<'py>, sys: &ChcSystem, s: &CexStep) -> PyResult<Bound<'py, PyDict>> {
    let c = &sys.clauses[s.clause.idx()];
    let vals = |args: &[chcsolve::logic::Term]| -> PyResult<Bound<'py, PyList>> {
        let l = PyList::empty(py);
        for a in args {
            let v = eval(a, &s.vals).map_err(PyValueError::new_err)?;
            l.append(to_py(py, &v)?)?;
        }
        Ok(l)
    };
    let d = PyDict::new(py);
    d.set_item("clause", s.clause.idx())?;
    d.set_item("line", c.line)?;
    match &c.head {
        Some(h) => {
            d.set_item("head", &sys.pred(h.pred).name)?;
            d.set_item("args", vals(&h.args)?)?;
        }
        None => {
            d.set_item("head", py.None())?;
            d.set_item("args", PyList::empty(py))?;
        }
    }
    let body = PyList::empty(py);
    for app in &c.body {
        body.append((&sys.pred(app.pred).name, vals(&app.args)?))?;
    }
    d.set_item("body", body)?;
    d.set_item("premises", s.premises.clone())?;
    let values = PyDict::new(py);
    for v in c.vars() {
        if let Some(x) = s.vals.get(&v) {
            values.set_item(&*v.name, to_py(py, x)?)?;
        }
    }
    d.set_item("values", values)?;
    Ok(d)
}

/// The Python object for a value (through Python's own `int` and `Fraction`, from text).
fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    match v {
        Value::Int(n) => py.get_type::<PyInt>().call1((n.to_string(),)),
        Value::Bool(b) => Ok(PyBool::new(py, *b).to_owned().into_any()),
        Value::Real(r) => py.import("fractions")?.getattr("Fraction")?.call1((format!(
            "{}/{}",
            r.numer(),
            r.denom()
        ),)),
        // an array value as SMT-LIB text: stores over a constant array
        Value::Array(_) => Ok(pyo3::types::PyString::new(py, &v.to_string()).into_any()),
    }
}

/// An integer's value from a Python `int`.
fn big(obj: &Bound<'_, PyAny>) -> PyResult<BigInt> {
    obj.str()?
        .to_str()?
        .parse()
        .map_err(|e| PyValueError::new_err(format!("not an integer: {e}")))
}

/// The value of sort `sort` that a Python object stands for: an `int` for `Int`; an `int`
/// or a `Fraction` (integer `numerator` and `denominator`) for `Real`; a `bool` for `Bool`.
/// A `float` is refused (it is not exact).
fn from_py(obj: &Bound<'_, PyAny>, sort: Sort) -> PyResult<Value> {
    let is_bool = obj.is_instance_of::<PyBool>();
    let is_int = obj.is_instance_of::<PyInt>() && !is_bool;
    let wrong = |want: &str| {
        let ty = obj.get_type().name().map(|n| n.to_string());
        PyTypeError::new_err(format!(
            "expected {want} for a {sort} argument, got {}",
            ty.unwrap_or_else(|_| "?".into())
        ))
    };
    match sort {
        Sort::Bool if is_bool => Ok(Value::Bool(obj.is_truthy()?)),
        Sort::Int if is_int => Ok(Value::Int(big(obj)?)),
        Sort::Real if is_int => Ok(Value::Real(Rat::from_integer(big(obj)?))),
        Sort::Real if !is_bool && !obj.is_instance_of::<PyFloat>() => {
            let part = |name| -> PyResult<BigInt> {
                let p = obj
                    .getattr(name)
                    .map_err(|_| wrong("an int or a Fraction"))?;
                if !p.is_instance_of::<PyInt>() {
                    return Err(wrong("an int or a Fraction"));
                }
                big(&p)
            };
            let (n, d) = (part("numerator")?, part("denominator")?);
            if d == BigInt::from(0) {
                return Err(PyValueError::new_err("a zero denominator"));
            }
            Ok(Value::Real(Rat::new(n, d)))
        }
        Sort::Bool => Err(wrong("a bool")),
        Sort::Int => Err(wrong("an int")),
        Sort::Real => Err(wrong("an int or a Fraction (not a float)")),
        Sort::Array(_) => Err(PyTypeError::new_err(format!(
            "evaluate does not take array arguments ({sort})"
        ))),
    }
}

/// The model's value of `pred` on `args`: false for a predicate the model leaves out.
pub fn evaluate(h: &Held, pred: &str, args: &Bound<'_, PyAny>) -> PyResult<bool> {
    let Some(p) = h.system.pred_ids().find(|&p| h.system.pred(p).name == pred) else {
        return Err(PyKeyError::new_err(format!("no predicate {pred:?}")));
    };
    let decl = h.system.pred(p);
    let args: Vec<Bound<'_, PyAny>> = args.try_iter()?.collect::<PyResult<_>>()?;
    if args.len() != decl.sorts.len() {
        return Err(PyValueError::new_err(format!(
            "{pred} takes {} arguments, not {}",
            decl.sorts.len(),
            args.len()
        )));
    }
    let mut a = Assignment::default();
    for (param, arg) in decl.params().into_iter().zip(&args) {
        let v = from_py(arg, param.sort)?;
        a.insert(param, v);
    }
    match h.model.get(&p) {
        None => Ok(false),
        Some(f) => eval_bool(f, &a).map_err(PyValueError::new_err),
    }
}

/// The figures of `--stats`, under snake_case names.
fn stats_dict<'py>(py: Python<'py>, s: &Stats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("total_seconds", s.total_seconds)?;
    d.set_item("parse_seconds", s.parse_seconds)?;
    d.set_item("preprocess_seconds", s.preprocess_seconds)?;
    d.set_item("predicates", s.predicates)?;
    d.set_item("clauses", s.clauses)?;
    d.set_item("clauses_after_preprocessing", s.clauses_after_preprocessing)?;
    d.set_item("winner", s.winner)?;
    d.set_item("validations", s.validations)?;
    d.set_item("validation_failures", s.validation_failures)?;
    d.set_item("validations_undecided", s.validations_undecided)?;
    d.set_item("validation", s.validation.as_deref())?;
    d.set_item("models_quantified", s.models_quantified)?;
    d.set_item("models_qe_fallback", s.models_qe_fallback)?;
    d.set_item("models_qe_failed", s.models_qe_failed)?;
    let engines = PyList::empty(py);
    for r in &s.engines {
        let e = PyDict::new(py);
        e.set_item("engine", r.name)?;
        e.set_item("seconds", r.seconds)?;
        let c = PyDict::new(py);
        for (k, v) in &r.stats.counters {
            match v {
                Counter::Count(n) => c.set_item(k, n)?,
                Counter::Seconds(x) => c.set_item(k, x)?,
                Counter::Text(t) => c.set_item(k, t)?,
            }
        }
        e.set_item("counters", c)?;
        e.set_item("smt_queries", r.stats.smt.queries)?;
        e.set_item("smt_seconds", r.stats.smt.solver_time.as_secs_f64())?;
        e.set_item("stop", r.stop.as_ref().map(|s| s.to_string()))?;
        engines.append(e)?;
    }
    d.set_item("engine_bugs", s.engine_bugs)?;
    d.set_item("engines", engines)?;
    Ok(d)
}
