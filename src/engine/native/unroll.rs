//! The unrolling of the ORIGINAL assertions as SMT-LIB text, read as the judge reads them
//! ([`crate::judge::reading`]): each assertion split by polarity, with at most one body and
//! one head predicate, is a step from a state of its body predicate to a state of its head
//! predicate.
//!
//! State `i` of predicate `Q` is the constants `chcbv!{tag}{i}_{Q}_{j}` (one per argument,
//! of the declared sort, bit-vectors included) and the Boolean `chcbv!r{tag}{i}_{Q}`
//! ("reached"). An assertion used from state `a` to state `b` is its formula under its
//! leading `forall`s, the body occurrence read as `(= args a)` and the head occurrence as
//! `(not (= args b))` ([`interpret`]), its bound variables bound by a `let`: a variable that
//! is an argument of the body (head) occurrence to that argument of `a` (`b`), any other to a
//! fresh constant. Its negation, "violated from `a` to `b`", is then exactly the judge's
//! `V_A(a, b)` (the equalities that the `let` makes true were required by the violation
//! anyway), and quantifier-free, so that any solver of QF_BV takes it; the assertion itself
//! under that `let` is one instance of it (a weaker fact, which is all k-induction's step
//! may assume).

use crate::judge::reading::{interpret, unquote, Item, Problem, Sexp, Shape, NONE};
use std::fmt::Write;

/// An assertion's leading bound variables and the formula under them.
pub struct Parts {
    binders: Vec<(String, String)>,
    matrix: Sexp,
    /// The arguments of its body and head occurrence (empty without one).
    body_args: Vec<Sexp>,
    head_args: Vec<Sexp>,
}

/// The problem's assertions ready to unroll.
pub struct Unrolling {
    pub p: Problem,
    pub shapes: Vec<Shape>,
    parts: Vec<Parts>,
}

impl Unrolling {
    /// The assertions of `p`, read into [`Shape`]s.
    pub fn new(p: Problem, shapes: Vec<Shape>) -> Unrolling {
        let parts = shapes
            .iter()
            .map(|a| {
                let (binders, matrix) = leading(&a.formula);
                Parts {
                    body_args: args_of(&matrix, a.body, false),
                    head_args: args_of(&matrix, a.head, true),
                    binders,
                    matrix,
                }
            })
            .collect();
        Unrolling { p, shapes, parts }
    }

    /// Does an assertion divide bit-vectors (`bvudiv`, `bvsdiv`, `bvurem`, `bvsrem`, `bvsmod`,
    /// or z3's names of them with `_i`)?
    pub fn divides(&self) -> bool {
        fn divides(s: &Sexp) -> bool {
            let Sexp::List(items) = s else { return false };
            let head = items.first().and_then(Sexp::atom).unwrap_or("");
            let op = head.strip_suffix("_i").unwrap_or(head);
            matches!(op, "bvudiv" | "bvsdiv" | "bvurem" | "bvsrem" | "bvsmod")
                || items.iter().any(divides)
        }
        self.parts.iter().any(|p| divides(&p.matrix))
    }

    /// Is every sort of the predicates and of the assertions' bound variables a bit-vector
    /// or `Bool`, with no other declaration to send ([`Unrolling::prelude`])? Then the
    /// queries are in QF_BV (with the assertions' own nested quantifiers, if any, which a
    /// solver of QF_BV refuses: the lane then stops).
    pub fn only_bitvecs(&self) -> bool {
        let bv = |s: &str| s == "Bool" || s.starts_with("(_ BitVec ");
        self.p.items.iter().all(|i| matches!(i, Item::Pred(_)))
            && self.p.preds.iter().all(|p| p.sorts.iter().all(|s| bv(s)))
            && self
                .parts
                .iter()
                .all(|a| a.binders.iter().all(|(_, s)| bv(s)))
    }

    /// The commands to send first: the kept declarations of the input.
    pub fn prelude(&self) -> String {
        let mut out = String::new();
        for item in &self.p.items {
            if let Item::Keep(t) = item {
                out.push_str(t);
                out.push('\n');
            }
        }
        out
    }

    /// The constants of state `i` of predicate `q`.
    pub fn state(&self, tag: &str, i: usize, q: usize) -> Vec<String> {
        (0..self.p.preds[q].sorts.len())
            .map(|j| format!("chcbv!{tag}{i}_{q}_{j}"))
            .collect()
    }

    /// The "reached" Boolean of state `i` of `q`.
    pub fn reached(tag: &str, i: usize, q: usize) -> String {
        format!("chcbv!r{tag}{i}_{q}")
    }

    /// The declarations of depth `i` of unrolling `tag`: every predicate's state.
    pub fn declare_depth(&self, tag: &str, i: usize) -> String {
        let mut out = String::new();
        for (q, pred) in self.p.preds.iter().enumerate() {
            let _ = writeln!(out, "(declare-const {} Bool)", Self::reached(tag, i, q));
            for (v, t) in self.state(tag, i, q).iter().zip(&pred.sorts) {
                let _ = writeln!(out, "(declare-const {v} {t})");
            }
        }
        out
    }

    /// Assertion `k` used from state `a` (of its body predicate) to state `b` (of its head
    /// predicate), its fresh constants named after `site`: their declarations, and the
    /// assertion's formula under the `let` (module docs).
    pub fn instance(&self, k: usize, a: &[String], b: &[String], site: &str) -> (String, String) {
        let (s, parts) = (&self.shapes[k], &self.parts[k]);
        let mut decls = String::new();
        let mut binds = vec![];
        for (n, (x, sort)) in parts.binders.iter().enumerate() {
            let at = |args: &[Sexp], state: &[String]| {
                args.iter()
                    .position(|t| t.atom().is_some_and(|t| unquote(t) == unquote(x)))
                    .and_then(|j| state.get(j).cloned())
            };
            let value = at(&parts.body_args, a)
                .or_else(|| at(&parts.head_args, b))
                .unwrap_or_else(|| {
                    let c = format!("chcbv!{site}_{n}");
                    let _ = writeln!(decls, "(declare-const {c} {sort})");
                    c
                });
            binds.push(format!("({x} {value})"));
        }
        let f = interpret(&parts.matrix, s.body, a, s.head, b);
        let f = if binds.is_empty() {
            f.to_string()
        } else {
            format!("(let ({}) {f})", binds.join(" "))
        };
        (decls, f)
    }

    /// `(define-fun P ((chcbv!x0 S0) ..) Bool F)` for every predicate, `F` the conjunction
    /// of the queries (assertions with a body and no head) of `P` read with `P` as the one
    /// state of the parameters: "no query fails from here", as the judge reads a
    /// k-inductive invariant ([`crate::judge::Witness::KInductive`]).
    pub fn safety_definitions(&self) -> String {
        let mut out = String::from("(");
        for (q, pred) in self.p.preds.iter().enumerate() {
            let xs: Vec<String> = (0..pred.sorts.len())
                .map(|j| format!("chcbv!x{j}"))
                .collect();
            let params: Vec<String> = xs
                .iter()
                .zip(&pred.sorts)
                .map(|(x, s)| format!("({x} {s})"))
                .collect();
            let holds: Vec<String> = self
                .shapes
                .iter()
                .filter(|s| s.body == q && s.head == NONE)
                .map(|s| interpret(&s.formula, q, &xs, NONE, &[]).to_string())
                .collect();
            let _ = write!(
                out,
                "\n  (define-fun {} ({}) Bool (and true {}))",
                pred.name,
                params.join(" "),
                holds.join(" ")
            );
        }
        out.push_str("\n)");
        out
    }
}

/// The leading `forall` binders (each name once) and the formula under them.
fn leading(f: &Sexp) -> (Vec<(String, String)>, Sexp) {
    let mut binders: Vec<(String, String)> = vec![];
    let mut g = f;
    while let Some([q, Sexp::List(bs), body]) = g.list() {
        if q.atom() != Some("forall") {
            break;
        }
        let these: Option<Vec<(String, String)>> = bs
            .iter()
            .map(|b| match b.list() {
                Some([Sexp::Atom(x), s]) => Some((x.clone(), s.to_string())),
                _ => None,
            })
            .collect();
        let Some(these) = these else { break };
        let clash = these.iter().enumerate().any(|(i, (x, _))| {
            binders.iter().any(|(y, _)| unquote(y) == unquote(x))
                || these[..i].iter().any(|(y, _)| unquote(y) == unquote(x))
        });
        if clash {
            break;
        }
        binders.extend(these);
        g = body;
    }
    (binders, g.clone())
}

/// The arguments of the occurrence of predicate `q` of polarity `positive` in `f` (the
/// judge's split names it), or none.
fn args_of(f: &Sexp, q: usize, positive: bool) -> Vec<Sexp> {
    if q == NONE {
        return vec![];
    }
    let name = crate::judge::reading::split_name(q, positive);
    fn find<'a>(f: &'a Sexp, name: &str) -> Option<&'a [Sexp]> {
        let items = f.list()?;
        if items.first().and_then(Sexp::atom) == Some(name) {
            return Some(&items[1..]);
        }
        items.iter().find_map(|x| find(x, name))
    }
    find(f, &name).map(<[Sexp]>::to_vec).unwrap_or_default()
}
