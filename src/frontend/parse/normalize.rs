//! General Horn forms, normalized into clauses of the clause graph.
//!
//! `parse.rs` reads the usual shape `(forall (...) (=> (and apps constraints) head))`
//! directly. An assertion it cannot read that way comes here: `exists` around a body,
//! nested `forall` and `=>` in a head, a clause written as a disjunction
//! `(or (not (P x)) (Q y))`, predicate applications under `and`, `or`, `not` and `=>`.
//!
//! 1. The assertion is put in negation normal form with predicate applications as
//!    literals ([`Nnf`]). A quantifier that is universal there (`forall` in positive,
//!    `exists` in negative position) moves outward with fresh variables. An existential
//!    one over arithmetic alone (the `forall` in a body that Princess writes) stays as a
//!    quantified constraint, which quantifier elimination removes before solving
//!    ([`crate::frontend::passes::eliminate_quantifiers`]); over a predicate application it is an error.
//!    Subformulas without predicate applications stay whole, as one constraint literal.
//! 2. The normal form is multiplied out into a conjunction of disjunctions of literals.
//!    A body disjunction over predicates thus splits into several clauses:
//!    `(=> (or (P x) (Q x)) (R x))` is `P(x) => R(x)` and `Q(x) => R(x)`.
//! 3. Each disjunction `not P1 \/ ... \/ not Pn \/ Q \/ phi` is the clause
//!    `P1 /\ ... /\ Pn /\ not phi => Q`. One with two positive predicate applications is
//!    not Horn: an error naming the assertion's line.

use super::syntax::{Node, Sym, TermId};
use super::{op, short, InputError, Mode, Parser};
use crate::chc::{Clause, PredApp};
use crate::logic::*;

/// The most clauses one assertion may normalize into.
const MAX_CLAUSES: usize = 256;

/// A literal: a predicate application or a formula without any, and its sign.
#[derive(Clone)]
enum Lit {
    Pred(PredApp, bool),
    Constraint(Term, bool),
}

/// A formula in negation normal form over [`Lit`]s.
enum Nnf {
    Lit(Lit),
    And(Vec<Nnf>),
    Or(Vec<Nnf>),
}

impl Lit {
    /// The literal as a formula (for constraints only).
    fn formula(t: &Term, sign: bool) -> Term {
        if sign {
            t.clone()
        } else {
            mk_not(t.clone())
        }
    }
}

/// `and` (or `or`, when `conj` is false) of constraint literals, as one literal.
fn merge(lits: Vec<(Term, bool)>, conj: bool) -> Lit {
    let (pos, neg): (Vec<_>, Vec<_>) = lits.into_iter().partition(|(_, s)| *s);
    let junction = |ts: Vec<Term>, and: bool| if and { mk_and(ts) } else { mk_or(ts) };
    if pos.is_empty() {
        // not a /\ not b = not (a \/ b), and dually: the common negation stays outside
        Lit::Constraint(
            junction(neg.into_iter().map(|l| l.0).collect(), !conj),
            false,
        )
    } else if neg.is_empty() {
        Lit::Constraint(junction(pos.into_iter().map(|l| l.0).collect(), conj), true)
    } else {
        let ts = pos
            .into_iter()
            .chain(neg)
            .map(|(t, s)| Lit::formula(&t, s))
            .collect();
        Lit::Constraint(junction(ts, conj), true)
    }
}

/// The disjuncts of nested disjunctions, in order.
fn flatten_or(parts: Vec<Nnf>, out: &mut Vec<Nnf>) {
    for p in parts {
        match p {
            Nnf::Or(inner) => flatten_or(inner, out),
            p => out.push(p),
        }
    }
}

/// `and` (`or` when `conj` is false) of normal forms, in the polarity it stands in.
fn junction(parts: Vec<Nnf>, conj: bool) -> Nnf {
    if parts
        .iter()
        .all(|p| matches!(p, Nnf::Lit(Lit::Constraint(..))))
    {
        let lits = parts
            .into_iter()
            .map(|p| match p {
                Nnf::Lit(Lit::Constraint(t, s)) => (t, s),
                _ => unreachable!("checked above"),
            })
            .collect();
        return Nnf::Lit(merge(lits, conj));
    }
    if conj {
        Nnf::And(parts)
    } else {
        Nnf::Or(parts)
    }
}

impl Parser<'_> {
    /// The clauses of an assertion in any Horn form.
    pub(super) fn general_clauses(&mut self, t: TermId) -> Result<Vec<Clause>, InputError> {
        let mut quantified = vec![];
        let f = self.nnf(t, true, &mut quantified)?;
        let mut out = vec![];
        for lits in self.cnf(f)? {
            if let Some(c) = self.horn(lits)? {
                out.push(c);
            }
        }
        Ok(out)
    }

    /// The variable a universal quantifier binds `sym` to: the variable of that name, or a
    /// fresh one when the name is bound already or was quantified elsewhere in the assertion.
    fn binder(&mut self, sym: Sym, sort: Sort, quantified: &mut Vec<Sym>) -> Term {
        if !self.is_bound(sym) && !quantified.contains(&sym) {
            quantified.push(sym);
            return self.var(sym, sort);
        }
        self.fresh_var(sym, sort)
    }

    /// A variable named `sym!k` for the first `k` no symbol of the input has.
    pub(super) fn fresh_var(&mut self, sym: Sym, sort: Sort) -> Term {
        let base = self.name(sym).to_string();
        for k in 1.. {
            let name = format!("{base}!{k}");
            let n = self.syn.num_syms();
            if self.syn.intern(name.clone()) as usize == n {
                // a new symbol: no variable of the input has this name
                return mk_var(&name, sort);
            }
        }
        unreachable!("some fresh name exists")
    }

    /// The normal form of `t` in positive (`pos`) or negative position.
    fn nnf(&mut self, t: TermId, pos: bool, quantified: &mut Vec<Sym>) -> Result<Nnf, InputError> {
        match self.syn.node(t) {
            node @ (Node::Forall { start, len, body } | Node::Exists { start, len, body }) => {
                let forall = matches!(node, Node::Forall { .. });
                if forall != pos {
                    // existential here: over arithmetic alone it is a theory constraint
                    // (eliminated before solving); over a predicate, not Horn
                    if !self.mentions_pred(body) {
                        let c = self.term(t, &mut Mode::Inner)?;
                        return Ok(Nnf::Lit(Lit::Constraint(c, pos)));
                    }
                    let kw = if forall { "forall" } else { "exists" };
                    return Err(self.err_at(
                        kw,
                        format!(
                            "existential quantifier `{}` over a predicate application: the clause is not Horn without quantifier elimination (only `forall` over a clause, `exists` around its body; a quantifier over arithmetic alone is eliminated)",
                            short(&self.syn.c_term(t))
                        ),
                    ));
                }
                let mut bound = vec![];
                let mut r = Ok(());
                for i in start..start + len {
                    let (sym, sort) = self.syn.pairs[i as usize];
                    match self.sort(sort) {
                        Ok(s) => {
                            let v = self.binder(sym, s, quantified);
                            self.bind(sym, v);
                            bound.push(sym);
                        }
                        Err(e) => {
                            r = Err(e);
                            break;
                        }
                    }
                }
                let out = r.and_then(|_| self.nnf(body, pos, quantified));
                for s in bound.iter().rev() {
                    self.unbind(*s);
                }
                out
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
                let out = self.nnf(body, pos, quantified);
                for i in (start..start + len).rev() {
                    self.unbind(self.syn.pairs[i as usize].0);
                }
                out
            }
            Node::Attributes { term, .. } => self.nnf(term, pos, quantified),
            Node::Id(q)
                if self.pred(self.syn.qsym(q)).is_some() && !self.is_bound(self.syn.qsym(q)) =>
            {
                self.pred_lit(self.syn.qsym(q), 0..0, pos, t)
            }
            Node::App { head, start, len } => {
                let s = self.syn.qsym(head);
                if self.pred(s).is_some() && !self.is_bound(s) {
                    return self.pred_lit(s, start..start + len, pos, t);
                }
                let kids = self.syn.kids(start, len).to_vec();
                match s {
                    op::AND | op::OR => {
                        let parts = kids
                            .iter()
                            .map(|&k| self.nnf(k, pos, quantified))
                            .collect::<Result<Vec<_>, _>>()?;
                        // De Morgan: in negative position `and` is a disjunction
                        Ok(junction(parts, (s == op::AND) == pos))
                    }
                    op::NOT if len == 1 => self.nnf(kids[0], !pos, quantified),
                    op::IMPLIES if len >= 2 => {
                        let (last, hyps) = kids.split_last().unwrap();
                        let mut parts = hyps
                            .iter()
                            .map(|&k| self.nnf(k, !pos, quantified))
                            .collect::<Result<Vec<_>, _>>()?;
                        parts.push(self.nnf(*last, pos, quantified)?);
                        // `a => b` is `not a \/ b`; negated, `a /\ not b`
                        Ok(junction(parts, !pos))
                    }
                    _ => self.atom(t, pos),
                }
            }
            _ => self.atom(t, pos),
        }
    }

    /// A subformula without predicate applications (else [`Parser::term`] says where one is).
    fn atom(&mut self, t: TermId, pos: bool) -> Result<Nnf, InputError> {
        let c = self.term(t, &mut Mode::Inner)?;
        self.expect(&c, Sort::Bool, t)?;
        Ok(Nnf::Lit(Lit::Constraint(c, pos)))
    }

    fn pred_lit(
        &mut self,
        name: Sym,
        args: std::ops::Range<u32>,
        pos: bool,
        src: TermId,
    ) -> Result<Nnf, InputError> {
        let mut apps = vec![];
        self.pred_app(name, args, &mut Mode::Body(&mut apps), src)?;
        let app = apps.pop().expect("pred_app adds the application");
        Ok(Nnf::Lit(Lit::Pred(app, pos)))
    }

    /// The normal form multiplied out: a conjunction of disjunctions.
    fn cnf(&self, f: Nnf) -> Result<Vec<Vec<Lit>>, InputError> {
        let too_many = || {
            self.err(format!(
                "the clause normalizes into more than {MAX_CLAUSES} Horn clauses"
            ))
        };
        Ok(match f {
            Nnf::Lit(l) => vec![vec![l]],
            Nnf::And(parts) => {
                let mut out = vec![];
                for p in parts {
                    out.extend(self.cnf(p)?);
                    if out.len() > MAX_CLAUSES {
                        return Err(too_many());
                    }
                }
                out
            }
            Nnf::Or(parts) => {
                // Nested disjunctions are flattened first, and a one-clause factor extends the
                // clauses in place: multiplying out level by level copied the clause so far at
                // every level, quadratic in the depth (`(=> a (=> b (=> c ...)))` 20,000 deep
                // took seconds; found by scripts/fuzz).
                let mut flat = vec![];
                flatten_or(parts, &mut flat);
                let mut acc: Vec<Vec<Lit>> = vec![vec![]];
                for p in flat {
                    let mut c = self.cnf(p)?;
                    if acc.len() * c.len() > MAX_CLAUSES {
                        return Err(too_many());
                    }
                    if c.len() == 1 {
                        let b = c.pop().unwrap();
                        if acc.len() == 1 {
                            acc[0].extend(b);
                        } else {
                            for a in &mut acc {
                                a.extend(b.iter().cloned());
                            }
                        }
                        continue;
                    }
                    acc = acc
                        .iter()
                        .flat_map(|a| c.iter().map(move |b| a.iter().chain(b).cloned().collect()))
                        .collect();
                }
                acc
            }
        })
    }

    /// The clause of a disjunction of literals; `None` when it is valid (a true constraint).
    fn horn(&self, lits: Vec<Lit>) -> Result<Option<Clause>, InputError> {
        let (mut body, mut heads, mut conj) = (vec![], vec![], vec![]);
        for l in lits {
            match l {
                Lit::Pred(a, false) => body.push(a),
                Lit::Pred(a, true) => heads.push(a),
                // the disjunct `phi` is the body constraint `not phi`
                Lit::Constraint(t, sign) => conj.push(Lit::formula(&t, !sign)),
            }
        }
        let constraint = mk_and(conj);
        if constraint.as_bool() == Some(false) {
            return Ok(None);
        }
        if heads.len() > 1 {
            let names: Vec<String> = heads
                .iter()
                .map(|a| format!("`{}`", self.sys.pred(a.pred).name))
                .collect();
            return Err(self.err(format!(
                "the clause is not Horn: in normal form one of its clauses has {} positive predicate applications ({}), a Horn clause at most one",
                heads.len(),
                names.join(", ")
            )));
        }
        Ok(Some(Clause {
            body,
            constraint,
            head: heads.pop(),
            line: self.line,
        }))
    }
}
