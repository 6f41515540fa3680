//! Premise values put in place of the variables they fix, before a derivation step is sent
//! to the judge's solver.
//!
//! A step is checked on `not (forall V. body => head)` with each body predicate defined as
//! "one of the premise facts". When an application `(Q x1 .. xn)` is a conjunct of the body
//! and `Q` has exactly one premise fact `(Q a1 .. an)`, the body implies `xi = ai` for each
//! variable `xi` of `V`, so replacing `xi` by `ai` everywhere (and dropping it from `V`) is
//! an equivalent formula: the application stays, now on values. The solver then only
//! evaluates the values instead of searching for variables equal to them; this matters for
//! a value written as a `lambda` (an array indexed by a datatype), on which z3 often answers
//! `unknown` when it has to find an equal array.
//!
//! The head is the same: the step's predicate `P` in head position is defined as "not the
//! step's fact", so the negation holds `(P y1 .. yn)` at the fact's values exactly when the
//! head is an application of `P`, which fixes its variables in the same way.

use super::sexp::{unquote, Sexp};
use rustc_hash::FxHashMap;

/// `f` with the variables that the applications of the `single` predicates (by their names
/// in `f`, each with the arguments of its one fact) among its body's conjuncts and as its
/// head fix replaced by those arguments; `None` when `f` is not `(forall V (=> body
/// head))`, fixes no variable, or binds a fixed variable's name again inside.
pub fn ground(f: &Sexp, single: &FxHashMap<String, Vec<Sexp>>) -> Option<Sexp> {
    let [q, Sexp::List(binders), matrix] = f.list()? else {
        return None;
    };
    if q.atom() != Some("forall") {
        return None;
    }
    let [imp, body, head] = matrix.list()? else {
        return None;
    };
    if imp.atom() != Some("=>") {
        return None;
    }
    let mut conjuncts: Vec<&Sexp> = match body.list() {
        Some([h, cs @ ..]) if h.atom() == Some("and") => cs.iter().collect(),
        _ => vec![body],
    };
    // the negation holds the head's negation: an application fixes its variables as well
    conjuncts.push(head);
    let bound: Vec<&str> = binders
        .iter()
        .filter_map(|b| b.list()?.first()?.atom())
        .map(unquote)
        .collect();
    let mut values: FxHashMap<&str, &Sexp> = FxHashMap::default();
    for c in conjuncts {
        let Some([Sexp::Atom(name), args @ ..]) = c.list() else {
            continue;
        };
        let Some(vals) = single.get(name) else {
            continue;
        };
        if vals.len() != args.len() {
            return None;
        }
        for (a, v) in args.iter().zip(vals) {
            if let Sexp::Atom(x) = a {
                let x = unquote(x);
                if bound.contains(&x) {
                    values.entry(x).or_insert(v);
                }
            }
        }
    }
    if values.is_empty() || rebinds(matrix, &values) {
        return None;
    }
    let matrix = substitute(matrix, &values);
    let rest: Vec<Sexp> = binders
        .iter()
        .filter(|b| {
            let x = b.list().and_then(|l| l.first()).and_then(Sexp::atom);
            !x.is_some_and(|x| values.contains_key(unquote(x)))
        })
        .cloned()
        .collect();
    if rest.is_empty() {
        return Some(matrix);
    }
    Some(Sexp::List(vec![q.clone(), Sexp::List(rest), matrix]))
}

/// Does a binder inside `e` (`let`, a quantifier, `lambda`) bind one of the names?
fn rebinds(e: &Sexp, names: &FxHashMap<&str, &Sexp>) -> bool {
    let Sexp::List(l) = e else { return false };
    if let [Sexp::Atom(h), Sexp::List(bs), ..] = &l[..] {
        if matches!(h.as_str(), "let" | "forall" | "exists" | "lambda")
            && bs.iter().any(|b| {
                let x = b.list().and_then(|l| l.first()).and_then(Sexp::atom);
                x.is_some_and(|x| names.contains_key(unquote(x)))
            })
        {
            return true;
        }
    }
    l.iter().any(|x| rebinds(x, names))
}

fn substitute(e: &Sexp, values: &FxHashMap<&str, &Sexp>) -> Sexp {
    match e {
        Sexp::Atom(a) => values
            .get(unquote(a))
            .map_or_else(|| e.clone(), |v| (*v).clone()),
        Sexp::List(l) => Sexp::List(l.iter().map(|x| substitute(x, values)).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::sexp::read_one;
    use super::*;

    fn single(name: &str, args: &[&str]) -> FxHashMap<String, Vec<Sexp>> {
        let mut m = FxHashMap::default();
        m.insert(
            name.to_string(),
            args.iter().map(|a| read_one(a).unwrap()).collect(),
        );
        m
    }

    #[test]
    fn the_premise_values_replace_the_variables_they_fix() {
        let f = read_one(
            "(forall ((x Int) (|y| A) (z Int)) (=> (and (P x |y| 3) (= z (f y))) (Q z x)))",
        )
        .unwrap();
        let g = ground(&f, &single("P", &["1", "(lambda ((r Int)) r)", "3"])).unwrap();
        assert_eq!(
            g.to_string(),
            "(forall ((z Int)) (=> (and (P 1 (lambda ((r Int)) r) 3) (= z (f (lambda ((r Int)) r)))) (Q z 1)))"
        );
        // the head's fact fixes z
        let mut both = single("P", &["1", "(lambda ((r Int)) r)", "3"]);
        both.insert(
            "Q".into(),
            vec![read_one("4").unwrap(), read_one("1").unwrap()],
        );
        let g = ground(&f, &both).unwrap();
        assert_eq!(
            g.to_string(),
            "(=> (and (P 1 (lambda ((r Int)) r) 3) (= 4 (f (lambda ((r Int)) r)))) (Q 4 1))"
        );
        // all fixed: no quantifier left
        let f = read_one("(forall ((x Int)) (=> (P x x) false))").unwrap();
        let g = ground(&f, &single("P", &["1", "2"])).unwrap();
        assert_eq!(g.to_string(), "(=> (P 1 1) false)");
    }

    #[test]
    fn nothing_is_replaced_outside_the_shape() {
        let s = single("P", &["1"]);
        // under a disjunction, P does not fix x
        let f = read_one("(forall ((x Int)) (=> (or (P x) (= x 2)) false))").unwrap();
        assert!(ground(&f, &s).is_none());
        // x bound again inside
        let f =
            read_one("(forall ((x Int)) (=> (and (P x) (let ((x 5)) (= x 5))) false))").unwrap();
        assert!(ground(&f, &s).is_none());
        // not a variable of the quantifier
        let f = read_one("(forall ((y Int)) (=> (and (P c) (= y c)) false))").unwrap();
        assert!(ground(&f, &s).is_none());
        // a predicate with several premise facts is not in `single`
        let f = read_one("(forall ((x Int)) (=> (and (R x)) false))").unwrap();
        assert!(ground(&f, &s).is_none());
    }
}
