//! The clauses of a CHC-COMP problem read from its text as terms to send back to a solver
//! unchanged: the unfolding ([`super::unfold`]) never interprets a term, so it takes every
//! sort and operation the solver takes (recursive datatypes, arrays, bit-vectors).
//!
//! A clause is an assertion `(forall (vars) (=> body head))` (also without `forall`, `(not
//! body)` for a query, or a head alone for a fact): the conjuncts of `body` that apply a
//! predicate are its body atoms, the others its constraint; `head` applies a predicate or
//! is `false`. An assertion of another shape, a predicate under another operator, or
//! commands that make more than one problem (`push`, `pop`, a second `check-sat`) are
//! [`Unsupported`]: the unfolding then does not run.

use smt2parser::concrete::{Command, QualIdentifier, Symbol, SyntaxBuilder, Term};
use smt2parser::visitors::Identifier;
use smt2parser::CommandStream;
use std::fmt;

/// Why a text is not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn unsupported<T>(why: impl Into<String>) -> Result<T, Unsupported> {
    Err(Unsupported(why.into()))
}

/// A predicate: its name as printed and its argument sorts as printed.
#[derive(Clone, Debug)]
pub struct Pred {
    pub name: String,
    pub sorts: Vec<String>,
}

/// A predicate applied to terms (printed).
#[derive(Clone, Debug)]
pub struct Atom {
    pub pred: usize,
    pub args: Vec<String>,
}

/// A clause: its variables (name and sort, printed), constraint (printed conjuncts), body
/// atoms and head (`None`: a query).
#[derive(Clone, Debug)]
pub struct Clause {
    pub vars: Vec<(String, String)>,
    pub constraint: Vec<String>,
    pub body: Vec<Atom>,
    pub head: Option<Atom>,
}

/// The problem: the declarations a solver needs before the clauses' terms (sorts,
/// datatypes, constants, functions; never the predicates), the predicates and the clauses.
#[derive(Clone, Debug, Default)]
pub struct Clauses {
    pub prelude: Vec<String>,
    pub preds: Vec<Pred>,
    pub clauses: Vec<Clause>,
    /// A datatype is declared (the judge's reading of derivations then needs its
    /// constructors).
    pub datatypes: bool,
}

impl Clauses {
    fn pred(&self, name: &str) -> Option<usize> {
        self.preds.iter().position(|p| p.name == name)
    }
}

/// Reads the first problem of a CHC-COMP text.
pub fn read(text: &str) -> Result<Clauses, Unsupported> {
    let stream = CommandStream::new(text.as_bytes(), SyntaxBuilder, None);
    let mut out = Clauses::default();
    let mut asserts = vec![];
    for cmd in stream {
        let cmd = cmd.map_err(|e| Unsupported(format!("{e}")))?;
        match cmd {
            Command::SetLogic { .. }
            | Command::SetInfo { .. }
            | Command::SetOption { .. }
            | Command::GetModel
            | Command::GetInfo { .. }
            | Command::Exit
            | Command::Echo { .. } => {}
            Command::CheckSat => break,
            Command::Assert { term } => asserts.push(term),
            Command::DeclareFun {
                symbol,
                parameters,
                sort,
            } if sort.to_string() == "Bool" => out.preds.push(Pred {
                name: symbol.to_string(),
                sorts: parameters.iter().map(|s| s.to_string()).collect(),
            }),
            c @ (Command::DeclareDatatype { .. } | Command::DeclareDatatypes { .. }) => {
                out.datatypes = true;
                out.prelude.push(c.to_string());
            }
            c @ (Command::DeclareFun { .. }
            | Command::DeclareConst { .. }
            | Command::DeclareSort { .. }
            | Command::DefineSort { .. }
            | Command::DefineFun { .. }
            | Command::DefineFunRec { .. }
            | Command::DefineFunsRec { .. }) => out.prelude.push(c.to_string()),
            c => return unsupported(format!("the command {c}")),
        }
    }
    for a in asserts {
        let c = clause(&out, a)?;
        out.clauses.push(c);
    }
    Ok(out)
}

/// The clause an assertion states.
fn clause(cs: &Clauses, mut t: Term) -> Result<Clause, Unsupported> {
    let mut vars = vec![];
    loop {
        match t {
            Term::Forall { vars: vs, term } => {
                vars.extend(vs.iter().map(|(v, s)| (v.to_string(), s.to_string())));
                t = *term;
            }
            Term::Attributes { term, .. } => t = *term,
            _ => break,
        }
    }
    let (body, head) = match t {
        Term::Application {
            qual_identifier,
            mut arguments,
        } if name(&qual_identifier) == Some("=>") && arguments.len() >= 2 => {
            let head = arguments.pop().unwrap_or_else(|| unreachable!());
            (arguments, head)
        }
        Term::Application {
            qual_identifier,
            mut arguments,
        } if name(&qual_identifier) == Some("not") && arguments.len() == 1 => (
            vec![arguments.pop().unwrap_or_else(|| unreachable!())],
            false_term(),
        ),
        t => (vec![], t),
    };
    let mut c = Clause {
        vars,
        constraint: vec![],
        body: vec![],
        head: None,
    };
    for b in body {
        conjuncts(cs, b, &mut c)?;
    }
    c.head = match atom(cs, &head) {
        Some(a) => Some(a),
        None if is_false(&head) => None,
        None => return unsupported(format!("the head {head}")),
    };
    Ok(c)
}

fn false_term() -> Term {
    Term::QualIdentifier(QualIdentifier::Simple {
        identifier: Identifier::Simple {
            symbol: Symbol("false".into()),
        },
    })
}

fn is_false(t: &Term) -> bool {
    matches!(t, Term::QualIdentifier(q) if name(q) == Some("false"))
}

/// The name of a plain identifier.
fn name(q: &QualIdentifier) -> Option<&str> {
    match q {
        QualIdentifier::Simple {
            identifier: Identifier::Simple { symbol },
        } => Some(&symbol.0),
        _ => None,
    }
}

/// `t` as a predicate application, when it is one.
fn atom(cs: &Clauses, t: &Term) -> Option<Atom> {
    let (q, args): (_, &[Term]) = match t {
        Term::QualIdentifier(q) => (q, &[]),
        Term::Application {
            qual_identifier,
            arguments,
        } => (qual_identifier, arguments),
        _ => return None,
    };
    let n = match q {
        QualIdentifier::Simple {
            identifier: Identifier::Simple { symbol },
        } => symbol.to_string(),
        _ => return None,
    };
    let pred = cs.pred(&n)?;
    Some(Atom {
        pred,
        args: args.iter().map(|a| a.to_string()).collect(),
    })
}

/// Splits a body conjunct into atoms and constraint conjuncts.
fn conjuncts(cs: &Clauses, t: Term, c: &mut Clause) -> Result<(), Unsupported> {
    if let Some(a) = atom(cs, &t) {
        if a.args.len() != cs.preds[a.pred].sorts.len() {
            return unsupported(format!("the arity of {t}"));
        }
        c.body.push(a);
        return Ok(());
    }
    match t {
        Term::Application {
            qual_identifier,
            arguments,
        } if name(&qual_identifier) == Some("and") => {
            for a in arguments {
                conjuncts(cs, a, c)?;
            }
            Ok(())
        }
        Term::QualIdentifier(q) if name(&q) == Some("true") => Ok(()),
        t => {
            if mentions_pred(cs, &t) {
                return unsupported(format!("a predicate inside {t}"));
            }
            c.constraint.push(t.to_string());
            Ok(())
        }
    }
}

/// Does `t` name a predicate anywhere (even where a binder may shadow it: refused
/// either way)?
fn mentions_pred(cs: &Clauses, t: &Term) -> bool {
    match t {
        Term::Constant(_) => false,
        Term::QualIdentifier(q) => atom_name(cs, q),
        Term::Application {
            qual_identifier,
            arguments,
        } => atom_name(cs, qual_identifier) || arguments.iter().any(|a| mentions_pred(cs, a)),
        Term::Let { var_bindings, term } => {
            var_bindings.iter().any(|(_, b)| mentions_pred(cs, b)) || mentions_pred(cs, term)
        }
        Term::Forall { term, .. } | Term::Exists { term, .. } | Term::Attributes { term, .. } => {
            mentions_pred(cs, term)
        }
        Term::Match { term, cases } => {
            mentions_pred(cs, term) || cases.iter().any(|(_, c)| mentions_pred(cs, c))
        }
    }
}

fn atom_name(cs: &Clauses, q: &QualIdentifier) -> bool {
    let (QualIdentifier::Simple { identifier } | QualIdentifier::Sorted { identifier, .. }) = q;
    let s = match identifier {
        Identifier::Simple { symbol } | Identifier::Indexed { symbol, .. } => symbol,
    };
    cs.pred(&s.to_string()).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_clauses_of_a_list_system() {
        let t = "(set-logic HORN)
(declare-datatypes ((L 0)) (((cons (hd Int) (tl L)) (nil))))
(declare-fun len (L Int) Bool)
(assert (forall ((n Int)) (=> (= n 0) (len nil n))))
(assert (forall ((x Int) (l L) (n Int)) (=> (and (len l n) (= x 1)) (len (cons x l) (+ n 1)))))
(assert (forall ((l L) (n Int)) (=> (and (len l n) (len l (+ n 1))) false)))
(assert (forall ((l L) (n Int)) (not (and (len l n) (< n 0)))))
(check-sat)";
        let cs = read(t).unwrap();
        assert!(cs.datatypes);
        assert_eq!(cs.prelude.len(), 1);
        assert_eq!(cs.preds.len(), 1);
        assert_eq!(cs.clauses.len(), 4);
        let c = &cs.clauses[1];
        assert_eq!(c.vars.len(), 3);
        assert_eq!(c.constraint, vec!["(= x 1)".to_string()]);
        assert_eq!(c.body.len(), 1);
        assert_eq!(c.head.as_ref().unwrap().args, vec!["(cons x l)", "(+ n 1)"]);
        assert!(cs.clauses[2].head.is_none() && cs.clauses[2].body.len() == 2);
        assert!(cs.clauses[3].head.is_none() && cs.clauses[3].constraint.len() == 1);
    }

    #[test]
    fn refuses_predicates_under_other_operators() {
        let t = "(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (or (p x) (= x 0)) (p x))))";
        assert!(read(t).is_err());
        assert!(read("(declare-fun p (Int) Bool)(push 1)").is_err());
    }
}
