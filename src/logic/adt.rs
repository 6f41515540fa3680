//! Recursive datatypes (lists, trees, Peano naturals: CHC-COMP's ADT-LIA track) as the rest
//! of the program sees them: the input's declarations and clauses as text, kept for the
//! lanes that reason over datatype terms, and the size catamorphism that the front-end's
//! abstraction (`frontend/passes/adt`) replaces every datatype value by.
//!
//! `size(C) = 1` for a nullary constructor, `size(C(a1..an)) = 1 + size(ai) + ..` over the
//! fields `ai` of datatype sorts (fields of other sorts count 0): Eldarica's size arguments
//! (Hojjat and Rümmer, "Deciding and interpolating algebraic data types by reduction",
//! SYNASC 2017; uuverifiers/eldarica `SizeArgumentExtender`). Every size is at least the
//! sort's [`Adt::min_size`], which is at least 1.
//!
//! A model of the abstract clauses gives one of the input's: `P(x, n) := phi(size(x), n)`.
//! It is printed with the size functions as one `define-funs-rec` before the `define-fun`s
//! ([`Adt::size_definitions`]); see docs/recursive-datatypes.md.

use super::datatype::{key, DSort, Datatypes};
use std::fmt::Write;

/// An input with recursive datatypes: what its abstraction and its answers need.
#[derive(Clone, Debug)]
pub struct Adt {
    /// Every datatype the input declares (recursive or not).
    pub types: Datatypes,
    /// Per predicate, in declaration order: each argument's sort and its text as written.
    pub preds: Vec<Vec<(DSort, String)>>,
    /// The input's clauses as written (after a fixedpoint file was rewritten into CHC-COMP
    /// commands): each `assert` command's formula text and its line. Clauses that are
    /// queries have the head `false`.
    pub clauses: Vec<(String, usize)>,
    /// The predicates' `declare-fun` commands as written, in declaration order.
    pub pred_decls: Vec<String>,
    /// The datatype declarations as written, in input order.
    pub declarations: Vec<String>,
}

impl Adt {
    /// The name of the size function of datatype `d`: `|size!N|`.
    pub fn size_name(&self, d: usize) -> String {
        format!("|size!{}|", key(&self.types.types[d].name))
    }

    /// The smallest size of a value of datatype `d` (at least 1): the least fixed point of
    /// `min over constructors of 1 + the fields' smallest sizes`.
    pub fn min_size(&self, d: usize) -> i64 {
        let n = self.types.types.len();
        let mut m: Vec<Option<i64>> = vec![None; n];
        loop {
            let mut changed = false;
            for (t, dt) in self.types.types.iter().enumerate() {
                let best = dt
                    .ctors
                    .iter()
                    .filter_map(|c| {
                        c.fields.iter().try_fold(1i64, |acc, f| match &f.sort {
                            DSort::Data(e) => m[*e].map(|s| acc.saturating_add(s)),
                            _ => Some(acc),
                        })
                    })
                    .min();
                if best.is_some() && (m[t].is_none() || best < m[t]) {
                    m[t] = best;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        m[d].unwrap_or(1).max(1)
    }

    /// The smallest size of a value built by constructor `c` of datatype `d`.
    pub fn ctor_min_size(&self, d: usize, c: usize) -> i64 {
        self.types.types[d].ctors[c]
            .fields
            .iter()
            .fold(1i64, |acc, f| match &f.sort {
                DSort::Data(e) => acc.saturating_add(self.min_size(*e)),
                _ => acc,
            })
    }

    /// The size functions of every datatype, as one `define-funs-rec`: by the constructor
    /// (an `ite` over its testers), 1 plus the sizes of the datatype fields.
    pub fn size_definitions(&self) -> String {
        let mut decls = vec![];
        let mut bodies = vec![];
        for (d, dt) in self.types.types.iter().enumerate() {
            decls.push(format!("({} ((x {})) Int)", self.size_name(d), dt.name));
            let term = |c: usize| {
                let parts: Vec<String> = dt.ctors[c]
                    .fields
                    .iter()
                    .filter_map(|f| match &f.sort {
                        DSort::Data(e) => Some(format!("({} ({} x))", self.size_name(*e), f.name)),
                        _ => None,
                    })
                    .collect();
                if parts.is_empty() {
                    "1".to_string()
                } else {
                    format!("(+ 1 {})", parts.join(" "))
                }
            };
            let last = dt.ctors.len() - 1;
            let mut body = term(last);
            for c in (0..last).rev() {
                body = format!("(ite ((_ is {}) x) {} {body})", dt.ctors[c].name, term(c));
            }
            bodies.push(body);
        }
        format!(
            "(define-funs-rec ({}) ({}))",
            decls.join(" "),
            bodies.join(" ")
        )
    }

    /// Does predicate `p` take a datatype argument?
    pub fn changes(&self, p: usize) -> bool {
        self.preds
            .get(p)
            .is_some_and(|args| args.iter().any(|(s, _)| !s.is_plain()))
    }

    /// The parameters `((r0 S0) ..)` of predicate `p` in the input's sorts, and the `let`
    /// bindings that give the abstract parameters `x0 ..` (as
    /// [`crate::chc::PredDecl::params`] names them) their values: the size of a datatype
    /// argument, the argument itself otherwise.
    pub fn params(&self, p: usize) -> (String, String) {
        let mut params = String::new();
        let mut binds = String::new();
        for (i, (s, text)) in self.preds[p].iter().enumerate() {
            let sep = if i > 0 { " " } else { "" };
            let _ = write!(params, "{sep}(r{i} {text})");
            let value = match s {
                DSort::Data(d) => format!("({} r{i})", self.size_name(*d)),
                _ => format!("r{i}"),
            };
            let _ = write!(binds, "{sep}(x{i} {value})");
        }
        (params, binds)
    }
}
