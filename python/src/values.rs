//! Values between Rust and Python: `Int` as `int`, `Real` as `fractions.Fraction` (exact,
//! never `float`), `Bool` as `bool`.

use chcsolve::logic::{Rat, Sort, Value};
use num_bigint::BigInt;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBool;

/// The Python object for a value.
pub fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Int(n) => n.clone().into_pyobject(py)?.into_any(),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Real(r) => py
            .import("fractions")?
            .getattr("Fraction")?
            .call1((r.numer().clone(), r.denom().clone()))?,
    })
}

/// The value of sort `sort` that a Python object stands for: an `int` for `Int`; an `int`
/// or a `Fraction` (anything with integer `numerator` and `denominator`) for `Real`; a
/// `bool` for `Bool`. A `float` is refused (it is not exact).
pub fn from_py(obj: &Bound<'_, PyAny>, sort: Sort) -> PyResult<Value> {
    let is_bool = obj.is_instance_of::<PyBool>();
    match sort {
        Sort::Bool if is_bool => Ok(Value::Bool(obj.extract()?)),
        Sort::Int if !is_bool => obj
            .extract::<BigInt>()
            .map(Value::Int)
            .map_err(|_| wrong(obj, "an int")),
        Sort::Real if !is_bool => {
            if let Ok(n) = obj.extract::<BigInt>() {
                return Ok(Value::Real(Rat::from_integer(n)));
            }
            let part = |name: &str| -> PyResult<BigInt> {
                obj.getattr(name)
                    .and_then(|p| p.extract::<BigInt>())
                    .map_err(|_| wrong(obj, "an int or a fractions.Fraction"))
            };
            if obj.is_instance_of::<pyo3::types::PyFloat>() {
                return Err(wrong(obj, "an int or a fractions.Fraction (not a float)"));
            }
            let (n, d) = (part("numerator")?, part("denominator")?);
            if d == BigInt::from(0) {
                return Err(wrong(obj, "a fraction with a non-zero denominator"));
            }
            Ok(Value::Real(Rat::new(n, d)))
        }
        Sort::Bool => Err(wrong(obj, "a bool")),
        Sort::Int => Err(wrong(obj, "an int")),
        Sort::Real => Err(wrong(obj, "an int or a fractions.Fraction")),
    }
}

fn wrong(obj: &Bound<'_, PyAny>, want: &str) -> PyErr {
    let ty = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    PyTypeError::new_err(format!("expected {want}, got {ty}"))
}
