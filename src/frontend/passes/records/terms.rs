//! Rewriting terms over datatypes into terms over their parts ([`Datatypes::layout`]): a
//! term of a datatype (or of an array holding one) becomes the list of its parts' terms.

use super::super::commands::unbind;
use super::decl::sort;
use super::sexp::Sx;
use crate::logic::datatype::{key, DSort, Datatypes};
use crate::logic::smt_symbol;
use rustc_hash::{FxHashMap, FxHashSet};

/// A rewritten term: its sort in the input and its parts' terms.
#[derive(Clone, Debug)]
pub struct Flat {
    pub sort: DSort,
    pub parts: Vec<Sx>,
}

impl Flat {
    fn one(sort: DSort, t: Sx) -> Flat {
        Flat {
            sort,
            parts: vec![t],
        }
    }

    fn boolean(t: Sx) -> Flat {
        Flat::one(DSort::Bool, t)
    }
}

/// The rewriter of one input's assertions.
pub struct Rewriter<'a> {
    pub dt: &'a Datatypes,
    /// The predicates' names (without quotes).
    pub preds: &'a FxHashSet<String>,
    /// The values of bound symbols, innermost last.
    env: FxHashMap<String, Vec<Flat>>,
    /// The first run: arrays indexed by a datatype are laid out as nothing, and the ones that
    /// must be kept are collected in `reads` (read, written, or compared where a difference
    /// matters).
    scan: bool,
    pub reads: Vec<(DSort, DSort)>,
}

type R<T> = Result<T, String>;

/// The name of a part of variable `var` (its suffix empty for the variable itself).
pub fn part_name(var: &str, suffix: &str) -> String {
    if suffix.is_empty() {
        return var.to_string();
    }
    smt_symbol(&format!("{}{suffix}", key(var)))
}

impl<'a> Rewriter<'a> {
    pub fn new(dt: &'a Datatypes, preds: &'a FxHashSet<String>, scan: bool) -> Rewriter<'a> {
        Rewriter {
            dt,
            preds,
            env: FxHashMap::default(),
            scan,
            reads: vec![],
        }
    }

    /// An assertion's formula: `forall`s and `let`s around `body => head`, a fact or a
    /// `(not body)` query. The conjuncts of a body are where an equality of values holding
    /// arrays indexed by datatypes may leave those arrays out (they are then all equal); the
    /// variables of datatypes with several constructors get their tags' range.
    pub fn assertion(&mut self, f: &Sx) -> R<Sx> {
        self.clause_formula(f, vec![])
    }

    fn clause_formula(&mut self, f: &Sx, mut ranges: Vec<Sx>) -> R<Sx> {
        let l = f.list().unwrap_or_default();
        match l.first().and_then(Sx::atom) {
            Some("forall") if l.len() == 3 => {
                let (binders, names) = self.binders(&l[1], &mut ranges)?;
                let body = self.clause_formula(&l[2], ranges);
                self.unbind(&names);
                let body = body?;
                Ok(if binders.is_empty() {
                    body
                } else {
                    Sx::List(vec![Sx::a("forall"), Sx::List(binders), body])
                })
            }
            Some("let") if l.len() == 3 => {
                let (binds, names) = self.let_bindings(&l[1])?;
                let body = self.clause_formula(&l[2], ranges);
                self.unbind(&names);
                Ok(wrap_let(binds, body?))
            }
            Some("=>") if l.len() >= 3 => {
                let mut hyps = ranges;
                for h in &l[1..l.len() - 1] {
                    hyps.push(self.boolean(h, true)?);
                }
                let head = &l[l.len() - 1];
                let app = head.atom() == Some("false") || self.is_pred_app(head);
                let head = self.boolean(head, app)?;
                Ok(Sx::app("=>", vec![Sx::and(hyps), head]))
            }
            Some("not") if l.len() == 2 => {
                ranges.push(self.boolean(&l[1], true)?);
                Ok(Sx::app("not", vec![Sx::and(ranges)]))
            }
            _ => {
                let app = self.is_pred_app(f);
                let t = self.boolean(f, app)?;
                Ok(if ranges.is_empty() {
                    t
                } else {
                    Sx::app("=>", vec![Sx::and(ranges), t])
                })
            }
        }
    }

    fn is_pred_app(&self, t: &Sx) -> bool {
        let head = match t {
            Sx::Atom(a) => a,
            Sx::List(l) => match l.first() {
                Some(Sx::Atom(a)) => a,
                _ => return false,
            },
        };
        self.preds.contains(key(head)) && !self.env.contains_key(key(head))
    }

    fn boolean(&mut self, t: &Sx, pos: bool) -> R<Sx> {
        let f = self.term(t, pos)?;
        if f.sort != DSort::Bool {
            return Err(format!("`{}` is not a formula", short(t)));
        }
        Ok(f.parts.into_iter().next().unwrap())
    }

    /// Binds the variables of a `forall`/`exists` binder list: their parts as binders, and
    /// the range of every tag of a datatype with several constructors into `ranges`.
    fn binders(&mut self, bs: &Sx, ranges: &mut Vec<Sx>) -> R<(Vec<Sx>, Vec<String>)> {
        let bs = bs.list().ok_or("malformed binder list")?;
        let (mut out, mut names) = (vec![], vec![]);
        for b in bs {
            let Some([Sx::Atom(v), s]) = b.list() else {
                return Err(format!("malformed binder `{b}`"));
            };
            let s = sort(self.dt, s)?;
            let parts: Vec<Sx> = self
                .dt
                .layout(&s)
                .into_iter()
                .map(|p| {
                    let n = Sx::a(part_name(v, &p.suffix));
                    out.push(Sx::List(vec![n.clone(), Sx::a(p.sort.plain_text())]));
                    n
                })
                .collect();
            self.tag_ranges(&s, &parts, &mut 0, ranges);
            self.bind(v, Flat { sort: s, parts });
            names.push(key(v).to_string());
        }
        Ok((out, names))
    }

    /// For each datatype with several constructors among `parts` (of a value of sort `s`,
    /// from `at`), outside arrays: `0 <= tag < n` for its `n` constructors, and the parts of
    /// every other constructor than the tag's at their defaults (as a constructor term fills
    /// them), so that a variable's parts are those of exactly one value.
    fn tag_ranges(&self, s: &DSort, parts: &[Sx], at: &mut usize, out: &mut Vec<Sx>) {
        match s {
            DSort::Data(d) => {
                let t = &self.dt.types[*d];
                if t.is_record() {
                    for f in &t.ctors[0].fields {
                        self.tag_ranges(&f.sort, parts, at, out);
                    }
                    return;
                }
                let tag = parts[*at].clone();
                out.push(Sx::app("<=", vec![Sx::a("0"), tag.clone()]));
                out.push(Sx::app(
                    "<",
                    vec![tag.clone(), Sx::a(t.ctors.len().to_string())],
                ));
                *at += 1;
                for (c, ctor) in t.ctors.iter().enumerate() {
                    let start = *at;
                    let mut defaults = vec![];
                    for f in &ctor.fields {
                        self.tag_ranges(&f.sort, parts, at, out);
                        defaults.extend(self.defaults(&f.sort));
                    }
                    if *at == start {
                        continue;
                    }
                    let eqs = parts[start..*at]
                        .iter()
                        .zip(defaults)
                        .map(|(p, d)| Sx::app("=", vec![p.clone(), d]))
                        .collect();
                    out.push(Sx::app(
                        "or",
                        vec![
                            Sx::app("=", vec![tag.clone(), Sx::a(c.to_string())]),
                            Sx::and(eqs),
                        ],
                    ));
                }
            }
            s => *at += self.dt.width(s),
        }
    }

    fn bind(&mut self, v: &str, f: Flat) {
        self.env.entry(key(v).to_string()).or_default().push(f);
    }

    fn unbind(&mut self, names: &[String]) {
        unbind(&mut self.env, names)
    }

    /// The bindings of a `let` (its values read before any is bound), as bindings of parts.
    fn let_bindings(&mut self, bs: &Sx) -> R<(Vec<Sx>, Vec<String>)> {
        let bs = bs.list().ok_or("malformed let")?;
        let mut vals = vec![];
        for b in bs {
            let Some([Sx::Atom(v), t]) = b.list() else {
                return Err(format!("malformed let binding `{}`", short(b)));
            };
            vals.push((v, self.term(t, false)?));
        }
        let (mut out, mut names) = (vec![], vec![]);
        for (v, f) in vals {
            let layout = self.dt.layout(&f.sort);
            let parts = f
                .parts
                .into_iter()
                .zip(&layout)
                .map(|(t, p)| {
                    let n = Sx::a(part_name(v, &p.suffix));
                    out.push(Sx::List(vec![n.clone(), t]));
                    n
                })
                .collect();
            self.bind(
                v,
                Flat {
                    sort: f.sort,
                    parts,
                },
            );
            names.push(key(v).to_string());
        }
        Ok((out, names))
    }

    /// Rewrites `t`; `pos` when `t` is a conjunct of a clause's body.
    pub fn term(&mut self, t: &Sx, pos: bool) -> R<Flat> {
        match t {
            Sx::Atom(a) => self.atom(a),
            Sx::List(l) => match l.split_first() {
                Some((Sx::Atom(h), args)) => self.app(h, args, pos, t),
                Some((Sx::List(h), args)) => self.indexed(h, args, t),
                None => Err("empty list `()`".into()),
            },
        }
    }

    fn atom(&mut self, a: &str) -> R<Flat> {
        let b = a.as_bytes();
        if !b.is_empty() && b.iter().all(u8::is_ascii_digit) {
            return Ok(Flat::one(DSort::Int, Sx::a(a)));
        }
        if b.first().is_some_and(u8::is_ascii_digit)
            && b.iter().all(|c| c.is_ascii_digit() || *c == b'.')
        {
            return Ok(Flat::one(DSort::Real, Sx::a(a)));
        }
        if a == "true" || a == "false" {
            return Ok(Flat::boolean(Sx::a(a)));
        }
        if let Some(f) = self.env.get(key(a)).and_then(|v| v.last()) {
            return Ok(f.clone());
        }
        if let Some((d, c)) = self.dt.ctor(a) {
            return self.ctor_term(d, c, vec![], a);
        }
        if self.preds.contains(key(a)) {
            return Ok(Flat::boolean(Sx::a(a)));
        }
        Err(format!("unknown symbol `{a}`"))
    }

    /// Terms with an indexed or qualified head: `((as const S) v)`, `((_ is C) x)`,
    /// `((as C S) args..)`.
    fn indexed(&mut self, h: &[Sx], args: &[Sx], t: &Sx) -> R<Flat> {
        match (h, args) {
            ([Sx::Atom(a), Sx::Atom(c), s], [v]) if a == "as" && c == "const" => {
                let s = sort(self.dt, s)?;
                let DSort::Array(i, e) = &s else {
                    return Err(format!("`{}`: not an array sort", short(t)));
                };
                let v = self.term(v, false)?;
                if v.sort != **e {
                    return Err(format!("sort mismatch in `{}`", short(t)));
                }
                if i.is_plain() {
                    let parts = v
                        .parts
                        .into_iter()
                        .zip(self.dt.layout(e))
                        .map(|(x, p)| {
                            let s = DSort::Array(i.clone(), Box::new(p.sort));
                            const_array(&s, x)
                        })
                        .collect();
                    return Ok(Flat { sort: s, parts });
                }
                if self.scan {
                    self.note_read(i, e);
                    return Ok(Flat {
                        sort: s,
                        parts: vec![],
                    });
                }
                let index = self.dt.layout(i);
                let parts = v
                    .parts
                    .into_iter()
                    .zip(self.dt.layout(e))
                    .map(|(x, p)| {
                        let mut s = p.sort;
                        let mut acc = x;
                        for ip in index.iter().rev() {
                            s = DSort::Array(Box::new(ip.sort.clone()), Box::new(s));
                            acc = const_array(&s, acc);
                        }
                        acc
                    })
                    .collect();
                Ok(Flat { sort: s, parts })
            }
            ([Sx::Atom(u), Sx::Atom(is), Sx::Atom(c)], [x]) if u == "_" && is == "is" => {
                self.tester(c, x)
            }
            ([Sx::Atom(a), Sx::Atom(c), _], args) if a == "as" => {
                let (d, k) = self
                    .dt
                    .ctor(c)
                    .ok_or_else(|| format!("`{}`: unknown constructor", short(t)))?;
                let args = args
                    .iter()
                    .map(|x| self.term(x, false))
                    .collect::<R<Vec<_>>>()?;
                self.ctor_term(d, k, args, c)
            }
            _ => Err(format!("unsupported term `{}`", short(t))),
        }
    }

    fn tester(&mut self, c: &str, x: &Sx) -> R<Flat> {
        let (d, k) = self
            .dt
            .ctor(c)
            .ok_or_else(|| format!("tester of unknown constructor `{c}`"))?;
        let x = self.term(x, false)?;
        if x.sort != DSort::Data(d) {
            return Err(format!("tester `{c}` applied to a value of another sort"));
        }
        if self.dt.types[d].is_record() {
            return Ok(Flat::boolean(Sx::a("true")));
        }
        Ok(Flat::boolean(Sx::app(
            "=",
            vec![x.parts[0].clone(), Sx::a(k.to_string())],
        )))
    }

    fn ctor_term(&mut self, d: usize, c: usize, args: Vec<Flat>, name: &str) -> R<Flat> {
        let t = &self.dt.types[d];
        let fields = &t.ctors[c].fields;
        if args.len() != fields.len() {
            return Err(format!(
                "constructor `{name}` takes {} arguments, not {}",
                fields.len(),
                args.len()
            ));
        }
        for (a, f) in args.iter().zip(fields) {
            if a.sort != f.sort {
                return Err(format!("sort mismatch in an argument of `{name}`"));
            }
        }
        let mut parts = vec![];
        if !t.is_record() {
            parts.push(Sx::a(c.to_string()));
        }
        let mut args = args.into_iter();
        for (k, ctor) in t.ctors.iter().enumerate() {
            for f in &ctor.fields {
                if k == c {
                    parts.extend(args.next().unwrap().parts);
                } else {
                    // another constructor's fields: the default of each part
                    parts.extend(self.defaults(&f.sort));
                }
            }
        }
        Ok(Flat {
            sort: DSort::Data(d),
            parts,
        })
    }

    fn note_read(&mut self, i: &DSort, e: &DSort) {
        let k = (i.clone(), e.clone());
        if !self.reads.contains(&k) {
            self.reads.push(k);
        }
    }

    /// Every array indexed by a datatype inside `s` must be kept.
    fn note_reads_in(&mut self, s: &DSort) {
        match s {
            DSort::Array(i, e) => {
                if !i.is_plain() {
                    self.note_read(i, e);
                }
                self.note_reads_in(i);
                self.note_reads_in(e);
            }
            DSort::Data(d) => {
                let sorts: Vec<DSort> = self.dt.types[*d]
                    .ctors
                    .iter()
                    .flat_map(|c| c.fields.iter().map(|f| f.sort.clone()))
                    .collect();
                for s in &sorts {
                    self.note_reads_in(s);
                }
            }
            _ => {}
        }
    }

    fn app(&mut self, h: &str, args: &[Sx], pos: bool, t: &Sx) -> R<Flat> {
        match h {
            "forall" | "exists" if args.len() == 2 => {
                let mut ranges = vec![];
                let (binders, names) = self.binders(&args[0], &mut ranges)?;
                let body = self.boolean(&args[1], false);
                self.unbind(&names);
                let mut body = body?;
                if binders.is_empty() {
                    return Ok(Flat::boolean(body));
                }
                if !ranges.is_empty() {
                    body = if h == "forall" {
                        Sx::app("=>", vec![Sx::and(ranges), body])
                    } else {
                        ranges.push(body);
                        Sx::and(ranges)
                    };
                }
                Ok(Flat::boolean(Sx::List(vec![
                    Sx::a(h),
                    Sx::List(binders),
                    body,
                ])))
            }
            "let" if args.len() == 2 => {
                let (binds, names) = self.let_bindings(&args[0])?;
                let body = self.term(&args[1], pos);
                self.unbind(&names);
                let body = body?;
                if body.parts.len() != 1 {
                    return Err(format!("`{}`: a let of a datatype's value", short(t)));
                }
                let b = body.parts.into_iter().next().unwrap();
                Ok(Flat::one(body.sort, wrap_let(binds, b)))
            }
            "as" if args.len() == 2 => {
                // `(as C S)`: a constructor without arguments, its sort given
                let c = args[0].atom().unwrap_or_default();
                let (d, k) = self
                    .dt
                    .ctor(c)
                    .ok_or_else(|| format!("`{}`: unknown constructor", short(t)))?;
                if sort(self.dt, &args[1])? != DSort::Data(d) {
                    return Err(format!("`{}`: not the constructor's sort", short(t)));
                }
                self.ctor_term(d, k, vec![], c)
            }
            "!" if !args.is_empty() => self.term(&args[0], pos),
            "and" => {
                let cs = args
                    .iter()
                    .map(|a| self.boolean(a, pos))
                    .collect::<R<Vec<_>>>()?;
                Ok(Flat::boolean(Sx::app("and", cs)))
            }
            "=" | "distinct" if args.len() >= 2 => {
                let xs = args
                    .iter()
                    .map(|a| self.term(a, false))
                    .collect::<R<Vec<_>>>()?;
                if xs.iter().any(|x| x.sort != xs[0].sort) {
                    return Err(format!("sort mismatch in `{}`", short(t)));
                }
                if xs[0].sort.is_plain() {
                    return Ok(Flat::boolean(Sx::app(h, xs.into_iter().map(one).collect())));
                }
                if self.scan && (h == "distinct" || !pos) {
                    self.note_reads_in(&xs[0].sort.clone());
                }
                let eq = |a: &Flat, b: &Flat| -> Sx {
                    Sx::and(
                        a.parts
                            .iter()
                            .zip(&b.parts)
                            .map(|(x, y)| Sx::app("=", vec![x.clone(), y.clone()]))
                            .collect(),
                    )
                };
                let f = if h == "=" {
                    Sx::and(xs.windows(2).map(|w| eq(&w[0], &w[1])).collect())
                } else {
                    let mut ne = vec![];
                    for i in 0..xs.len() {
                        for j in i + 1..xs.len() {
                            ne.push(Sx::app("not", vec![eq(&xs[i], &xs[j])]));
                        }
                    }
                    Sx::and(ne)
                };
                Ok(Flat::boolean(f))
            }
            "ite" if args.len() == 3 => {
                let c = self.boolean(&args[0], false)?;
                let a = self.term(&args[1], false)?;
                let b = self.term(&args[2], false)?;
                if a.sort != b.sort {
                    return Err(format!("sort mismatch in `{}`", short(t)));
                }
                let parts = a
                    .parts
                    .into_iter()
                    .zip(b.parts)
                    .map(|(x, y)| Sx::app("ite", vec![c.clone(), x, y]))
                    .collect();
                Ok(Flat {
                    sort: a.sort,
                    parts,
                })
            }
            "select" if args.len() == 2 => {
                let a = self.term(&args[0], false)?;
                let i = self.term(&args[1], false)?;
                let DSort::Array(is, es) = a.sort.clone() else {
                    return Err(format!("`{}`: select from a non-array", short(t)));
                };
                if i.sort != *is {
                    return Err(format!("sort mismatch in `{}`", short(t)));
                }
                if !is.is_plain() && self.scan {
                    self.note_read(&is, &es);
                    let parts = self.defaults(&es);
                    return Ok(Flat { sort: *es, parts });
                }
                let parts = a
                    .parts
                    .into_iter()
                    .map(|x| {
                        i.parts
                            .iter()
                            .fold(x, |acc, ix| Sx::app("select", vec![acc, ix.clone()]))
                    })
                    .collect();
                Ok(Flat { sort: *es, parts })
            }
            "store" if args.len() == 3 => {
                let a = self.term(&args[0], false)?;
                let i = self.term(&args[1], false)?;
                let v = self.term(&args[2], false)?;
                let DSort::Array(is, es) = a.sort.clone() else {
                    return Err(format!("`{}`: store into a non-array", short(t)));
                };
                if i.sort != *is || v.sort != *es {
                    return Err(format!("sort mismatch in `{}`", short(t)));
                }
                if !is.is_plain() && self.scan {
                    self.note_read(&is, &es);
                    return Ok(Flat {
                        sort: a.sort,
                        parts: vec![],
                    });
                }
                let parts = a
                    .parts
                    .into_iter()
                    .zip(v.parts)
                    .map(|(x, y)| store_chain(x, &i.parts, y))
                    .collect();
                Ok(Flat {
                    sort: a.sort,
                    parts,
                })
            }
            _ if self.preds.contains(key(h)) && !self.env.contains_key(key(h)) => {
                let mut parts = vec![];
                for a in args {
                    parts.extend(self.term(a, false)?.parts);
                }
                Ok(Flat::boolean(Sx::app(h, parts)))
            }
            _ if self.dt.ctor(h).is_some() => {
                let (d, c) = self.dt.ctor(h).unwrap();
                let args = args
                    .iter()
                    .map(|a| self.term(a, false))
                    .collect::<R<Vec<_>>>()?;
                self.ctor_term(d, c, args, h)
            }
            _ if self.dt.selector(h).is_some() && args.len() == 1 => {
                let (d, c, f) = self.dt.selector(h).unwrap();
                let x = self.term(&args[0], false)?;
                if x.sort != DSort::Data(d) {
                    return Err(format!("selector `{h}` applied to a value of another sort"));
                }
                let fs = self.dt.types[d].ctors[c].fields[f].sort.clone();
                let at = self.dt.field_offset(d, c, f);
                let w = self.dt.width(&fs);
                Ok(Flat {
                    sort: fs,
                    parts: x.parts[at..at + w].to_vec(),
                })
            }
            _ if h.starts_with("is-") && args.len() == 1 && self.dt.ctor(&h[3..]).is_some() => {
                self.tester(&h[3..], &args[0])
            }
            _ => self.plain_op(h, args, pos, t),
        }
    }

    /// The parts of the default value of `s`.
    fn defaults(&self, s: &DSort) -> Vec<Sx> {
        self.dt
            .layout(s)
            .iter()
            .map(|p| super::sexp::read(&p.sort.default_text()).unwrap_or(Sx::a("0")))
            .collect()
    }

    /// An operator over plain values, with its result's sort.
    fn plain_op(&mut self, h: &str, args: &[Sx], pos: bool, t: &Sx) -> R<Flat> {
        let bool_ops = ["or", "not", "=>", "xor", "<", "<=", ">", ">=", "is_int"];
        let sort = if bool_ops.contains(&h) {
            DSort::Bool
        } else if ["div", "mod", "abs", "to_int"].contains(&h) {
            DSort::Int
        } else if ["/", "to_real"].contains(&h) {
            DSort::Real
        } else if ["+", "-", "*"].contains(&h) {
            DSort::Int
        } else {
            return Err(format!("unsupported function `{h}` in `{}`", short(t)));
        };
        let _ = pos;
        let mut xs = vec![];
        let mut real = false;
        for a in args {
            let f = self.term(a, false)?;
            if !f.sort.is_plain() || f.parts.len() != 1 {
                return Err(format!(
                    "`{}`: a datatype's value as an argument of `{h}`",
                    short(t)
                ));
            }
            real |= f.sort == DSort::Real;
            xs.push(one(f));
        }
        let sort = if sort == DSort::Int && real && ["+", "-", "*"].contains(&h) {
            DSort::Real
        } else {
            sort
        };
        Ok(Flat::one(sort, Sx::app(h, xs)))
    }
}

fn one(f: Flat) -> Sx {
    f.parts.into_iter().next().unwrap_or(Sx::a("true"))
}

/// `((as const S) v)`.
fn const_array(s: &DSort, v: Sx) -> Sx {
    Sx::List(vec![
        Sx::List(vec![
            Sx::a("as"),
            Sx::a("const"),
            super::sexp::read(&s.plain_text()).unwrap_or(Sx::a("?")),
        ]),
        v,
    ])
}

/// `a` with `v` stored at the curried index `ix`: `(store a i1 (store (select a i1) i2 ..
/// v))`.
fn store_chain(a: Sx, ix: &[Sx], v: Sx) -> Sx {
    match ix.split_first() {
        None => v,
        Some((i, rest)) => {
            let inner = Sx::app("select", vec![a.clone(), i.clone()]);
            Sx::app("store", vec![a, i.clone(), store_chain(inner, rest, v)])
        }
    }
}

fn wrap_let(binds: Vec<Sx>, body: Sx) -> Sx {
    if binds.is_empty() {
        body
    } else {
        Sx::List(vec![Sx::a("let"), Sx::List(binds), body])
    }
}

/// `t`'s text, cut at 60 characters.
pub fn short(t: &Sx) -> String {
    crate::frontend::parse::short(t)
}
