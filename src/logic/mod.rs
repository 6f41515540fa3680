//! The logic: hash-consed terms over linear integer arithmetic with Booleans, their exact evaluation and their SMT-LIB printing.

mod defs;
mod eval;
mod linear;
pub mod mbp;
mod print;
pub mod qe;
mod term;

pub use defs::{definition, definitions, mk_exists_elim};
pub use eval::{eval, eval_bool, eval_int, Assignment};
pub use linear::Lin;
pub use print::{smt_symbol, SmtTerm};
pub use term::*;

use num_bigint::BigInt;
use std::fmt;

/// The two sorts of the LIA fragment.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Sort {
    Int,
    Bool,
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Int => write!(f, "Int"),
            Sort::Bool => write!(f, "Bool"),
        }
    }
}

/// A concrete value of a sort.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    Int(BigInt),
    Bool(bool),
}

impl Value {
    pub fn sort(&self) -> Sort {
        match self {
            Value::Int(_) => Sort::Int,
            Value::Bool(_) => Sort::Bool,
        }
    }

    /// The value as a constant term.
    pub fn to_term(&self) -> Term {
        match self {
            Value::Int(n) => mk_int(n.clone()),
            Value::Bool(b) => mk_bool(*b),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) if n.sign() == num_bigint::Sign::Minus => write!(f, "(- {})", -n),
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
        }
    }
}

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
