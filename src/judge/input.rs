//! The pieces of the original text the judge needs: its commands in order, the predicate
//! declarations and the assertions of one problem, located with [`super::sexp`] and
//! nothing else.
//!
//! A z3 fixedpoint file is turned into CHC-COMP assertions by text alone: `(declare-rel P
//! (S..))` declares `P`; `(rule F)` asserts `F` under a `forall` of the `declare-var`s whose
//! names occur in it; `(query P)` asserts `(forall ((q0 S0) ..) (=> (P q0 ..) false))` and
//! `(query F)` asserts `(forall (vars) (=> F false))`. The k-th problem of a file is the
//! assertions (rules) before its k-th `check-sat` (query) that are in scope there, and that
//! query: `(pop n)` forgets the declarations and assertions since the matching `(push n)`,
//! `(reset)` everything before it (`reset-assertions`, whose reading depends on
//! `:global-declarations`, is not supported).

use super::datatypes::{self, constructors};
use super::sexp::{head_atom, read_one, spans, unquote, Sexp};

/// A predicate: its name as written, its name without quotes and its argument sorts (as
/// written).
#[derive(Clone, Debug)]
pub struct Pred {
    pub name: String,
    pub key: String,
    pub sorts: Vec<String>,
}

/// A command of the judged problem, in input order.
#[derive(Clone, Debug)]
pub enum Item {
    /// Sent as it is (declarations of sorts and constants, `define-fun`s of functions).
    Keep(String),
    /// The declaration of predicate `preds[i]`.
    Pred(usize),
}

/// An assertion: its formula (without `assert`) and its line.
#[derive(Clone, Debug)]
pub struct Assert {
    formula: Formula,
    pub line: usize,
}

/// An assertion's formula: where its `assert` command is in the text (read when needed, so
/// that a large input is never held as one tree), or built from a fixedpoint rule.
#[derive(Clone, Debug)]
enum Formula {
    Command(usize, usize),
    Built(Sexp),
}

impl Assert {
    /// The formula, read from `text` (the input it was found in).
    pub fn formula(&self, text: &str) -> Result<Sexp, String> {
        match &self.formula {
            Formula::Built(f) => Ok(f.clone()),
            Formula::Command(s, e) => match read_one(&text[*s..*e])? {
                Sexp::List(mut items) if items.len() == 2 => Ok(items.pop().unwrap()),
                _ => Err(format!("line {}: malformed assert", self.line)),
            },
        }
    }
}

/// One problem of the input.
#[derive(Clone, Debug, Default)]
pub struct Problem {
    pub items: Vec<Item>,
    pub preds: Vec<Pred>,
    pub asserts: Vec<Assert>,
    /// The constructors of the declared datatypes (without quotes): literals in derivations.
    pub ctors: Vec<String>,
    /// Their selectors (without quotes): in the bodies of `lambda` values.
    pub selectors: Vec<String>,
}

impl Problem {
    /// The predicate named `sym` (quoted or not).
    pub fn pred(&self, sym: &str) -> Option<usize> {
        let k = unquote(sym);
        self.preds.iter().position(|p| p.key == k)
    }
}

/// Commands that print or configure but state nothing.
const IGNORED: [&str; 10] = [
    "set-logic",
    "set-info",
    "set-option",
    "check-sat",
    "get-model",
    "get-info",
    "exit",
    "echo",
    "get-value",
    "get-proof",
];

/// The `index`-th problem (0-based: per `check-sat`, or per `query` of a fixedpoint file),
/// its datatype declarations in dependency order ([`datatypes::order`]).
pub fn problem(text: &str, index: usize) -> Result<Problem, String> {
    let mut p = commands(text, index)?;
    datatypes::order(&mut p.items)?;
    Ok(p)
}

/// The `index`-th problem, its commands in input order.
fn commands(text: &str, index: usize) -> Result<Problem, String> {
    let cmds = spans(text)?;
    let heads: Vec<Option<String>> = cmds.iter().map(|c| head_atom(&text[c.start..])).collect();
    let fixedpoint = heads.iter().any(|h| {
        matches!(
            h.as_deref(),
            Some("declare-rel" | "declare-var" | "rule" | "query")
        )
    });
    let mut p = Problem::default();
    let mut vars: Vec<(String, Sexp)> = vec![];
    let mut solves = 0;
    // per open scope: the lengths of the items, predicates, assertions and variables
    let mut scopes: Vec<[usize; 4]> = vec![];
    for (c, head) in cmds.iter().zip(&heads) {
        let name = head.as_deref().unwrap_or("");
        let bad = || format!("line {}: malformed {name}", c.line);
        if name == "assert" {
            p.asserts.push(Assert {
                formula: Formula::Command(c.start, c.end),
                line: c.line,
            });
            continue;
        }
        let cmd = read_one(&text[c.start..c.end])?;
        let items = cmd
            .list()
            .ok_or_else(|| format!("line {}: not a command", c.line))?;
        match name {
            "check-sat" if !fixedpoint => {
                if solves == index {
                    return Ok(p);
                }
                solves += 1;
            }
            n if IGNORED.contains(&n) => {}
            "push" | "pop" => {
                let n = match items {
                    [_] => 1,
                    [_, Sexp::Atom(n)] => n.parse::<usize>().map_err(|_| bad())?,
                    _ => return Err(bad()),
                };
                if name == "push" {
                    let at = [p.items.len(), p.preds.len(), p.asserts.len(), vars.len()];
                    scopes.extend(std::iter::repeat_n(at, n));
                } else {
                    if n > scopes.len() {
                        return Err(format!(
                            "line {}: pop {n} of {} scopes",
                            c.line,
                            scopes.len()
                        ));
                    }
                    let [items, preds, asserts, vs] = scopes[scopes.len() - n];
                    scopes.truncate(scopes.len() - n);
                    p.items.truncate(items);
                    p.preds.truncate(preds);
                    p.asserts.truncate(asserts);
                    vars.truncate(vs);
                }
            }
            "reset" => {
                p = Problem::default();
                vars.clear();
                scopes.clear();
            }
            "reset-assertions" => return Err(format!("line {}: {name} is not supported", c.line)),
            "declare-fun" | "declare-rel" => {
                let (sym, sorts) = match items {
                    [_, s, Sexp::List(a), Sexp::Atom(r)]
                        if name == "declare-fun" && r == "Bool" =>
                    {
                        (s, a)
                    }
                    [_, s, Sexp::List(a)] if name == "declare-rel" => (s, a),
                    _ if name == "declare-fun" => {
                        p.items.push(Item::Keep(text[c.start..c.end].to_string()));
                        continue;
                    }
                    _ => return Err(bad()),
                };
                let sym = sym.atom().ok_or_else(bad)?;
                p.items.push(Item::Pred(p.preds.len()));
                p.preds.push(Pred {
                    name: sym.to_string(),
                    key: unquote(sym).to_string(),
                    sorts: sorts.iter().map(|s| s.to_string()).collect(),
                });
            }
            "declare-datatypes" | "declare-datatype" => {
                let (ctors, selectors) = constructors(items);
                p.ctors.extend(ctors);
                p.selectors.extend(selectors);
                p.items.push(Item::Keep(text[c.start..c.end].to_string()));
            }
            "declare-var" => match items {
                [_, Sexp::Atom(v), s] => vars.push((v.clone(), s.clone())),
                _ => return Err(bad()),
            },
            "rule" => match items {
                [_, f] | [_, f, _] => p.asserts.push(Assert {
                    formula: Formula::Built(close(f, &vars)),
                    line: c.line,
                }),
                _ => return Err(bad()),
            },
            "query" => {
                let q = items.get(1).ok_or_else(bad)?;
                if solves == index {
                    p.asserts.push(Assert {
                        formula: Formula::Built(query(&p, q, &vars)),
                        line: c.line,
                    });
                    return Ok(p);
                }
                solves += 1;
            }
            _ => p.items.push(Item::Keep(text[c.start..c.end].to_string())),
        }
    }
    if solves == 0 && index == 0 && !fixedpoint {
        // no check-sat: the assertions of the whole file
        return Ok(p);
    }
    Err(format!("the input has no problem number {}", index + 1))
}

/// `F` under a `forall` of the declared variables that occur in it.
fn close(f: &Sexp, vars: &[(String, Sexp)]) -> Sexp {
    let used: Vec<Sexp> = vars
        .iter()
        .filter(|(v, _)| f.any_atom(&|a| unquote(a) == unquote(v)))
        .map(|(v, s)| Sexp::List(vec![Sexp::Atom(v.clone()), s.clone()]))
        .collect();
    if used.is_empty() {
        return f.clone();
    }
    Sexp::List(vec![
        Sexp::Atom("forall".into()),
        Sexp::List(used),
        f.clone(),
    ])
}

/// The assertion of a fixedpoint query: no derivation of `q`.
fn query(p: &Problem, q: &Sexp, vars: &[(String, Sexp)]) -> Sexp {
    let not = |f: Sexp| Sexp::List(vec![Sexp::Atom("=>".into()), f, Sexp::Atom("false".into())]);
    // a relation: `P`, or `(P (sorts) Bool)` as z3 also accepts
    let rel = match q {
        Sexp::Atom(a) => p.pred(a),
        Sexp::List(l) if l.len() == 3 && l[2].atom() == Some("Bool") && l[1].list().is_some() => {
            l[0].atom().and_then(|a| p.pred(a))
        }
        _ => None,
    };
    let Some(r) = rel else {
        return close(&not(q.clone()), vars);
    };
    let pred = &p.preds[r];
    if pred.sorts.is_empty() {
        return not(Sexp::Atom(pred.name.clone()));
    }
    let names: Vec<String> = (0..pred.sorts.len())
        .map(|i| format!("chcjudge!q{i}"))
        .collect();
    let mut app = vec![Sexp::Atom(pred.name.clone())];
    app.extend(names.iter().map(|n| Sexp::Atom(n.clone())));
    let binders = names
        .iter()
        .zip(&pred.sorts)
        .map(|(n, s)| Sexp::List(vec![Sexp::Atom(n.clone()), Sexp::Atom(s.clone())]))
        .collect();
    Sexp::List(vec![
        Sexp::Atom("forall".into()),
        Sexp::List(binders),
        not(Sexp::List(app)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chc_comp_problem() {
        let t = "(set-logic HORN)(declare-fun |I n| (Int) Bool)(define-fun k () Int 3)\n(assert (forall ((x Int)) (=> (= x k) (|I n| x))))\n(check-sat)";
        let p = problem(t, 0).unwrap();
        assert_eq!(p.preds.len(), 1);
        assert_eq!(p.pred("I n"), Some(0));
        assert_eq!(p.items.len(), 2);
        assert_eq!(p.asserts.len(), 1);
        assert_eq!(p.asserts[0].line, 2);
        assert!(problem(t, 1).is_err());
    }

    #[test]
    fn fixedpoint_problem() {
        let t = "(declare-rel P (Int))(declare-rel E ())(declare-var x Int)(declare-var y Int)
            (rule (=> (= x 0) (P x)) r0)(query P :print-answer true)(rule (=> (P x) E))(query E)";
        let p = problem(t, 0).unwrap();
        assert_eq!(p.asserts.len(), 2);
        assert_eq!(
            p.asserts[0].formula(t).unwrap().to_string(),
            "(forall ((x Int)) (=> (= x 0) (P x)))"
        );
        assert_eq!(
            p.asserts[1].formula(t).unwrap().to_string(),
            "(forall ((chcjudge!q0 Int)) (=> (P chcjudge!q0) false))"
        );
        let p = problem(t, 1).unwrap();
        assert_eq!(p.asserts.len(), 3);
        assert_eq!(p.asserts[2].formula(t).unwrap().to_string(), "(=> E false)");
    }

    #[test]
    fn scopes() {
        let t = "(set-logic HORN)(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (P x)))
(push 1)(declare-fun Q () Bool)(assert Q)(check-sat)
(pop 1)(assert (forall ((x Int)) (=> (P x) false)))(check-sat)
(push 2)(assert false)(pop 1)(check-sat)(pop 1)
(reset)(declare-fun R () Bool)(assert R)(check-sat)";
        let lines = |k: usize| -> (usize, Vec<usize>) {
            let p = problem(t, k).unwrap();
            (p.preds.len(), p.asserts.iter().map(|a| a.line).collect())
        };
        assert_eq!(lines(0), (2, vec![2, 3]));
        assert_eq!(lines(1), (1, vec![2, 4]));
        assert_eq!(lines(2), (1, vec![2, 4]));
        assert_eq!(lines(3), (1, vec![6]));
        assert_eq!(problem(t, 3).unwrap().preds[0].key, "R");
        assert!(problem("(push 1)(pop 2)(check-sat)", 0).is_err());
    }
}
