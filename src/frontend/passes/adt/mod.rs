//! Recursive datatypes (CHC-COMP's ADT-LIA track): the input's clauses abstracted to linear
//! integer arithmetic by the size of every datatype value, before parsing, the way the
//! records pass lays out non-recursive ones (`frontend/passes/records`).
//!
//! Each predicate argument and clause variable of a datatype becomes an `Int`, its size
//! ([`crate::logic::adt`]); the clauses are rewritten one by one ([`size`]). The abstract
//! system over-approximates the input: a model of it composed with the size functions is a
//! model of the input (checked by the validator on the abstract clauses and by the judge,
//! with z3, on the original text), but a counterexample of it proves nothing. The input's
//! declarations and clauses are kept as text ([`Adt`]) for the lanes that reason over
//! datatype terms. See docs/recursive-datatypes.md.

mod size;
#[cfg(test)]
mod tests;

use super::super::InputError;
use super::commands::{self, head};
use super::records::{self, decl, sexp, sexp::Sx};
use crate::logic::adt::Adt;
use crate::logic::datatype::{key, DSort, Datatypes};
use rustc_hash::FxHashMap;

pub use records::has_recursive;

/// The input abstracted by sizes.
pub struct Abstracted {
    /// The commands, rewritten in place (same lines).
    pub text: String,
    /// Where each of the given query `assert`s starts in [`Abstracted::text`].
    pub queries: Vec<usize>,
    pub adt: Adt,
}

/// Rewrites the commands (`(start, end, line)`, as the parser's scanner cut them) of an
/// input that declares recursive datatypes; `queries` are the starts of `assert`s that are
/// fixedpoint queries.
pub fn abstract_sizes(
    input: &str,
    commands: &[(usize, usize, usize)],
    queries: &[usize],
) -> Result<Abstracted, InputError> {
    let decls = records::declarations(input, commands)?;
    let mut types = Datatypes::default();
    decl::declare_all(&mut types, &decls, true).map_err(|(line, m)| InputError::new(line, m))?;
    for (d, t) in types.types.iter().enumerate() {
        for f in t.ctors.iter().flat_map(|c| &c.fields) {
            if matches!(f.sort, DSort::Array(..)) && !f.sort.is_plain() {
                let line = decls.first().map_or(0, |(_, l)| *l);
                return Err(InputError::new(
                    line,
                    format!(
                        "an array of datatypes in a field of `{}` beside recursive datatypes is not supported",
                        types.types[d].name
                    ),
                ));
            }
        }
    }
    let declarations = commands
        .iter()
        .filter(|&&(s, _, _)| matches!(head(input, s), "declare-datatypes" | "declare-datatype"))
        .map(|&(s, e, _)| input[s..e].to_string())
        .collect();
    let mut adt = Adt {
        types,
        preds: vec![],
        clauses: vec![],
        pred_decls: vec![],
        declarations,
    };
    let mut preds: Vec<Vec<(DSort, String)>> = vec![];
    let mut pred_sorts: FxHashMap<String, Vec<DSort>> = FxHashMap::default();
    let mut clauses = vec![];
    let mut pred_decls = vec![];
    let out = commands::rewrite(input, commands, queries, |command, line, name| {
        let err = |m: String| InputError::new(line, m);
        Ok(match name {
            "declare-datatypes" | "declare-datatype" => Some(String::new()),
            "declare-fun" => {
                let cmd = sexp::read(command).map_err(err)?;
                match cmd.list().unwrap_or_default() {
                    [_, Sx::Atom(p), Sx::List(sorts), Sx::Atom(r)] if r == "Bool" => {
                        let mut args = vec![];
                        let mut flat = vec![];
                        for s in sorts {
                            let ds = decl::sort(&adt.types, s).map_err(err)?;
                            flat.push(match &ds {
                                DSort::Data(_) => "Int".to_string(),
                                s if s.is_plain() => s.plain_text(),
                                _ => {
                                    return Err(err(format!(
                                        "an array of datatypes beside recursive datatypes is not supported: `{s}`"
                                    )))
                                }
                            });
                            args.push((ds, s.to_string()));
                        }
                        pred_sorts.insert(
                            key(p).to_string(),
                            args.iter().map(|(s, _)| s.clone()).collect(),
                        );
                        preds.push(args);
                        pred_decls.push(command.to_string());
                        Some(format!("(declare-fun {p} ({}) Bool)", flat.join(" ")))
                    }
                    _ => None,
                }
            }
            "assert" => {
                let f = commands::assertion(command).map_err(err)?;
                clauses.push((f.to_string(), line));
                let g = size::Clause::new(&adt, &pred_sorts)
                    .assertion(&f)
                    .map_err(err)?;
                Some(format!("(assert {g})"))
            }
            _ => None,
        })
    })?;
    adt.preds = preds;
    adt.clauses = clauses;
    adt.pred_decls = pred_decls;
    Ok(Abstracted {
        text: out.text,
        queries: out.queries,
        adt,
    })
}
