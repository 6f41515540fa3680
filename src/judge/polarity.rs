//! Splits each predicate of an assertion into its positive (head) and negative (body)
//! occurrences, by the polarity of the Boolean connectives around it, so that a derivation
//! step can give the two different interpretations (see [`super::derivation`]).
//!
//! Only the connectives are looked at (`not`, `=>`, `and`, `or`, `forall`, `exists`, `let`,
//! `!`); every other term is copied as it is. A `let` that binds a term containing a
//! predicate is substituted into its body. A predicate anywhere else (under `ite`, `=`,
//! `xor`, or in an argument) gives an error: the judge cannot decide that assertion.

use super::input::Problem;
use super::sexp::{unquote, Sexp};
use std::collections::HashMap;

/// The name of the positive or negative occurrences of predicate `q`.
pub fn split_name(q: usize, positive: bool) -> String {
    format!("|chcjudge!{}!{q}|", if positive { "p" } else { "n" })
}

/// An assertion with its predicates split by polarity.
#[derive(Clone, Debug)]
pub struct Split {
    pub formula: Sexp,
    /// Predicates occurring positively and negatively (sorted, without repeats).
    pub pos: Vec<usize>,
    pub neg: Vec<usize>,
}

/// Splits the predicates of `f` by polarity.
pub fn split(f: &Sexp, p: &Problem) -> Result<Split, String> {
    let mut s = Split {
        formula: Sexp::Atom(String::new()),
        pos: vec![],
        neg: vec![],
    };
    s.formula = walk(f, true, p, &mut s)?;
    s.pos.sort_unstable();
    s.pos.dedup();
    s.neg.sort_unstable();
    s.neg.dedup();
    Ok(s)
}

fn has_pred(f: &Sexp, p: &Problem) -> bool {
    f.any_atom(&|a| p.pred(a).is_some())
}

fn atom(s: &str) -> Sexp {
    Sexp::Atom(s.into())
}

fn walk(f: &Sexp, pos: bool, p: &Problem, out: &mut Split) -> Result<Sexp, String> {
    if !has_pred(f, p) {
        return Ok(f.clone());
    }
    let mut occurrence = |q: usize| {
        if pos {
            out.pos.push(q)
        } else {
            out.neg.push(q)
        }
        atom(&split_name(q, pos))
    };
    let items = match f {
        Sexp::Atom(a) => return Ok(occurrence(p.pred(a).expect("has_pred"))),
        Sexp::List(items) => items,
    };
    let head = items.first().and_then(Sexp::atom).unwrap_or("");
    if let Some(q) = p.pred(head) {
        if items[1..].iter().any(|a| has_pred(a, p)) {
            return Err(format!("a predicate in an argument of `{head}`"));
        }
        let mut app = vec![occurrence(q)];
        app.extend(items[1..].iter().cloned());
        return Ok(Sexp::List(app));
    }
    let mut out_items = vec![atom(head)];
    match (head, items.len()) {
        ("not", 2) => out_items.push(walk(&items[1], !pos, p, out)?),
        ("=>", n) if n >= 3 => {
            for (i, a) in items[1..].iter().enumerate() {
                let last = i + 2 == n;
                out_items.push(walk(a, if last { pos } else { !pos }, p, out)?);
            }
        }
        ("and" | "or", _) => {
            for a in &items[1..] {
                out_items.push(walk(a, pos, p, out)?);
            }
        }
        ("forall" | "exists", 3) => {
            let binds = binders(&items[1])?;
            if binds.iter().any(|b| p.pred(b).is_some()) {
                return Err(format!("`{head}` binds a predicate's name"));
            }
            out_items.push(items[1].clone());
            out_items.push(walk(&items[2], pos, p, out)?);
        }
        ("!", n) if n >= 2 => {
            out_items.push(walk(&items[1], pos, p, out)?);
            out_items.extend(items[2..].iter().cloned());
        }
        ("let", 3) => {
            let (kept, body) = inline_let(&items[1], &items[2], p)?;
            let body = walk(&body, pos, p, out)?;
            if kept.is_empty() {
                return Ok(body);
            }
            out_items.push(Sexp::List(kept));
            out_items.push(body);
        }
        _ => return Err(format!("a predicate under `{head}`")),
    }
    Ok(Sexp::List(out_items))
}

/// The names a `forall`/`exists` binder list or a `let` binding list binds.
fn binders(b: &Sexp) -> Result<Vec<&str>, String> {
    let bad = || format!("malformed binders {b}");
    b.list()
        .ok_or_else(bad)?
        .iter()
        .map(|x| {
            x.list()
                .and_then(|l| l.first())
                .and_then(Sexp::atom)
                .ok_or_else(bad)
        })
        .collect()
}

/// `(let (bindings) body)` with the bindings whose terms contain a predicate substituted
/// into the body: the other bindings (to stay in a `let`) and the body.
fn inline_let(bindings: &Sexp, body: &Sexp, p: &Problem) -> Result<(Vec<Sexp>, Sexp), String> {
    let names = binders(bindings)?;
    let mut map = HashMap::new();
    let mut kept = vec![];
    for (b, name) in bindings.list().expect("checked").iter().zip(names) {
        let term = b.list().and_then(|l| l.get(1)).ok_or("malformed let")?;
        if p.pred(name).is_some() {
            return Err("`let` binds a predicate's name".into());
        }
        if has_pred(term, p) {
            map.insert(unquote(name).to_string(), term.clone());
        } else {
            kept.push(b.clone());
        }
    }
    let kept_list = Sexp::List(kept.clone());
    let kept_names = binders(&kept_list)?;
    if map
        .values()
        .any(|t| t.any_atom(&|a| kept_names.iter().any(|k| unquote(k) == unquote(a))))
    {
        return Err("a `let` whose inlined term would be captured".into());
    }
    Ok((kept, subst(body, &map)?))
}

/// `f` with the free occurrences of the names of `map` replaced (an error where a binder
/// would capture a name of a replacing term).
fn subst(f: &Sexp, map: &HashMap<String, Sexp>) -> Result<Sexp, String> {
    if map.is_empty() {
        return Ok(f.clone());
    }
    let items = match f {
        Sexp::Atom(a) => return Ok(map.get(unquote(a)).cloned().unwrap_or_else(|| f.clone())),
        Sexp::List(items) => items,
    };
    let head = items.first().and_then(Sexp::atom).unwrap_or("");
    let shadowed = |b: &Sexp| -> Result<HashMap<String, Sexp>, String> {
        let mut m = map.clone();
        for n in binders(b)? {
            m.remove(unquote(n));
            if m.values()
                .any(|t| t.any_atom(&|a| unquote(a) == unquote(n)))
            {
                return Err(format!("`{n}` would capture a name of an inlined `let`"));
            }
        }
        Ok(m)
    };
    Ok(match (head, items.len()) {
        ("forall" | "exists", 3) => Sexp::List(vec![
            items[0].clone(),
            items[1].clone(),
            subst(&items[2], &shadowed(&items[1])?)?,
        ]),
        ("let", 3) => {
            // the bound terms are in the outer scope
            let mut binds = vec![];
            for b in items[1].list().ok_or("malformed let")? {
                match b.list() {
                    Some([n, t]) => binds.push(Sexp::List(vec![n.clone(), subst(t, map)?])),
                    _ => return Err("malformed let".into()),
                }
            }
            Sexp::List(vec![
                items[0].clone(),
                Sexp::List(binds),
                subst(&items[2], &shadowed(&items[1])?)?,
            ])
        }
        _ => Sexp::List(
            items
                .iter()
                .map(|x| subst(x, map))
                .collect::<Result<_, _>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::input::problem;

    fn split_of(decls: &str, f: &str) -> Result<Split, String> {
        let p = problem(decls, 0).unwrap();
        split(&crate::judge::sexp::read_one(f).unwrap(), &p)
    }

    #[test]
    fn heads_and_bodies() {
        let d = "(declare-fun P (Int) Bool)(declare-fun Q () Bool)";
        let s = split_of(
            d,
            "(forall ((x Int) (y Int)) (=> (and (P x) (not Q) (= y (+ x 1))) (P y)))",
        )
        .unwrap();
        assert_eq!(s.pos, vec![0, 1]);
        assert_eq!(s.neg, vec![0]);
        assert_eq!(
            s.formula.to_string(),
            "(forall ((x Int) (y Int)) (=> (and (|chcjudge!n!0| x) (not |chcjudge!p!1|) (= y (+ x 1))) (|chcjudge!p!0| y)))"
        );
        let s = split_of(d, "(forall ((x Int)) (let ((b (P x)) (c 1)) (=> b Q)))").unwrap();
        assert_eq!(
            s.formula.to_string(),
            "(forall ((x Int)) (let ((c 1)) (=> (|chcjudge!n!0| x) |chcjudge!p!1|)))"
        );
        assert!(split_of(d, "(forall ((x Int)) (= (P x) Q))").is_err());
        assert!(split_of(d, "(forall ((x Int)) (ite (P x) Q true))").is_err());
    }
}
