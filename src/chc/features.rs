//! What a clause system uses, computed once: the sorts present, whether its clauses are
//! linear (before and after preprocessing), whether its constraints have quantifiers. The
//! schedule is chosen from it ([`crate::schedule`]), every engine says from it whether it
//! takes the system (`Engine::supports`), and `--stats` prints it.

use super::ChcSystem;
use crate::logic::{free_vars, has_quantifier, Sort};
use std::fmt;

/// What a clause system uses ([`Features::of`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// No clause has two or more body predicates after preprocessing (before
    /// [`Features::preprocessed`] is called: in the input).
    pub linear: bool,
    /// No clause of the input has two or more body predicates.
    pub linear_input: bool,
    /// A predicate argument or a clause variable has this sort (an array's index or
    /// element sort counts as present).
    pub ints: bool,
    pub reals: bool,
    pub bools: bool,
    pub arrays: bool,
    /// The input declares bit-vector sorts (read as integers by the front-end,
    /// docs/bitvectors.md).
    pub bitvecs: bool,
    /// A clause constraint of the input has a quantifier.
    pub quantifiers: bool,
    /// The input has recursive datatypes, abstracted by sizes (`ChcSystem::adt`): the
    /// clauses over-approximate the input's, so only models count.
    pub datatypes: bool,
}

impl Features {
    /// The features of the input system `sys`.
    pub fn of(sys: &ChcSystem) -> Features {
        let mut f = Features {
            linear: sys.is_linear(),
            linear_input: sys.is_linear(),
            bitvecs: sys.bitvecs.is_some(),
            datatypes: sys.adt.is_some(),
            ..Features::default()
        };
        for p in &sys.preds {
            p.sorts.iter().for_each(|&s| f.add_sort(s));
        }
        for c in &sys.clauses {
            let args = c
                .body
                .iter()
                .chain(c.head.iter())
                .flat_map(|a| a.args.iter());
            for t in args.chain([&c.constraint]) {
                free_vars(t).iter().for_each(|v| f.add_sort(v.sort));
            }
            f.quantifiers |= has_quantifier(&c.constraint);
        }
        f
    }

    /// These features, with linearity taken from the preprocessed system `psys`.
    pub fn preprocessed(self, psys: &ChcSystem) -> Features {
        Features {
            linear: psys.is_linear(),
            ..self
        }
    }

    fn add_sort(&mut self, s: Sort) {
        match s {
            Sort::Int => self.ints = true,
            Sort::Real => self.reals = true,
            Sort::Bool => self.bools = true,
            Sort::Array(a) => {
                self.arrays = true;
                let (i, e) = a.parts();
                self.add_sort(i);
                self.add_sort(e);
            }
        }
    }

    /// The first theory of these features that an engine taking only `linear arithmetic`
    /// (with `arrays` when it takes them) does not take, as a noun for an error line
    /// (`arrays`, `non-linear clauses`); `None` when it takes them all.
    pub fn beyond(&self, arrays: bool, non_linear: bool) -> Option<&'static str> {
        if self.arrays && !arrays {
            Some("arrays")
        } else if !self.linear && !non_linear {
            Some("non-linear clauses")
        } else {
            None
        }
    }
}

impl fmt::Display for Features {
    /// `linear, sorts Int Bool, no quantifiers` (the line of `--stats`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shape = match (self.linear_input, self.linear) {
            (true, _) => "linear",
            (false, true) => "linear after preprocessing",
            (false, false) => "non-linear",
        };
        let sorts: Vec<&str> = [
            (self.ints, "Int"),
            (self.reals, "Real"),
            (self.bools, "Bool"),
            (self.arrays, "Array"),
            (self.bitvecs, "BitVec"),
            (self.datatypes, "Datatype(sizes)"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|&(_, s)| s)
        .collect();
        let sorts = if sorts.is_empty() {
            "none".to_string()
        } else {
            sorts.join(" ")
        };
        let q = if self.quantifiers { "" } else { "no " };
        write!(f, "{shape}, sorts {sorts}, {q}quantifiers")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_str;

    #[test]
    fn features_name_the_sorts_and_the_shape() {
        let sys = parse_str(
            "(set-logic HORN)
             (declare-fun p (Int (Array Int Real)) Bool)
             (assert (forall ((x Int) (a (Array Int Real))) (=> (= x 0) (p x a))))
             (assert (forall ((x Int) (a (Array Int Real)))
                (=> (and (p x a) (p x a) (> x 0)) false)))",
        )
        .unwrap();
        let f = Features::of(&sys);
        assert!(f.ints && f.reals && f.arrays && !f.bools && !f.quantifiers);
        assert!(!f.linear && !f.linear_input);
        assert_eq!(
            f.to_string(),
            "non-linear, sorts Int Real Array, no quantifiers"
        );
        assert_eq!(f.beyond(true, true), None);
        assert_eq!(f.beyond(false, true), Some("arrays"));
        assert_eq!(f.beyond(true, false), Some("non-linear clauses"));
        let lin = parse_str(
            "(set-logic HORN)
             (declare-fun p (Int) Bool)
             (assert (forall ((x Int)) (=> (forall ((y Int)) (>= (+ x (* 2 y)) y)) (p x))))
             (assert (forall ((x Int)) (=> (and (p x) (< x 0)) false)))",
        )
        .unwrap();
        let f = Features::of(&lin);
        assert!(
            f.linear && f.ints && !f.reals && !f.arrays && f.quantifiers,
            "{f:?}"
        );
        assert_eq!(f.to_string(), "linear, sorts Int, quantifiers");
        let adt = parse_str(
            "(set-logic HORN)
             (declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
             (declare-fun p (L) Bool)
             (assert (forall ((x L)) (=> (= x nil) (p x))))
             (assert (forall ((x L)) (=> (and (p x) ((_ is cons) x)) false)))",
        )
        .unwrap();
        let f = Features::of(&adt);
        assert!(f.datatypes && f.ints, "{f:?}");
        assert_eq!(
            f.to_string(),
            "linear, sorts Int Datatype(sizes), no quantifiers"
        );
    }
}
