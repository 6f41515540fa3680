//! Judging the accelerated segments of a counterexample: that a segment's formula `tau`
//! stands for runs of its cycle, proven over the ORIGINAL assertions' text.
//!
//! A segment `(segment i (P from) (P to) (n N) (cycle (line L1) .. (line Lk)) (tau (pre)
//! (post) n F))` claims `N` runs of the cycle from `P(from)` to `P(to)`. One run of the
//! cycle from a state `a` to a state `b` is stated without reading a term: with the
//! polarity split of [`super::polarity`], clause step `i` from `a` to `b` is "some
//! assertion at line `Li` is violated when its body occurrences of the predicate before it
//! are read as `(= args a)` (other body occurrences as `false`) and its head occurrences of
//! the predicate after it as `(not (= args b))` (other heads as `true`)" (`Step_i(a, b)`,
//! the existential negation of the assertion so interpreted). By monotonicity, as for a
//! derivation step ([`super::derivation`]), every model that contains the fact before
//! contains the fact after. The cycle is `T(x, y) = exists s1 .. s(k-1). Step_1(x, s1) /\
//! .. /\ Step_k(s(k-1), y)`, the intermediate states quantified with the sorts of the
//! predicates that the assertions' heads name. `tau` goes to the solver as the
//! `define-fun` of our printed formula, and the judge's solver proves
//!
//! * `tau(x, y, 1) => T(x, y)` (the base case) and
//! * `n >= 1 /\ tau(x, y, n + 1) => exists z. tau(x, z, n) /\ T(z, y)` (the induction step),
//!
//! so `tau(x, y, n)` implies `n` runs for every `n >= 1`; then `N >= 1` and `tau(from, to,
//! N)`, each by the solver too (the judge evaluates nothing). Each query has at most
//! [`QUERY_LIMIT`]; a query the solver cannot decide, or an assertion of the cycle the
//! polarity split cannot read, leaves the answer undecided, never rejected.

use super::derivation::{fact, start_with_prelude, Fact};
use super::input::Problem;
use super::polarity::{split, split_name, Split};
use super::process::{Answer, JudgeSolver, Process, Stop};
use super::sexp::{unquote, Sexp};
use super::{stopped, Judgment};
use std::fmt::Write;
use std::time::{Duration, Instant};

/// The longest the solver may take over one query of a segment's proof.
pub const QUERY_LIMIT: Duration = Duration::from_secs(10);

/// A segment as printed.
#[derive(Clone, Debug)]
pub struct Segment {
    /// Its index in the list of links.
    pub link: usize,
    pub pred: usize,
    pub from: Vec<String>,
    pub to: Vec<String>,
    /// `N`, as printed.
    pub count: String,
    /// The lines of the cycle's assertions.
    pub lines: Vec<usize>,
    /// `(tau (pre) (post) n F)` as printed: the binders, the count's name, the formula.
    pub pre: Vec<Sexp>,
    pub post: Vec<Sexp>,
    pub n: String,
    pub tau: Sexp,
}

impl Segment {
    /// What is proven once for every segment sharing it: the predicate, the cycle and the
    /// formula.
    fn key(&self) -> String {
        format!(
            "{} {:?} {} {} {} {}",
            self.pred,
            self.lines,
            Sexp::List(self.pre.clone()),
            Sexp::List(self.post.clone()),
            self.n,
            self.tau
        )
    }
}

/// Reads `(segment i from to (n N) (cycle (line L) ..) (tau (pre) (post) n F))`, link
/// `link` of the list.
pub fn read(p: &Problem, link: usize, items: &[Sexp]) -> Result<Segment, String> {
    let bad = |what: &str| format!("segment {link}: {what}");
    let [_, _, from, to, count, cycle, tau] = items else {
        return Err(bad("not (segment i from to (n N) (cycle ..) (tau ..))"));
    };
    let (pred, from, to) = match (fact(p, from)?, fact(p, to)?) {
        (Fact::App(q, a), Fact::App(r, b)) if q == r => (q, a, b),
        _ => return Err(bad("its ends are not facts of one predicate")),
    };
    let count = match count.list() {
        Some([n, Sexp::Atom(c)]) if n.atom() == Some("n") => c.clone(),
        _ => return Err(bad("no (n N)")),
    };
    let lines = match cycle.list() {
        Some([c, lines @ ..]) if c.atom() == Some("cycle") && !lines.is_empty() => lines
            .iter()
            .map(|l| match l.list() {
                Some([w, Sexp::Atom(n)]) if w.atom() == Some("line") => {
                    n.parse::<usize>().map_err(|_| bad("a line is no number"))
                }
                _ => Err(bad("not (line L)")),
            })
            .collect::<Result<Vec<_>, _>>()?,
        _ => return Err(bad("no (cycle (line L) ..)")),
    };
    let (pre, post, n, tau) = match tau.list() {
        Some([t, Sexp::List(pre), Sexp::List(post), Sexp::Atom(n), f])
            if t.atom() == Some("tau") =>
        {
            (pre.clone(), post.clone(), n.clone(), f.clone())
        }
        _ => return Err(bad("no (tau (pre) (post) n formula)")),
    };
    let arity = p.preds[pred].sorts.len();
    if pre.len() != arity || post.len() != arity {
        return Err(bad(
            "its formula's variables differ from its predicate's arity",
        ));
    }
    Ok(Segment {
        link,
        pred,
        from,
        to,
        count,
        lines,
        pre,
        post,
        n,
        tau,
    })
}

/// `exists binders. body`, or `body` without binders.
fn exists(binders: &[String], body: String) -> String {
    if binders.is_empty() {
        body
    } else {
        format!("(exists ({}) {body})", binders.join(" "))
    }
}

/// `(and (= t0 a0) ..)`.
fn equal(ts: &[Sexp], state: &[String]) -> String {
    let eqs: Vec<String> = ts
        .iter()
        .zip(state)
        .map(|(t, a)| format!("(= {t} {a})"))
        .collect();
    match eqs.len() {
        0 => "true".into(),
        1 => eqs[0].clone(),
        _ => format!("(and {})", eqs.join(" ")),
    }
}

/// The split formula `f` with the occurrences read for one step from state `a` of `body`
/// to state `b` of `head`: body occurrences of `body` as `(= args a)`, other body
/// occurrences `false`; head occurrences of `head` as `(not (= args b))`, other heads `true`.
pub fn interpret(f: &Sexp, body: usize, a: &[String], head: usize, b: &[String]) -> Sexp {
    let read = |name: &str, args: &[Sexp]| -> Option<String> {
        let (q, pos) = occurrence(name)?;
        Some(match (pos, q == body, q == head) {
            (false, true, _) => equal(args, a),
            (false, false, _) => "false".into(),
            (true, _, true) => format!("(not {})", equal(args, b)),
            (true, _, false) => "true".into(),
        })
    };
    match f {
        Sexp::Atom(x) => read(x, &[]).map_or_else(|| f.clone(), Sexp::Atom),
        Sexp::List(items) => {
            if let Some(r) = items
                .first()
                .and_then(Sexp::atom)
                .and_then(|h| read(h, &items[1..]))
            {
                return Sexp::Atom(r);
            }
            Sexp::List(
                items
                    .iter()
                    .map(|x| interpret(x, body, a, head, b))
                    .collect(),
            )
        }
    }
}

/// The predicate and polarity of a split occurrence's name ([`split_name`]).
pub(super) fn occurrence(name: &str) -> Option<(usize, bool)> {
    let rest = unquote(name).strip_prefix("chcjudge!")?;
    let (pol, q) = rest.split_once('!')?;
    let q = q.parse::<usize>().ok()?;
    let pos = match pol {
        "p" => true,
        "n" => false,
        _ => return None,
    };
    (split_name(q, pos) == name).then_some((q, pos))
}

/// The cycle of a segment read from the assertions: per clause step, the predicate it goes
/// to and the split formulas of the assertions at its line that may make it.
struct Cycle<'a> {
    steps: Vec<(usize, Vec<&'a Split>)>,
}

/// Why no cycle: rejected (the certificate names no such cycle) or undecided.
enum NoCycle {
    Rejected(String),
    Undecided(String),
}

fn cycle<'a>(
    p: &Problem,
    splits: &'a [Option<Result<Split, String>>],
    seg: &Segment,
) -> Result<Cycle<'a>, NoCycle> {
    let mut pred = seg.pred;
    let mut steps = vec![];
    for &l in &seg.lines {
        let at: Vec<usize> = (0..p.asserts.len())
            .filter(|&k| p.asserts[k].line == l)
            .collect();
        if at.is_empty() {
            return Err(NoCycle::Rejected(format!("no assertion at line {l}")));
        }
        let mut next = None;
        let mut cands = vec![];
        for k in at {
            let sp = match splits[k].as_ref().expect("split for every cycle line") {
                Ok(sp) => sp,
                Err(e) => {
                    return Err(NoCycle::Undecided(format!(
                        "the assertion at line {l}: {e}"
                    )))
                }
            };
            if !sp.neg.contains(&pred) || sp.pos.len() != 1 {
                continue;
            }
            if next.is_some_and(|n| n != sp.pos[0]) {
                return Err(NoCycle::Undecided(format!(
                    "the assertions at line {l} go to different predicates"
                )));
            }
            next = Some(sp.pos[0]);
            cands.push(sp);
        }
        let Some(n) = next else {
            return Err(NoCycle::Rejected(format!(
                "no assertion at line {l} goes from {} to one predicate",
                p.preds[pred].key
            )));
        };
        steps.push((n, cands));
        pred = n;
    }
    if pred != seg.pred {
        return Err(NoCycle::Rejected(format!(
            "its cycle ends at {}, not at {}",
            p.preds[pred].key, p.preds[seg.pred].key
        )));
    }
    Ok(Cycle { steps })
}

/// Names of `count` constants or variables `prefix0 ..`.
pub(super) fn names(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|j| format!("{prefix}{j}")).collect()
}

/// Binders `(name sort)`.
fn binders(names: &[String], sorts: &[String]) -> Vec<String> {
    names
        .iter()
        .zip(sorts)
        .map(|(n, s)| format!("({n} {s})"))
        .collect()
}

/// `T(a, b)`: the cycle's runs from state `a` to state `b` of `seg.pred` (module docs).
fn runs(p: &Problem, seg: &Segment, c: &Cycle, a: &[String], b: &[String]) -> String {
    let mut bound = vec![];
    let mut conj = vec![];
    let (mut pred, mut state) = (seg.pred, a.to_vec());
    for (i, (next, cands)) in c.steps.iter().enumerate() {
        let last = i + 1 == c.steps.len();
        let after = if last {
            b.to_vec()
        } else {
            let s = names(&format!("chcjudge!s{i}_"), p.preds[*next].sorts.len());
            bound.extend(binders(&s, &p.preds[*next].sorts));
            s
        };
        let violated: Vec<String> = cands
            .iter()
            .map(|sp| {
                format!(
                    "(not {})",
                    interpret(&sp.formula, pred, &state, *next, &after)
                )
            })
            .collect();
        conj.push(match violated.len() {
            1 => violated[0].clone(),
            _ => format!("(or {})", violated.join(" ")),
        });
        (pred, state) = (*next, after);
    }
    let body = match conj.len() {
        1 => conj.pop().expect("one"),
        _ => format!("(and {})", conj.join(" ")),
    };
    exists(&bound, body)
}

/// `(chcjudge!tau a.. b.. n)`.
fn tau(a: &[String], b: &[String], n: &str) -> String {
    let mut args: Vec<&str> = a.iter().chain(b).map(String::as_str).collect();
    args.push(n);
    format!("(chcjudge!tau {})", args.join(" "))
}

/// Judges the segments `segs` on problem `p` of `text` with one solver.
pub fn check(
    text: &str,
    p: &Problem,
    segs: &[Segment],
    solver: &JudgeSolver,
    deadline: Option<Instant>,
) -> Judgment {
    if segs.is_empty() {
        return Judgment::Accepted;
    }
    // the split of every assertion a cycle names
    let mut splits: Vec<Option<Result<Split, String>>> = vec![None; p.asserts.len()];
    for s in segs {
        for (k, a) in p.asserts.iter().enumerate() {
            if splits[k].is_none() && s.lines.contains(&a.line) {
                splits[k] = Some(a.formula(text).and_then(|f| {
                    if f.any_atom(&|x| unquote(x).starts_with("chcjudge!")) {
                        return Err("it uses a name the judge reserves (chcjudge!..)".into());
                    }
                    split(&f, p)
                }));
            }
        }
    }
    let mut s = match start_with_prelude(p, solver, deadline) {
        Ok(s) => s,
        Err(j) => return j,
    };
    let mut groups: Vec<(String, Vec<&Segment>)> = vec![];
    for seg in segs {
        let k = seg.key();
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, v)) => v.push(seg),
            None => groups.push((k, vec![seg])),
        }
    }
    let mut undecided = None;
    for (_, group) in &groups {
        match prove(p, &splits, group, &mut s, solver, deadline) {
            Ok(Judgment::Accepted) => {}
            Ok(Judgment::Undecided(e)) => {
                undecided.get_or_insert(Judgment::Undecided(e));
            }
            Ok(r) => return r,
            Err(e) => return stopped(e),
        }
    }
    undecided.unwrap_or(Judgment::Accepted)
}

/// The limit of the next query: [`QUERY_LIMIT`] or the time left, in milliseconds.
pub(super) fn limit(solver: &JudgeSolver, deadline: Option<Instant>) -> String {
    let left = deadline.map_or(QUERY_LIMIT, |d| {
        d.saturating_duration_since(Instant::now()).min(QUERY_LIMIT)
    });
    solver.per_check_limit(left)
}

/// Proves the base case and the induction step of the segments of `group` (one predicate,
/// cycle and formula), then the ends of each.
fn prove(
    p: &Problem,
    splits: &[Option<Result<Split, String>>],
    group: &[&Segment],
    s: &mut Process,
    solver: &JudgeSolver,
    deadline: Option<Instant>,
) -> Result<Judgment, Stop> {
    let seg = group[0];
    let at = |m: String| format!("{}: segment {}: {m}", solver.name(), seg.link);
    let c = match cycle(p, splits, seg) {
        Ok(c) => c,
        Err(NoCycle::Rejected(e)) => return Ok(Judgment::Rejected(at(e))),
        Err(NoCycle::Undecided(e)) => return Ok(Judgment::Undecided(at(e))),
    };
    let sorts = &p.preds[seg.pred].sorts;
    let (x, y, z) = (
        names("chcjudge!x", sorts.len()),
        names("chcjudge!y", sorts.len()),
        names("chcjudge!z", sorts.len()),
    );
    let n = "chcjudge!n";
    let mut defs = String::from("(push 1)\n");
    for (v, sort) in x.iter().chain(&y).zip(sorts.iter().chain(sorts)) {
        let _ = writeln!(defs, "(declare-const {v} {sort})");
    }
    let _ = writeln!(defs, "(declare-const {n} Int)");
    let params: Vec<String> = seg
        .pre
        .iter()
        .chain(&seg.post)
        .map(Sexp::to_string)
        .collect();
    let _ = writeln!(
        defs,
        "(define-fun chcjudge!tau ({} ({} Int)) Bool {})",
        params.join(" "),
        seg.n,
        seg.tau
    );
    // applied to states of the predicate's sorts (else its sorts are not the predicate's)
    let _ = writeln!(defs, "(push 1)\n(assert {})\n(pop 1)", tau(&x, &y, n));
    s.send(&defs)?;
    if let Some(e) = s.sync()?.first() {
        s.send("(pop 1)\n")?;
        return Ok(Judgment::Rejected(at(format!("its formula: {e}"))));
    }
    let base = format!(
        "(push 1)\n(assert {})\n(assert (not {}))\n(check-sat)\n(pop 1)\n",
        tau(&x, &y, "1"),
        runs(p, seg, &c, &x, &y)
    );
    let step = format!(
        "(push 1)\n(assert (>= {n} 1))\n(assert {})\n(assert (not {}))\n(check-sat)\n(pop 1)\n",
        tau(&x, &y, &format!("(+ {n} 1)")),
        exists(
            &binders(&z, sorts),
            format!("(and {} {})", tau(&x, &z, n), runs(p, seg, &c, &z, &y))
        )
    );
    for (what, q) in [("base case (n = 1)", base), ("induction step", step)] {
        s.send(&limit(solver, deadline))?;
        s.send(&q)?;
        let verdict = match s.answer()? {
            Ok(Answer::Unsat) => None,
            Ok(Answer::Sat) => Some(Judgment::Rejected(at(format!(
                "its formula does not imply runs of its cycle: the {what} fails"
            )))),
            Ok(Answer::Unknown) => Some(Judgment::Undecided(at(format!(
                "unknown on the {what} of its formula"
            )))),
            Err(e) => Some(Judgment::Undecided(at(format!("on the {what}: {e}")))),
        };
        if let Some(v) = verdict {
            s.send("(pop 1)\n")?;
            return Ok(v);
        }
    }
    // the ends of every segment of the group: first all in one query; when that fails, one
    // by one (all sent, then the answers read) to say which
    s.send(&limit(solver, deadline))?;
    let all: Vec<String> = group
        .iter()
        .map(|g| format!("(>= {} 1) {}", g.count, tau(&g.from, &g.to, &g.count)))
        .collect();
    s.send(&format!(
        "(push 1)\n(assert (not (and {})))\n(check-sat)\n(pop 1)\n",
        all.join(" ")
    ))?;
    if let Ok(Answer::Unsat) = s.answer()? {
        s.send("(pop 1)\n")?;
        return Ok(Judgment::Accepted);
    }
    let mut ends = String::new();
    for g in group {
        let _ = writeln!(
            ends,
            "(push 1)\n(assert (not (>= {} 1)))\n(check-sat)\n(pop 1)",
            g.count
        );
        let _ = writeln!(
            ends,
            "(push 1)\n(assert (not {}))\n(check-sat)\n(pop 1)",
            tau(&g.from, &g.to, &g.count)
        );
    }
    ends.push_str("(pop 1)\n");
    s.send(&ends)?;
    let mut verdict = None;
    for g in group {
        let at = |m: String| format!("{}: segment {}: {m}", solver.name(), g.link);
        for what in ["its count is not >= 1", "its formula is false at its ends"] {
            let v = match s.answer()? {
                Ok(Answer::Unsat) => continue,
                Ok(Answer::Sat) => Judgment::Rejected(at(format!("{what} (n {})", g.count))),
                Ok(Answer::Unknown) => Judgment::Undecided(at(format!("unknown on: {what}"))),
                Err(e) => Judgment::Rejected(at(format!("{what}? {e}"))),
            };
            // a rejection first, else the first undecided
            match (&verdict, &v) {
                (Some(Judgment::Rejected(_)), _) => {}
                (_, Judgment::Rejected(_)) | (None, _) => verdict = Some(v),
                _ => {}
            }
        }
    }
    Ok(verdict.unwrap_or(Judgment::Accepted))
}
