//! Reads CHC-COMP files (SMT-LIB2 with `set-logic HORN`) through smt2parser into a [`ChcSystem`].
//!
//! The input is first split into top-level commands by a small scanner, which gives
//! each command its line and catches stray text and unbalanced parentheses. Each
//! command is then parsed by smt2parser and converted to our terms, clause by clause,
//! so peak memory stays near the size of the largest command.

use super::chc::{ChcSystem, Clause, InputError, PredApp, PredDecl, PredId};
use crate::logic::*;
use num_bigint::BigInt;
use num_traits::Zero;
use rustc_hash::FxHashMap;
use smt2parser::concrete::{Command, Constant, Identifier, QualIdentifier, Term as PTerm};
use smt2parser::CommandStream;

/// Parses a whole problem.
pub fn parse_str(input: &str) -> Result<ChcSystem, InputError> {
    let commands = split_commands(input.as_bytes())?;
    let mut p = Parser {
        input,
        sys: ChcSystem::default(),
        preds: FxHashMap::default(),
        env: FxHashMap::default(),
        check_sat: false,
        cmd_start: 0,
        cmd_end: 0,
        line: 0,
    };
    let mut stream = CommandStream::new(input.as_bytes(), smt2parser::concrete::SyntaxBuilder, None);
    for (start, end, line) in commands {
        p.cmd_start = start;
        p.cmd_end = end;
        p.line = line;
        let cmd = match stream.next() {
            Some(Ok(cmd)) => cmd,
            Some(Err(e)) => return Err(p.syntax_error(e)),
            None => return Err(InputError::new(line, "unexpected end of input")),
        };
        p.command(cmd)?;
    }
    Ok(p.sys)
}

/// Splits the input into top-level commands: (start byte, end byte, 1-based line).
fn split_commands(b: &[u8]) -> Result<Vec<(usize, usize, usize)>, InputError> {
    let mut out = vec![];
    let (mut i, mut line, mut depth) = (0usize, 1usize, 0usize);
    let (mut start, mut start_line) = (0usize, 0usize);
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => line += 1,
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'|' => {
                let (open_line, close) = (line, c);
                i += 1;
                loop {
                    if i >= b.len() {
                        let what = if close == b'"' { "string" } else { "quoted symbol" };
                        return Err(InputError::new(
                            open_line,
                            format!("unexpected end of input: unterminated {what}"),
                        ));
                    }
                    if b[i] == b'\n' {
                        line += 1;
                    }
                    if b[i] == close {
                        // "" inside a string is an escaped quote
                        if close == b'"' && i + 1 < b.len() && b[i + 1] == b'"' {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
                if depth == 0 {
                    return Err(InputError::new(line, "unexpected text outside a command"));
                }
            }
            b'(' => {
                if depth == 0 {
                    start = i;
                    start_line = line;
                }
                depth += 1;
            }
            b')' => {
                if depth == 0 {
                    return Err(InputError::new(line, "unbalanced `)`"));
                }
                depth -= 1;
                if depth == 0 {
                    out.push((start, i + 1, start_line));
                }
            }
            c if c.is_ascii_whitespace() => {}
            _ if depth == 0 => {
                let end = b[i..]
                    .iter()
                    .position(|c| c.is_ascii_whitespace() || *c == b'(')
                    .map_or(b.len(), |p| i + p);
                let text = String::from_utf8_lossy(&b[i..end.min(i + 30)]).to_string();
                return Err(InputError::new(
                    line,
                    format!("unexpected text `{text}` outside a command"),
                ));
            }
            _ => {}
        }
        i += 1;
    }
    if depth > 0 {
        return Err(InputError::new(
            start_line,
            "unexpected end of input: the command starting here is not closed (truncated file?)",
        ));
    }
    if out.is_empty() {
        return Err(InputError::new(0, "empty input: no commands"));
    }
    Ok(out)
}

/// Where a term sits in a clause body: conjunctive top level, where predicate
/// applications may stand, or anywhere else.
enum Mode<'a> {
    Body(&'a mut Vec<PredApp>),
    Inner,
}

struct Parser<'a> {
    input: &'a str,
    sys: ChcSystem,
    preds: FxHashMap<String, PredId>,
    /// Bound symbols (quantified variables and `let`s), innermost last.
    env: FxHashMap<String, Vec<Term>>,
    check_sat: bool,
    cmd_start: usize,
    cmd_end: usize,
    line: usize,
}

fn short(t: &impl std::fmt::Display) -> String {
    let s = t.to_string();
    if s.len() > 60 {
        let mut cut = 57;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}...", &s[..cut])
    } else {
        s
    }
}

fn symbol_of(id: &QualIdentifier) -> &str {
    match id {
        QualIdentifier::Simple { identifier } | QualIdentifier::Sorted { identifier, .. } => {
            match identifier {
                Identifier::Simple { symbol } | Identifier::Indexed { symbol, .. } => &symbol.0,
            }
        }
    }
}

impl Parser<'_> {
    fn syntax_error(&self, e: smt2parser::Error) -> InputError {
        let (pos, msg) = match e {
            smt2parser::Error::SyntaxError(p, m) | smt2parser::Error::ParsingError(p, m) => (p, m),
        };
        InputError::new(pos.line, format!("syntax error: {msg}"))
    }

    /// An error about `what`, located at the first occurrence of `token` in the command.
    fn err_at(&self, token: &str, what: impl Into<String>) -> InputError {
        let text = &self.input[self.cmd_start..self.cmd_end];
        let line = text
            .find(token)
            .map(|p| self.line + text[..p].matches('\n').count())
            .unwrap_or(self.line);
        InputError::new(line, what)
    }

    fn err(&self, what: impl Into<String>) -> InputError {
        InputError::new(self.line, what)
    }

    fn sort(&self, s: &smt2parser::concrete::Sort) -> Result<Sort, InputError> {
        if let smt2parser::concrete::Sort::Simple {
            identifier: Identifier::Simple { symbol },
        } = s
        {
            match symbol.0.as_str() {
                "Int" => return Ok(Sort::Int),
                "Bool" => return Ok(Sort::Bool),
                _ => {}
            }
        }
        Err(self.err_at(
            &s.to_string(),
            format!("unsupported sort `{}`: only Int and Bool are supported", short(s)),
        ))
    }

    fn command(&mut self, cmd: Command) -> Result<(), InputError> {
        if self.check_sat && !matches!(cmd, Command::Exit | Command::GetModel | Command::GetInfo { .. })
        {
            let what = if matches!(cmd, Command::CheckSat) {
                "a second check-sat is not supported".to_string()
            } else {
                format!("command after check-sat: `{}`", short(&cmd))
            };
            return Err(self.err(what));
        }
        match cmd {
            Command::SetLogic { symbol } => {
                if symbol.0 != "HORN" {
                    return Err(self.err(format!(
                        "unsupported logic `{}`: expected (set-logic HORN)",
                        symbol.0
                    )));
                }
            }
            Command::SetInfo { .. } | Command::SetOption { .. } | Command::GetInfo { .. } => {}
            Command::Exit | Command::GetModel => {}
            Command::CheckSat => self.check_sat = true,
            Command::DeclareFun {
                symbol,
                parameters,
                sort,
            } => {
                if self.sort(&sort)? != Sort::Bool {
                    return Err(self.err(format!(
                        "declare-fun `{}`: uninterpreted functions other than predicates (result sort Bool) are not supported",
                        symbol.0
                    )));
                }
                if self.preds.contains_key(&symbol.0) {
                    return Err(self.err(format!("predicate `{}` declared twice", symbol.0)));
                }
                let sorts = parameters
                    .iter()
                    .map(|s| self.sort(s))
                    .collect::<Result<Vec<_>, _>>()?;
                let id = PredId(self.sys.preds.len() as u32);
                self.preds.insert(symbol.0.clone(), id);
                self.sys.preds.push(PredDecl {
                    name: symbol.0,
                    sorts,
                });
            }
            Command::Assert { term } => {
                let c = self.clause(&term)?;
                self.sys.clauses.push(c);
            }
            other => {
                return Err(self.err(format!("unsupported command `{}`", short(&other))));
            }
        }
        Ok(())
    }

    fn bind(&mut self, name: &str, t: Term) {
        self.env.entry(name.to_string()).or_default().push(t);
    }

    fn unbind(&mut self, name: &str) {
        if let Some(v) = self.env.get_mut(name) {
            v.pop();
            if v.is_empty() {
                self.env.remove(name);
            }
        }
    }

    /// `(assert t)`: peels `forall`s and `let`s down to `body => head`.
    fn clause(&mut self, t: &PTerm) -> Result<Clause, InputError> {
        let mut bound: Vec<String> = vec![];
        let mut t = t;
        let result = loop {
            match t {
                PTerm::Forall { vars, term } => {
                    for (sym, sort) in vars {
                        let s = self.sort(sort)?;
                        self.bind(&sym.0, mk_var(&sym.0, s));
                        bound.push(sym.0.clone());
                    }
                    t = term;
                }
                PTerm::Let { var_bindings, term } => {
                    let vals = var_bindings
                        .iter()
                        .map(|(_, v)| self.term(v, &mut Mode::Inner))
                        .collect::<Result<Vec<_>, _>>()?;
                    for ((sym, _), v) in var_bindings.iter().zip(vals) {
                        self.bind(&sym.0, v);
                        bound.push(sym.0.clone());
                    }
                    t = term;
                }
                PTerm::Application {
                    qual_identifier,
                    arguments,
                } if symbol_of(qual_identifier) == "=>" && !self.env.contains_key("=>") => {
                    let (hyps, head) = arguments.split_at(arguments.len() - 1);
                    break self.implication(hyps, Some(&head[0]));
                }
                PTerm::Application {
                    qual_identifier,
                    arguments,
                } if symbol_of(qual_identifier) == "not" && arguments.len() == 1 => {
                    break self.implication(&arguments[..], None);
                }
                _ => break self.implication(&[], Some(t)),
            }
        };
        for name in bound.iter().rev() {
            self.unbind(name);
        }
        result
    }

    /// `hyps => head`; no head means `false`.
    fn implication(&mut self, hyps: &[PTerm], head: Option<&PTerm>) -> Result<Clause, InputError> {
        let mut body = vec![];
        let mut conj = vec![];
        for h in hyps {
            let t = self.term(h, &mut Mode::Body(&mut body))?;
            self.expect(&t, Sort::Bool, h)?;
            conj.push(t);
        }
        let Some(head) = head else {
            return Ok(Clause {
                body,
                constraint: mk_and(conj),
                head: None,
                line: self.line,
            });
        };
        let mut heads = vec![];
        let h = self.term(head, &mut Mode::Body(&mut heads))?;
        self.expect(&h, Sort::Bool, head)?;
        let head_app = match heads.len() {
            0 => {
                // A constraint head `phi` is the query `body /\ not phi => false`.
                conj.push(mk_not(h));
                None
            }
            1 if h.as_bool() == Some(true) => heads.pop(),
            _ => {
                return Err(self.err(format!(
                    "unsupported clause head `{}`: expected one predicate application or false",
                    short(head)
                )))
            }
        };
        Ok(Clause {
            body,
            constraint: mk_and(conj),
            head: head_app,
            line: self.line,
        })
    }

    fn expect(&self, t: &Term, sort: Sort, src: &PTerm) -> Result<(), InputError> {
        if t.sort() != sort {
            return Err(self.err_at(
                &first_token(src),
                format!("sort mismatch: `{}` is {} where {} is expected", short(src), t.sort(), sort),
            ));
        }
        Ok(())
    }

    fn pred_app(
        &mut self,
        name: &str,
        args: &[PTerm],
        mode: &mut Mode,
        src: &PTerm,
    ) -> Result<Term, InputError> {
        let id = self.preds[name];
        let sorts = self.sys.pred(id).sorts.clone();
        if sorts.len() != args.len() {
            return Err(self.err_at(
                name,
                format!(
                    "predicate `{name}` takes {} arguments, applied to {}",
                    sorts.len(),
                    args.len()
                ),
            ));
        }
        let mut terms = Vec::with_capacity(args.len());
        for (a, s) in args.iter().zip(&sorts) {
            let t = self.term(a, &mut Mode::Inner)?;
            self.expect(&t, *s, a)?;
            terms.push(t);
        }
        match mode {
            Mode::Body(apps) => {
                apps.push(PredApp {
                    pred: id,
                    args: terms,
                });
                Ok(mk_true())
            }
            Mode::Inner => Err(self.err_at(
                name,
                format!(
                    "predicate application `{}` under a connective: only conjunctions of predicate applications are supported in a clause body",
                    short(src)
                ),
            )),
        }
    }

    fn term(&mut self, t: &PTerm, mode: &mut Mode) -> Result<Term, InputError> {
        match t {
            PTerm::Constant(Constant::Numeral(n)) => {
                Ok(mk_int(n.to_str_radix(10).parse::<BigInt>().expect("numeral")))
            }
            PTerm::Constant(c) => Err(self.err_at(
                &c.to_string(),
                format!("unsupported literal `{}`: only integer literals are supported (no reals, bit-vectors or strings)", short(c)),
            )),
            PTerm::QualIdentifier(id) => {
                let name = symbol_of(id);
                if let Some(v) = self.env.get(name).and_then(|v| v.last()) {
                    return Ok(v.clone());
                }
                match name {
                    "true" => Ok(mk_true()),
                    "false" => Ok(mk_false()),
                    _ if self.preds.contains_key(name) => self.pred_app(name, &[], mode, t),
                    _ => Err(self.err_at(name, format!("unknown symbol `{name}`"))),
                }
            }
            PTerm::Let { var_bindings, term } => {
                let vals = var_bindings
                    .iter()
                    .map(|(_, v)| self.term(v, &mut Mode::Inner))
                    .collect::<Result<Vec<_>, _>>()?;
                for ((sym, _), v) in var_bindings.iter().zip(vals) {
                    self.bind(&sym.0, v);
                }
                let r = self.term(term, mode);
                for (sym, _) in var_bindings.iter().rev() {
                    self.unbind(&sym.0);
                }
                r
            }
            PTerm::Attributes { term, .. } => self.term(term, mode),
            PTerm::Forall { .. } | PTerm::Exists { .. } => Err(self.err_at(
                if matches!(t, PTerm::Forall { .. }) { "forall" } else { "exists" },
                format!("unsupported quantifier inside a clause: `{}`", short(t)),
            )),
            PTerm::Match { .. } => Err(self.err_at("match", "unsupported `match` term")),
            PTerm::Application {
                qual_identifier,
                arguments,
            } => {
                let name = symbol_of(qual_identifier);
                if self.preds.contains_key(name) && !self.env.contains_key(name) {
                    return self.pred_app(name, arguments, mode, t);
                }
                self.app(name, arguments, mode, t)
            }
        }
    }

    fn args(&mut self, args: &[PTerm], sort: Sort, mode: &mut Mode) -> Result<Vec<Term>, InputError> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            let t = self.term(a, mode)?;
            self.expect(&t, sort, a)?;
            out.push(t);
        }
        Ok(out)
    }

    fn app(&mut self, name: &str, a: &[PTerm], mode: &mut Mode, src: &PTerm) -> Result<Term, InputError> {
        let arity = |lo: usize, hi: usize| -> Result<(), InputError> {
            if a.len() < lo || a.len() > hi {
                Err(self.err_at(name, format!("wrong number of arguments in `{}`", short(src))))
            } else {
                Ok(())
            }
        };
        let inner = &mut Mode::Inner;
        Ok(match name {
            "and" => mk_and(self.args(a, Sort::Bool, mode)?),
            "or" => mk_or(self.args(a, Sort::Bool, inner)?),
            "not" => {
                arity(1, 1)?;
                mk_not(self.args(a, Sort::Bool, inner)?.pop().unwrap())
            }
            "=>" => {
                arity(2, usize::MAX)?;
                let mut ts = self.args(a, Sort::Bool, inner)?;
                let mut acc = ts.pop().unwrap();
                while let Some(h) = ts.pop() {
                    acc = mk_implies(h, acc);
                }
                acc
            }
            "xor" => {
                arity(2, usize::MAX)?;
                let ts = self.args(a, Sort::Bool, inner)?;
                let mut it = ts.into_iter();
                let first = it.next().unwrap();
                it.fold(first, |acc, t| mk_not(mk_eq(acc, t)))
            }
            "=" | "distinct" => {
                arity(2, usize::MAX)?;
                let mut ts = vec![];
                for x in a {
                    ts.push(self.term(x, inner)?);
                }
                let s = ts[0].sort();
                for (t, x) in ts.iter().zip(a) {
                    self.expect(t, s, x)?;
                }
                if name == "distinct" {
                    mk_distinct(ts)
                } else {
                    mk_and(ts.windows(2).map(|w| mk_eq(w[0].clone(), w[1].clone())).collect())
                }
            }
            "ite" => {
                arity(3, 3)?;
                let c = self.term(&a[0], inner)?;
                self.expect(&c, Sort::Bool, &a[0])?;
                let x = self.term(&a[1], inner)?;
                let y = self.term(&a[2], inner)?;
                self.expect(&y, x.sort(), &a[2])?;
                mk_ite(c, x, y)
            }
            "<=" | "<" | ">=" | ">" => {
                arity(2, usize::MAX)?;
                let ts = self.args(a, Sort::Int, inner)?;
                let rel: fn(Term, Term) -> Term = match name {
                    "<=" => mk_le,
                    "<" => mk_lt,
                    ">=" => mk_ge,
                    _ => mk_gt,
                };
                mk_and(ts.windows(2).map(|w| rel(w[0].clone(), w[1].clone())).collect())
            }
            "+" => {
                arity(1, usize::MAX)?;
                mk_add(self.args(a, Sort::Int, inner)?)
            }
            "-" => {
                arity(1, usize::MAX)?;
                let mut ts = self.args(a, Sort::Int, inner)?;
                if ts.len() == 1 {
                    mk_neg(ts.pop().unwrap())
                } else {
                    let first = ts.remove(0);
                    mk_sub(first, mk_add(ts))
                }
            }
            "*" => {
                arity(1, usize::MAX)?;
                let ts = self.args(a, Sort::Int, inner)?;
                let mut coef = BigInt::from(1);
                let mut var_part: Option<Term> = None;
                for t in ts {
                    if let Some(n) = t.as_int() {
                        coef *= n;
                    } else if var_part.is_none() {
                        var_part = Some(t);
                    } else {
                        return Err(self.err_at(
                            "(*",
                            format!("non-linear product `{}`: only multiplication by a constant is supported", short(src)),
                        ));
                    }
                }
                match var_part {
                    Some(t) => mk_mul_const(&coef, t),
                    None => mk_int(coef),
                }
            }
            "div" | "mod" => {
                arity(2, 2)?;
                let ts = self.args(a, Sort::Int, inner)?;
                let d = match ts[1].as_int() {
                    Some(d) if !d.is_zero() => d.clone(),
                    Some(_) => return Err(self.err_at(&format!("({name}"), format!("`{name}` by zero in `{}`", short(src)))),
                    None => {
                        return Err(self.err_at(
                            &format!("({name}"),
                            format!("non-linear `{name}` in `{}`: only division by a constant is supported", short(src)),
                        ))
                    }
                };
                if name == "div" {
                    mk_div(ts[0].clone(), d)
                } else {
                    mk_mod(ts[0].clone(), d)
                }
            }
            "abs" => {
                arity(1, 1)?;
                let x = self.args(a, Sort::Int, inner)?.pop().unwrap();
                mk_ite(mk_ge(x.clone(), mk_int(0)), x.clone(), mk_neg(x))
            }
            _ => {
                let what = match name {
                    "select" | "store" => "arrays are not supported".to_string(),
                    "/" | "to_real" | "to_int" | "is_int" => "reals are not supported".to_string(),
                    _ => "only linear integer arithmetic and Booleans are supported".to_string(),
                };
                return Err(self.err_at(
                    &format!("({name}"),
                    format!("unsupported function `{name}` in `{}`: {what}", short(src)),
                ));
            }
        })
    }
}

/// The leading token of a term as it appears in the text, to locate it.
fn first_token(t: &PTerm) -> String {
    match t {
        PTerm::Application { qual_identifier, .. } => format!("({}", symbol_of(qual_identifier)),
        PTerm::QualIdentifier(id) => symbol_of(id).to_string(),
        other => short(other),
    }
}

#[cfg(test)]
mod tests;
