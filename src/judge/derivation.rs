//! Judging a derivation of `false`: each step must be a ground instance of an original
//! assertion.
//!
//! For a step deriving fact `h` = `(P c1 .. cn)` from premise facts `b1 .. bk`, every
//! predicate `Q` gets two interpretations ([`super::polarity`]): in body position (negative
//! occurrences) the set of premise facts of `Q`, in head position (positive occurrences)
//! `true`, except `P`, which is "not `h`" (for the query step, whose fact is `false`, every
//! head is `true`). The step is accepted when the judge's solver finds the negation of some
//! assertion so interpreted satisfiable: its body holds on the premises and its head fails,
//! which it can only do on `h`. (A model of the clauses contains each premise, so by
//! monotonicity it would violate that assertion unless it contained `h`; the last step then
//! leaves no model at all.) Facts that a certificate of their own stands for (the end of an
//! accelerated segment, proven by [`super::segment`]) are taken as given here.

use super::ground::ground;
use super::input::{Item, Problem};
use super::polarity::{split, split_name, Split};
use super::process::{Answer, JudgeSolver, Process};
use super::sexp::{read_one, unquote, Sexp};
use super::{stopped, Judgment};
use rustc_hash::FxHashMap;
use std::fmt::Write;
use std::time::Instant;

/// A derived fact.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fact {
    /// Step 0 of Golem's format.
    True,
    /// The query's conclusion.
    False,
    /// A predicate (index into the problem's predicates) on ground arguments (as printed).
    App(usize, Vec<String>),
}

/// A step: its fact, the steps its body facts come from, and whether it is taken as given
/// (not judged here).
#[derive(Clone, Debug)]
pub struct Step {
    pub fact: Fact,
    pub premises: Vec<usize>,
    pub given: bool,
}

/// Reads a fact as printed (`false`, `P`, `(P 1 (- 2))`).
pub fn fact(p: &Problem, s: &Sexp) -> Result<Fact, String> {
    let (name, args) = match s {
        Sexp::Atom(a) if a == "false" => return Ok(Fact::False),
        Sexp::Atom(a) if a == "true" => return Ok(Fact::True),
        Sexp::Atom(a) => (a.as_str(), &[][..]),
        Sexp::List(l) => match l.split_first() {
            Some((Sexp::Atom(a), args)) => (a.as_str(), args),
            _ => return Err(format!("not a fact: {s}")),
        },
    };
    let q = p.pred(name).ok_or_else(|| format!("no predicate {name}"))?;
    let sorts = &p.preds[q].sorts;
    if args.len() != sorts.len() {
        return Err(format!("{s}: {} arguments for {}", args.len(), sorts.len()));
    }
    let args = args
        .iter()
        .zip(sorts)
        .map(|(a, sort)| {
            if lambda_literal(p, a) {
                return Ok(a.to_string());
            }
            literal(p, a, sort)
        })
        .collect::<Result<_, _>>()?;
    Ok(Fact::App(q, args))
}

/// A ground argument as a literal of `sort`: a numeral, `(- x)`, `(/ x y)`, a Boolean or a
/// constructor (one of `ctors`, the input's) applied to literals; integer numerals of a Real
/// argument (as Golem prints them) get a `.0`.
fn literal(p: &Problem, a: &Sexp, sort: &str) -> Result<String, String> {
    if sort.starts_with("(Array") {
        // stores of literals over a constant array, exactly as printed
        return if array_literal(p, a) {
            Ok(a.to_string())
        } else {
            Err(format!("{a} is not an array literal"))
        };
    }
    let ok = match a {
        Sexp::Atom(x) => {
            x == "true"
                || x == "false"
                || (!x.is_empty() && x.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
                || bitvec_literal(x, sort)
        }
        Sexp::List(l) => {
            matches!(l.first().and_then(Sexp::atom), Some("-" | "/"))
                && (2..=3).contains(&l.len())
                && l[1..].iter().all(|x| literal(p, x, sort).is_ok())
        }
    } || ctor_literal(p, a);
    if !ok {
        return Err(format!("{a} is not a literal"));
    }
    let mut s = a.to_string();
    if sort == "Real" {
        s = realify(a);
    }
    Ok(s)
}

/// A `#x..` or `#b..` literal of the bit-vector sort `sort` (`(_ BitVec w)`, its width).
fn bitvec_literal(x: &str, sort: &str) -> bool {
    let width = sort
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .map(|s| s.split_whitespace().collect::<Vec<_>>());
    let Some(["_", "BitVec", w]) = width.as_deref() else {
        return false;
    };
    let Ok(w) = w.parse::<usize>() else {
        return false;
    };
    if let Some(d) = x.strip_prefix("#x") {
        d.len() * 4 == w && d.bytes().all(|b| b.is_ascii_hexdigit())
    } else if let Some(d) = x.strip_prefix("#b") {
        d.len() == w && d.bytes().all(|b| b == b'0' || b == b'1')
    } else {
        false
    }
}

/// `(lambda ((r S)) body)`, a function written with literals (an array indexed by a
/// datatype): the body built from `r`, literals, `select` and the input's selectors.
fn lambda_literal(p: &Problem, a: &Sexp) -> bool {
    let Some([h, Sexp::List(bs), body]) = a.list() else {
        return false;
    };
    let Some([Sexp::Atom(r), _]) = bs.first().and_then(Sexp::list) else {
        return false;
    };
    fn ok(p: &Problem, r: &str, t: &Sexp) -> bool {
        match t {
            Sexp::Atom(x) => x == r || literal(p, t, "").is_ok(),
            Sexp::List(l) => match l.split_first() {
                Some((Sexp::Atom(f), [x, i])) if f == "select" => ok(p, r, x) && ok(p, r, i),
                Some((Sexp::Atom(f), [x])) if p.selectors.iter().any(|s| s == unquote(f)) => {
                    ok(p, r, x)
                }
                Some((Sexp::Atom(f), args)) if p.ctors.iter().any(|s| s == unquote(f)) => {
                    args.iter().all(|x| ok(p, r, x))
                }
                _ => array_literal(p, t) || literal(p, t, "").is_ok(),
            },
        }
    }
    h.atom() == Some("lambda") && bs.len() == 1 && ok(p, r, body)
}

/// A constructor of the input (one of `ctors`, without quotes) alone, or applied to
/// literals of any sort (the judge's solver checks the sorts).
fn ctor_literal(p: &Problem, a: &Sexp) -> bool {
    let is_ctor = |x: &str| p.ctors.iter().any(|c| c == unquote(x));
    match a {
        Sexp::Atom(x) => is_ctor(x),
        Sexp::List(l) => match l.split_first() {
            Some((Sexp::Atom(h), args)) if is_ctor(h) => args
                .iter()
                .all(|x| array_literal(p, x) || lambda_literal(p, x) || literal(p, x, "").is_ok()),
            _ => false,
        },
    }
}

/// `((as const S) v)` or `(store A i v)` with `A` an array literal and `i`, `v` literals (of
/// any sort: the judge's solver checks the sorts).
fn array_literal(p: &Problem, a: &Sexp) -> bool {
    let Sexp::List(l) = a else { return false };
    let any = |x: &Sexp| array_literal(p, x) || literal(p, x, "").is_ok();
    match l.first() {
        Some(Sexp::List(h)) => {
            l.len() == 2
                && h.len() == 3
                && h[0].atom() == Some("as")
                && h[1].atom() == Some("const")
                && any(&l[1])
        }
        Some(x) if x.atom() == Some("store") => {
            l.len() == 4 && array_literal(p, &l[1]) && any(&l[2]) && any(&l[3])
        }
        _ => false,
    }
}

fn realify(a: &Sexp) -> String {
    match a {
        Sexp::Atom(x) if x.bytes().all(|b| b.is_ascii_digit()) => format!("{x}.0"),
        Sexp::Atom(x) => x.clone(),
        Sexp::List(l) => {
            let items: Vec<String> = l[1..].iter().map(realify).collect();
            format!("({} {})", l[0], items.join(" "))
        }
    }
}

/// Reads Golem's derivation format (`0:\ttrue`, then `i:\tfact -> premises`).
pub fn golem(p: &Problem, text: &str) -> Result<Vec<Step>, String> {
    let mut steps = vec![];
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (num, rest) = line
            .split_once(':')
            .ok_or_else(|| format!("not a step: {line}"))?;
        if num.trim().parse::<usize>() != Ok(steps.len()) {
            return Err(format!("step {num} out of order"));
        }
        let (f, premises) = match rest.rsplit_once("->") {
            Some((f, ps)) => (f, ps),
            None => (rest, ""),
        };
        let premises = premises
            .split_whitespace()
            .map(|x| x.parse::<usize>().map_err(|_| format!("bad premise {x}")))
            .collect::<Result<Vec<_>, _>>()?;
        let f = fact(p, &read_one(f)?)?;
        steps.push(Step {
            given: f == Fact::True && steps.is_empty(),
            fact: f,
            premises,
        });
    }
    Ok(steps)
}

/// The step structure: step 0 is `true`, premises are earlier steps (`0` only alone, for a
/// fact), only the last step derives `false`.
fn check_shape(steps: &[Step]) -> Result<(), String> {
    if steps.len() < 2 || steps[0].fact != Fact::True {
        return Err("a derivation starts with `0: true` and has a step after it".into());
    }
    for (i, s) in steps.iter().enumerate().skip(1) {
        let last = i + 1 == steps.len();
        match s.fact {
            Fact::True => return Err(format!("step {i} derives true")),
            Fact::False if !last => return Err(format!("step {i} derives false before the end")),
            Fact::App(..) if last => return Err("the last step does not derive false".into()),
            _ => {}
        }
        if s.premises.is_empty() {
            return Err(format!("step {i} has no premise (a fact's premise is 0)"));
        }
        for &q in &s.premises {
            if q >= i || (q == 0 && s.premises.len() > 1) {
                return Err(format!("step {i}: premise {q} is not an earlier step"));
            }
        }
    }
    Ok(())
}

/// `(define-fun NAME ((x0 S0) ..) Bool BODY)`.
fn define(out: &mut String, name: &str, sorts: &[String], body: &str) {
    let params: Vec<String> = sorts
        .iter()
        .enumerate()
        .map(|(i, s)| format!("(chcjudge!x{i} {s})"))
        .collect();
    let _ = writeln!(
        out,
        "(define-fun {name} ({}) Bool {body})",
        params.join(" ")
    );
}

/// `(and (= x0 a0) ..)`: the arguments are the fact's.
fn is_fact(args: &[String]) -> String {
    let eqs: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, a)| format!("(= chcjudge!x{i} {a})"))
        .collect();
    match eqs.len() {
        0 => "true".into(),
        1 => eqs[0].clone(),
        _ => format!("(and {})", eqs.join(" ")),
    }
}

/// Judges the derivation `steps` on problem `p` of `text` with one solver.
pub fn check(
    text: &str,
    p: &Problem,
    steps: &[Step],
    solver: &JudgeSolver,
    deadline: Option<Instant>,
) -> Judgment {
    if let Err(e) = check_shape(steps) {
        return Judgment::Rejected(format!("malformed derivation: {e}"));
    }
    let mut splits: Vec<Result<Split, String>> = vec![];
    for a in &p.asserts {
        splits.push(a.formula(text).and_then(|f| split(&f, p)));
    }
    let mut s = match start_with_prelude(p, solver, deadline) {
        Ok(s) => s,
        Err(j) => return j,
    };
    // per step, the assertions that may derive its fact; all checks sent first
    let mut asked: Vec<Vec<usize>> = vec![];
    let mut undecidable: Vec<Option<String>> = vec![];
    // A step with the same fact from the same premise facts as an earlier one asks the
    // same questions: it is judged once (a tree-shaped derivation of a recursive program
    // repeats most of its steps).
    let mut first: FxHashMap<(&Fact, Vec<&Fact>), usize> = FxHashMap::default();
    let mut same_as: Vec<Option<usize>> = vec![None; steps.len()];
    for (i, st) in steps.iter().enumerate() {
        if st.given {
            asked.push(vec![]);
            undecidable.push(None);
            continue;
        }
        let mut premise_facts: Vec<&Fact> = st.premises.iter().map(|&j| &steps[j].fact).collect();
        premise_facts.sort_unstable();
        match first.entry((&st.fact, premise_facts)) {
            std::collections::hash_map::Entry::Occupied(e) => {
                same_as[i] = Some(*e.get());
                asked.push(vec![]);
                undecidable.push(None);
                continue;
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(i);
            }
        }
        let head = match &st.fact {
            Fact::App(q, _) => Some(*q),
            _ => None,
        };
        let body: Vec<usize> = st
            .premises
            .iter()
            .filter_map(|&j| match &steps[j].fact {
                Fact::App(q, _) => Some(*q),
                _ => None,
            })
            .collect();
        let mut cands = vec![];
        let mut why = None;
        for (k, sp) in splits.iter().enumerate() {
            match sp {
                Ok(sp) => {
                    let heads_fit = match head {
                        Some(h) => sp.pos == [h],
                        None => sp.pos.is_empty(),
                    };
                    if heads_fit && body.iter().all(|q| sp.neg.contains(q)) {
                        cands.push(k);
                    }
                }
                Err(e) => {
                    why.get_or_insert(format!("assertion at line {}: {e}", p.asserts[k].line));
                }
            }
        }
        let mut script = String::from("(push 1)\n");
        let mut preds: Vec<usize> = cands
            .iter()
            .flat_map(|&k| {
                let sp = splits[k].as_ref().expect("a candidate");
                sp.pos.iter().chain(&sp.neg).copied()
            })
            .collect();
        preds.sort_unstable();
        preds.dedup();
        for q in preds {
            let sorts = &p.preds[q].sorts;
            let facts: Vec<String> = st
                .premises
                .iter()
                .filter_map(|&j| match &steps[j].fact {
                    Fact::App(r, args) if *r == q => Some(is_fact(args)),
                    _ => None,
                })
                .collect();
            let body = match facts.len() {
                0 => "false".to_string(),
                1 => facts[0].clone(),
                _ => format!("(or {})", facts.join(" ")),
            };
            define(&mut script, &split_name(q, false), sorts, &body);
            let head = match &st.fact {
                Fact::App(r, args) if *r == q => format!("(not {})", is_fact(args)),
                _ => "true".into(),
            };
            define(&mut script, &split_name(q, true), sorts, &head);
        }
        // the predicates with one premise fact, and the step's fact in head position: their
        // values replace the variables they fix ([`ground`])
        let mut single: FxHashMap<String, Vec<Sexp>> = FxHashMap::default();
        for &j in &st.premises {
            if let Fact::App(q, args) = &steps[j].fact {
                let others = st
                    .premises
                    .iter()
                    .any(|&i| matches!(&steps[i].fact, Fact::App(r, a) if r == q && a != args));
                let vals: Option<Vec<Sexp>> = args.iter().map(|a| read_one(a).ok()).collect();
                match vals {
                    Some(vals) if !others => {
                        single.insert(split_name(*q, false), vals);
                    }
                    _ => {}
                }
            }
        }
        if let Fact::App(q, args) = &st.fact {
            if let Some(vals) = args.iter().map(|a| read_one(a).ok()).collect() {
                single.insert(split_name(*q, true), vals);
            }
        }
        for &k in &cands {
            let f = &splits[k].as_ref().expect("a candidate").formula;
            let g = ground(f, &single);
            let f = g.as_ref().unwrap_or(f);
            let _ = writeln!(script, "(push 1)\n(assert (not {f}))\n(check-sat)\n(pop 1)");
        }
        script.push_str("(pop 1)\n");
        if let Err(e) = s.send(&script) {
            return stopped(e);
        }
        asked.push(cands);
        undecidable.push(why.map(|w| format!("step {i}: {w}")));
    }
    for (i, cands) in asked.iter().enumerate() {
        if steps[i].given || same_as[i].is_some() {
            continue;
        }
        let mut derived = false;
        let mut unknown = None;
        for &k in cands {
            match s.answer() {
                Err(e) => return stopped(e),
                Ok(Ok(Answer::Sat)) => derived = true,
                Ok(Ok(Answer::Unsat)) => {}
                Ok(Ok(Answer::Unknown)) => {
                    unknown.get_or_insert(format!(
                        "{} answered unknown on step {i} and the assertion at line {}",
                        solver.name(),
                        p.asserts[k].line
                    ));
                }
                Ok(Err(e)) => {
                    unknown.get_or_insert(format!("{} on step {i}: {e}", solver.name()));
                }
            }
        }
        if !derived {
            if let Some(u) = unknown.or_else(|| undecidable[i].clone()) {
                return Judgment::Undecided(u);
            }
            return Judgment::Rejected(format!(
                "{}: step {i} ({}) is no ground instance of an assertion",
                solver.name(),
                match &steps[i].fact {
                    Fact::App(q, args) => super::sexp::app(&p.preds[*q].name, args),
                    _ => "false".into(),
                }
            ));
        }
    }
    Judgment::Accepted
}

/// A judge process with the problem's kept commands (logic, sorts, declarations) sent: the
/// start of every check; a failure is the judgment to return.
pub(super) fn start_with_prelude(
    p: &Problem,
    solver: &JudgeSolver,
    deadline: Option<Instant>,
) -> Result<Process, Judgment> {
    let mut s = Process::start(solver, deadline).map_err(stopped)?;
    let mut prelude = String::new();
    for item in &p.items {
        if let Item::Keep(t) = item {
            prelude.push_str(t);
            prelude.push('\n');
        }
    }
    match s.send(&prelude).and_then(|()| s.sync()) {
        Err(e) => Err(stopped(e)),
        Ok(errs) if !errs.is_empty() => Err(Judgment::Undecided(format!(
            "{}: {}",
            solver.name(),
            errs[0]
        ))),
        Ok(_) => Ok(s),
    }
}
