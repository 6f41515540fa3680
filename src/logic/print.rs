//! SMT-LIB printing of terms.

use super::linear::{Coef, LinearSum};
use super::real::{rat_smtlib, Rat};
use super::term::{Term, TermNode};
use num_bigint::BigInt;
use num_traits::Signed;
use rustc_hash::FxHashMap;
use std::fmt::{self, Write};

/// Names of shared subterms (by uid) already bound by an enclosing `let`.
type Names = FxHashMap<u64, String>;

/// A symbol as SMT-LIB writes it: bare when it is a simple symbol, else between bars.
pub fn smt_symbol(name: &str) -> String {
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c))
        && !matches!(
            name,
            "and"
                | "or"
                | "not"
                | "ite"
                | "let"
                | "forall"
                | "exists"
                | "true"
                | "false"
                | "_"
                | "!"
                | "as"
                | "par"
                | "match"
                | "="
                | "distinct"
                | "=>"
                | "xor"
        );
    if simple {
        name.to_string()
    } else {
        format!("|{name}|")
    }
}

/// Wrapper that displays a term in SMT-LIB syntax.
pub struct SmtTerm<'a>(pub &'a Term);

impl fmt::Display for SmtTerm<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_shared(self.0, &mut s);
        f.write_str(&s)
    }
}

/// Wrapper that displays a term in SMT-LIB syntax, naming by `let` every compound subterm
/// that occurs twice as soon as the tree is twice the DAG: for checks whose search does not
/// matter, only their text's size (the validator's clause checks, where a bit-vector shift
/// by a variable, written as one case per amount over 78-digit numerals, printed 0.7 MB a
/// clause as a tree).
pub struct SmtTermCompact<'a>(pub &'a Term);

impl fmt::Display for SmtTermCompact<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_shared_at(self.0, &Names::default(), COMPACT, &mut s);
        f.write_str(&s)
    }
}

/// When to name shared subterms: a tree larger than `factor` times the DAG plus `plus`.
#[derive(Clone, Copy)]
struct Sharing {
    factor: u64,
    plus: u64,
}

/// [`SmtTerm`]'s rule (see [`write_shared`]).
const ENGINES: Sharing = Sharing {
    factor: 16,
    plus: 4096,
};

/// [`SmtTermCompact`]'s rule.
const COMPACT: Sharing = Sharing { factor: 2, plus: 0 };

/// `t` in SMT-LIB syntax, with each subterm that `texts` names (by uid) written as its text
/// there, and shared subterms named by `let` as [`SmtTerm`] names them. The texts must mean
/// what their subterms mean: the caller's way of writing some subterms in another theory
/// (bit-vector shifts, [`super::bitvec::lifted_shifts`]).
pub fn smt_text_with(t: &Term, texts: &FxHashMap<u64, String>) -> String {
    let mut s = String::new();
    write_shared_with(t, texts, &mut s);
    s
}

impl fmt::Display for TermNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_node(self, &Names::default(), &mut s);
        f.write_str(&s)
    }
}

fn write_int(n: &BigInt, out: &mut String) {
    if n.is_negative() {
        let _ = write!(out, "(- {})", -n);
    } else {
        let _ = write!(out, "{n}");
    }
}

/// Writes `t`, naming its shared subterms with `let` when writing it as a tree would take
/// far more than its DAG: more than 16 times its distinct nodes plus 4,096. A DAG whose tree
/// form is exponential (common after inlining) then prints in linear size, and the ordinary
/// queries stay trees: with lets from twice the DAG on (28deadb, 2026-11-25; raised in
/// cff45ad), z3's and yices's search changed enough that Spacer lost kind2's DRAGON_11 (1.4 s
/// before, unknown at 5 s).
fn write_shared(t: &Term, out: &mut String) {
    write_shared_with(t, &Names::default(), out)
}

/// [`write_shared`], the subterms `given` names written as their texts.
fn write_shared_with(t: &Term, given: &Names, out: &mut String) {
    write_shared_at(t, given, ENGINES, out)
}

/// [`write_shared_with`] with the rule `rule` for when to name shared subterms.
fn write_shared_at(t: &Term, given: &Names, rule: Sharing, out: &mut String) {
    // parents of each node, counted once per distinct parent edge, in the DAG (bodies of
    // quantifiers are written on their own, so not entered)
    let mut uses: FxHashMap<u64, u32> = FxHashMap::default();
    let mut order: Vec<&Term> = vec![]; // post-order: children before parents
    let mut tree: FxHashMap<u64, u64> = FxHashMap::default(); // tree size, saturating
    let mut stack: Vec<(&Term, bool)> = vec![(t, false)];
    let mut kids = vec![];
    while let Some((n, done)) = stack.pop() {
        if done {
            kids.clear();
            if !matches!(n.get(), TermNode::Exists(..)) {
                n.push_children_rev(&mut kids);
            }
            let size = kids
                .iter()
                .fold(1u64, |acc, c| acc.saturating_add(tree[&c.uid()]));
            tree.insert(n.uid(), size);
            order.push(n);
            continue;
        }
        if tree.contains_key(&n.uid()) {
            continue;
        }
        stack.push((n, true));
        if !matches!(n.get(), TermNode::Exists(..)) {
            let mut cs = vec![];
            n.push_children_rev(&mut cs);
            for c in cs {
                *uses.entry(c.uid()).or_default() += 1;
                if !tree.contains_key(&c.uid()) {
                    stack.push((c, false));
                }
            }
        }
    }
    let dag = order.len() as u64;
    if tree[&t.uid()] <= rule.factor * dag + rule.plus {
        return write_term(t, given, out);
    }
    let leaf = |n: &Term| {
        matches!(
            n.get(),
            TermNode::Var(_) | TermNode::Bool(_) | TermNode::Int(_) | TermNode::Real(_)
        )
    };
    let mut names = given.clone();
    let mut opened = 0;
    for n in order {
        if n.uid() == t.uid()
            || leaf(n)
            || given.contains_key(&n.uid())
            || uses.get(&n.uid()).copied().unwrap_or(0) < 2
        {
            continue;
        }
        let name = format!("chcsolve!s{}", names.len());
        let _ = write!(out, "(let (({name} ");
        write_node(n.get(), &names, out);
        out.push_str(")) ");
        names.insert(n.uid(), name);
        opened += 1;
    }
    write_node(t.get(), &names, out);
    for _ in 0..opened {
        out.push(')');
    }
}

fn write_term(t: &Term, names: &Names, out: &mut String) {
    match names.get(&t.uid()) {
        Some(n) => out.push_str(n),
        None => write_node(t.get(), names, out),
    }
}

/// How a coefficient of a linear sum is written: integers as numerals, reals as decimals
/// or `(/ p q)` ([`rat_smtlib`]).
trait WriteCoef: Coef {
    /// The empty sum.
    const ZERO: &'static str;
    fn write_coef(&self, out: &mut String);
}

impl WriteCoef for BigInt {
    const ZERO: &'static str = "0";
    fn write_coef(&self, out: &mut String) {
        write_int(self, out)
    }
}

impl WriteCoef for Rat {
    const ZERO: &'static str = "0.0";
    fn write_coef(&self, out: &mut String) {
        out.push_str(&rat_smtlib(self))
    }
}

fn write_monomial<C: WriteCoef>(t: &Term, c: &C, names: &Names, out: &mut String) {
    if c.is_one() {
        write_term(t, names, out);
    } else if (-c.clone()).is_one() {
        out.push_str("(- ");
        write_term(t, names, out);
        out.push(')');
    } else {
        out.push_str("(* ");
        c.write_coef(out);
        out.push(' ');
        write_term(t, names, out);
        out.push(')');
    }
}

/// Writes `sum` of monomials plus a constant.
fn write_sum<C: WriteCoef>(monos: &[(&Term, C)], k: &C, names: &Names, out: &mut String) {
    let n = monos.len() + usize::from(!k.is_zero());
    match n {
        0 => out.push_str(C::ZERO),
        1 if monos.is_empty() => k.write_coef(out),
        1 => write_monomial(monos[0].0, &monos[0].1, names, out),
        _ => {
            out.push_str("(+");
            for (t, c) in monos {
                out.push(' ');
                write_monomial(t, c, names, out);
            }
            if !k.is_zero() {
                out.push(' ');
                k.write_coef(out);
            }
            out.push(')');
        }
    }
}

fn write_lin<C: WriteCoef>(l: &LinearSum<C>, names: &Names, out: &mut String) {
    let monos: Vec<(&Term, C)> = l.terms.iter().map(|(t, c)| (t, c.clone())).collect();
    write_sum(&monos, &l.k, names, out);
}

/// Writes `(op lhs rhs)` for `lin op 0` (integer or real), positive coefficients on the left.
fn write_rel<C: WriteCoef>(op: &str, l: &LinearSum<C>, names: &Names, out: &mut String) {
    let pos: Vec<(&Term, C)> = (l.terms.iter())
        .filter(|(_, c)| c.is_positive())
        .map(|(t, c)| (t, c.clone()))
        .collect();
    let neg: Vec<(&Term, C)> = (l.terms.iter())
        .filter(|(_, c)| c.is_negative())
        .map(|(t, c)| (t, -c.clone()))
        .collect();
    let _ = write!(out, "({op} ");
    write_sum(&pos, &C::zero(), names, out);
    out.push(' ');
    write_sum(&neg, &-l.k.clone(), names, out);
    out.push(')');
}

fn write_app(op: &str, t: &Term, names: &Names, out: &mut String) {
    let _ = write!(out, "({op} ");
    write_term(t, names, out);
    out.push(')');
}

fn write_apps(op: &str, ts: &[&Term], names: &Names, out: &mut String) {
    let _ = write!(out, "({op}");
    for t in ts {
        out.push(' ');
        write_term(t, names, out);
    }
    out.push(')');
}

fn write_node(n: &TermNode, names: &Names, out: &mut String) {
    match n {
        TermNode::Var(v) => out.push_str(&smt_symbol(&v.name)),
        TermNode::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        TermNode::Int(k) => write_int(k, out),
        TermNode::Not(t) => {
            out.push_str("(not ");
            write_term(t, names, out);
            out.push(')');
        }
        TermNode::And(ts) | TermNode::Or(ts) => {
            out.push_str(if matches!(n, TermNode::And(_)) {
                "(and"
            } else {
                "(or"
            });
            for t in ts {
                out.push(' ');
                write_term(t, names, out);
            }
            out.push(')');
        }
        TermNode::Ite(c, a, b) => write_apps("ite", &[c, a, b], names, out),
        TermNode::Iff(a, b) => write_apps("=", &[a, b], names, out),
        TermNode::Exists(vs, body) => {
            out.push_str("(exists (");
            for (i, v) in vs.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let _ = write!(out, "({} {})", smt_symbol(&v.name), v.sort);
            }
            out.push_str(") ");
            // a shared name bound outside may mention a variable bound here: none inside
            write_shared(body, out);
            out.push(')');
        }
        TermNode::Lin(l) => write_lin(l, names, out),
        TermNode::Le(l) => write_rel("<=", l, names, out),
        TermNode::EqZ(l) => write_rel("=", l, names, out),
        TermNode::Real(r) => out.push_str(&rat_smtlib(r)),
        TermNode::RLin(l) => write_lin(l, names, out),
        TermNode::RLe(l) => write_rel("<=", l, names, out),
        TermNode::RLt(l) => write_rel("<", l, names, out),
        TermNode::REqZ(l) => write_rel("=", l, names, out),
        TermNode::ToReal(t) => write_app("to_real", t, names, out),
        TermNode::ToInt(t) => write_app("to_int", t, names, out),
        TermNode::IsInt(t) => write_app("is_int", t, names, out),
        TermNode::Select(a, i) => write_apps("select", &[a, i], names, out),
        TermNode::Store(a, i, v) => write_apps("store", &[a, i, v], names, out),
        TermNode::ArrEq(a, b) => write_apps("=", &[a, b], names, out),
        TermNode::ConstArray(s, v) => write_apps(&format!("(as const {s})"), &[v], names, out),
        TermNode::Div(t, d) | TermNode::Mod(t, d) => {
            out.push_str(if matches!(n, TermNode::Div(..)) {
                "(div "
            } else {
                "(mod "
            });
            write_term(t, names, out);
            out.push(' ');
            write_int(d, out);
            out.push(')');
        }
    }
}
