//! SMT-LIB printing of terms.

use super::linear::Lin;
use super::real::{rat_smtlib, RLin, Rat};
use super::term::{Term, TermNode};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::fmt::{self, Write};

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
        write_term(self.0, &mut s);
        f.write_str(&s)
    }
}

impl fmt::Display for TermNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_node(self, &mut s);
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

fn write_term(t: &Term, out: &mut String) {
    write_node(t.get(), out)
}

fn write_monomial(t: &Term, c: &BigInt, out: &mut String) {
    if c.is_one() {
        write_term(t, out);
    } else if (-c).is_one() {
        out.push_str("(- ");
        write_term(t, out);
        out.push(')');
    } else {
        out.push_str("(* ");
        write_int(c, out);
        out.push(' ');
        write_term(t, out);
        out.push(')');
    }
}

/// Writes `sum` of monomials plus a constant.
fn write_sum(monos: &[(&Term, BigInt)], k: &BigInt, out: &mut String) {
    let n = monos.len() + usize::from(!k.is_zero());
    match n {
        0 => out.push('0'),
        1 if monos.is_empty() => write_int(k, out),
        1 => write_monomial(monos[0].0, &monos[0].1, out),
        _ => {
            out.push_str("(+");
            for (t, c) in monos {
                out.push(' ');
                write_monomial(t, c, out);
            }
            if !k.is_zero() {
                out.push(' ');
                write_int(k, out);
            }
            out.push(')');
        }
    }
}

fn write_lin(l: &Lin, out: &mut String) {
    let monos: Vec<(&Term, BigInt)> = l.terms.iter().map(|(t, c)| (t, c.clone())).collect();
    write_sum(&monos, &l.k, out);
}

/// Writes `(op lhs rhs)` for `lin op 0`, positive coefficients on the left.
fn write_rel(op: &str, l: &Lin, out: &mut String) {
    let pos: Vec<(&Term, BigInt)> = l
        .terms
        .iter()
        .filter(|(_, c)| c.is_positive())
        .map(|(t, c)| (t, c.clone()))
        .collect();
    let neg: Vec<(&Term, BigInt)> = l
        .terms
        .iter()
        .filter(|(_, c)| c.is_negative())
        .map(|(t, c)| (t, -c))
        .collect();
    let _ = write!(out, "({op} ");
    write_sum(&pos, &BigInt::zero(), out);
    out.push(' ');
    write_sum(&neg, &-&l.k, out);
    out.push(')');
}

fn write_rmonomial(t: &Term, c: &Rat, out: &mut String) {
    if c.is_one() {
        write_term(t, out);
    } else if (-c).is_one() {
        out.push_str("(- ");
        write_term(t, out);
        out.push(')');
    } else {
        out.push_str("(* ");
        out.push_str(&rat_smtlib(c));
        out.push(' ');
        write_term(t, out);
        out.push(')');
    }
}

/// Writes a real `sum` of monomials plus a constant.
fn write_rsum(monos: &[(&Term, Rat)], k: &Rat, out: &mut String) {
    let n = monos.len() + usize::from(!k.is_zero());
    match n {
        0 => out.push_str("0.0"),
        1 if monos.is_empty() => out.push_str(&rat_smtlib(k)),
        1 => write_rmonomial(monos[0].0, &monos[0].1, out),
        _ => {
            out.push_str("(+");
            for (t, c) in monos {
                out.push(' ');
                write_rmonomial(t, c, out);
            }
            if !k.is_zero() {
                out.push(' ');
                out.push_str(&rat_smtlib(k));
            }
            out.push(')');
        }
    }
}

/// Writes `(op lhs rhs)` for real `lin op 0`, positive coefficients on the left.
fn write_rrel(op: &str, l: &RLin, out: &mut String) {
    let pos: Vec<(&Term, Rat)> = (l.terms.iter())
        .filter(|(_, c)| c.is_positive())
        .map(|(t, c)| (t, c.clone()))
        .collect();
    let neg: Vec<(&Term, Rat)> = (l.terms.iter())
        .filter(|(_, c)| c.is_negative())
        .map(|(t, c)| (t, -c))
        .collect();
    let _ = write!(out, "({op} ");
    write_rsum(&pos, &Rat::zero(), out);
    out.push(' ');
    write_rsum(&neg, &-&l.k, out);
    out.push(')');
}

fn write_app(op: &str, t: &Term, out: &mut String) {
    let _ = write!(out, "({op} ");
    write_term(t, out);
    out.push(')');
}

fn write_node(n: &TermNode, out: &mut String) {
    match n {
        TermNode::Var(v) => out.push_str(&smt_symbol(&v.name)),
        TermNode::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        TermNode::Int(k) => write_int(k, out),
        TermNode::Not(t) => {
            out.push_str("(not ");
            write_term(t, out);
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
                write_term(t, out);
            }
            out.push(')');
        }
        TermNode::Ite(c, a, b) => {
            out.push_str("(ite ");
            write_term(c, out);
            out.push(' ');
            write_term(a, out);
            out.push(' ');
            write_term(b, out);
            out.push(')');
        }
        TermNode::Iff(a, b) => {
            out.push_str("(= ");
            write_term(a, out);
            out.push(' ');
            write_term(b, out);
            out.push(')');
        }
        TermNode::Exists(vs, body) => {
            out.push_str("(exists (");
            for (i, v) in vs.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let _ = write!(out, "({} {})", smt_symbol(&v.name), v.sort);
            }
            out.push_str(") ");
            write_term(body, out);
            out.push(')');
        }
        TermNode::Lin(l) => write_lin(l, out),
        TermNode::Le(l) => write_rel("<=", l, out),
        TermNode::EqZ(l) => write_rel("=", l, out),
        TermNode::Real(r) => out.push_str(&rat_smtlib(r)),
        TermNode::RLin(l) => {
            let monos: Vec<(&Term, Rat)> = l.terms.iter().map(|(t, c)| (t, c.clone())).collect();
            write_rsum(&monos, &l.k, out)
        }
        TermNode::RLe(l) => write_rrel("<=", l, out),
        TermNode::RLt(l) => write_rrel("<", l, out),
        TermNode::REqZ(l) => write_rrel("=", l, out),
        TermNode::ToReal(t) => write_app("to_real", t, out),
        TermNode::ToInt(t) => write_app("to_int", t, out),
        TermNode::IsInt(t) => write_app("is_int", t, out),
        TermNode::Div(t, d) | TermNode::Mod(t, d) => {
            out.push_str(if matches!(n, TermNode::Div(..)) {
                "(div "
            } else {
                "(mod "
            });
            write_term(t, out);
            out.push(' ');
            write_int(d, out);
            out.push(')');
        }
    }
}
