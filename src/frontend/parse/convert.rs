//! Converts terms of the compact syntax tree to our hash-consed terms, checking sorts and the supported fragment.

use super::syntax::{Node, Sym, TermId};
use super::{op, short, InputError, Mode, Parser};
use crate::chc::PredApp;
use crate::logic::*;
use num_bigint::BigInt;
use num_traits::Zero;
use smt2parser::concrete::Constant;
use std::ops::Range;

/// Our integer of an smt2parser numeral (its own `num` version).
fn bigint_of(n: &smt2parser::Numeral) -> BigInt {
    BigInt::from_bytes_le(num_bigint::Sign::Plus, &n.to_bytes_le())
}

/// Our rational of an smt2parser decimal (its own `num` version).
fn rat_of(d: &smt2parser::Decimal) -> Rat {
    let conv = |s: String| s.parse::<BigInt>().expect("a decimal's digits");
    Rat::new(conv(d.numer().to_string()), conv(d.denom().to_string()))
}

/// The numeral as a `u64`, if it fits.
fn small_of(n: &smt2parser::Numeral) -> Option<u64> {
    let mut digits = n.iter_u64_digits();
    match (digits.next(), digits.next()) {
        (None, _) => Some(0),
        (Some(d), None) => Some(d),
        _ => None,
    }
}

/// The value of a constant arithmetic term, as a rational.
fn const_value(t: &Term) -> Option<Rat> {
    match t.get() {
        TermNode::Int(n) => Some(rat(n.clone())),
        TermNode::Real(r) => Some(r.clone()),
        _ => None,
    }
}

impl Parser<'_> {
    /// The leading token of a term as it appears in the text, to locate it.
    pub(super) fn first_token(&self, t: TermId) -> String {
        match self.syn.node(t) {
            Node::App { head, .. } => format!("({}", self.name(self.syn.qsym(head))),
            Node::Id(q) => self.name(self.syn.qsym(q)).to_string(),
            _ => short(&self.syn.c_term(t)),
        }
    }

    pub(super) fn pred_app(
        &mut self,
        name: Sym,
        args: Range<u32>,
        mode: &mut Mode,
        src: TermId,
    ) -> Result<Term, InputError> {
        let id = self.pred(name).expect("a predicate");
        let arity = self.sys.pred(id).sorts.len();
        if arity != args.len() {
            let name = self.name(name);
            return Err(self.err_at(
                name,
                format!(
                    "predicate `{name}` takes {arity} arguments, applied to {}",
                    args.len()
                ),
            ));
        }
        let mut terms = Vec::with_capacity(args.len());
        for (k, i) in args.enumerate() {
            let a = self.syn.kids[i as usize];
            let t = self.term(a, &mut Mode::Inner)?;
            let sort = self.sys.pred(id).sorts[k];
            self.expect(&t, sort, a)?;
            terms.push(if sort == Sort::Real { mk_to_real(t) } else { t });
        }
        match mode {
            Mode::Body(apps) => {
                apps.push(PredApp {
                    pred: id,
                    args: terms,
                });
                Ok(self.tt.clone())
            }
            Mode::Inner => Err(self.err_at(
                self.name(name),
                format!(
                    "predicate application `{}` inside a term: predicate applications may stand only under and, or, not, => and quantifiers",
                    short(&self.syn.c_term(src))
                ),
            )),
        }
    }

    /// `forall` or `exists` over a formula without predicate applications, as a theory
    /// constraint: `exists xs. phi`, or `not exists xs. not phi`, over fresh variables (the
    /// names `x!k` no input symbol has). [`crate::solve_system`] eliminates it before
    /// solving ([`crate::frontend::passes::eliminate_quantifiers`]). A predicate application in `phi` is an
    /// error of [`Parser::pred_app`].
    pub(super) fn theory_quantifier(&mut self, t: TermId) -> Result<Term, InputError> {
        let (forall, start, len, body) = match self.syn.node(t) {
            Node::Forall { start, len, body } => (true, start, len, body),
            Node::Exists { start, len, body } => (false, start, len, body),
            _ => unreachable!("called on quantifiers"),
        };
        let (mut bound, mut vars) = (vec![], vec![]);
        let mut r = Ok(());
        for i in start..start + len {
            let (sym, sort) = self.syn.pairs[i as usize];
            match self.sort(sort) {
                Ok(s) => {
                    let v = self.fresh_var(sym, s);
                    vars.push(v.as_var().expect("a variable").clone());
                    self.bind(sym, v);
                    bound.push(sym);
                }
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        let phi = r.and_then(|_| {
            let phi = self.term(body, &mut Mode::Inner)?;
            self.expect(&phi, Sort::Bool, body)?;
            Ok(phi)
        });
        let phi = self.unbind_all(&bound, phi)?;
        Ok(if forall {
            mk_not(mk_exists(vars, mk_not(phi)))
        } else {
            mk_exists(vars, phi)
        })
    }

    /// Does the term mention a predicate (applied, or as a nullary atom)?
    pub(super) fn mentions_pred(&self, t: TermId) -> bool {
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            match self.syn.node(t) {
                Node::Const(_) | Node::Match(_) => {}
                Node::Id(q) => {
                    if self.pred(self.syn.qsym(q)).is_some() {
                        return true;
                    }
                }
                Node::App { head, start, len } => {
                    if self.pred(self.syn.qsym(head)).is_some() {
                        return true;
                    }
                    stack.extend_from_slice(self.syn.kids(start, len));
                }
                Node::Let { start, len, body } => {
                    stack.extend((start..start + len).map(|i| self.syn.pairs[i as usize].1));
                    stack.push(body);
                }
                Node::Forall { body, .. } | Node::Exists { body, .. } => stack.push(body),
                Node::Attributes { term, .. } => stack.push(term),
            }
        }
        false
    }

    pub(super) fn term(&mut self, t: TermId, mode: &mut Mode) -> Result<Term, InputError> {
        match self.syn.node(t) {
            Node::Const(c) => match self.syn.constant(c) {
                Constant::Numeral(n) => Ok(match small_of(n) {
                    Some(d) => self.ints.entry(d).or_insert_with(|| mk_int(d)).clone(),
                    None => mk_int(bigint_of(n)),
                }),
                Constant::Decimal(d) => Ok(mk_real(rat_of(d))),
                c => Err(self.err_at(
                    &c.to_string(),
                    format!("unsupported literal `{}`: only integer and decimal literals are supported (no bit-vectors or strings)", short(c)),
                )),
            },
            Node::Id(q) => {
                let s = self.syn.qsym(q);
                if let Some(v) = self.bound(s) {
                    return Ok(v.clone());
                }
                match s {
                    op::TRUE => Ok(self.tt.clone()),
                    op::FALSE => Ok(self.ff.clone()),
                    _ if self.pred(s).is_some() => self.pred_app(s, 0..0, mode, t),
                    _ => {
                        let name = self.name(s);
                        Err(self.err_at(name, format!("unknown symbol `{name}`")))
                    }
                }
            }
            Node::Let { start, len, body } => {
                let mut vals = Vec::with_capacity(len as usize);
                for i in start..start + len {
                    let x = self.syn.pairs[i as usize].1;
                    vals.push(self.term(x, &mut Mode::Inner)?);
                }
                for (i, v) in (start..start + len).zip(vals) {
                    self.bind(self.syn.pairs[i as usize].0, v);
                }
                let r = self.term(body, mode);
                for i in (start..start + len).rev() {
                    self.unbind(self.syn.pairs[i as usize].0);
                }
                r
            }
            Node::Attributes { term, .. } => self.term(term, mode),
            // a quantifier among the hypotheses of the usual shape is left to `normalize.rs`,
            // which knows its polarity
            Node::Forall { .. } | Node::Exists { .. } if matches!(mode, Mode::Inner) => {
                self.theory_quantifier(t)
            }
            Node::Forall { .. } | Node::Exists { .. } => Err(self.err_at(
                if matches!(self.syn.node(t), Node::Forall { .. }) { "forall" } else { "exists" },
                format!("unsupported quantifier inside a clause: `{}`", short(&self.syn.c_term(t))),
            )),
            Node::Match(_) => Err(self.err_at("match", "unsupported `match` term")),
            Node::App { head, start, len } => {
                let s = self.syn.qsym(head);
                if s == op::CONST && !self.is_bound(s) {
                    return self.const_array(head, start..start + len, t);
                }
                if self.pred(s).is_some() && !self.is_bound(s) {
                    return self.pred_app(s, start..start + len, mode, t);
                }
                self.app(s, start..start + len, mode, t)
            }
        }
    }

    /// `f(args)` for a pure constructor `f` of up to three arguments, memoized.
    fn memo(&mut self, op: Sym, args: Vec<Term>, f: impl FnOnce(Vec<Term>) -> Term) -> Term {
        let uid = |k: usize| args.get(k).map_or(u64::MAX, |t| t.uid());
        let key = (op, uid(0), uid(1), uid(2));
        if let Some(t) = self.memo.get(&key) {
            return t.clone();
        }
        let t = f(args);
        self.memo.insert(key, t.clone());
        t
    }

    fn args(
        &mut self,
        args: Range<u32>,
        sort: Sort,
        mode: &mut Mode,
    ) -> Result<Vec<Term>, InputError> {
        let mut out = Vec::with_capacity(args.len());
        for i in args {
            let a = self.syn.kids[i as usize];
            let t = self.term(a, mode)?;
            self.expect(&t, sort, a)?;
            out.push(t);
        }
        Ok(out)
    }

    /// The arguments of an arithmetic operator: each `Int` or `Real` (the constructors take
    /// the `Int` ones as reals when one is `Real`).
    fn arith_args(&mut self, args: Range<u32>, mode: &mut Mode) -> Result<Vec<Term>, InputError> {
        let mut out = Vec::with_capacity(args.len());
        for i in args {
            let a = self.syn.kids[i as usize];
            let t = self.term(a, mode)?;
            if t.sort() != Sort::Real {
                self.expect(&t, Sort::Int, a)?;
            }
            out.push(t);
        }
        Ok(out)
    }

    /// The index and element sorts of `x`, which must be an array.
    fn array_parts(&self, x: &Term, src: TermId) -> Result<(Sort, Sort), InputError> {
        x.sort().array_parts().ok_or_else(|| {
            self.err_at(
                &self.first_token(src),
                format!(
                    "`{}` has sort {}, not an array sort",
                    short(&self.syn.c_term(src)),
                    x.sort()
                ),
            )
        })
    }

    /// `((as const S) v)`: the array of sort `S` that is `v` everywhere.
    fn const_array(
        &mut self,
        head: super::syntax::QId,
        a: Range<u32>,
        src: TermId,
    ) -> Result<Term, InputError> {
        self.arity(op::CONST, a.len(), 1, 1, src)?;
        let sort = match self.syn.qsort(head) {
            Some(s) => self.sort(s)?,
            None => {
                return Err(self.err_at(
                    "const",
                    format!(
                        "`{}`: `const` needs a sort (`(as const S)`)",
                        short(&self.syn.c_term(src))
                    ),
                ))
            }
        };
        let Some((_, es)) = sort.array_parts() else {
            return Err(self.err_at("const", format!("`(as const {sort})` needs an array sort")));
        };
        let k = self.syn.kids[a.start as usize];
        let v = self.term(k, &mut Mode::Inner)?;
        self.expect(&v, es, k)?;
        let v = if es == Sort::Real { mk_to_real(v) } else { v };
        Ok(mk_const_array(sort, v))
    }

    fn arity(
        &self,
        name: Sym,
        n: usize,
        lo: usize,
        hi: usize,
        src: TermId,
    ) -> Result<(), InputError> {
        if n < lo || n > hi {
            Err(self.err_at(
                self.name(name),
                format!(
                    "wrong number of arguments in `{}`",
                    short(&self.syn.c_term(src))
                ),
            ))
        } else {
            Ok(())
        }
    }

    fn app(
        &mut self,
        name: Sym,
        a: Range<u32>,
        mode: &mut Mode,
        src: TermId,
    ) -> Result<Term, InputError> {
        let n = a.len();
        let base = a.start as usize;
        let kid = move |p: &Self, k: usize| p.syn.kids[base + k];
        let inner = &mut Mode::Inner;
        Ok(match name {
            op::AND => mk_and(self.args(a, Sort::Bool, mode)?),
            op::OR => {
                let ts = self.args(a, Sort::Bool, inner)?;
                if n == 2 {
                    self.memo(name, ts, mk_or)
                } else {
                    mk_or(ts)
                }
            }
            op::NOT => {
                self.arity(name, n, 1, 1, src)?;
                let ts = self.args(a, Sort::Bool, inner)?;
                self.memo(name, ts, |mut ts| mk_not(ts.pop().unwrap()))
            }
            op::IMPLIES => {
                self.arity(name, n, 2, usize::MAX, src)?;
                let ts = self.args(a, Sort::Bool, inner)?;
                let chain = |mut ts: Vec<Term>| {
                    let mut acc = ts.pop().unwrap();
                    while let Some(h) = ts.pop() {
                        acc = mk_implies(h, acc);
                    }
                    acc
                };
                if n == 2 {
                    self.memo(name, ts, chain)
                } else {
                    chain(ts)
                }
            }
            op::XOR => {
                self.arity(name, n, 2, usize::MAX, src)?;
                let ts = self.args(a, Sort::Bool, inner)?;
                let mut it = ts.into_iter();
                let first = it.next().unwrap();
                it.fold(first, |acc, t| mk_not(mk_eq(acc, t)))
            }
            op::EQ | op::DISTINCT => {
                self.arity(name, n, 2, usize::MAX, src)?;
                let mut ts = Vec::with_capacity(n);
                for k in 0..n {
                    ts.push(self.term(kid(self, k), inner)?);
                }
                let s = if ts.iter().any(|t| t.sort() == Sort::Real) {
                    Sort::Real
                } else {
                    ts[0].sort()
                };
                for (k, t) in ts.iter().enumerate() {
                    self.expect(t, s, kid(self, k))?;
                }
                if name == op::DISTINCT {
                    mk_distinct(ts)
                } else if n == 2 {
                    self.memo(name, ts, |mut ts| {
                        let b = ts.pop().unwrap();
                        mk_eq(ts.pop().unwrap(), b)
                    })
                } else {
                    mk_and(
                        ts.windows(2)
                            .map(|w| mk_eq(w[0].clone(), w[1].clone()))
                            .collect(),
                    )
                }
            }
            op::ITE => {
                self.arity(name, n, 3, 3, src)?;
                let c = self.term(kid(self, 0), inner)?;
                self.expect(&c, Sort::Bool, kid(self, 0))?;
                let x = self.term(kid(self, 1), inner)?;
                let y = self.term(kid(self, 2), inner)?;
                if x.sort() == Sort::Int && y.sort() == Sort::Real {
                    self.expect(&x, Sort::Real, kid(self, 1))?;
                } else {
                    self.expect(&y, x.sort(), kid(self, 2))?;
                }
                self.memo(name, vec![c, x, y], |mut ts| {
                    let y = ts.pop().unwrap();
                    let x = ts.pop().unwrap();
                    mk_ite(ts.pop().unwrap(), x, y)
                })
            }
            op::LE | op::LT | op::GE | op::GT => {
                self.arity(name, n, 2, usize::MAX, src)?;
                let ts = self.arith_args(a, inner)?;
                let rel: fn(Term, Term) -> Term = match name {
                    op::LE => mk_le,
                    op::LT => mk_lt,
                    op::GE => mk_ge,
                    _ => mk_gt,
                };
                if n == 2 {
                    self.memo(name, ts, |mut ts| {
                        let b = ts.pop().unwrap();
                        rel(ts.pop().unwrap(), b)
                    })
                } else {
                    mk_and(
                        ts.windows(2)
                            .map(|w| rel(w[0].clone(), w[1].clone()))
                            .collect(),
                    )
                }
            }
            op::ADD => {
                self.arity(name, n, 1, usize::MAX, src)?;
                mk_add(self.arith_args(a, inner)?)
            }
            op::SUB => {
                self.arity(name, n, 1, usize::MAX, src)?;
                let mut ts = self.arith_args(a, inner)?;
                if ts.len() == 1 {
                    mk_neg(ts.pop().unwrap())
                } else {
                    let first = ts.remove(0);
                    mk_sub(first, mk_add(ts))
                }
            }
            op::MUL => {
                self.arity(name, n, 1, usize::MAX, src)?;
                let ts = self.arith_args(a, inner)?;
                let real = ts.iter().any(|t| t.sort() == Sort::Real);
                let mut coef = rat(1);
                let mut var_part: Option<Term> = None;
                for t in ts {
                    if let Some(c) = const_value(&t) {
                        coef *= c;
                    } else if var_part.is_none() {
                        var_part = Some(t);
                    } else {
                        return Err(self.err_at(
                            "(*",
                            format!(
                                "non-linear product `{}`: only multiplication by a constant is supported",
                                short(&self.syn.c_term(src))
                            ),
                        ));
                    }
                }
                match (var_part, real) {
                    (Some(t), true) => mk_mul_rat(&coef, t),
                    (Some(t), false) => mk_mul_const(&coef.to_integer(), t),
                    (None, true) => mk_real(coef),
                    (None, false) => mk_int(coef.to_integer()),
                }
            }
            op::RDIV => {
                self.arity(name, n, 2, usize::MAX, src)?;
                let ts = self.arith_args(a, inner)?;
                let mut acc = mk_to_real(ts[0].clone());
                for t in &ts[1..] {
                    match const_value(t) {
                        Some(d) if !d.is_zero() => acc = mk_mul_rat(&d.recip(), acc),
                        Some(_) => {
                            return Err(self.err_at(
                                "(/",
                                format!("`/` by zero in `{}`", short(&self.syn.c_term(src))),
                            ))
                        }
                        None => {
                            return Err(self.err_at(
                                "(/",
                                format!(
                                "non-linear `/` in `{}`: only division by a constant is supported",
                                short(&self.syn.c_term(src))
                            ),
                            ))
                        }
                    }
                }
                acc
            }
            op::TO_REAL => {
                self.arity(name, n, 1, 1, src)?;
                let x = self.args(a, Sort::Int, inner)?.pop().unwrap();
                mk_to_real(x)
            }
            op::TO_INT | op::IS_INT => {
                self.arity(name, n, 1, 1, src)?;
                let x = self.args(a, Sort::Real, inner)?.pop().unwrap();
                if name == op::TO_INT {
                    mk_to_int(mk_to_real(x))
                } else {
                    mk_is_int(mk_to_real(x))
                }
            }
            op::DIV | op::MOD => {
                self.arity(name, n, 2, 2, src)?;
                let ts = self.args(a, Sort::Int, inner)?;
                let name = self.name(name);
                let d = match ts[1].as_int() {
                    Some(d) if !d.is_zero() => d.clone(),
                    Some(_) => {
                        return Err(self.err_at(
                            &format!("({name}"),
                            format!("`{name}` by zero in `{}`", short(&self.syn.c_term(src))),
                        ))
                    }
                    None => {
                        return Err(self.err_at(
                            &format!("({name}"),
                            format!(
                            "non-linear `{name}` in `{}`: only division by a constant is supported",
                            short(&self.syn.c_term(src))
                        ),
                        ))
                    }
                };
                if name == "div" {
                    mk_div(ts[0].clone(), d)
                } else {
                    mk_mod(ts[0].clone(), d)
                }
            }
            op::SELECT => {
                self.arity(name, n, 2, 2, src)?;
                let x = self.term(kid(self, 0), inner)?;
                let (is, _) = self.array_parts(&x, kid(self, 0))?;
                let i = self.term(kid(self, 1), inner)?;
                self.expect(&i, is, kid(self, 1))?;
                self.memo(name, vec![x, i], |mut ts| {
                    let i = ts.pop().unwrap();
                    mk_select(ts.pop().unwrap(), i)
                })
            }
            op::STORE => {
                self.arity(name, n, 3, 3, src)?;
                let x = self.term(kid(self, 0), inner)?;
                let (is, es) = self.array_parts(&x, kid(self, 0))?;
                let i = self.term(kid(self, 1), inner)?;
                self.expect(&i, is, kid(self, 1))?;
                let v = self.term(kid(self, 2), inner)?;
                self.expect(&v, es, kid(self, 2))?;
                let v = if es == Sort::Real { mk_to_real(v) } else { v };
                self.memo(name, vec![x, i, v], |mut ts| {
                    let v = ts.pop().unwrap();
                    let i = ts.pop().unwrap();
                    mk_store(ts.pop().unwrap(), i, v)
                })
            }
            op::ABS => {
                self.arity(name, n, 1, 1, src)?;
                let x = self.arith_args(a, inner)?.pop().unwrap();
                mk_ite(mk_ge(x.clone(), mk_int(0)), x.clone(), mk_neg(x))
            }
            _ => {
                let name = self.name(name);
                let what = "it is neither a declared predicate nor a function of linear integer or real arithmetic or arrays";
                return Err(self.err_at(
                    &format!("({name}"),
                    format!(
                        "unsupported function `{name}` in `{}`: {what}",
                        short(&self.syn.c_term(src))
                    ),
                ));
            }
        })
    }
}
