//! Printing witnesses: models as SMT-LIB `define-fun`s ([`model_to_smtlib`]), counterexamples
//! as Golem's derivations ([`cex_to_golem`], the default of `--print-witness`) or as our list
//! of clause applications with values ([`cex_to_text`], `--witness-format list`).

use crate::chc::{is_chain, AccelCex, Cex, Link, Model};
use crate::chc::{ChcSystem, PredId};
use crate::logic::{eval, smt_symbol, SmtTerm, Value};
use std::fmt::Write;

/// One `(define-fun P ((x0 Int) ...) Bool body)` per predicate of the system, in declaration
/// order, under the predicate's name from its `declare-fun`, between parentheses (as z3 and
/// Golem print models); predicates the model leaves out are `false`. Substituted for the
/// `declare-fun`s of the original file, these definitions satisfy its assertions (for a model
/// of a [`Verdict::Sat`](crate::Verdict::Sat), which is quantifier-free).
pub fn model_to_smtlib(sys: &ChcSystem, m: &Model) -> String {
    let mut out = String::from("(\n");
    if let Some(adt) = &sys.adt {
        // the size functions the definitions read
        let _ = writeln!(out, "  {}", adt.size_definitions());
    }
    for p in sys.pred_ids() {
        let _ = writeln!(out, "  {}", define_fun(sys, m, p));
    }
    out.push(')');
    out
}

/// `(k-inductive K (define-fun ..))`: a k-inductive invariant as the judge reads it
/// ([`crate::judge::Witness::KInductive`]).
pub fn kinductive_to_text(sys: &ChcSystem, k: usize, f: &Model) -> String {
    format!("(k-inductive {k} {})", model_to_smtlib(sys, f))
}

/// The `(define-fun P ((x0 Int) ...) Bool body)` of predicate `p` (`false` when the model
/// leaves it out).
pub fn define_fun(sys: &ChcSystem, m: &Model, p: PredId) -> String {
    let decl = sys.pred(p);
    if let Some(a) = sys.adt.as_ref().filter(|a| a.changes(p.idx())) {
        // over the input's sorts: a datatype parameter's abstract one is its size
        let body = body_text(sys, m, p);
        let (params, binds) = a.params(p.idx());
        return format!(
            "(define-fun {} ({params}) Bool (let ({binds}) {body}))",
            smt_symbol(&decl.name)
        );
    }
    if let Some(r) = sys.records.as_ref().filter(|r| r.changes(p.idx())) {
        // over the input's sorts: the laid-out parameters are parts of the original ones
        let body = body_text(sys, m, p);
        let (params, binds) = r.params(p.idx());
        let body = if binds.is_empty() {
            body
        } else {
            format!("(let ({binds}) {body})")
        };
        return format!(
            "(define-fun {} ({params}) Bool {body})",
            smt_symbol(&decl.name)
        );
    }
    let params: Vec<String> = decl
        .params()
        .iter()
        .map(|v| format!("({} {})", smt_symbol(&v.name), v.sort))
        .collect();
    let body = body_text(sys, m, p);
    if let Some(b) = sys.bitvecs.as_ref().filter(|b| b.changes(p.idx())) {
        // over the input's bit-vector sorts: the body reads their values as integers
        let names: Vec<(String, String)> = decl
            .params()
            .iter()
            .map(|v| (smt_symbol(&v.name), v.sort.to_string()))
            .collect();
        let (params, binds) = b.params(p.idx(), &names);
        // in bit-vector terms when every parameter was a bit-vector, or when the others are
        // Booleans and the body divides: over `bv2nat`s the judge's z3 could not decide in
        // 10 s PDR's model of vmt's `nest-if6.c` (BV dev set: four Booleans beside six
        // words, `div` and `mod` by 2^31), in bit-vectors 0.3 s; but a body of bounds alone
        // (`s3_srvr_10.cil`, 45 parameters) it decides over `bv2nat`s in 1.8 s and not in
        // 3 s in bit-vectors. Else over `bv2nat`s
        let widths: rustc_hash::FxHashMap<String, u32> = decl
            .params()
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((v.name.to_string(), b.width(p.idx(), i)?)))
            .collect();
        let all_words = widths.len() == decl.params().len();
        let in_bv = m
            .get(&p)
            .filter(|t| all_words || crate::logic::bitvec::divides(t))
            .and_then(|t| crate::logic::bitvec::body_in_bitvectors(t, &widths));
        if let Some(body) = in_bv {
            return format!(
                "(define-fun {} ({params}) Bool {body})",
                smt_symbol(&decl.name)
            );
        }
        return format!(
            "(define-fun {} ({params}) Bool (let ({binds}) {body}))",
            smt_symbol(&decl.name)
        );
    }
    format!(
        "(define-fun {} ({}) Bool {body})",
        smt_symbol(&decl.name),
        params.join(" ")
    )
}

/// The body of `p`'s definition (`false` when the model leaves it out). When the input had
/// bit-vectors, the encoder's case chains of shifts by a variable amount are written back
/// as `bvshl`, `bvlshr` and `bvashr` ([`crate::logic::bitvec::lifted_shifts`]), which a
/// judge decides where it could not decide the chain against the input's shift.
fn body_text(sys: &ChcSystem, m: &Model, p: PredId) -> String {
    let Some(t) = m.get(&p) else {
        return "false".into();
    };
    if sys.bitvecs.is_some() {
        let lifted = crate::logic::bitvec::lifted_shifts(t);
        if !lifted.is_empty() {
            return crate::logic::smt_text_with(t, &lifted);
        }
    }
    SmtTerm(t).to_string()
}

/// `(step i (line L) (head args..) ((var value) ..))` per clause application, the query last.
/// A counterexample that is not a chain (a derivation tree) adds `(from j ..)` to each step
/// with premises: the steps that derived its body applications, in body order.
pub fn cex_to_text(sys: &ChcSystem, cex: &Cex) -> String {
    let tree = !is_chain(cex);
    let mut out = String::from("(\n");
    for (i, s) in cex.iter().enumerate() {
        let c = &sys.clauses[s.clause.idx()];
        let head = ground_head(sys, s);
        let vals: Vec<String> = c
            .vars()
            .iter()
            .filter_map(|v| {
                s.vals
                    .get(v)
                    .map(|x| format!("({} {x})", smt_symbol(&v.name)))
            })
            .collect();
        let from = if tree && !s.premises.is_empty() {
            let ps: Vec<String> = s.premises.iter().map(|p| p.to_string()).collect();
            format!(" (from {})", ps.join(" "))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  (step {i} (line {}) {head} ({}){from})",
            c.line,
            vals.join(" ")
        );
    }
    out.push(')');
    out
}

/// A counterexample with accelerated segments: its steps as in [`cex_to_text`] (a chain),
/// and each segment as `(segment i (pred args-from) (pred args-to) (n N) (cycle (line L)
/// ..) (tau ((x0 Int) ..) ((y0 Int) ..) n formula))`.
pub fn accel_cex_to_text(sys: &ChcSystem, cex: &AccelCex) -> String {
    let mut out = String::from("(\n");
    let app = |p: crate::chc::PredId, vals: &[Value]| -> String {
        let name = smt_symbol(&sys.pred(p).name);
        if vals.is_empty() {
            return name;
        }
        let args: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
        format!("({name} {})", args.join(" "))
    };
    for (i, l) in cex.iter().enumerate() {
        match l {
            Link::Step(s) => {
                let mut s = s.clone();
                s.premises.clear(); // a chain: the link before
                let one = cex_to_text(sys, &vec![s]);
                let line = one.lines().nth(1).unwrap_or("").trim();
                let line = line.replacen("(step 0 ", &format!("(step {i} "), 1);
                let _ = writeln!(out, "  {line}");
            }
            Link::Segment(s) => {
                let lines: Vec<String> = s
                    .cycle
                    .iter()
                    .map(|c| format!("(line {})", sys.clauses[c.idx()].line))
                    .collect();
                let decl = |vs: &[crate::logic::Var]| -> String {
                    let d: Vec<String> = vs
                        .iter()
                        .map(|v| format!("({} {})", smt_symbol(&v.name), v.sort))
                        .collect();
                    format!("({})", d.join(" "))
                };
                let _ = writeln!(
                    out,
                    "  (segment {i} {} {} (n {}) (cycle {}) (tau {} {} {} {}))",
                    app(s.pred, &s.from),
                    app(s.pred, &s.to),
                    s.count,
                    lines.join(" "),
                    decl(&s.pre),
                    decl(&s.post),
                    smt_symbol(&s.n.name),
                    SmtTerm(&s.tau)
                );
            }
        }
    }
    out.push(')');
    out
}

/// The ground head of step `s`: `(P v1 .. vn)`, `P` for a nullary predicate, `false` for a
/// query.
fn ground_head(sys: &ChcSystem, s: &crate::chc::CexStep) -> String {
    let c = &sys.clauses[s.clause.idx()];
    let Some(h) = &c.head else {
        return "false".into();
    };
    let name = smt_symbol(&sys.pred(h.pred).name);
    if let Some(r) = sys.records.as_ref().filter(|r| r.changes(h.pred.idx())) {
        // the values of the input's sorts, built from those of the laid-out arguments
        let vals: Result<Vec<Value>, String> = h.args.iter().map(|a| eval(a, &s.vals)).collect();
        let args = vals
            .and_then(|v| r.ground_args(h.pred.idx(), &v))
            .unwrap_or_else(|e| vec![format!("?{e}")]);
        if args.is_empty() {
            return name;
        }
        return format!("({name} {})", args.join(" "));
    }
    if h.args.is_empty() {
        return name;
    }
    let bitvecs = sys.bitvecs.as_ref().filter(|b| b.changes(h.pred.idx()));
    let args: Vec<String> = h
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| match (eval(a, &s.vals), bitvecs) {
            (Ok(v), Some(b)) => b.arg(h.pred.idx(), i, &v),
            (Ok(v), None) => v.to_string(),
            (Err(_), _) => "?".into(),
        })
        .collect();
    format!("({name} {})", args.join(" "))
}

/// The derivation of `false` in the format Golem prints after `unsat` with `--print-witness`
/// (its "legacy" format): step `0` is `true`; then one step per clause application, the
/// derived ground fact (`(P 1 2)`, `false` last) and, after ` -> `, the numbers of the steps
/// that derived its body applications in body order (a fact's premise is step `0`):
///
/// ```text
/// 0:\ttrue
/// 1:\t(P 0) ->  0
///
/// 2:\t(P 1) ->  1
///
/// 3:\tfalse ->  2
///
/// ```
///
/// followed by one empty line. Which clause a step applies is not printed (as in Golem): a
/// checker finds a clause whose head and body predicates fit and whose constraint the values
/// satisfy (`scripts/check-witness`).
pub fn cex_to_golem(sys: &ChcSystem, cex: &Cex) -> String {
    let mut out = String::from("0:\ttrue\n");
    for (i, s) in cex.iter().enumerate() {
        let premises: Vec<String> = if s.premises.is_empty() {
            vec!["0".into()]
        } else {
            s.premises.iter().map(|p| (p + 1).to_string()).collect()
        };
        let _ = write!(out, "{}:\t{} -> ", i + 1, ground_head(sys, s));
        for p in premises {
            let _ = write!(out, " {p}");
        }
        out.push_str("\n\n");
    }
    out.push('\n');
    out
}
