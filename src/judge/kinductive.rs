//! Judging a k-inductive invariant, `(k-inductive K ((define-fun P ..) ..))`, against the
//! ORIGINAL assertions' text, without reading a term.
//!
//! Each assertion is split by polarity ([`super::polarity`]); the judge requires at most one
//! body (negative) and one head (positive) occurrence of a predicate in it, none of them
//! under a quantifier other than the assertion's leading `forall`s. Reading its body
//! occurrence of `P` as `(= args a)` and its head occurrence of `Q` as `(not (= args b))`
//! ([`super::segment::interpret`]), the negation of the assertion, `V_A(a, b)`, says that
//! it is violated "from `a` to `b`"; with a missing side read as `false` (body) or `true`
//! (head). Write `F_P` for the printed definition of `P`. The judge's solver must find unsat:
//!
//! - `V_A()` with every occurrence read away (the assertion fails whatever the predicates);
//! - `F_P(a) /\ V_A(a, -)` for each assertion with a body occurrence of `P` (a query);
//! - for each depth `i < K`: a state of a chain `init -> step -> .. -> step` of `i` steps
//!   outside `F`, where `init_Q(b)` is some `V_A(-, b)` with a head occurrence of `Q`, and a
//!   step from `P` to `Q` is some `V_A(a, b)` with both (the base case);
//! - a chain of `K` steps from any state, `F` at its first `K` states and not at its last
//!   (the induction step).
//!
//! Why that is enough: the negation of an assertion is monotone in its two occurrences,
//! `c0 \/ (c1 /\ p) \/ (c2 /\ not q) \/ (c3 /\ p /\ not q)`. Let `R` be the states that
//! `init` and steps reach. By induction on the length of a chain, `R` is inside `F`. `R`
//! satisfies every assertion: `c0` is ruled out by the first query; `c1` with `p` in `R`
//! by the second (`V_A(a, -)` contains `c1 /\ a = args`); `c2` puts `args` into `init`,
//! and `c3` makes a step, so `not q` is false in `R`. So `R` is a model.
//!
//! A query the solver cannot decide, or an assertion of another shape, leaves the answer
//! undecided, never rejected.

use super::derivation::start_with_prelude;
use super::input::Problem;
use super::model::definitions;
use super::polarity::split;
use super::process::{Answer, JudgeSolver, Process, Stop};
use super::segment::{interpret, limit, names, occurrence};
use super::sexp::{read_one, unquote, Sexp};
use super::{stopped, Judgment};
use std::fmt::Write;
use std::time::Instant;

/// No occurrence on this side.
pub const NONE: usize = usize::MAX;

/// An assertion as the judge reads it: its split formula, its line, its body and head
/// predicates ([`NONE`] when it has none).
pub struct Shape {
    pub formula: Sexp,
    pub line: usize,
    pub body: usize,
    pub head: usize,
}

/// The shapes of the assertions of `p` (in `text`); an error (the assertion's line and why)
/// when one uses a reserved name or is not of a shape the judge unrolls.
pub fn shapes(text: &str, p: &Problem) -> Result<Vec<Shape>, String> {
    let mut shapes = vec![];
    for a in &p.asserts {
        let at = |e: String| format!("the assertion at line {}: {e}", a.line);
        let f = a.formula(text)?;
        if f.any_atom(&|x| unquote(x).starts_with("chcjudge!")) {
            return Err(at("it uses a name the judge reserves (chcjudge!..)".into()));
        }
        let sp = split(&f, p).map_err(at)?;
        let (body, head) = shape(&sp.formula).map_err(at)?;
        shapes.push(Shape {
            formula: sp.formula,
            line: a.line,
            body,
            head,
        });
    }
    Ok(shapes)
}

/// `K` and the definitions of the printed `(k-inductive K (defs))`.
fn read(p: &Problem, witness: &str) -> Result<(usize, Vec<String>), String> {
    let w = read_one(witness)?;
    let Some([h, Sexp::Atom(k), defs]) = w.list() else {
        return Err("not (k-inductive K (define-fun ..))".into());
    };
    if h.atom() != Some("k-inductive") {
        return Err("not (k-inductive K (define-fun ..))".into());
    }
    let k = k.parse::<usize>().map_err(|_| format!("K is {k}"))?;
    if k == 0 {
        return Err("K is 0".into());
    }
    Ok((k, definitions(p, &defs.to_string())?))
}

/// The body and head predicate of split formula `f` (module docs).
fn shape(f: &Sexp) -> Result<(usize, usize), String> {
    let mut g = f;
    while let Some([q, _, body]) = g.list() {
        if q.atom() != Some("forall") {
            break;
        }
        g = body;
    }
    let mut found = vec![];
    occurrences(g, false, &mut found)?;
    let side = |pos: bool| -> Result<usize, String> {
        let qs: Vec<usize> = found
            .iter()
            .filter(|(_, p)| *p == pos)
            .map(|(q, _)| *q)
            .collect();
        match qs[..] {
            [] => Ok(NONE),
            [q] => Ok(q),
            _ => Err(format!(
                "{} {} occurrences of predicates",
                qs.len(),
                if pos { "head" } else { "body" }
            )),
        }
    };
    Ok((side(false)?, side(true)?))
}

fn occurrences(f: &Sexp, quantified: bool, out: &mut Vec<(usize, bool)>) -> Result<(), String> {
    let mut at = |name: &str| -> Result<bool, String> {
        match occurrence(name) {
            Some(_) if quantified => Err("a predicate under a quantifier".into()),
            Some(o) => {
                out.push(o);
                Ok(true)
            }
            None => Ok(false),
        }
    };
    match f {
        Sexp::Atom(a) => at(a).map(|_| ()),
        Sexp::List(items) => {
            if let Some(h) = items.first().and_then(Sexp::atom) {
                if at(h)? {
                    return Ok(());
                }
            }
            let q = quantified || matches!(f.head(), Some("forall" | "exists"));
            for x in items {
                occurrences(x, q, out)?;
            }
            Ok(())
        }
    }
}

fn app(f: &str, args: &[String]) -> String {
    if args.is_empty() {
        f.to_string()
    } else {
        format!("({f} {})", args.join(" "))
    }
}

fn inv(q: usize) -> String {
    format!("|chcjudge!F!{q}|")
}

/// Judges the k-inductive invariant `witness` on problem `p` of `text` with one solver.
pub fn check(
    text: &str,
    p: &Problem,
    witness: &str,
    solver: &JudgeSolver,
    deadline: Option<Instant>,
) -> Judgment {
    let (k, defs) = match read(p, witness) {
        Ok(r) => r,
        Err(e) => return Judgment::Rejected(format!("malformed k-inductive invariant: {e}")),
    };
    let shapes = match shapes(text, p) {
        Ok(s) => s,
        Err(e) => return Judgment::Undecided(e),
    };
    let mut s = match start_with_prelude(p, solver, deadline) {
        Ok(s) => s,
        Err(j) => return j,
    };
    match run(p, k, &defs, &shapes, &mut s, solver, deadline) {
        Ok(j) => j,
        Err(e) => stopped(e),
    }
}

fn run(
    p: &Problem,
    k: usize,
    defs: &[String],
    shapes: &[Shape],
    s: &mut Process,
    solver: &JudgeSolver,
    deadline: Option<Instant>,
) -> Result<Judgment, Stop> {
    // the definitions, renamed
    let mut out = String::new();
    for (q, d) in defs.iter().enumerate() {
        let Ok(Sexp::List(mut items)) = read_one(d) else {
            return Ok(Judgment::Rejected(format!("malformed definition {d}")));
        };
        items[1] = Sexp::Atom(inv(q));
        let _ = writeln!(out, "{}", Sexp::List(items));
    }
    s.send(&out)?;
    if let Some(e) = s.sync()?.first() {
        return Ok(Judgment::Rejected(format!(
            "{}: the invariant's definitions: {e}",
            solver.name()
        )));
    }
    // `what` is violated when the query is sat
    let ask =
        |s: &mut Process, decls: &str, f: String, what: String| -> Result<Option<Judgment>, Stop> {
            s.send(&limit(solver, deadline))?;
            s.send(&format!(
                "(push 1)\n{decls}(assert {f})\n(check-sat)\n(pop 1)\n"
            ))?;
            Ok(match s.answer()? {
                Ok(Answer::Unsat) => None,
                Ok(Answer::Sat) => Some(Judgment::Rejected(format!("{}: {what}", solver.name()))),
                Ok(Answer::Unknown) => Some(Judgment::Undecided(format!(
                    "{} answered unknown on whether {what}",
                    solver.name()
                ))),
                Err(e) => Some(Judgment::Undecided(format!(
                    "{}: on whether {what}: {e}",
                    solver.name()
                ))),
            })
        };
    for a in shapes {
        let v = interpret(&a.formula, NONE, &[], NONE, &[]);
        let what = format!(
            "the assertion at line {} fails whatever the predicates",
            a.line
        );
        if let Some(j) = ask(s, "", format!("(not {v})"), what)? {
            return Ok(j);
        }
        if a.body != NONE {
            let sorts = &p.preds[a.body].sorts;
            let x = names("chcjudge!a", sorts.len());
            let decls: String = x
                .iter()
                .zip(sorts)
                .map(|(v, t)| format!("(declare-const {v} {t})\n"))
                .collect();
            let v = interpret(&a.formula, a.body, &x, NONE, &[]);
            let f = format!("(and {} (not {v}))", app(&inv(a.body), &x));
            let what = format!("the assertion at line {} fails on the invariant", a.line);
            if let Some(j) = ask(s, &decls, f, what)? {
                return Ok(j);
            }
        }
    }
    for (tag, base) in [("b", true), ("s", false)] {
        for i in 0..if base { k } else { k + 1 } {
            s.send(&layer(p, shapes, tag, i, base))?;
            let violated: Vec<String> = (0..p.preds.len())
                .map(|q| {
                    format!(
                        "(and {} (not {}))",
                        reached(tag, i, q),
                        app(&inv(q), &state(p, tag, i, q))
                    )
                })
                .collect();
            let violated = format!("(or false {})", violated.join(" "));
            if base {
                let what = format!("a state reached in {i} steps is outside the invariant");
                if let Some(j) = ask(s, "", violated, what)? {
                    return Ok(j);
                }
            } else if !base && i < k {
                let mut hold = String::new();
                for q in 0..p.preds.len() {
                    let _ = writeln!(
                        hold,
                        "(assert (=> {} {}))",
                        reached(tag, i, q),
                        app(&inv(q), &state(p, tag, i, q))
                    );
                }
                s.send(&hold)?;
            } else if !base {
                let what = format!("the invariant is not {k}-inductive");
                if let Some(j) = ask(s, "", violated, what)? {
                    return Ok(j);
                }
            }
        }
    }
    Ok(Judgment::Accepted)
}

fn state(p: &Problem, tag: &str, i: usize, q: usize) -> Vec<String> {
    names(&format!("chcjudge!{tag}{i}_{q}_"), p.preds[q].sorts.len())
}

fn reached(tag: &str, i: usize, q: usize) -> String {
    format!("chcjudge!r{tag}{i}_{q}")
}

/// The declarations of depth `i` of unrolling `tag` and `r_i_Q => \/ (ways into Q)`: from
/// `init` at depth 0 of the base case, from depth `i - 1` after it, nothing at depth 0 of
/// the step.
fn layer(p: &Problem, shapes: &[Shape], tag: &str, i: usize, base: bool) -> String {
    let mut out = String::new();
    for (q, pred) in p.preds.iter().enumerate() {
        let _ = writeln!(out, "(declare-const {} Bool)", reached(tag, i, q));
        for (v, t) in state(p, tag, i, q).iter().zip(&pred.sorts) {
            let _ = writeln!(out, "(declare-const {v} {t})");
        }
    }
    if i == 0 && !base {
        return out;
    }
    for q in 0..p.preds.len() {
        let into: Vec<String> = shapes
            .iter()
            .filter(|a| a.head == q && ((i == 0) || a.body != NONE))
            .map(|a| {
                let b = state(p, tag, i, q);
                if i == 0 {
                    format!("(not {})", interpret(&a.formula, NONE, &[], q, &b))
                } else {
                    let x = state(p, tag, i - 1, a.body);
                    format!(
                        "(and {} (not {}))",
                        reached(tag, i - 1, a.body),
                        interpret(&a.formula, a.body, &x, q, &b)
                    )
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "(assert (=> {} (or false {})))",
            reached(tag, i, q),
            into.join(" ")
        );
    }
    out
}

#[cfg(test)]
#[path = "kinductive_tests.rs"]
mod tests;
