//! Judging a model (CHC-COMP's model validation): the printed `define-fun`s replace the
//! predicates' `declare-fun`s, and the judge's solver must find the negation of every
//! original assertion unsat.

use super::input::{Item, Problem};
use super::process::{Answer, JudgeSolver, Process};
use super::sexp::{read_one, unquote, Sexp};
use super::{stopped, Judgment};
use std::time::Instant;

/// The model's `define-fun` for each predicate of `p`, as text; an error when one is
/// missing or its parameters differ from the declaration's sorts.
pub(super) fn definitions(p: &Problem, model: &str) -> Result<Vec<String>, String> {
    let (defs, sizes) = definitions_and_sizes(p, model)?;
    match sizes {
        None => Ok(defs),
        Some(_) => Err("size functions are judged in models only".into()),
    }
}

/// The text the judge sends before the first predicate's definition when the model calls
/// the size functions of the input's datatypes: their definitions, as the judge builds them
/// ([`super::datatypes::size_functions`]), and for each function `f` of datatype `N`
/// `(forall ((x N)) (>= (f x) 1))` with `(f x)` as its pattern, so that z3 instantiates it
/// for every size term of a check. The fact is true by construction of the definitions the
/// judge built: every branch is `1` or `1` plus sizes, so by structural induction over the
/// (well-founded) datatypes every size is at least 1.
fn size_prelude(p: &Problem) -> Result<(String, String), String> {
    let (defs, funs) = super::datatypes::size_functions(&p.items)
        .ok_or("the model defines size functions, but the input has no datatypes to size")?;
    let mut text = defs.to_string();
    for (f, sort) in funs {
        text.push_str(&format!(
            "\n(assert (forall ((x {sort})) (! (>= ({f} x) 1) :pattern (({f} x)))))"
        ));
    }
    Ok((defs.to_string(), text))
}

/// The model's `define-fun`s (as [`definitions`]) and, when it has one, its
/// `define-funs-rec` of the size functions, which must be exactly the judge's own
/// ([`size_prelude`]): then the text to send before the definitions.
fn definitions_and_sizes(
    p: &Problem,
    model: &str,
) -> Result<(Vec<String>, Option<String>), String> {
    let m = read_one(model)?;
    let items = m.list().ok_or("the model is not a list of define-funs")?;
    let mut defs: Vec<Option<String>> = vec![None; p.preds.len()];
    let mut sizes = None;
    for d in items {
        if d.head() == Some("define-funs-rec") {
            let (expected, prelude) = size_prelude(p)?;
            if d.to_string() != expected || sizes.is_some() {
                return Err(format!(
                    "recursive functions other than the datatypes' sizes: {d}"
                ));
            }
            sizes = Some(prelude);
            continue;
        }
        let Some([_, Sexp::Atom(name), Sexp::List(params), Sexp::Atom(range), _]) =
            d.list().filter(|_| d.head() == Some("define-fun"))
        else {
            return Err(format!("not a define-fun: {d}"));
        };
        let Some(q) = p.pred(name) else {
            continue; // no assertion can mention it
        };
        let sorts: Vec<String> = params
            .iter()
            .map(|x| match x.list() {
                Some([_, s]) => Ok(s.to_string()),
                _ => Err(format!("malformed parameter {x} of {name}")),
            })
            .collect::<Result<_, _>>()?;
        if range != "Bool" || sorts != p.preds[q].sorts {
            return Err(format!(
                "the definition of {name} has sorts ({}) {range}, its declaration ({}) Bool",
                sorts.join(" "),
                p.preds[q].sorts.join(" ")
            ));
        }
        if defs[q].replace(d.to_string()).is_some() {
            return Err(format!("{} is defined twice", unquote(name)));
        }
    }
    let defs = defs
        .into_iter()
        .zip(&p.preds)
        .map(|(d, pred)| d.ok_or_else(|| format!("no definition of {}", pred.key)))
        .collect::<Result<_, _>>()?;
    Ok((defs, sizes))
}

/// The time limit of each check in the first solver's pass, and in the second solver's,
/// when a second solver can take what the first leaves open: this fraction of the time
/// left, so that one hard assertion does not use all of it.
const FIRST_PASS_SHARE: u32 = 4;

/// Judges `model` on problem `p` of `text` with one solver. With a `fallback`, and when the
/// input converts between integers and bit-vectors ([`conversions`]), each check of
/// `solver` is limited to a share of the time left ([`FIRST_PASS_SHARE`]), and the
/// assertions it leaves open (`unknown`, out of time, an error) go to `fallback` (each check
/// limited the same way), then what is still open back to `solver` with the rest of the
/// time: every assertion must be proven
/// by one of them, and a model either finds violated is rejected.
pub fn check(
    text: &str,
    p: &Problem,
    model: &str,
    solver: &JudgeSolver,
    fallback: Option<&JudgeSolver>,
    deadline: Option<Instant>,
) -> Judgment {
    let (defs, sizes) = match definitions_and_sizes(p, model) {
        Ok(d) => d,
        Err(e) => return Judgment::Rejected(format!("malformed model: {e}")),
    };
    let all: Vec<usize> = (0..p.asserts.len()).collect();
    // elsewhere z3 alone keeps the whole time for each check, as its checks of real and
    // integer models that take long are ones cvc5 does not do faster
    let fallback = fallback.filter(|_| conversions(text));
    let Some(second) = fallback else {
        return match session(text, p, &defs, &sizes, solver, deadline, &all, None) {
            Ok(open) if open.is_empty() => Judgment::Accepted,
            Ok(open) => open_judgment(p, solver, &open),
            Err(j) => j,
        };
    };
    let share = |n: u32| deadline.map(|d| d.saturating_duration_since(Instant::now()) / n);
    let mut open = all;
    // the first two passes limit each check to a share of the time left, the last does not
    let passes = [(solver, true), (second, true), (solver, false)];
    for (i, (s, limited)) in passes.into_iter().enumerate() {
        let limit = if limited {
            share(FIRST_PASS_SHARE)
        } else {
            None
        };
        match session(text, p, &defs, &sizes, s, deadline, &open, limit) {
            Ok(o) => open = o,
            Err(Judgment::Undecided(e)) if i + 1 < passes.len() => {
                log::debug!("judge: {} left the model's checks open: {e}", s.name());
            }
            Err(j) => return j,
        }
        if open.is_empty() {
            return Judgment::Accepted;
        }
        log::debug!(
            "judge: {} left {} of {} assertions of the model open",
            s.name(),
            open.len(),
            p.asserts.len()
        );
    }
    open_judgment(p, solver, &open)
}

/// Whether the input converts between integers and bit-vectors (Solidity's shifts and
/// bitwise operations): the models whose checks z3 may leave open where cvc5 decides them
/// (z3 reads `int_to_bv` and `ubv_to_int` by instantiating their definitions lazily, which
/// can take seconds at 256 bits).
pub fn conversions(text: &str) -> bool {
    ["int_to_bv", "ubv_to_int", "int2bv", "bv2nat"]
        .iter()
        .any(|w| text.contains(w))
}

/// Undecided: the first assertion still open.
fn open_judgment(p: &Problem, solver: &JudgeSolver, open: &[usize]) -> Judgment {
    Judgment::Undecided(format!(
        "{} could not decide the assertion at line {} under the model",
        solver.name(),
        p.asserts[open[0]].line
    ))
}

/// One solver process: the definitions replace the declarations, then the negation of each
/// assertion of `open` is checked (each within `per_check` when given). The assertions it
/// could not decide (`unknown`, or an error on that check), or the judgment when it
/// rejects the model or stops (out of time, dead, cannot read the input).
#[allow(clippy::too_many_arguments)]
fn session(
    text: &str,
    p: &Problem,
    defs: &[String],
    sizes: &Option<String>,
    solver: &JudgeSolver,
    deadline: Option<Instant>,
    open: &[usize],
    per_check: Option<std::time::Duration>,
) -> Result<Vec<usize>, Judgment> {
    let mut sizes = sizes.clone();
    let mut s = Process::start(solver, deadline).map_err(stopped)?;
    for item in &p.items {
        let (t, ours) = match item {
            Item::Keep(t) => (t, false),
            Item::Pred(q) => (&defs[*q], true),
        };
        if let Some(prelude) = sizes.take_if(|_| ours) {
            // the size functions, before the first definition that may call them
            let r = s
                .send(&prelude)
                .and_then(|()| s.send("\n"))
                .and_then(|()| s.sync());
            match r {
                Err(e) => return Err(stopped(e)),
                Ok(errs) if errs.is_empty() => {}
                Ok(errs) => {
                    return Err(Judgment::Undecided(format!(
                        "{} does not read the size functions: {}",
                        solver.name(),
                        errs[0]
                    )))
                }
            }
        }
        let r = s
            .send(t)
            .and_then(|()| s.send("\n"))
            .and_then(|()| s.sync());
        match r {
            Err(e) => return Err(stopped(e)),
            Ok(errs) if errs.is_empty() => {}
            Ok(errs) if ours => {
                return Err(Judgment::Rejected(format!(
                    "{}: {t}: {}",
                    solver.name(),
                    errs[0]
                )))
            }
            Ok(errs) => {
                return Err(Judgment::Undecided(format!(
                    "{} does not read {t}: {}",
                    solver.name(),
                    errs[0]
                )))
            }
        }
    }
    if let Some(d) = per_check {
        s.send(&solver.per_check_limit(d)).map_err(stopped)?;
    }
    // every check is sent first, then the answers are read (no round trip per assertion)
    for &i in open {
        let a = &p.asserts[i];
        let f = a.formula(text).map_err(Judgment::Undecided)?;
        s.send(&format!(
            "(push 1)\n(assert (not {f}))\n(check-sat)\n(pop 1)\n"
        ))
        .map_err(stopped)?;
    }
    let mut left = vec![];
    for &i in open {
        let a = &p.asserts[i];
        match s.answer().map_err(stopped)? {
            Ok(Answer::Unsat) => {}
            Ok(Answer::Sat) => {
                return Err(Judgment::Rejected(format!(
                    "{}: the model violates the assertion at line {}",
                    solver.name(),
                    a.line
                )))
            }
            Ok(Answer::Unknown) => {
                log::debug!(
                    "judge: {} answered unknown at line {}",
                    solver.name(),
                    a.line
                );
                left.push(i);
            }
            Err(e) => {
                log::debug!("judge: {} at line {}: {e}", solver.name(), a.line);
                left.push(i);
            }
        }
    }
    Ok(left)
}
