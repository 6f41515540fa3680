//! Array values as solvers print them: `((as const (Array Int Int)) 0)`, `(store A i v)`
//! chains, and `(lambda ((x Int)) (ite (= x 3) 5 0))` with `ite` chains on the index, all
//! read into one [`ArrayValue`]. z3's `(_ as-array f)` (a reference to a function in the
//! model) is not read: the caller gets an error, and the engine gives up on that query.

use super::parse::{sexp_to_value, Sexp};
use crate::logic::{array_sort, array_value, try_array_sort, ArrayValue, Rat, Sort, Value};

/// Reads a sort: `Int`, `Bool`, `Real`, `(Array I E)`.
pub(super) fn sexp_to_sort(e: &Sexp) -> Result<Sort, String> {
    match e {
        Sexp::Atom(a) => match a.as_str() {
            "Int" => Ok(Sort::Int),
            "Bool" => Ok(Sort::Bool),
            "Real" => Ok(Sort::Real),
            _ => Err(format!("unexpected sort `{a}`")),
        },
        Sexp::List(v) if v.len() == 3 && v[0].symbol() == Some("Array") => {
            try_array_sort(sexp_to_sort(&v[1])?, sexp_to_sort(&v[2])?)
        }
        _ => Err(format!("unexpected sort `{e:?}`")),
    }
}

/// The value as one of sort `sort`: an integer numeral read where a real is expected
/// becomes that real.
pub(super) fn coerce(v: Value, sort: Sort) -> Result<Value, String> {
    match (v, sort) {
        (Value::Int(n), Sort::Real) => Ok(Value::Real(Rat::from_integer(n))),
        (v, s) if v.sort() == s => Ok(v),
        (v, s) => Err(format!("value {v} where a {s} is expected")),
    }
}

/// Is `e` an array value (as opposed to a number or a Boolean)?
pub(super) fn is_array_sexp(e: &Sexp) -> bool {
    match e {
        Sexp::List(v) => match v.first() {
            Some(Sexp::List(h)) => h.first().and_then(Sexp::symbol) == Some("as"),
            Some(Sexp::Atom(_)) => matches!(v[0].symbol(), Some("store" | "lambda" | "_" | "let")),
            _ => false,
        },
        Sexp::Atom(_) => false,
    }
}

/// Reads an array value.
pub(super) fn sexp_to_array(e: &Sexp) -> Result<Value, String> {
    if let Sexp::List(v) = e {
        if v.first().and_then(Sexp::symbol) == Some("let") {
            // only `(let (bindings) body)` is expanded: anything else would come back
            // unchanged and be read again without end (found by scripts/fuzz)
            if v.len() != 3 {
                return Err(format!("a `let` of {} parts", v.len()));
            }
            return sexp_to_array(&expand_lets(e)?);
        }
    }
    let Sexp::List(v) = e else {
        return Err(format!("unexpected array value `{e:?}`"));
    };
    match v.first() {
        // ((as const S) d)
        Some(Sexp::List(h)) if v.len() == 2 && h.len() == 3 && h[1].symbol() == Some("const") => {
            let sort = sexp_to_sort(&h[2])?;
            let (_, es) = sort.array_parts().ok_or("`as const` of a non-array sort")?;
            let d = coerce(sexp_to_value(&v[1])?, es)?;
            Ok(array_value(ArrayValue::constant(sort, d)))
        }
        Some(Sexp::Atom(_)) if v[0].symbol() == Some("store") && v.len() == 4 => {
            let Value::Array(a) = sexp_to_array(&v[1])? else {
                unreachable!("sexp_to_array returns arrays")
            };
            let (is, es) = a.sort.array_parts().expect("an array sort");
            let i = coerce(sexp_to_value(&v[2])?, is)?;
            let x = coerce(sexp_to_value(&v[3])?, es)?;
            Ok(array_value(a.store(i, x)))
        }
        Some(Sexp::Atom(_)) if v[0].symbol() == Some("lambda") && v.len() == 3 => {
            lambda(&v[1], &v[2])
        }
        _ => Err(format!("unsupported array value `{}`", show(e))),
    }
}

/// `(lambda ((x I)) body)` with `body` an `ite` chain on `(= x k)` (either side) ending in a
/// value; the element sort is that of the values.
fn lambda(params: &Sexp, body: &Sexp) -> Result<Value, String> {
    let Sexp::List(ps) = params else {
        return Err("lambda without parameters".into());
    };
    let [Sexp::List(p)] = &ps[..] else {
        return Err("lambda with more than one parameter".into());
    };
    if p.len() != 2 {
        return Err("bad lambda parameter".into());
    }
    let x = p[0].symbol().ok_or("bad lambda parameter")?.to_string();
    let is = sexp_to_sort(&p[1])?;
    let mut points = vec![];
    let mut cur = body;
    let default = loop {
        match cur {
            Sexp::List(v) if v.len() == 4 && v[0].symbol() == Some("ite") => {
                let Sexp::List(c) = &v[1] else {
                    return Err(format!("unsupported lambda condition `{}`", show(&v[1])));
                };
                let k = match &c[..] {
                    [eq, a, b] if eq.symbol() == Some("=") => {
                        if a.symbol() == Some(x.as_str()) {
                            b
                        } else if b.symbol() == Some(x.as_str()) {
                            a
                        } else {
                            return Err(format!("unsupported lambda condition `{}`", show(&v[1])));
                        }
                    }
                    _ => return Err(format!("unsupported lambda condition `{}`", show(&v[1]))),
                };
                points.push((coerce(value(k)?, is)?, value(&v[2])?));
                cur = &v[3];
            }
            _ => break value(cur)?,
        }
    };
    let es = default.sort();
    let mut a = ArrayValue::constant(array_sort(is, es), default);
    // the first condition wins: store the later ones first
    for (k, x) in points.into_iter().rev() {
        a = a.store(k, coerce(x, es)?);
    }
    Ok(array_value(a))
}

fn value(e: &Sexp) -> Result<Value, String> {
    if is_array_sexp(e) {
        sexp_to_array(e)
    } else {
        sexp_to_value(e)
    }
}

fn show(e: &Sexp) -> String {
    let s = format!("{e:?}");
    if s.len() > 120 {
        format!("{}...", &s[..s.floor_char_boundary(120)])
    } else {
        s
    }
}

/// The array value as one of sort `sort` (numerals read as integers in a real position
/// become reals), if it fits.
pub(super) fn recast(a: &ArrayValue, sort: Sort) -> Option<Value> {
    let (is, es) = sort.array_parts()?;
    let conv = |v: &Value, s: Sort| -> Option<Value> {
        match (v, s.array_parts()) {
            (Value::Array(x), Some(_)) => recast(x, s),
            _ => coerce(v.clone(), s).ok(),
        }
    };
    let mut out = ArrayValue::constant(sort, conv(&a.default, es)?);
    for (k, v) in &a.points {
        out = out.store(conv(k, is)?, conv(v, es)?);
    }
    Some(array_value(out))
}

/// `e` with every `let` expanded (z3 names repeated parts of large array values).
pub(super) fn expand_lets(e: &Sexp) -> Result<Sexp, String> {
    fn go(e: &Sexp, env: &mut Vec<(String, Sexp)>) -> Result<Sexp, String> {
        match e {
            Sexp::Atom(a) => Ok(env
                .iter()
                .rev()
                .find(|(n, _)| n == a)
                .map_or_else(|| e.clone(), |(_, v)| v.clone())),
            Sexp::List(v) if v.len() == 3 && v[0].symbol() == Some("let") => {
                let Sexp::List(binds) = &v[1] else {
                    return Err("bad let".into());
                };
                // parallel let: the values are read in the outer environment
                let mut vals = vec![];
                for b in binds {
                    match b {
                        Sexp::List(p) if p.len() == 2 => match &p[0] {
                            Sexp::Atom(n) => vals.push((n.clone(), go(&p[1], env)?)),
                            _ => return Err("bad let binding".into()),
                        },
                        _ => return Err("bad let binding".into()),
                    }
                }
                let n = vals.len();
                env.extend(vals);
                let r = go(&v[2], env);
                env.truncate(env.len() - n);
                r
            }
            Sexp::List(v) => Ok(Sexp::List(
                v.iter().map(|x| go(x, env)).collect::<Result<_, _>>()?,
            )),
        }
    }
    go(e, &mut vec![])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Value {
        sexp_to_value(&Sexp::parse(s).unwrap()).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// Each solver syntax of one array value reads into the same value, which prints back
    /// as const-and-stores.
    #[test]
    fn array_values_in_each_syntax() {
        let want = "(store ((as const (Array Int Int)) 0) 3 5)";
        for s in [
            want,
            "(store (store ((as const (Array Int Int)) 0) 3 5) 4 0)",
            "(let ((a!1 ((as const (Array Int Int)) 0))) (store a!1 3 5))",
            "(lambda ((x!1 Int)) (ite (= x!1 3) 5 0))",
            "(lambda ((x!1 Int)) (ite (= 3 x!1) 5 (ite (= x!1 3) 6 0)))",
        ] {
            assert_eq!(read(s).to_string(), want, "{s}");
        }
        // a `let` of four parts is an error, not an endless re-read (scripts/fuzz found it)
        let bad = Sexp::parse("(let (set-logic HORN) ((div (x35))) div)").unwrap();
        assert!(sexp_to_array(&bad).is_err());
        // nested, negative numbers, a real element sort
        let nested =
            "(store ((as const (Array Int (Array Int Int))) ((as const (Array Int Int)) 0)) \
                      1 (store ((as const (Array Int Int)) 0) 2 (- 7)))";
        assert_eq!(read(nested).to_string(), nested);
        let real = read("(store ((as const (Array Int Real)) 0.0) 1 (/ 1 2))");
        assert_eq!(
            real.to_string(),
            "(store ((as const (Array Int Real)) 0.0) 1 (/ 1 2))"
        );
        // an error message cut inside a multi-byte character (scripts/fuzz found it)
        let wide = format!(
            "(let ((+ ((distinct {})))) +)",
            "cx55heck-sa\u{fffd} ".repeat(50)
        );
        assert!(sexp_to_value(&Sexp::parse(&wide).unwrap()).is_err());
        // not read: a reference into the model
        assert!(sexp_to_value(&Sexp::parse("(_ as-array k!0)").unwrap()).is_err());
    }
}
