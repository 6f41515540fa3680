//! Rewriting one assertion: every term of a bit-vector sort becomes its integer term
//! ([`super::encode`]), bit-vector binders become `Int` ones with their range, and
//! divisions by a variable get a fresh quotient and remainder, defined in the clause's body.

use super::super::commands::unbind;
use super::super::records::sexp::Sx;
use super::encode::{app, as_num, ite_of, num, product, Enc};
use crate::logic::bitvec::{checked_width, parse_literal, pow2};
use crate::logic::datatype::key;
use num_bigint::BigInt;
use rustc_hash::{FxHashMap, FxHashSet};

type R<T> = Result<T, String>;

/// A rewritten term: its width when it is a bit-vector, and its term.
type T = (Option<u32>, Sx);

/// The sort of a binder or argument: the width of a bit-vector, `None` for the other sorts
/// (which stay as written); arrays holding bit-vectors are refused.
pub fn sort(s: &Sx) -> R<Option<u32>> {
    if let Some(w) = crate::logic::bitvec::sort_width(&s.to_string()) {
        return checked_width(w.into()).map(Some);
    }
    if s.to_string().contains("BitVec") {
        return Err(format!(
            "unsupported sort `{s}`: bit-vectors are supported as `(_ BitVec w)`, not inside arrays"
        ));
    }
    Ok(None)
}

/// `0 <= x < 2^w`.
fn range(w: u32, x: &Sx) -> Vec<Sx> {
    vec![
        app("<=", Sx::a("0"), x.clone()),
        app("<", x.clone(), num(&pow2(w))),
    ]
}

/// The rewriter of one input's assertions.
pub struct Rewriter<'a> {
    preds: &'a FxHashSet<String>,
    env: FxHashMap<String, Vec<Option<u32>>>,
    pub enc: Enc,
    /// Nested quantifiers around the current term, inside the clause's own `forall`.
    depth: usize,
    /// The `let` bindings around the current term (rewritten), outermost first.
    lets: Vec<Sx>,
    /// The fresh quotients and remainders of the current clause: binders and definitions.
    fresh: Vec<Sx>,
    defs: Vec<Sx>,
    divisions: FxHashMap<String, (Sx, Sx)>,
}

impl<'a> Rewriter<'a> {
    pub fn new(preds: &'a FxHashSet<String>) -> Rewriter<'a> {
        Rewriter {
            preds,
            env: FxHashMap::default(),
            enc: Enc::default(),
            depth: 0,
            lets: vec![],
            fresh: vec![],
            defs: vec![],
            divisions: FxHashMap::default(),
        }
    }

    /// An assertion's formula: `forall`s and `let`s around `body => head`, a fact or a
    /// `(not body)` query.
    pub fn assertion(&mut self, f: &Sx) -> R<Sx> {
        self.fresh.clear();
        self.defs.clear();
        self.divisions.clear();
        let g = self.clause_formula(f, vec![])?;
        if self.fresh.is_empty() {
            return Ok(g);
        }
        let fresh = std::mem::take(&mut self.fresh);
        Ok(match g {
            Sx::List(l) if l.len() == 3 && l[0].atom() == Some("forall") => {
                let mut bs = l[1].list().unwrap_or_default().to_vec();
                bs.extend(fresh);
                Sx::List(vec![Sx::a("forall"), Sx::List(bs), l[2].clone()])
            }
            g => Sx::List(vec![Sx::a("forall"), Sx::List(fresh), g]),
        })
    }

    fn clause_formula(&mut self, f: &Sx, mut ranges: Vec<Sx>) -> R<Sx> {
        let l = f.list().unwrap_or_default();
        match l.first().and_then(Sx::atom) {
            Some("forall") if l.len() == 3 => {
                let (binders, names) = self.binders(&l[1], &mut ranges)?;
                let body = self.clause_formula(&l[2], ranges);
                self.unbind(&names);
                Ok(Sx::List(vec![Sx::a("forall"), Sx::List(binders), body?]))
            }
            Some("let") if l.len() == 3 => {
                let (binds, names) = self.let_bindings(&l[1])?;
                self.lets.push(Sx::List(binds.clone()));
                let body = self.clause_formula(&l[2], ranges);
                self.lets.pop();
                self.unbind(&names);
                Ok(Sx::List(vec![Sx::a("let"), Sx::List(binds), body?]))
            }
            Some("=>") if l.len() >= 3 => {
                let mut hyps = vec![];
                for h in &l[1..l.len() - 1] {
                    hyps.push(self.term(h)?.1);
                }
                let head = self.term(&l[l.len() - 1])?.1;
                let mut all = ranges;
                all.append(&mut self.defs);
                all.extend(hyps);
                Ok(app("=>", Sx::and(all), head))
            }
            Some("not") if l.len() == 2 => {
                let body = self.term(&l[1])?.1;
                ranges.append(&mut self.defs);
                ranges.push(body);
                Ok(Sx::app("not", vec![Sx::and(ranges)]))
            }
            _ => {
                let t = self.term(f)?.1;
                ranges.append(&mut self.defs);
                Ok(if ranges.is_empty() {
                    t
                } else {
                    app("=>", Sx::and(ranges), t)
                })
            }
        }
    }

    /// Binds the variables of a binder list: bit-vectors become `Int`s, their ranges go to
    /// `ranges`.
    fn binders(&mut self, bs: &Sx, ranges: &mut Vec<Sx>) -> R<(Vec<Sx>, Vec<String>)> {
        let bs = bs.list().ok_or("malformed binder list")?;
        let (mut out, mut names) = (vec![], vec![]);
        for b in bs {
            let Some([Sx::Atom(v), s]) = b.list() else {
                return Err(format!("malformed binder `{b}`"));
            };
            let w = sort(s)?;
            let s = match w {
                Some(w) => {
                    ranges.extend(range(w, &Sx::a(v)));
                    Sx::a("Int")
                }
                None => s.clone(),
            };
            out.push(Sx::List(vec![Sx::a(v), s]));
            self.env.entry(key(v).to_string()).or_default().push(w);
            names.push(key(v).to_string());
        }
        Ok((out, names))
    }

    fn unbind(&mut self, names: &[String]) {
        unbind(&mut self.env, names)
    }

    /// The bindings of a `let`, values read before any is bound.
    fn let_bindings(&mut self, bs: &Sx) -> R<(Vec<Sx>, Vec<String>)> {
        let bs = bs.list().ok_or("malformed let")?;
        let mut vals = vec![];
        for b in bs {
            let Some([Sx::Atom(v), t]) = b.list() else {
                return Err(format!("malformed let binding `{}`", short(b)));
            };
            vals.push((v, self.term(t)?));
        }
        let (mut out, mut names) = (vec![], vec![]);
        for (v, (w, t)) in vals {
            out.push(Sx::List(vec![Sx::a(v), t]));
            self.env.entry(key(v).to_string()).or_default().push(w);
            names.push(key(v).to_string());
        }
        Ok((out, names))
    }

    pub fn term(&mut self, t: &Sx) -> R<T> {
        if let Some(lit) = indexed_literal(t) {
            let (v, w) = lit?;
            return Ok((Some(w), num(&v)));
        }
        match t {
            Sx::Atom(a) => self.atom(a),
            Sx::List(l) => match l.split_first() {
                Some((Sx::Atom(h), args)) => self.app(h, args, t),
                Some((Sx::List(h), args)) => self.indexed(h, args, t),
                None => Err("empty list `()`".into()),
            },
        }
    }

    fn atom(&mut self, a: &str) -> R<T> {
        if let Some((v, w)) = parse_literal(a) {
            checked_width(w.into())?;
            return Ok((Some(w), num(&v)));
        }
        let w = self
            .env
            .get(key(a))
            .and_then(|v| v.last())
            .copied()
            .flatten();
        Ok((w, Sx::a(a)))
    }

    fn args(&mut self, args: &[Sx]) -> R<Vec<T>> {
        args.iter().map(|a| self.term(a)).collect()
    }

    /// The operands of a bit-vector operator: all of one width.
    fn bv_args(&mut self, h: &str, args: &[Sx], n: usize, t: &Sx) -> R<(u32, Vec<Sx>)> {
        if args.len() < n {
            return Err(format!("`{h}` expects {n} arguments in `{}`", short(t)));
        }
        let xs = self.args(args)?;
        let w = match xs[0].0 {
            Some(w) if xs.iter().all(|x| x.0 == Some(w)) => w,
            _ => {
                return Err(format!(
                    "`{h}` expects bit-vectors of one width in `{}`",
                    short(t)
                ))
            }
        };
        Ok((w, xs.into_iter().map(|x| x.1).collect()))
    }

    fn app(&mut self, h: &str, args: &[Sx], t: &Sx) -> R<T> {
        // z3 prints `bvsdiv_i` and the like for the division operators
        let op = match h.strip_suffix("_i") {
            Some(o) if o.starts_with("bv") => o,
            _ => h,
        };
        let bv = |w: u32, x: Sx| Ok((Some(w), x));
        let boolean = |x: Sx| Ok((None, x));
        match op {
            "forall" | "exists" if args.len() == 2 => {
                let mut ranges = vec![];
                let (binders, names) = self.binders(&args[0], &mut ranges)?;
                self.depth += 1;
                let body = self.term(&args[1]);
                self.depth -= 1;
                self.unbind(&names);
                let body = body?.1;
                let body = if ranges.is_empty() {
                    body
                } else if op == "forall" {
                    app("=>", Sx::and(ranges), body)
                } else {
                    ranges.push(body);
                    Sx::and(ranges)
                };
                boolean(Sx::List(vec![Sx::a(op), Sx::List(binders), body]))
            }
            "let" if args.len() == 2 => {
                let (binds, names) = self.let_bindings(&args[0])?;
                self.lets.push(Sx::List(binds.clone()));
                let body = self.term(&args[1]);
                self.lets.pop();
                self.unbind(&names);
                let (w, body) = body?;
                Ok((w, Sx::List(vec![Sx::a("let"), Sx::List(binds), body])))
            }
            "ite" if args.len() == 3 => {
                let xs = self.args(args)?;
                let w = xs[1].0.or(xs[2].0);
                let mut it = xs.into_iter().map(|x| x.1);
                let (c, a, b) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
                Ok((w, ite_of(c, a, b)))
            }
            "bvadd" if args.iter().any(|a| negated(a).is_some()) => {
                // `a + (-b)` as `a - b`: one `ite` where the sum of a negation takes two. The
                // operands added first, then the negated ones subtracted
                let (pos, neg): (Vec<&Sx>, Vec<&Sx>) =
                    args.iter().partition(|a| negated(a).is_none());
                let n = pos.len();
                let operands: Vec<Sx> = pos
                    .into_iter()
                    .chain(neg.into_iter().filter_map(negated))
                    .cloned()
                    .collect();
                let (w, mut xs) = self.bv_args(h, &operands, 1, t)?;
                let subtracted = xs.split_off(n);
                let mut it = xs.into_iter();
                let mut acc = it
                    .next()
                    .map(|first| it.fold(first, |a, x| self.enc.add(w, a, x)));
                for x in subtracted {
                    acc = Some(match acc {
                        Some(a) => self.enc.sub(w, a, x),
                        None => self.enc.neg(w, x),
                    });
                }
                bv(w, acc.expect("a negated operand"))
            }
            "bvadd" | "bvmul" => {
                let (w, xs) = self.bv_args(h, args, 1, t)?;
                let mut it = xs.into_iter();
                let mut acc = it.next().unwrap();
                for x in it {
                    acc = if op == "bvadd" {
                        self.enc.add(w, acc, x)
                    } else {
                        self.enc.mul(w, acc, x)
                    };
                }
                bv(w, acc)
            }
            "bvsub" | "bvand" | "bvor" | "bvxor" | "bvnand" | "bvnor" | "bvxnor" | "bvshl"
            | "bvlshr" | "bvashr" | "bvudiv" | "bvurem" | "bvsdiv" | "bvsrem" | "bvsmod"
            | "bvcomp" => {
                let (w, xs) = self.bv_args(h, args, 2, t)?;
                if xs.len() != 2 && !matches!(op, "bvand" | "bvor" | "bvxor") {
                    return Err(format!("`{h}` expects 2 arguments in `{}`", short(t)));
                }
                let mut it = xs.into_iter();
                let mut acc = it.next().unwrap();
                for b in it {
                    acc = self.binary(w, op, acc, b)?;
                }
                Ok((Some(if op == "bvcomp" { 1 } else { w }), acc))
            }
            "bvneg" | "bvnot" | "bvredor" | "bvredand" => {
                let (w, mut xs) = self.bv_args(h, args, 1, t)?;
                let x = xs.pop().unwrap();
                Ok(match op {
                    "bvneg" => (Some(w), self.enc.neg(w, x)),
                    "bvnot" => (Some(w), self.enc.not(w, x)),
                    "bvredor" => (
                        Some(1),
                        ite_of(app("=", x, Sx::a("0")), Sx::a("0"), Sx::a("1")),
                    ),
                    _ => (
                        Some(1),
                        ite_of(app("=", x, num(&(pow2(w) - 1))), Sx::a("1"), Sx::a("0")),
                    ),
                })
            }
            "bvult" | "bvule" | "bvugt" | "bvuge" | "bvslt" | "bvsle" | "bvsgt" | "bvsge" => {
                let (w, mut xs) = self.bv_args(h, args, 2, t)?;
                if xs.len() != 2 {
                    return Err(format!("`{h}` expects 2 arguments in `{}`", short(t)));
                }
                let b = xs.pop().unwrap();
                let a = xs.pop().unwrap();
                let (a, b) = if op.starts_with("bvs") {
                    (self.enc.signed(w, a), self.enc.signed(w, b))
                } else {
                    (a, b)
                };
                let cmp = match &op[3..] {
                    "lt" => "<",
                    "le" => "<=",
                    "gt" => ">",
                    _ => ">=",
                };
                boolean(app(cmp, a, b))
            }
            "concat" => {
                let xs = self.args(args)?;
                if xs.is_empty() || xs.iter().any(|x| x.0.is_none()) {
                    return Err(format!("`concat` expects bit-vectors in `{}`", short(t)));
                }
                let mut w = 0;
                let mut acc: Option<Sx> = None;
                for (xw, x) in xs {
                    let xw = xw.unwrap();
                    acc = Some(match acc {
                        None => x,
                        Some(a) => app("+", app("*", num(&pow2(xw)), a), x),
                    });
                    w = checked_width(u64::from(w) + u64::from(xw))?;
                }
                bv(w, acc.unwrap())
            }
            "bv2nat" | "ubv_to_int" | "bv2int" | "sbv_to_int" => {
                let (w, mut xs) = self.bv_args(h, args, 1, t)?;
                let x = xs.pop().unwrap();
                if op == "sbv_to_int" {
                    return Ok((None, self.enc.signed(w, x)));
                }
                Ok((None, x))
            }
            _ => {
                // anything else: the arguments rewritten, the rest as written
                if h.starts_with("bv")
                    && !self.preds.contains(key(h))
                    && !self.env.contains_key(key(h))
                {
                    return Err(format!(
                        "unsupported bit-vector operator `{h}` in `{}`",
                        short(t)
                    ));
                }
                let xs = self.args(args)?;
                let mut l = vec![Sx::a(h)];
                l.extend(xs.into_iter().map(|x| x.1));
                Ok((None, Sx::List(l)))
            }
        }
    }

    fn binary(&mut self, w: u32, op: &str, a: Sx, b: Sx) -> R<Sx> {
        let e = &mut self.enc;
        Ok(match op {
            "bvsub" => e.sub(w, a, b),
            "bvand" => e.bitwise(w, "and", a, b),
            "bvor" => e.bitwise(w, "or", a, b),
            "bvxor" => e.bitwise(w, "xor", a, b),
            "bvnand" | "bvnor" | "bvxnor" => {
                let x = e.bitwise(w, &op[3..], a, b);
                e.not(w, x)
            }
            "bvshl" => e.shift(w, "shl", a, b),
            "bvlshr" => e.shift(w, "lshr", a, b),
            "bvashr" => e.shift(w, "ashr", a, b),
            "bvcomp" => ite_of(app("=", a, b), Sx::a("1"), Sx::a("0")),
            "bvudiv" => self.udiv(w, a, b)?.0,
            "bvurem" => self.udiv(w, a, b)?.1,
            _ => self.signed_division(w, op, a, b)?,
        })
    }

    /// `bvsdiv`, `bvsrem`, `bvsmod` as SMT-LIB defines them from `bvudiv` and `bvurem` of
    /// the absolute values.
    fn signed_division(&mut self, w: u32, op: &str, s: Sx, t: Sx) -> R<Sx> {
        let (s, t, binds) = self.bind2(s, t);
        let (ms, mt) = (Enc::negative(w, &s), Enc::negative(w, &t));
        let abs_s = self.enc.abs(w, s.clone());
        let abs_t = match as_num(&t) {
            Some(c) if c >= pow2(w - 1) => num(&(pow2(w) - c)),
            Some(_) => t.clone(),
            None => self.enc.abs(w, t.clone()),
        };
        // a definition of a fresh quotient reads `s` and `t` under their bindings
        self.lets.push(Sx::List(binds.clone()));
        let qr = self.udiv(w, abs_s, abs_t);
        self.lets.pop();
        let (q, r) = qr?;
        let out = match op {
            "bvsdiv" => {
                let nq = self.enc.neg(w, q.clone());
                ite_of(Sx::app("xor", vec![ms, mt]), nq, q)
            }
            "bvsrem" => {
                let nr = self.enc.neg(w, r.clone());
                ite_of(ms, nr, r)
            }
            _ => self.enc.share(r, |e, u| {
                let nu = e.neg(w, u.clone());
                let neg_u_plus_t = e.add(w, nu.clone(), t.clone());
                let u_plus_t = e.add(w, u.clone(), t.clone());
                let not = |x: &Sx| Sx::app("not", vec![x.clone()]);
                ite_of(
                    app("=", u.clone(), Sx::a("0")),
                    u.clone(),
                    ite_of(
                        app("and", not(&ms), not(&mt)),
                        u.clone(),
                        ite_of(
                            app("and", ms.clone(), not(&mt)),
                            neg_u_plus_t,
                            ite_of(app("and", not(&ms), mt.clone()), u_plus_t, nu),
                        ),
                    ),
                )
            }),
        };
        Ok(wrap(binds, out))
    }

    /// `a` and `b` as atoms, with the `let` bindings that give them.
    fn bind2(&mut self, a: Sx, b: Sx) -> (Sx, Sx, Vec<Sx>) {
        let mut binds = vec![];
        let mut one = |x: Sx, enc: &mut Enc| {
            if x.atom().is_some() {
                x
            } else {
                let v = enc.fresh();
                binds.push(Sx::List(vec![Sx::a(&v), x]));
                Sx::a(v)
            }
        };
        let a = one(a, &mut self.enc);
        let b = one(b, &mut self.enc);
        (a, b, binds)
    }

    /// Unsigned quotient and remainder of `a` by `b` (SMT-LIB: by zero, all ones and `a`).
    /// By a constant, `div` and `mod`; by a term, a fresh quotient and remainder, defined in
    /// the clause's body: `a = q * b + r`, `r < b` (the product written over the bits of
    /// `q`, linear).
    fn udiv(&mut self, w: u32, a: Sx, b: Sx) -> R<(Sx, Sx)> {
        let m = pow2(w);
        if let Some(d) = as_num(&b) {
            if d == BigInt::from(0) {
                return Ok((num(&(m - 1)), a));
            }
            if d == BigInt::from(1) {
                return Ok((a, Sx::a("0")));
            }
            return Ok((app("div", a.clone(), num(&d)), app("mod", a, num(&d))));
        }
        if self.depth > 0 {
            return Err(
                "a bit-vector division by a variable under a quantifier is not supported".into(),
            );
        }
        // the definition is stated in the clause's body, under the `let`s around here
        let wrap_lets = |lets: &[Sx], t: Sx| {
            lets.iter()
                .rev()
                .filter(|bs| bs.list().is_some_and(|l| !l.is_empty()))
                .fold(t, |t, bs| Sx::List(vec![Sx::a("let"), bs.clone(), t]))
        };
        let k = format!("{:?} {a} {b}", self.lets);
        if let Some(qr) = self.divisions.get(&k) {
            return Ok(qr.clone());
        }
        let (q, r) = (Sx::a(self.enc.fresh()), Sx::a(self.enc.fresh()));
        for v in [&q, &r] {
            self.fresh.push(Sx::List(vec![v.clone(), Sx::a("Int")]));
            self.defs.extend(range(w, v));
        }
        let def = self.enc.share(a, |e, a| {
            e.share(b, |_, b| {
                ite_of(
                    app("=", b.clone(), Sx::a("0")),
                    app(
                        "and",
                        app("=", q.clone(), num(&(pow2(w) - 1))),
                        app("=", r.clone(), a.clone()),
                    ),
                    app(
                        "and",
                        app("=", a, app("+", product(w, &q, &b), r.clone())),
                        app("<", r.clone(), b),
                    ),
                )
            })
        });
        self.defs.push(wrap_lets(&self.lets, def));
        self.divisions.insert(k, (q.clone(), r.clone()));
        Ok((q, r))
    }

    /// Terms with an indexed head: `(_ bvN w)` literals are atoms; `((_ extract i j) x)`,
    /// `((_ zero_extend k) x)`, `((_ sign_extend k) x)`, `((_ rotate_left k) x)`,
    /// `((_ rotate_right k) x)`, `((_ repeat k) x)`, `((_ int2bv w) n)`.
    fn indexed(&mut self, h: &[Sx], args: &[Sx], t: &Sx) -> R<T> {
        let idx: Option<Vec<u32>> = h
            .get(2..)
            .unwrap_or_default()
            .iter()
            .map(|i| i.atom().and_then(|a| a.parse().ok()))
            .collect();
        let name = match (
            h.first().and_then(Sx::atom),
            h.get(1).and_then(Sx::atom),
            &idx,
        ) {
            (Some("_"), Some(n), Some(_)) if h.len() > 2 => n,
            _ => {
                let xs = self.args(args)?;
                let mut l = vec![Sx::List(h.to_vec())];
                l.extend(xs.into_iter().map(|x| x.1));
                return Ok((None, Sx::List(l)));
            }
        };
        let idx = &idx.unwrap_or_default()[..];
        if matches!(name, "int2bv" | "int_to_bv") {
            let [w] = idx else {
                return Err(format!("malformed `{}`", short(t)));
            };
            if *w == 0 || args.len() != 1 {
                return Err(format!("malformed `{}`", short(t)));
            }
            checked_width((*w).into())?;
            let x = self.term(&args[0])?.1;
            return Ok((Some(*w), app("mod", x, num(&pow2(*w)))));
        }
        let (w, mut xs) = self.bv_args(name, args, 1, t)?;
        if xs.len() != 1 {
            return Err(format!("`{name}` expects 1 argument in `{}`", short(t)));
        }
        let x = xs.pop().unwrap();
        let bad = || Err(format!("malformed `{}`", short(t)));
        Ok(match (name, idx) {
            ("extract", &[i, j]) if j <= i && i < w => {
                (Some(i - j + 1), self.enc.extract(w, i, j, x))
            }
            ("zero_extend", &[k]) => (Some(checked_width(u64::from(w) + u64::from(k))?), x),
            ("sign_extend", &[k]) => {
                let wide = checked_width(u64::from(w) + u64::from(k))?;
                (Some(wide), self.enc.sign_extend(w, k, x))
            }
            ("rotate_left", &[k]) => (Some(w), self.enc.rotate_left(w, k, x)),
            ("rotate_right", &[k]) => (Some(w), self.enc.rotate_left(w, w - k % w, x)),
            ("repeat", &[k]) if k > 0 => {
                checked_width(u64::from(w) * u64::from(k))?;
                let sum = self.enc.share(x, |_, x| {
                    let terms: Vec<Sx> = (0..k)
                        .map(|i| app("*", num(&pow2(w * i)), x.clone()))
                        .collect();
                    Sx::app("+", terms)
                });
                (Some(w * k), sum)
            }
            _ => return bad(),
        })
    }
}

/// `x` when `t` is `(bvneg x)` or `x` times `2^w - 1` (`(bvmul #xff..ff x)`, either order):
/// how Eldarica writes the subtrahend of `a - b` as `(bvadd a (bvmul #xff..ff b))`.
fn negated(t: &Sx) -> Option<&Sx> {
    let all_ones = |l: &Sx| {
        let (v, w) = match l {
            Sx::Atom(a) => parse_literal(a)?,
            _ => indexed_literal(l)?.ok()?,
        };
        Some(v == pow2(w) - 1)
    };
    match t.list()? {
        [Sx::Atom(h), x] if h == "bvneg" => Some(x),
        [Sx::Atom(h), a, b] if h == "bvmul" => match (all_ones(a), all_ones(b)) {
            (Some(true), _) => Some(b),
            (_, Some(true)) => Some(a),
            _ => None,
        },
        _ => None,
    }
}

/// `(_ bvN w)` as a term: its value and width (an error past [`MAX_WIDTH`](crate::logic::bitvec::MAX_WIDTH)).
pub fn indexed_literal(t: &Sx) -> Option<R<(BigInt, u32)>> {
    match t.list()? {
        [Sx::Atom(u), Sx::Atom(v), Sx::Atom(w)] if u == "_" && v.starts_with("bv") => {
            let v: BigInt = v[2..].parse().ok()?;
            let w: u64 = w.parse().ok()?;
            Some(checked_width(w).map(|w| (v % pow2(w), w)))
        }
        _ => None,
    }
}

fn wrap(binds: Vec<Sx>, body: Sx) -> Sx {
    if binds.is_empty() {
        body
    } else {
        Sx::List(vec![Sx::a("let"), Sx::List(binds), body])
    }
}

pub fn short(t: &Sx) -> String {
    crate::frontend::parse::short(t)
}
