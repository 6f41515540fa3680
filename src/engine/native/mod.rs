//! Native bit-vector lanes: BMC and k-induction (Sheeran, Singh, Stålmarck, FMCAD 2000) over
//! the ORIGINAL assertions' text, so that the solver sees bit-vector terms (which it
//! bit-blasts) instead of their exact integer translation (docs/bitvectors.md).
//!
//! The input's assertions are read as the judge reads them and unrolled as text
//! ([`unroll`]): state `i` of every predicate, "reached" when some assertion makes a step
//! into it from a reached state of depth `i - 1` (from nothing at depth 0 of BMC). At each
//! depth `k`:
//!
//! - BMC: is a query (an assertion with a body predicate and no head) violated at a reached
//!   state of depth `k`? Then the steps back to depth 0, read from the model, are a
//!   counterexample: the clauses of the parsed system at the same lines, the predicates'
//!   arguments fixed to the model's values (a `w`-bit value is the integer its bits write,
//!   as in the translation), completed and replayed by the validator and judged by the judge
//!   as any derivation is.
//! - k-induction (unless only counterexamples are wanted, [`Config::bmc_only`]): from any
//!   state, `k + 1` steps, no query violated at the first `k + 1` states (an instance of
//!   each query, which is all the step may assume), one violated at the last: unsat means
//!   "no query fails" is `k + 1`-inductive. The answer is that invariant written over the
//!   input's text ([`unroll::Unrolling::safety_definitions`]), which the judge checks by the
//!   k-induction conditions ([`crate::judge::Witness::KInductive`]); it is not a model, so a
//!   run that must print one runs the lane as BMC only.

mod unroll;

use super::api::{Answer, Engine, EngineStats, Input, Problem};
use super::Stop;
use crate::chc::{Cex, ChcSystem, ClauseId, Features, Model, PredId};
use crate::judge::reading::{read_one, shapes, unquote, Sexp, NONE};
use crate::logic::*;
use crate::smt::{SatResult, Smt, SmtStats, SolverConfig, SolverKind};
use num_bigint::BigInt;
use std::fmt::Write;
use unroll::Unrolling;

/// Why the lane steps aside on a system that divides bit-vectors: a divider bit-blasts into
/// a circuit of about `w * w` gates for every use at every depth. On the 21 BV dev files of
/// CHC-COMP 2025 that divide (SLayerCF, dillig, reve, vmt), at 5 s, one file per run, the
/// lane answered none that another engine did not answer sooner, and its 2 s slice ahead of
/// Spacer cost 2 of them (6 solved against 8; docs/bitvectors.md).
const DIVIDES: &str = "bit-vector division or remainder (the lane steps aside: dividers bit-blast into large circuits at every depth)";

/// The native lane's settings.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Only look for counterexamples (default: false; a run that prints or returns a model
    /// sets it, since the lane's safety answer is a k-inductive invariant).
    pub bmc_only: bool,
    /// The solver the unrollings go to (default: `None`, yices when every sort of the
    /// predicates and of the assertions' bound variables is a bit-vector or `Bool` and
    /// yices is found, else z3). On dillig/04.c of the BV dev set, the k-induction steps
    /// take yices 0.6 s and z3 1.4 s.
    pub solver: Option<SolverKind>,
}

/// The engine `bv-kind`.
pub struct NativeBv {
    cfg: Config,
    k: usize,
    smt: SmtStats,
}

/// A way into a state: the assertion, the predicate it comes from ([`NONE`]: from nothing),
/// and its selector (a Boolean the model makes true when it took this way).
struct Way {
    shape: usize,
    from: usize,
    selector: String,
}

impl NativeBv {
    pub fn new(cfg: Config) -> NativeBv {
        NativeBv {
            cfg,
            k: 0,
            smt: SmtStats::default(),
        }
    }

    /// The steps into the states of depth `i` (`base`: from nothing at depth 0; else from
    /// depth `i - 1` only), per predicate, with the text that states them.
    fn layer(u: &Unrolling, tag: &str, i: usize, base: bool) -> (String, Vec<Vec<Way>>) {
        let mut out = String::new();
        let mut ways = vec![];
        for q in 0..u.p.preds.len() {
            let mut into = vec![];
            let b = u.state(tag, i, q);
            if i > 0 || base {
                for (k, s) in u.shapes.iter().enumerate() {
                    let from_nothing = i == 0;
                    if s.head != q || (s.body == NONE) != from_nothing {
                        continue;
                    }
                    let selector = format!("chcbv!w{tag}{i}_{q}_{}", into.len());
                    let (a, before) = if from_nothing {
                        (vec![], "true".to_string())
                    } else {
                        (
                            u.state(tag, i - 1, s.body),
                            Unrolling::reached(tag, i - 1, s.body),
                        )
                    };
                    let (decls, f) = u.instance(k, &a, &b, &format!("{selector}_v"));
                    let _ = writeln!(
                        out,
                        "{decls}(declare-const {selector} Bool)\n(assert (=> {selector} (and {before} (not {f}))))"
                    );
                    into.push(Way {
                        shape: k,
                        from: if from_nothing { NONE } else { s.body },
                        selector,
                    });
                }
                let sels: Vec<&str> = into.iter().map(|w| w.selector.as_str()).collect();
                let _ = writeln!(
                    out,
                    "(assert (=> {} (or false {})))",
                    Unrolling::reached(tag, i, q),
                    sels.join(" ")
                );
            }
            ways.push(into);
        }
        (out, ways)
    }

    /// "Some query is violated at depth `i`" (and, at depth 0 of BMC, an assertion without
    /// predicates), with its ways.
    fn queries(u: &Unrolling, tag: &str, i: usize, base: bool) -> (String, Vec<Way>) {
        let mut out = String::new();
        let mut ways = vec![];
        for (k, s) in u.shapes.iter().enumerate() {
            if s.head != NONE || (s.body == NONE && !(base && i == 0)) {
                continue;
            }
            let selector = format!("chcbv!q{tag}{i}_{}", ways.len());
            let (a, before) = if s.body == NONE {
                (vec![], "true".to_string())
            } else {
                (u.state(tag, i, s.body), Unrolling::reached(tag, i, s.body))
            };
            let (decls, f) = u.instance(k, &a, &[], &format!("{selector}_v"));
            let _ = writeln!(
                out,
                "{decls}(declare-const {selector} Bool)\n(assert (=> {selector} (and {before} (not {f}))))"
            );
            ways.push(Way {
                shape: k,
                from: s.body,
                selector,
            });
        }
        let sels: Vec<&str> = ways.iter().map(|w| w.selector.as_str()).collect();
        let _ = writeln!(out, "(assert (or false {}))", sels.join(" "));
        (out, ways)
    }

    /// "No query is violated at depth `i`", each query by one instance.
    fn assume(u: &Unrolling, tag: &str, i: usize) -> String {
        let mut out = String::new();
        for (k, s) in u.shapes.iter().enumerate() {
            if s.head != NONE || s.body == NONE {
                continue;
            }
            let a = u.state(tag, i, s.body);
            let (decls, f) = u.instance(k, &a, &[], &format!("chcbv!h{tag}{i}_{k}"));
            let _ = writeln!(
                out,
                "{decls}(assert (=> {} {f}))",
                Unrolling::reached(tag, i, s.body)
            );
        }
        out
    }

    fn run(&mut self, u: &Unrolling, input: &Input, cfg: &SolverConfig) -> Result<Answer, Stop> {
        let prelude = u.prelude();
        let mut base = Smt::new(cfg, "bv-base")?;
        base.raw(&prelude)?;
        let mut step = match self.cfg.bmc_only {
            true => None,
            false => {
                let mut s = Smt::new(cfg, "bv-step")?;
                s.raw(&prelude)?;
                s.raw(&u.declare_depth("s", 0))?;
                Some(s)
            }
        };
        let mut layers: Vec<Vec<Vec<Way>>> = vec![];
        let r = (|| {
            for k in 0.. {
                self.k = k;
                super::log_progress("bv-kind: k =", k);
                base.raw(&u.declare_depth("b", k))?;
                let (text, ways) = Self::layer(u, "b", k, true);
                base.raw(&text)?;
                layers.push(ways);
                base.push()?;
                let (text, queries) = Self::queries(u, "b", k, true);
                base.raw(&text)?;
                match base.check_sat()? {
                    SatResult::Sat => {
                        let cex = counterexample(u, &input.orig, &mut base, &layers, &queries)?;
                        return Ok(Answer::UnsafeInput(cex));
                    }
                    SatResult::Unknown => return Err(Stop::SolverUnknown),
                    SatResult::Unsat => {}
                }
                base.pop()?;
                let Some(step) = &mut step else { continue };
                step.raw(&Self::assume(u, "s", k))?;
                step.raw(&u.declare_depth("s", k + 1))?;
                step.raw(&Self::layer(u, "s", k + 1, false).0)?;
                step.push()?;
                step.raw(&Self::queries(u, "s", k + 1, false).0)?;
                match step.check_sat()? {
                    SatResult::Unsat => {
                        return Ok(Answer::SafeInput {
                            k: k + 1,
                            witness: format!("(k-inductive {} {})", k + 1, u.safety_definitions()),
                            invariant: safety_model(&input.orig),
                        })
                    }
                    SatResult::Unknown => return Err(Stop::SolverUnknown),
                    SatResult::Sat => {}
                }
                step.pop()?;
            }
            unreachable!()
        })();
        self.smt = base.stats();
        if let Some(s) = &step {
            self.smt += s.stats();
        }
        r
    }
}

/// The values of `names` in the solver's model, as written (`#x..`, `true`, ..).
fn values(s: &mut Smt, names: &[String]) -> Result<Vec<Sexp>, Stop> {
    if names.is_empty() {
        return Ok(vec![]);
    }
    let text = s.raw_query(&format!("(get-value ({}))", names.join(" ")))?;
    let bad = || Stop::SolverError(format!("cannot read the values {text}"));
    let all = read_one(&text).map_err(|_| bad())?;
    let pairs = all.list().ok_or_else(bad)?;
    if pairs.len() != names.len() {
        return Err(bad());
    }
    pairs
        .iter()
        .map(|p| match p.list() {
            Some([_, v]) => Ok(v.clone()),
            _ => Err(bad()),
        })
        .collect()
}

/// The first way whose selector the model makes true.
fn taken<'a>(s: &mut Smt, ways: &'a [Way]) -> Result<&'a Way, Stop> {
    let names: Vec<String> = ways.iter().map(|w| w.selector.clone()).collect();
    let vals = values(s, &names)?;
    vals.iter()
        .position(|v| v.atom() == Some("true"))
        .map(|i| &ways[i])
        .ok_or_else(|| Stop::Bug("no way into a reached state is taken".into()))
}

/// A value as a solver prints it, as the parsed system reads it: a bit-vector as the
/// integer its bits write (unsigned), an integer, a Boolean.
pub fn value_of(v: &Sexp) -> Option<Value> {
    match v {
        Sexp::Atom(a) => match a.as_str() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            a => {
                if let Some(h) = a.strip_prefix("#x") {
                    BigInt::parse_bytes(h.as_bytes(), 16).map(Value::Int)
                } else if let Some(b) = a.strip_prefix("#b") {
                    BigInt::parse_bytes(b.as_bytes(), 2).map(Value::Int)
                } else {
                    BigInt::parse_bytes(a.as_bytes(), 10).map(Value::Int)
                }
            }
        },
        Sexp::List(items) => match items.as_slice() {
            [m, x] if m.atom() == Some("-") => match value_of(x)? {
                Value::Int(n) => Some(Value::Int(-n)),
                _ => None,
            },
            [u, Sexp::Atom(n), _] if u.atom() == Some("_") => n
                .strip_prefix("bv")
                .and_then(|n| BigInt::parse_bytes(n.as_bytes(), 10))
                .map(Value::Int),
            _ => None,
        },
    }
}

/// The counterexample of a satisfied query at the last depth of `layers`, as steps of the
/// parsed system `orig` (module docs).
fn counterexample(
    u: &Unrolling,
    orig: &ChcSystem,
    s: &mut Smt,
    layers: &[Vec<Vec<Way>>],
    queries: &[Way],
) -> Result<Cex, Stop> {
    let depth = layers.len() - 1;
    let q = taken(s, queries)?;
    // (assertion, head predicate, head state), from depth 0 up
    let mut path: Vec<(usize, usize, Vec<Sexp>)> = vec![];
    let mut cur = q.from;
    if cur != NONE {
        for i in (0..=depth).rev() {
            let w = taken(s, &layers[i][cur])?;
            let vals = values(s, &u.state("b", i, cur))?;
            path.push((w.shape, cur, vals));
            cur = w.from;
            if cur == NONE {
                break;
            }
        }
        path.reverse();
    }
    let mut steps = vec![];
    let mut before: Option<&Vec<Sexp>> = None;
    for (shape, head, vals) in path
        .iter()
        .map(|(a, h, v)| (*a, *h, Some(v)))
        .chain([(q.shape, NONE, None)])
    {
        let line = u.shapes[shape].line;
        let body = u.shapes[shape].body;
        let key = |q: usize| (q != NONE).then(|| unquote(&u.p.preds[q].key).to_string());
        let (want_head, want_body) = (key(head), key(body));
        let name = |p: PredId| unquote(&orig.pred(p).name).to_string();
        let found = orig.clauses.iter().position(|c| {
            c.line == line
                && c.head.as_ref().map(|h| name(h.pred)) == want_head
                && c.body.iter().map(|b| name(b.pred)).collect::<Vec<_>>()
                    == want_body.iter().cloned().collect::<Vec<_>>()
        });
        let Some(ci) = found else {
            return Err(Stop::Unsupported(format!(
                "no parsed clause at line {line} with the predicates of that assertion"
            )));
        };
        let c = &orig.clauses[ci];
        let mut assign = Assignment::default();
        let mut fix = |args: &[Term], vals: &[Sexp]| {
            for (t, v) in args.iter().zip(vals) {
                if let (Some(x), Some(v)) = (t.as_var(), value_of(v)) {
                    assign.insert(x.clone(), v);
                }
            }
        };
        if let (Some(h), Some(v)) = (&c.head, vals) {
            fix(&h.args, v);
        }
        if let (Some(b), Some(v)) = (c.body.first(), before) {
            fix(&b.args, v);
        }
        steps.push((ClauseId(ci as u32), assign));
        before = vals;
    }
    Ok(crate::chc::chain(steps))
}

/// "No query fails" over the parsed system: per predicate, the conjunction of `not exists
/// vars. args = params /\ constraint` over its query clauses (`true` without one).
fn safety_model(sys: &ChcSystem) -> Model {
    let mut m: Model = sys.pred_ids().map(|p| (p, mk_true())).collect();
    for c in sys
        .clauses
        .iter()
        .filter(|c| c.is_query() && c.body.len() == 1)
    {
        let r = c.rename(&mut |v| Var {
            name: format!("{}!q", v.name).into(),
            sort: v.sort,
        });
        let p = r.body[0].pred;
        let mut parts: Vec<Term> = sys
            .pred(p)
            .params()
            .iter()
            .zip(&r.body[0].args)
            .map(|(x, t)| mk_eq(mk_var_of(x), t.clone()))
            .collect();
        parts.push(r.constraint.clone());
        let f = mk_not(mk_exists(r.vars(), mk_and(parts)));
        let e = m.entry(p).or_insert_with(mk_true);
        *e = mk_and(vec![e.clone(), f]);
    }
    m
}

impl Engine for NativeBv {
    fn name(&self) -> &'static str {
        "bv-kind"
    }

    /// Systems with bit-vectors whose input clauses are linear.
    fn supports(&self, f: &Features) -> Result<(), &'static str> {
        if !f.bitvecs {
            Err("systems without bit-vectors")
        } else if !f.linear_input {
            Err("non-linear clauses")
        } else {
            Ok(())
        }
    }

    fn solve(&mut self, problem: &Problem, smt: &SolverConfig) -> Answer {
        let Some(input) = &problem.input else {
            return Answer::Unknown(Stop::Unsupported("no input text".into()));
        };
        let text = &input.source.text;
        if text.contains("chcbv!") {
            return Answer::Unknown(Stop::Unsupported("the input uses chcbv!.. names".into()));
        }
        let p = match crate::judge::reading::problem(text, input.source.index) {
            Ok(p) => p,
            Err(e) => return Answer::Unknown(Stop::Unsupported(e)),
        };
        let sh = match shapes(text, &p) {
            Ok(s) => s,
            Err(e) => return Answer::Unknown(Stop::Unsupported(e)),
        };
        let u = Unrolling::new(p, sh);
        if u.divides() {
            return Answer::Unknown(Stop::Unsupported(DIVIDES.into()));
        }
        let mut cfg = smt.clone();
        cfg.interpolation = false;
        cfg.reals = false;
        cfg.arrays = false;
        let found = |k: SolverKind| cfg.paths.find(k).map(|p| (k, p));
        let solver = match self.cfg.solver {
            Some(k) => found(k),
            None if u.only_bitvecs() => found(SolverKind::Yices).or_else(|_| found(SolverKind::Z3)),
            None => found(SolverKind::Z3),
        };
        (cfg.kind, cfg.path) = match solver {
            Ok(s) => s,
            Err(e) => return Answer::Unknown(Stop::SolverError(e)),
        };
        cfg.bitvecs = cfg.kind != SolverKind::Z3;
        match self.run(&u, input, &cfg) {
            Ok(a) => a,
            Err(stop) => Answer::Unknown(stop),
        }
    }

    fn stats(&self) -> EngineStats {
        EngineStats::new(
            self.smt,
            vec![("k", super::api::Counter::Count(self.k as u64))],
        )
    }
}

#[cfg(test)]
mod tests;
