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
                format!("unsupported sort `{a}`: only Int, Real, Bool, declared datatypes and arrays of them are supported")
            }),
        },
        Sx::List(l) => match &l[..] {
            [Sx::Atom(h), i, e] if h == "Array" => Ok(DSort::Array(
                Box::new(sort(dt, i)?),
                Box::new(sort(dt, e)?),
            )),
            _ => Err(format!(
                "unsupported sort `{s}`: only Int, Real, Bool, declared datatypes and arrays of them are supported"
            )),
        },
    }
}

/// Declares the datatypes of a `declare-datatypes` or `declare-datatype` command.
pub fn declare(dt: &mut Datatypes, cmd: &[Sx]) -> Result<(), String> {
    let malformed = || format!("malformed `{}`", cmd[0]);
    // (name, its constructor declarations)
    let group: Vec<(String, &[Sx])> = match cmd {
        [Sx::Atom(h), Sx::Atom(n), Sx::List(cs)] if h == "declare-datatype" => {
            vec![(n.clone(), &cs[..])]
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
                .collect::<Result<_, _>>()?
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
                .collect::<Result<_, _>>()?
        }
        _ => return Err(malformed()),
    };
    let names: Vec<String> = group.iter().map(|(n, _)| n.clone()).collect();
    let ids = dt.declare_names(&names)?;
    for ((n, cs), &d) in group.iter().zip(&ids) {
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
        dt.define(d, ctors)?;
    }
    if let Some(n) = dt.recursive(&ids) {
        return Err(format!("recursive datatype `{n}` is not supported"));
    }
    Ok(())
}
