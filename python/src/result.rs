//! The Python classes of an answer: `Result` (status, model, derivation, statistics) and
//! `Step` (one clause application of a derivation).

use crate::values::{from_py, to_py};
use chcsolve::answer::answer_line;
use chcsolve::frontend::passes::CexStep;
use chcsolve::frontend::{ChcSystem, Format, PredId};
use chcsolve::logic::{eval, eval_bool, smt_symbol, Assignment, SmtTerm};
use chcsolve::{Model, Outcome, Stats, Verdict};
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// The answer to one query.
///
/// `status` is the answer as chcsolve prints it for the input's format: for CHC-COMP,
/// "sat" means the clauses have a model; for z3's fixedpoint format, "sat" means the query
/// is reachable (a derivation exists), as z3 says. `model` (predicate name -> SMT-LIB
/// `define-fun` text) is there when the clauses have a model, `derivation` (a list of
/// `Step`s, premises first and the query last) when `false` is derivable; both were
/// checked against the input clauses by chcsolve's validator before they were returned.
#[pyclass(name = "Result", module = "chcsolve", frozen)]
pub struct SolveResult {
    /// "sat", "unsat" or "unknown".
    #[pyo3(get)]
    status: String,
    /// Why the answer is unknown ("timeout", "interrupted", an engine's reason), else None.
    #[pyo3(get)]
    reason_unknown: Option<String>,
    /// "chc-comp" or "fixedpoint".
    #[pyo3(get)]
    format: &'static str,
    /// Predicate name -> `(define-fun P ((x0 Int) ..) Bool body)`, or None.
    #[pyo3(get)]
    model: Py<PyAny>,
    /// The whole model as `--print-witness` prints it, or None.
    #[pyo3(get)]
    model_text: Option<String>,
    /// The derivation of `false` as a list of `Step`s, or None.
    #[pyo3(get)]
    derivation: Py<PyAny>,
    /// The derivation as `--print-witness --witness-format list` prints it, or None.
    #[pyo3(get)]
    derivation_text: Option<String>,
    /// Predicate name -> list of its argument sorts ("Int", "Real", "Bool").
    #[pyo3(get)]
    predicates: Py<PyDict>,
    /// The run's figures (what `--stats` prints), as a dict.
    #[pyo3(get)]
    stats: Py<PyDict>,
    system: ChcSystem,
    model_terms: Option<Model>,
}

impl SolveResult {
    pub fn new(py: Python<'_>, format: Format, o: Outcome) -> PyResult<SolveResult> {
        let Outcome {
            verdict,
            system,
            stats,
        } = o;
        let status = answer_line(format, &verdict).to_string();
        let predicates = PyDict::new(py);
        for p in &system.preds {
            let sorts: Vec<String> = p.sorts.iter().map(|s| s.to_string()).collect();
            predicates.set_item(&p.name, sorts)?;
        }
        let (mut model, mut derivation) = (py.None(), py.None());
        let (mut model_text, mut derivation_text, mut reason_unknown) = (None, None, None);
        let mut model_terms = None;
        match verdict {
            Verdict::Sat(m) => {
                let d = PyDict::new(py);
                for p in system.pred_ids() {
                    d.set_item(&system.pred(p).name, define_fun(&system, &m, p))?;
                }
                model = d.into_any().unbind();
                model_text = Some(chcsolve::witness::model_to_smtlib(&system, &m));
                model_terms = Some(m);
            }
            Verdict::Unsat(cex) => {
                let steps = PyList::empty(py);
                for (i, s) in cex.iter().enumerate() {
                    steps.append(Step::new(py, &system, i, s)?)?;
                }
                derivation = steps.into_any().unbind();
                derivation_text = Some(chcsolve::witness::cex_to_text(&system, &cex));
            }
            Verdict::UnsatAccelerated(acex) => {
                derivation_text = Some(chcsolve::witness::accel_cex_to_text(&system, &acex));
            }
            Verdict::Unknown(why) => reason_unknown = Some(why),
        }
        Ok(SolveResult {
            status,
            reason_unknown,
            format: match format {
                Format::ChcComp => "chc-comp",
                Format::Fixedpoint => "fixedpoint",
            },
            model,
            model_text,
            derivation,
            derivation_text,
            predicates: predicates.unbind(),
            stats: stats_dict(py, &stats)?.unbind(),
            system,
            model_terms,
        })
    }
}

#[pymethods]
impl SolveResult {
    /// The model's value of predicate `pred` on `args` (ints, Fractions for Real arguments,
    /// bools), computed by chcsolve's exact evaluator. Raises ValueError without a model.
    fn evaluate(&self, pred: &str, args: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Some(model) = &self.model_terms else {
            return Err(PyValueError::new_err(format!(
                "no model: the answer is {}",
                self.status
            )));
        };
        let Some(p) = self
            .system
            .pred_ids()
            .find(|&p| self.system.pred(p).name == pred)
        else {
            return Err(PyKeyError::new_err(format!("no predicate {pred:?}")));
        };
        let decl = self.system.pred(p);
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
        match model.get(&p) {
            None => Ok(false),
            Some(f) => eval_bool(f, &a).map_err(PyValueError::new_err),
        }
    }

    fn __repr__(&self) -> String {
        match &self.reason_unknown {
            Some(why) => format!("<chcsolve.Result unknown ({why})>"),
            None => format!("<chcsolve.Result {}>", self.status),
        }
    }
}

/// `(define-fun P ((x0 Int) ..) Bool body)`, as in [`chcsolve::witness::model_to_smtlib`].
fn define_fun(sys: &ChcSystem, m: &Model, p: PredId) -> String {
    let decl = sys.pred(p);
    let params: Vec<String> = decl
        .params()
        .iter()
        .map(|v| format!("({} {})", smt_symbol(&v.name), v.sort))
        .collect();
    let body = m
        .get(&p)
        .map(|t| SmtTerm(t).to_string())
        .unwrap_or_else(|| "false".into());
    format!(
        "(define-fun {} ({}) Bool {body})",
        smt_symbol(&decl.name),
        params.join(" ")
    )
}

/// One clause application of a derivation: the clause, the values of its variables, the
/// head it derives and the earlier steps that derived its body applications.
#[pyclass(module = "chcsolve", frozen)]
pub struct Step {
    /// The step's position in the derivation.
    #[pyo3(get)]
    index: usize,
    /// The clause's position among the input's clauses (0-based).
    #[pyo3(get)]
    clause: usize,
    /// The clause's line in the input (1-based; 0 when unknown).
    #[pyo3(get)]
    line: usize,
    /// The derived predicate's name, or None for the query (the step that derives false).
    #[pyo3(get)]
    head: Option<String>,
    /// The values of the head's arguments.
    #[pyo3(get)]
    args: Py<PyList>,
    /// The body's applications in order, each `(name, [values])`.
    #[pyo3(get)]
    body: Py<PyList>,
    /// For each body application, the index of the step that derived it.
    #[pyo3(get)]
    premises: Vec<usize>,
    /// Clause variable name -> value.
    #[pyo3(get)]
    values: Py<PyDict>,
}

impl Step {
    fn new(py: Python<'_>, sys: &ChcSystem, index: usize, s: &CexStep) -> PyResult<Step> {
        let c = &sys.clauses[s.clause.idx()];
        let vals = |args: &[chcsolve::logic::Term]| -> PyResult<Bound<'_, PyList>> {
            let l = PyList::empty(py);
            for a in args {
                let v = eval(a, &s.vals).map_err(PyValueError::new_err)?;
                l.append(to_py(py, &v)?)?;
            }
            Ok(l)
        };
        let body = PyList::empty(py);
        for app in &c.body {
            let name = &sys.pred(app.pred).name;
            body.append(PyTuple::new(py, [name.into_pyobject(py)?.into_any(), vals(&app.args)?.into_any()])?)?;
        }
        let values = PyDict::new(py);
        for v in c.vars() {
            if let Some(x) = s.vals.get(&v) {
                values.set_item(&*v.name, to_py(py, x)?)?;
            }
        }
        let (head, args) = match &c.head {
            Some(h) => (Some(sys.pred(h.pred).name.clone()), vals(&h.args)?),
            None => (None, PyList::empty(py)),
        };
        Ok(Step {
            index,
            clause: s.clause.idx(),
            line: c.line,
            head,
            args: args.unbind(),
            body: body.unbind(),
            premises: s.premises.clone(),
            values: values.unbind(),
        })
    }
}

#[pymethods]
impl Step {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let head = self.head.as_deref().unwrap_or("false");
        Ok(format!(
            "<chcsolve.Step {} {head}{} (line {})>",
            self.index,
            self.args.bind(py).repr()?,
            self.line
        ))
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
    for (name, secs, counters, smt) in &s.engines {
        let e = PyDict::new(py);
        e.set_item("engine", name)?;
        e.set_item("seconds", secs)?;
        let c = PyDict::new(py);
        for (k, v) in counters {
            c.set_item(k, v)?;
        }
        e.set_item("counters", c)?;
        e.set_item("smt_queries", smt.queries)?;
        e.set_item("smt_seconds", smt.solver_time.as_secs_f64())?;
        engines.append(e)?;
    }
    d.set_item("engines", engines)?;
    Ok(d)
}
