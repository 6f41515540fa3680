//! The logic: hash-consed terms over linear integer and real arithmetic with Booleans, their exact evaluation and their SMT-LIB printing.

pub mod adt;
mod arith;
pub mod array;
pub mod array_elim;
pub mod bitvec;
pub mod datatype;
mod defs;
mod eval;
pub mod farkas;
mod linear;
mod lock_stats;
pub mod mbp;
mod print;
mod quant;
pub mod real;
mod term;

pub use arith::*;
pub use array::{
    array_sort, array_use, array_value, mk_arr_eq, mk_const_array, mk_select, mk_store,
    try_array_sort, ArrSort, ArrayUse, ArrayValue,
};
pub use defs::{definition, definitions, mk_exists_elim};
pub use eval::{eval, eval_bool, eval_int, Assignment};
pub use linear::{Coef, Lin, LinearSum};
pub use lock_stats::{factory_lock_stats, FactoryLockStats};
pub use print::{smt_symbol, smt_text_with, SmtTerm, SmtTermCompact};
pub use quant::{has_quantifier, has_subterm, quantified_vars};
pub use real::{
    mk_is_int, mk_mul_rat, mk_real, mk_reqz_lin, mk_rle_lin, mk_rlin, mk_rlt_lin, mk_to_int,
    mk_to_real, rat, rat_smtlib, RLin, Rat,
};
pub use term::*;

use num_bigint::BigInt;
use std::fmt;

/// The sorts: `Int`, `Bool`, `Real`, and arrays of them (to any depth).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Sort {
    Int,
    Bool,
    Real,
    /// `(Array index element)`, interned ([`array::ArrSort`]).
    Array(ArrSort),
}

impl Sort {
    /// The value a variable of this sort takes when nothing constrains it.
    pub fn default_value(self) -> Value {
        match self {
            Sort::Int => Value::Int(BigInt::from(0)),
            Sort::Bool => Value::Bool(false),
            Sort::Real => Value::Real(rat(0)),
            Sort::Array(a) => array_value(ArrayValue::constant(self, a.parts().1.default_value())),
        }
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Int => write!(f, "Int"),
            Sort::Bool => write!(f, "Bool"),
            Sort::Real => write!(f, "Real"),
            Sort::Array(a) => write!(f, "{a:?}"),
        }
    }
}

/// A concrete value of a sort.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Value {
    Int(BigInt),
    Bool(bool),
    /// An exact rational, the value of a `Real` term.
    Real(Rat),
    /// An array: a default and finitely many stored points.
    Array(std::sync::Arc<ArrayValue>),
}

impl Value {
    pub fn sort(&self) -> Sort {
        match self {
            Value::Int(_) => Sort::Int,
            Value::Bool(_) => Sort::Bool,
            Value::Real(_) => Sort::Real,
            Value::Array(a) => a.sort,
        }
    }

    /// The value as a constant term.
    pub fn to_term(&self) -> Term {
        match self {
            Value::Int(n) => mk_int(n.clone()),
            Value::Bool(b) => mk_bool(*b),
            Value::Real(r) => mk_real(r.clone()),
            Value::Array(a) => a.to_term(),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) if n.sign() == num_bigint::Sign::Minus => write!(f, "(- {})", -n),
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Real(r) => write!(f, "{}", rat_smtlib(r)),
            Value::Array(a) => write!(f, "{a}"),
        }
    }
}

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
