//! The size abstraction of one clause: every datatype value becomes its size (an `Int`),
//! every other term that reads a datatype (a selector's integer field, a tester, an
//! equality of datatypes) becomes a fresh variable of the clause, with side conditions that
//! hold of the value it stands for.
//!
//! Why a model of the abstract clause gives one of the input's clause (`P(x, n) :=
//! phi(size(x), n)`): take any values of the input clause's variables. Give each abstract
//! variable the size of its datatype variable, and each fresh variable the value of the
//! term it stands for (a tester's or an equality's truth, a selector's value, a selector's
//! datatype value's size). Then every side condition holds (each is a fact about those
//! values: sizes are at least the sort's smallest size, equal values have equal sizes, a
//! value built by a constructor has the sizes of that constructor), and the abstract
//! clause, with those values, says exactly what the input clause says with the composed
//! model. The abstract clause holds for all values of its variables, so for these too.
//!
//! A conjunct of the body that is an equality of datatypes or a tester gives its side
//! condition directly (when it is false, the clause holds anyway): `(= x (cons h t))` gives
//! `x = 1 + t`.
//!
//! The converse does not hold: a counterexample of the abstraction may not be one of the
//! input (sizes forget the integer fields read through selectors), so `unsat` from the
//! abstraction proves nothing.

use super::super::records::decl;
use super::super::records::sexp::Sx;
use crate::logic::adt::Adt;
use crate::logic::datatype::{key, DSort};
use rustc_hash::FxHashMap;

type R<T> = Result<T, String>;

/// An abstracted term: the size of a datatype value (of that datatype), or the term itself
/// (integers, reals, booleans) with the datatype parts replaced.
#[derive(Clone, Debug)]
enum Ab {
    Data(usize, Sx),
    Plain(Sx),
}

/// The abstraction of one clause.
pub struct Clause<'a> {
    adt: &'a Adt,
    /// The predicates by name (without quotes), with their argument sorts.
    preds: &'a FxHashMap<String, Vec<DSort>>,
    /// Variables in scope, innermost last: name as written and sort.
    vars: Vec<(String, DSort)>,
    /// `let` names in scope, innermost last, with their abstracted values.
    lets: Vec<(String, Ab)>,
    /// The fresh variables, with their sorts.
    fresh: Vec<(String, &'static str)>,
    /// The fresh variable of a term (its text), when no `let` is in scope.
    fresh_of: FxHashMap<(String, &'static str), String>,
    sides: Vec<Sx>,
}

fn int(n: i64) -> Sx {
    if n < 0 {
        Sx::app("-", vec![Sx::a((-n).to_string())])
    } else {
        Sx::a(n.to_string())
    }
}

impl<'a> Clause<'a> {
    pub fn new(adt: &'a Adt, preds: &'a FxHashMap<String, Vec<DSort>>) -> Clause<'a> {
        Clause {
            adt,
            preds,
            vars: vec![],
            lets: vec![],
            fresh: vec![],
            fresh_of: FxHashMap::default(),
            sides: vec![],
        }
    }

    /// The abstraction of an asserted clause `(forall (..) (=> body head))` (or any other
    /// formula, read the same way without the conjuncts' shortcut).
    pub fn assertion(&mut self, f: &Sx) -> R<Sx> {
        let mut f = f;
        let mut binders = vec![];
        while let Some([Sx::Atom(q), Sx::List(bs), g]) = f.list() {
            if q != "forall" {
                break;
            }
            for b in bs {
                let Some([Sx::Atom(name), s]) = b.list() else {
                    return Err(format!("malformed binder {b}"));
                };
                let ds = decl::sort(&self.adt.types, s)?;
                self.check_sort(&ds)?;
                if let DSort::Data(d) = ds {
                    self.sides.push(Sx::app(
                        ">=",
                        vec![Sx::a(name.clone()), int(self.adt.min_size(d))],
                    ));
                    binders.push(Sx::List(vec![Sx::a(name.clone()), Sx::a("Int")]));
                } else {
                    binders.push(b.clone());
                }
                self.vars.push((name.clone(), ds));
            }
            f = g;
        }
        let (body, head) = match f.list() {
            Some([Sx::Atom(imp), b, h]) if imp == "=>" => (self.top(b)?, self.formula(h)?),
            _ => (Sx::a("true"), self.formula(f)?),
        };
        let mut conds = std::mem::take(&mut self.sides);
        if body != Sx::a("true") {
            conds.push(body);
        }
        let g = if conds.is_empty() {
            head
        } else {
            Sx::app("=>", vec![Sx::and(conds), head])
        };
        binders.extend(
            self.fresh
                .iter()
                .map(|(n, s)| Sx::List(vec![Sx::a(n.clone()), Sx::a(*s)])),
        );
        Ok(if binders.is_empty() {
            g
        } else {
            Sx::app("forall", vec![Sx::List(binders), g])
        })
    }

    /// Sorts the abstraction takes: no arrays of datatypes.
    fn check_sort(&self, s: &DSort) -> R<()> {
        match s {
            DSort::Array(..) if !s.is_plain() => Err(format!(
                "arrays of datatypes beside recursive datatypes are not supported: `{}`",
                self.adt.types.sort_text(s)
            )),
            _ => Ok(()),
        }
    }

    /// The conjuncts of a clause's body: equalities of datatypes and testers give their
    /// side conditions directly.
    fn top(&mut self, b: &Sx) -> R<Sx> {
        let mut out = vec![];
        self.conjuncts(b, &mut out)?;
        Ok(Sx::and(out))
    }

    fn conjuncts(&mut self, b: &Sx, out: &mut Vec<Sx>) -> R<()> {
        if let Some([Sx::Atom(h), args @ ..]) = b.list() {
            if h == "and" {
                for a in args {
                    self.conjuncts(a, out)?;
                }
                return Ok(());
            }
            if h == "=" && args.len() >= 2 {
                let abs = args.iter().map(|a| self.term(a)).collect::<R<Vec<Ab>>>()?;
                if let Some(c) = Self::size_equalities(&abs)? {
                    out.push(c);
                    return Ok(());
                }
                out.push(Sx::app("=", abs.into_iter().map(plain).collect()));
                return Ok(());
            }
        }
        if let Some((c, x)) = self.tester_of(b)? {
            let Ab::Data(d, s) = self.term(x)? else {
                return Err(format!("a tester of a term that is not a datatype: {b}"));
            };
            out.push(self.in_ctor(d, c, &s));
            return Ok(());
        }
        out.push(self.formula(b)?);
        Ok(())
    }

    /// The equalities of the sizes of datatype terms, `None` when they are not datatypes.
    fn size_equalities(abs: &[Ab]) -> R<Option<Sx>> {
        if !matches!(abs.first(), Some(Ab::Data(..))) {
            return Ok(None);
        }
        let mut sizes = vec![];
        for a in abs {
            match a {
                Ab::Data(_, s) => sizes.push(s.clone()),
                Ab::Plain(t) => return Err(format!("`=` of a datatype and {t}")),
            }
        }
        let eqs = sizes
            .windows(2)
            .map(|w| Sx::app("=", vec![w[0].clone(), w[1].clone()]))
            .collect();
        Ok(Some(Sx::and(eqs)))
    }

    /// `(constructor index, argument)` when `t` is a tester `((_ is C) x)` or `(is-C x)`.
    fn tester_of<'t>(&self, t: &'t Sx) -> R<Option<(usize, &'t Sx)>> {
        let Some([h, x]) = t.list() else {
            return Ok(None);
        };
        let c = match h {
            Sx::List(l) => match &l[..] {
                [Sx::Atom(u), Sx::Atom(is), Sx::Atom(c)] if u == "_" && is == "is" => {
                    Some(c.as_str())
                }
                _ => None,
            },
            Sx::Atom(a) => a
                .strip_prefix("is-")
                .filter(|c| self.adt.types.ctor(c).is_some() && !self.is_bound(a)),
        };
        let Some(c) = c else {
            return Ok(None);
        };
        match self.adt.types.ctor(c) {
            Some((_, ci)) => Ok(Some((ci, x))),
            None => Err(format!("unknown constructor `{c}` in a tester")),
        }
    }

    fn is_bound(&self, a: &str) -> bool {
        self.lets.iter().any(|(n, _)| n == a) || self.vars.iter().any(|(n, _)| n == a)
    }

    /// The sizes a value of constructor `c` of datatype `d` may have: exactly 1 without
    /// datatype fields, at least its smallest size otherwise.
    fn in_ctor(&self, d: usize, c: usize, s: &Sx) -> Sx {
        let ctor = &self.adt.types.types[d].ctors[c];
        let m = self.adt.ctor_min_size(d, c);
        if ctor.fields.iter().all(|f| f.sort.is_plain()) {
            Sx::app("=", vec![s.clone(), int(m)])
        } else {
            Sx::app(">=", vec![s.clone(), int(m)])
        }
    }

    /// A fresh variable of sort `sort` for the term `t` (the same one for the same text,
    /// unless a `let` is in scope, when a name's meaning depends on where it stands).
    fn fresh_var(&mut self, t: &Sx, sort: &'static str) -> (String, bool) {
        let k = (t.to_string(), sort);
        if self.lets.is_empty() {
            if let Some(v) = self.fresh_of.get(&k) {
                return (v.clone(), false);
            }
        }
        let v = format!("chcsolve!adt!{}", self.fresh.len());
        self.fresh.push((v.clone(), sort));
        if self.lets.is_empty() {
            self.fresh_of.insert(k, v.clone());
        }
        (v, true)
    }

    /// A formula (a boolean term).
    fn formula(&mut self, t: &Sx) -> R<Sx> {
        match self.term(t)? {
            Ab::Plain(s) => Ok(s),
            Ab::Data(..) => Err(format!("a datatype term where a formula is expected: {t}")),
        }
    }

    fn term(&mut self, t: &Sx) -> R<Ab> {
        match t {
            Sx::Atom(a) => Ok(self.atom(a)),
            Sx::List(l) => {
                if l.is_empty() {
                    return Err("empty term `()`".into());
                }
                self.app(t, &l[0], &l[1..])
            }
        }
    }

    fn atom(&mut self, a: &str) -> Ab {
        if let Some((_, v)) = self.lets.iter().rev().find(|(n, _)| n == a) {
            return v.clone();
        }
        if let Some((_, s)) = self.vars.iter().rev().find(|(n, _)| n == a) {
            return match s {
                DSort::Data(d) => Ab::Data(*d, Sx::a(a)),
                _ => Ab::Plain(Sx::a(a)),
            };
        }
        if let Some((d, c)) = self.adt.types.ctor(a) {
            return Ab::Data(d, int(self.adt.ctor_min_size(d, c)));
        }
        Ab::Plain(Sx::a(a))
    }

    /// The size of constructor `c` of `d` applied to `args`.
    fn ctor_app(&mut self, d: usize, c: usize, args: &[Sx], t: &Sx) -> R<Ab> {
        let ctor = &self.adt.types.types[d].ctors[c];
        if ctor.fields.len() != args.len() {
            return Err(format!(
                "constructor `{}` takes {} arguments: {t}",
                ctor.name,
                ctor.fields.len()
            ));
        }
        let mut sizes = vec![Sx::a("1")];
        for a in args {
            if let Ab::Data(_, s) = self.term(a)? {
                sizes.push(s);
            }
        }
        Ok(Ab::Data(
            d,
            if sizes.len() == 1 {
                Sx::a("1")
            } else {
                Sx::app("+", sizes)
            },
        ))
    }

    fn app(&mut self, t: &Sx, h: &Sx, args: &[Sx]) -> R<Ab> {
        if let Some((c, x)) = self.tester_of(t)? {
            let Ab::Data(d, s) = self.term(x)? else {
                return Err(format!("a tester of a term that is not a datatype: {t}"));
            };
            let (b, new) = self.fresh_var(t, "Bool");
            if new {
                let yes = self.in_ctor(d, c, &s);
                let others: Vec<Sx> = (0..self.adt.types.types[d].ctors.len())
                    .filter(|&o| o != c)
                    .map(|o| self.in_ctor(d, o, &s))
                    .collect();
                let no = match others.len() {
                    0 => Sx::a("false"),
                    1 => others.into_iter().next().unwrap_or(Sx::a("false")),
                    _ => Sx::app("or", others),
                };
                self.sides.push(Sx::app("=>", vec![Sx::a(b.clone()), yes]));
                self.sides.push(Sx::app(
                    "=>",
                    vec![Sx::app("not", vec![Sx::a(b.clone())]), no],
                ));
            }
            return Ok(Ab::Plain(Sx::a(b)));
        }
        // `(as C S)` applied
        if let Some([Sx::Atom(as_), Sx::Atom(c), _]) = h.list() {
            if as_ == "as" {
                return match self.adt.types.ctor(c) {
                    Some((d, ci)) => self.ctor_app(d, ci, args, t),
                    None => Err(format!("unknown constructor `{c}`: {t}")),
                };
            }
        }
        let Sx::Atom(h) = h else {
            return Err(format!("unsupported term {t}"));
        };
        match h.as_str() {
            "as" => {
                return match args {
                    [Sx::Atom(c), _] => Ok(self.atom(c)),
                    _ => Err(format!("unsupported term {t}")),
                }
            }
            "!" if !args.is_empty() => return self.term(&args[0]),
            "forall" | "exists" => {
                return Err(
                    "a quantifier inside a clause over recursive datatypes is not supported".into(),
                )
            }
            "match" => return Err("`match` is not supported".into()),
            "let" => {
                let [Sx::List(bs), body] = args else {
                    return Err(format!("malformed let {t}"));
                };
                let mut vals = vec![];
                for b in bs {
                    let Some([Sx::Atom(n), v]) = b.list() else {
                        return Err(format!("malformed let binding {b}"));
                    };
                    vals.push((n.clone(), self.term(v)?));
                }
                let n = vals.len();
                self.lets.extend(vals);
                let r = self.term(body);
                self.lets.truncate(self.lets.len() - n);
                return r;
            }
            _ => {}
        }
        if !self.is_bound(h) {
            if let Some((d, c)) = self.adt.types.ctor(h) {
                return self.ctor_app(d, c, args, t);
            }
            if let Some((d, c, f)) = self.adt.types.selector(h) {
                let [x] = args else {
                    return Err(format!("selector `{h}` takes one argument: {t}"));
                };
                self.term(x)?;
                let sort = self.adt.types.types[d].ctors[c].fields[f].sort.clone();
                return Ok(match sort {
                    DSort::Data(e) => {
                        let (v, new) = self.fresh_var(t, "Int");
                        if new {
                            self.sides.push(Sx::app(
                                ">=",
                                vec![Sx::a(v.clone()), int(self.adt.min_size(e))],
                            ));
                        }
                        Ab::Data(e, Sx::a(v))
                    }
                    DSort::Int => Ab::Plain(Sx::a(self.fresh_var(t, "Int").0)),
                    DSort::Bool => Ab::Plain(Sx::a(self.fresh_var(t, "Bool").0)),
                    DSort::Real => Ab::Plain(Sx::a(self.fresh_var(t, "Real").0)),
                    DSort::Array(..) => {
                        return Err(format!(
                            "a selector of an array field is not supported: {t}"
                        ))
                    }
                });
            }
        }
        let abs = args.iter().map(|a| self.term(a)).collect::<R<Vec<Ab>>>()?;
        if self.preds.contains_key(key(h)) {
            return Ok(Ab::Plain(Sx::app(h, abs.into_iter().map(any).collect())));
        }
        match h.as_str() {
            "=" if abs.len() >= 2 => {
                let Some(eqs) = Self::size_equalities(&abs)? else {
                    return Ok(Ab::Plain(Sx::app(h, abs.into_iter().map(plain).collect())));
                };
                let (e, new) = self.fresh_var(t, "Bool");
                if new {
                    self.sides.push(Sx::app("=>", vec![Sx::a(e.clone()), eqs]));
                }
                Ok(Ab::Plain(Sx::a(e)))
            }
            "distinct" if matches!(abs.first(), Some(Ab::Data(..))) => {
                if abs.len() == 2 {
                    let eq = Sx::app("=", args.to_vec());
                    let Ab::Plain(e) = self.app(&eq, &Sx::a("="), args)? else {
                        return Err(format!("unsupported term {t}"));
                    };
                    Ok(Ab::Plain(Sx::app("not", vec![e])))
                } else {
                    Ok(Ab::Plain(Sx::a(self.fresh_var(t, "Bool").0)))
                }
            }
            "ite" if abs.len() == 3 => {
                let mut it = abs.into_iter();
                let (c, a, b) = (it.next(), it.next(), it.next());
                let (Some(Ab::Plain(c)), Some(a), Some(b)) = (c, a, b) else {
                    return Err(format!("malformed ite {t}"));
                };
                Ok(match (a, b) {
                    (Ab::Data(d, x), Ab::Data(_, y)) => Ab::Data(d, Sx::app("ite", vec![c, x, y])),
                    (Ab::Plain(x), Ab::Plain(y)) => Ab::Plain(Sx::app("ite", vec![c, x, y])),
                    _ => return Err(format!("ite of a datatype and another sort: {t}")),
                })
            }
            _ => {
                if abs.iter().any(|a| matches!(a, Ab::Data(..))) {
                    return Err(format!("`{h}` of a datatype is not supported: {t}"));
                }
                Ok(Ab::Plain(Sx::app(h, abs.into_iter().map(plain).collect())))
            }
        }
    }
}

/// The term of a plain abstraction (the size of a datatype one).
fn any(a: Ab) -> Sx {
    match a {
        Ab::Data(_, s) | Ab::Plain(s) => s,
    }
}

fn plain(a: Ab) -> Sx {
    any(a)
}
