//! Bit-vectors eliminated exactly before parsing, so that every engine sees only `Int`,
//! `Bool`, `Real` and arrays: the route of Eldarica and Princess, "modulo arithmetic"
//! (Backeman, Rümmer, Zeljić: "Bit-vector interpolation and quantifier elimination by lazy
//! reduction", FMSD 2021), here done eagerly and without approximation.
//!
//! Like the records pass (`super::records`), it works on the input's commands (after a z3
//! fixedpoint file was rewritten into CHC-COMP commands): a predicate argument or a
//! variable of sort `(_ BitVec w)` becomes an `Int` in `[0, 2^w)` (a clause variable gets
//! that range in the clause's body), and every bit-vector term becomes its integer term
//! ([`encode`]): linear arithmetic, `ite`, `div` and `mod` by constants. Division by a
//! non-constant gets a fresh quotient and remainder per clause, defined in its body
//! ([`terms`]). Each command keeps its lines, so messages and clause lines are the input's.
//!
//! The way back is [`Bitvecs`]: the witness printer writes models over the input's
//! `(_ BitVec w)` parameters (the body reads their `bv2nat`) and derivations with `#x`/`#b`
//! literals; the judge checks them against the original text. See docs/bitvectors.md.

mod encode;
mod terms;
#[cfg(test)]
mod tests;

use super::super::InputError;
use super::commands;
use super::records::sexp::{self, Sx};
use crate::logic::bitvec::Bitvecs;
use crate::logic::datatype::key;
use rustc_hash::FxHashSet;

/// The input without bit-vectors.
pub struct Eliminated {
    /// The commands, rewritten in place (same lines).
    pub text: String,
    /// Where each of the given query `assert`s starts in [`Eliminated::text`].
    pub queries: Vec<usize>,
    pub bitvecs: Bitvecs,
}

/// Does the input mention bit-vectors (a sort, or a conversion from integers)?
pub fn has_bitvectors(input: &str) -> bool {
    input.contains("BitVec") || input.contains("int2bv") || input.contains("int_to_bv")
}

/// Rewrites the commands (`(start, end, line)`, as the parser's scanner cut them);
/// `queries` are the starts of `assert`s that are fixedpoint queries.
pub fn eliminate(
    input: &str,
    commands: &[(usize, usize, usize)],
    queries: &[usize],
) -> Result<Eliminated, InputError> {
    let mut preds: Vec<Vec<Option<u32>>> = vec![];
    let mut pred_names: FxHashSet<String> = FxHashSet::default();
    // the fresh names are numbered across the input
    let mut enc = encode::Enc::default();
    let out = commands::rewrite(input, commands, queries, |command, line, name| {
        let err = |m: String| InputError::new(line, m);
        Ok(match name {
            "declare-fun" => {
                let cmd = sexp::read(command).map_err(err)?;
                match cmd.list().unwrap_or_default() {
                    [_, Sx::Atom(p), Sx::List(sorts), Sx::Atom(r)] if r == "Bool" => {
                        let widths = sorts
                            .iter()
                            .map(terms::sort)
                            .collect::<Result<Vec<_>, _>>()
                            .map_err(err)?;
                        let flat: Vec<String> = sorts
                            .iter()
                            .zip(&widths)
                            .map(|(s, w)| match w {
                                Some(_) => "Int".to_string(),
                                None => s.to_string(),
                            })
                            .collect();
                        pred_names.insert(key(p).to_string());
                        preds.push(widths);
                        Some(format!("(declare-fun {p} ({}) Bool)", flat.join(" ")))
                    }
                    _ => None,
                }
            }
            "assert" => {
                let f = commands::assertion(command).map_err(err)?;
                let mut rw = terms::Rewriter::new(&pred_names);
                rw.enc = std::mem::take(&mut enc);
                let g = rw.assertion(&f).map_err(err)?;
                enc = std::mem::take(&mut rw.enc);
                Some(format!("(assert {g})"))
            }
            _ => None,
        })
    })?;
    Ok(Eliminated {
        text: out.text,
        queries: out.queries,
        bitvecs: Bitvecs { preds },
    })
}
