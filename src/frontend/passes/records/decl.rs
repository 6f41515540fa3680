//! Reading `declare-datatypes` (SMT-LIB 2.6, and z3's older `(declare-datatypes () ((N
//! ctors..)))`), `declare-datatype` and sorts into [`Datatypes`].

use super::sexp::Sx;
use crate::logic::datatype::{Ctor, DSort, Datatypes, Field};

/// The sort `s` names.
pub fn sort(dt: &Datatypes, s: &Sx) -> Result<DSort, String> {
    match s {
        Sx::Atom(a) => match a.as_str() {
            "Int" => Ok(DSort::Int),
            "Bool" => Ok(DSort::Bool),
            "Real" => Ok(DSort::Real),
            _ => dt.datatype(a).map(DSort::Data).ok_or_else(|| {
                format!("unsupported sort `{a}`: only Int, Real, Bool, bit-vectors, declared datatypes and arrays of them are supported")
            }),
        },
        Sx::List(l) => match &l[..] {
            [Sx::Atom(h), i, e] if h == "Array" => Ok(DSort::Array(
                Box::new(sort(dt, i)?),
                Box::new(sort(dt, e)?),
            )),
            _ => Err(format!(
                "unsupported sort `{s}`: only Int, Real, Bool, bit-vectors, declared datatypes and arrays of them are supported"
            )),
        },
    }
}

/// The datatypes one `declare-datatypes` or `declare-datatype` command declares: each name
/// with its constructor declarations.
fn group(cmd: &[Sx]) -> Result<Vec<(String, &[Sx])>, String> {
    let malformed = || match cmd.first() {
        Some(h) => format!("malformed `{h}`"),
        None => "malformed datatype declaration".to_string(),
    };
    match cmd {
        [Sx::Atom(h), Sx::Atom(n), Sx::List(cs)] if h == "declare-datatype" => {
            Ok(vec![(n.clone(), &cs[..])])
        }
        [Sx::Atom(h), Sx::List(params), Sx::List(defs)]
            if h == "declare-datatypes" && params.is_empty() =>
        {
            // z3's older form: ((N ctor ..) ..)
            defs.iter()
                .map(|d| match d.list() {
                    Some([Sx::Atom(n), cs @ ..]) => Ok((n.clone(), cs)),
                    _ => Err(malformed()),
                })
                .collect()
        }
        [Sx::Atom(h), Sx::List(names), Sx::List(defs)]
            if h == "declare-datatypes" && names.len() == defs.len() =>
        {
            names
                .iter()
                .zip(defs)
                .map(|(n, d)| match (n.list(), d.list()) {
                    (Some([Sx::Atom(n), Sx::Atom(k)]), Some(cs)) if k == "0" => Ok((n.clone(), cs)),
                    (Some([Sx::Atom(n), _]), _) => {
                        Err(format!("parametric datatype `{n}` is not supported"))
                    }
                    _ => Err(malformed()),
                })
                .collect()
        }
        _ => Err(malformed()),
    }
}

/// The constructors of datatype `n` from their declarations.
fn ctors(dt: &Datatypes, n: &str, cs: &[Sx]) -> Result<Vec<Ctor>, String> {
    let malformed = || format!("malformed constructor of datatype `{n}`");
    if cs.first().and_then(Sx::atom) == Some("par") {
        return Err(format!("parametric datatype `{n}` is not supported"));
    }
    let ctors = cs
        .iter()
        .map(|c| match c {
            Sx::Atom(name) => Ok(Ctor {
                name: name.clone(),
                fields: vec![],
            }),
            Sx::List(l) => {
                let Some((Sx::Atom(name), fields)) = l.split_first() else {
                    return Err(malformed());
                };
                let fields = fields
                    .iter()
                    .map(|f| match f.list() {
                        Some([Sx::Atom(sel), s]) => Ok(Field {
                            name: sel.clone(),
                            sort: sort(dt, s)?,
                        }),
                        _ => Err(malformed()),
                    })
                    .collect::<Result<_, _>>()?;
                Ok(Ctor {
                    name: name.clone(),
                    fields,
                })
            }
        })
        .collect::<Result<Vec<_>, String>>()?;
    if ctors.is_empty() {
        return Err(format!("datatype `{n}` has no constructor"));
    }
    Ok(ctors)
}

/// Declares the datatypes of all the input's `declare-datatypes` and `declare-datatype`
/// commands (each with its line), in whatever order they come: a field may name a datatype
/// declared by a later command (Solidity's SMTChecker writes such files), so every name is
/// known before any field's sort is read. An error comes with the line of the command it
/// is about. A recursive datatype is an error unless `recursive` (the abstraction of
/// `frontend/passes/adt` reads them).
pub fn declare_all(
    dt: &mut Datatypes,
    cmds: &[(Sx, usize)],
    recursive: bool,
) -> Result<(), (usize, String)> {
    let mut groups = vec![];
    for (cmd, line) in cmds {
        let g = group(cmd.list().unwrap_or_default()).map_err(|m| (*line, m))?;
        let names: Vec<String> = g.iter().map(|(n, _)| n.clone()).collect();
        let ids = dt.declare_names(&names).map_err(|m| (*line, m))?;
        groups.push((g, ids, *line));
    }
    for (g, ids, line) in &groups {
        for ((n, cs), &d) in g.iter().zip(ids) {
            let cs = ctors(dt, n, cs).map_err(|m| (*line, m))?;
            dt.define(d, cs).map_err(|m| (*line, m))?;
        }
    }
    for (_, ids, line) in groups.iter().filter(|_| !recursive) {
        if let Some(n) = dt.recursive(ids) {
            return Err((*line, format!("recursive datatype `{n}` is not supported")));
        }
    }
    Ok(())
}
