//! Records: non-recursive datatypes eliminated exactly before parsing, so that every engine
//! sees only `Int`, `Bool`, `Real` and arrays.
//!
//! The term layer has no datatype sort, so this pass works on the input's commands (after
//! a z3 fixedpoint file was rewritten into CHC-COMP commands), like Eldarica's
//! `UniqueConstructorExpander` and `ArraySplitter` (uuverifiers/eldarica,
//! `lazabs/horn/preprocessor/`) but in one step: the datatype declarations go, each
//! predicate argument and variable of a datatype becomes one per part of its layout
//! ([`crate::logic::datatype`]: fields of records, recursively; a tag and the fields of
//! every constructor; one array per part of an array's elements), and constructor, selector,
//! tester, equality, `ite`, `select`, `store` and constant-array terms are rewritten
//! ([`terms`]). Each command keeps its lines, so messages and clause lines are the input's.
//!
//! The way back is [`Records`]: the witness printer writes models over the input's sorts
//! (each laid-out parameter `let`-bound to its part of the original ones) and the values of
//! derivations as constructor terms; the judge checks them against the original text. See
//! docs/records.md for the encoding and its choices.

pub(super) mod decl;
pub(super) mod sexp;
mod terms;
#[cfg(test)]
mod tests;

use super::super::InputError;
use super::commands::{self, head};
use crate::logic::datatype::{key, DSort, Datatypes, Records};
use rustc_hash::FxHashSet;
use sexp::Sx;

/// The input without datatypes.
pub struct Eliminated {
    /// The commands, rewritten in place (same lines).
    pub text: String,
    /// Where each of the given query `assert`s starts in [`Eliminated::text`].
    pub queries: Vec<usize>,
    pub records: Records,
}

/// Does the input declare datatypes?
pub fn has_datatypes(input: &str, commands: &[(usize, usize, usize)]) -> bool {
    commands
        .iter()
        .any(|&(s, _, _)| matches!(head(input, s), "declare-datatypes" | "declare-datatype"))
}

/// The datatype declarations of the input (each command with its line), read.
pub(super) fn declarations(
    input: &str,
    commands: &[(usize, usize, usize)],
) -> Result<Vec<(Sx, usize)>, InputError> {
    let mut decls = vec![];
    for &(start, end, line) in commands {
        if matches!(head(input, start), "declare-datatypes" | "declare-datatype") {
            let cmd = sexp::read(&input[start..end]).map_err(|m| InputError::new(line, m))?;
            decls.push((cmd, line));
        }
    }
    Ok(decls)
}

/// Does the input declare a recursive datatype (a field of its own sort, directly or
/// through other datatypes)? Those are abstracted (`frontend/passes/adt`), not laid out.
pub fn has_recursive(input: &str, commands: &[(usize, usize, usize)]) -> Result<bool, InputError> {
    let decls = declarations(input, commands)?;
    let mut dt = Datatypes::default();
    decl::declare_all(&mut dt, &decls, true).map_err(|(line, m)| InputError::new(line, m))?;
    let all: Vec<usize> = (0..dt.types.len()).collect();
    Ok(dt.recursive(&all).is_some())
}

/// Rewrites the commands (`(start, end, line)`, as the parser's scanner cut them) of an
/// input that declares datatypes; `queries` are the starts of `assert`s that are fixedpoint
/// queries.
pub fn eliminate(
    input: &str,
    commands: &[(usize, usize, usize)],
    queries: &[usize],
) -> Result<Eliminated, InputError> {
    let mut dt = Datatypes::default();
    let first = run(input, commands, queries, &mut dt, true)?;
    if first.reads.is_empty() {
        return Ok(first.out);
    }
    // some arrays indexed by datatypes are read: laid out curried, which needs records
    for (i, _) in &first.reads {
        if !dt.curriable(i) {
            let line = first.read_lines.first().copied().unwrap_or(0);
            return Err(InputError::new(
                line,
                format!(
                    "an array indexed by `{}`, a datatype with several constructors, is read: not supported",
                    dt.sort_text(i)
                ),
            ));
        }
    }
    let mut dt = Datatypes::default();
    dt.read_arrays = first.reads;
    Ok(run(input, commands, queries, &mut dt, false)?.out)
}

struct Run {
    out: Eliminated,
    reads: Vec<(DSort, DSort)>,
    read_lines: Vec<usize>,
}

fn run(
    input: &str,
    commands: &[(usize, usize, usize)],
    queries: &[usize],
    dt: &mut Datatypes,
    scan: bool,
) -> Result<Run, InputError> {
    let mut preds: Vec<Vec<(DSort, String)>> = vec![];
    let mut pred_names: FxHashSet<String> = FxHashSet::default();
    let (mut reads, mut read_lines): (Vec<(DSort, DSort)>, Vec<usize>) = (vec![], vec![]);
    // every datatype first: a field may name a datatype a later command declares
    let decls = declarations(input, commands)?;
    decl::declare_all(dt, &decls, false).map_err(|(line, m)| InputError::new(line, m))?;
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
                            let ds = decl::sort(dt, s).map_err(err)?;
                            flat.extend(dt.layout(&ds).into_iter().map(|p| p.sort.plain_text()));
                            args.push((ds, s.to_string()));
                        }
                        pred_names.insert(key(p).to_string());
                        preds.push(args);
                        Some(format!("(declare-fun {p} ({}) Bool)", flat.join(" ")))
                    }
                    _ => None,
                }
            }
            "assert" => {
                let f = commands::assertion(command).map_err(err)?;
                let mut rw = terms::Rewriter::new(dt, &pred_names, scan);
                let g = rw.assertion(&f).map_err(err)?;
                for r in rw.reads {
                    if !reads.contains(&r) {
                        reads.push(r);
                        read_lines.push(line);
                    }
                }
                Some(format!("(assert {g})"))
            }
            _ => None,
        })
    })?;
    Ok(Run {
        out: Eliminated {
            text: out.text,
            queries: out.queries,
            records: Records {
                types: dt.clone(),
                preds,
            },
        },
        reads,
        read_lines,
    })
}
