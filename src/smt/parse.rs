//! Parsing solver answers: values, literals and raw s-expressions.

use crate::logic::{Rat, Term, TermNode, Value, Var};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use rsmt2::parse::{ExprParser, SmtParser, SymParser, ValueParser};
use rsmt2::SmtRes;
use std::io::{self, BufReader, Read};

/// An s-expression as the solvers print them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum Sexp {
    /// A symbol (bars kept), numeral, keyword or string literal (quotes kept).
    Atom(String),
    /// A parenthesized list.
    List(Vec<Sexp>),
}

impl Sexp {
    /// Parses exactly one s-expression (surrounding whitespace and comments allowed).
    pub(super) fn parse(s: &str) -> Result<Sexp, String> {
        let mut p = SexpReader {
            s: s.as_bytes(),
            i: 0,
        };
        let e = p.sexp()?;
        p.skip_ws();
        if p.i < p.s.len() {
            return Err(format!("trailing text after s-expression in `{s}`"));
        }
        Ok(e)
    }

    /// The symbol without its `|...|` quotes, if this is an atom.
    pub(super) fn symbol(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a) => Some(unquote(a)),
            Sexp::List(_) => None,
        }
    }

    /// The message of an `(error "msg")` answer.
    pub(super) fn error_message(&self) -> Option<String> {
        match self {
            Sexp::List(v) if v.len() == 2 && v[0] == Sexp::Atom("error".into()) => {
                Some(match &v[1] {
                    Sexp::Atom(m) => m.trim_matches('"').replace("\"\"", "\""),
                    other => format!("{other:?}"),
                })
            }
            _ => None,
        }
    }
}

/// Strips the bars of a quoted symbol.
pub(super) fn unquote(s: &str) -> &str {
    if s.len() >= 2 && s.starts_with('|') && s.ends_with('|') {
        &s[1..s.len() - 1]
    } else {
        s
    }
}

struct SexpReader<'a> {
    s: &'a [u8],
    i: usize,
}

impl SexpReader<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() {
            match self.s[self.i] {
                c if c.is_ascii_whitespace() => self.i += 1,
                b';' => {
                    while self.i < self.s.len() && self.s[self.i] != b'\n' {
                        self.i += 1
                    }
                }
                _ => break,
            }
        }
    }

    fn sexp(&mut self) -> Result<Sexp, String> {
        self.skip_ws();
        let start = self.i;
        match self.s.get(self.i) {
            None => Err("unexpected end of s-expression".into()),
            Some(b'(') => {
                self.i += 1;
                let mut items = vec![];
                loop {
                    self.skip_ws();
                    match self.s.get(self.i) {
                        None => return Err("unclosed parenthesis".into()),
                        Some(b')') => {
                            self.i += 1;
                            return Ok(Sexp::List(items));
                        }
                        _ => items.push(self.sexp()?),
                    }
                }
            }
            Some(b')') => Err("unexpected `)`".into()),
            Some(&q @ (b'|' | b'"')) => {
                self.i += 1;
                loop {
                    match self.s.get(self.i) {
                        None => return Err("unclosed quoted symbol or string".into()),
                        // `""` is an escaped quote inside a string literal
                        Some(&c)
                            if c == q && q == b'"' && self.s.get(self.i + 1) == Some(&b'"') =>
                        {
                            self.i += 2
                        }
                        Some(&c) if c == q => {
                            self.i += 1;
                            break;
                        }
                        _ => self.i += 1,
                    }
                }
                Ok(Sexp::Atom(self.text(start)))
            }
            Some(_) => {
                while let Some(&c) = self.s.get(self.i) {
                    if c.is_ascii_whitespace() || matches!(c, b'(' | b')' | b';' | b'|' | b'"') {
                        break;
                    }
                    self.i += 1;
                }
                Ok(Sexp::Atom(self.text(start)))
            }
        }
    }

    fn text(&self, start: usize) -> String {
        String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
    }
}

/// Interprets a value printed by a solver: `true`, `false`, `5`, `-5`, `(- 5)`, reals as
/// `1.5`, `2.0`, `(/ 1 2)`, `(- (/ 3 4))`, `(/ (- 3) 4)`, and the occasional
/// `(+ ...)`/`(* ...)` of numerals. A value with a decimal point or a `/` is a `Real`.
pub(super) fn sexp_to_value(e: &Sexp) -> Result<Value, String> {
    if super::array_value::is_array_sexp(e) {
        return super::array_value::sexp_to_array(e);
    }
    match e {
        Sexp::Atom(a) if a == "true" => Ok(Value::Bool(true)),
        Sexp::Atom(a) if a == "false" => Ok(Value::Bool(false)),
        _ => {
            let (r, real) = sexp_to_number(e)?;
            if real {
                Ok(Value::Real(r))
            } else {
                Ok(Value::Int(r.to_integer()))
            }
        }
    }
}

/// A numeric value and whether it is written as a real.
fn sexp_to_number(e: &Sexp) -> Result<(Rat, bool), String> {
    match e {
        Sexp::Atom(s) => {
            let digits = s.strip_prefix('-').unwrap_or(s);
            let (int_part, frac) = match digits.split_once('.') {
                Some((i, f)) => (i, Some(f)),
                None => (digits, None),
            };
            let ok = |d: &str| d.bytes().all(|c| c.is_ascii_digit());
            if int_part.is_empty() || !ok(int_part) || !frac.is_none_or(|f| !f.is_empty() && ok(f))
            {
                return Err(format!("unexpected value `{s}`"));
            }
            let frac = frac.unwrap_or("");
            let num: BigInt = format!("{int_part}{frac}")
                .parse()
                .map_err(|e| format!("bad number `{s}`: {e}"))?;
            let den = num_traits::pow(BigInt::from(10), frac.len());
            let r = Rat::new(num, den);
            let r = if s.starts_with('-') { -r } else { r };
            Ok((r, digits.contains('.')))
        }
        Sexp::List(v) => {
            let op = v.first().and_then(Sexp::symbol);
            let args = || -> Result<(Vec<Rat>, bool), String> {
                let mut real = false;
                let mut out = vec![];
                for a in &v[1..] {
                    let (r, re) = sexp_to_number(a)?;
                    real |= re;
                    out.push(r);
                }
                Ok((out, real))
            };
            match (op, v.len()) {
                (Some("-"), 2) => {
                    let (mut xs, re) = args()?;
                    Ok((-xs.pop().unwrap(), re))
                }
                (Some("-"), n) if n > 2 => {
                    let (xs, re) = args()?;
                    let first = xs[0].clone();
                    Ok((xs[1..].iter().fold(first, |a, b| a - b), re))
                }
                (Some("+"), n) if n > 1 => {
                    let (xs, re) = args()?;
                    Ok((xs.into_iter().fold(Rat::zero(), |a, b| a + b), re))
                }
                (Some("*"), n) if n > 1 => {
                    let (xs, re) = args()?;
                    Ok((xs.into_iter().fold(Rat::one(), |a, b| a * b), re))
                }
                (Some("/"), 3) => {
                    let (xs, _) = args()?;
                    if xs[1].is_zero() {
                        return Err(format!("division by zero in value `{e:?}`"));
                    }
                    Ok((&xs[0] / &xs[1], true))
                }
                (Some("to_real"), 2) => Ok((args()?.0.pop().unwrap(), true)),
                _ => Err(format!("unexpected value `{e:?}`")),
            }
        }
    }
}

/// A `check-sat-assuming` literal: a variable name and its polarity.
pub(super) type Lit = (String, bool);

/// The literal of a term `v` or `(not v)`, for a Boolean variable `v`.
pub(super) fn term_lit(t: &Term) -> Option<Lit> {
    let (v, pol): (&Var, bool) = match t.get() {
        TermNode::Var(v) => (v, true),
        TermNode::Not(inner) => (inner.as_var()?, false),
        _ => return None,
    };
    (v.sort == crate::logic::Sort::Bool).then(|| (v.name.to_string(), pol))
}

/// The literal of a printed literal `v`, `|v|` or `(not v)`.
pub(super) fn sexp_lit(e: &Sexp) -> Option<Lit> {
    match e {
        Sexp::Atom(_) => Some((e.symbol()?.to_string(), true)),
        Sexp::List(v) if v.len() == 2 && v[0].symbol() == Some("not") => {
            Some((v[1].symbol()?.to_string(), false))
        }
        _ => None,
    }
}

/// Our implementation of rsmt2's parser traits: values and expressions of `get-value`, and
/// literals of `get-unsat-assumptions`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct AnswerParser;

impl<'a> ValueParser<Value, &'a str> for AnswerParser {
    fn parse_value(self, input: &'a str) -> SmtRes<Value> {
        Sexp::parse(input)
            .and_then(|e| sexp_to_value(&e))
            .map_err(Into::into)
    }
}

impl<'a> ExprParser<String, (), &'a str> for AnswerParser {
    fn parse_expr(self, input: &'a str, _: ()) -> SmtRes<String> {
        Ok(input.to_string())
    }
}

impl<'a> SymParser<Lit, &'a str> for AnswerParser {
    fn parse_sym(self, input: &'a str) -> SmtRes<Lit> {
        let e = Sexp::parse(input)?;
        sexp_lit(&e).ok_or_else(|| format!("unexpected literal `{input}`").into())
    }
}

/// Reads at most one byte per call, so that a parser on top of it never takes bytes of the
/// solver's output beyond the answer it is parsing.
pub(super) struct OneByte<'a, R: Read>(pub &'a mut R);

impl<R: Read> Read for OneByte<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        self.0.read(&mut buf[..1])
    }
}

/// A parser for one answer read from `r` (the solver's output) outside of rsmt2's own parser.
pub(super) fn side_parser<R: Read>(r: &mut R) -> SmtParser<BufReader<OneByte<'_, R>>> {
    SmtParser::new(BufReader::with_capacity(1, OneByte(r)))
}

/// Runs one of rsmt2's answer parsers, turning a panic into an error. rsmt2 0.16 slices its
/// buffer at byte offsets and panics ("not a char boundary") on an answer with a non-ASCII
/// character where it tries a tag or ends an s-expression (`(y \u{fffd}nt)`, found by
/// `scripts/fuzz`); the caller then treats the answer as unreadable and breaks the solver.
pub(super) fn no_panic<T>(f: impl FnOnce() -> SmtRes<T>) -> SmtRes<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| Err("unreadable solver answer (the answer parser panicked)".into()))
}

/// Every reader of solver answers run on one text, for the fuzzer (`examples/fuzz/`): the
/// s-expression reader, values, literals, terms and goals over a few variables
/// ([`super::parse_term`], [`super::parse_goals`]), and rsmt2's answer parsers the way the
/// engines call them. Returns an outcome signature: one `-`/`+` per reading (failed or
/// succeeded), then the error messages of the term and goal readers up to their quotes.
/// Errors are the expected outcome on junk, a panic is a bug. Not a stable API.
#[doc(hidden)]
pub fn fuzz_answer_readers(text: &str) -> String {
    use crate::logic::Sort;
    let mut bits = vec![];
    let e = Sexp::parse(text);
    bits.push(e.is_ok());
    if let Ok(e) = &e {
        bits.push(e.symbol().is_some());
        bits.push(e.error_message().is_some());
        bits.push(sexp_to_value(e).is_ok());
        bits.push(sexp_lit(e).is_some());
    }
    let mut vars = rustc_hash::FxHashMap::default();
    for (n, sort) in [
        ("x", Sort::Int),
        ("y", Sort::Int),
        ("b", Sort::Bool),
        ("a b", Sort::Int),
    ] {
        let v = Var {
            name: n.into(),
            sort,
        };
        vars.insert(n.to_string(), v);
    }
    let term = super::parse_term(text, &vars);
    let goals = super::parse_goals(text, &vars);
    bits.push(term.is_ok());
    bits.push(goals.is_ok());
    // rsmt2's parsers, guarded by `no_panic` as in `solver.rs`
    let mut bytes = text.as_bytes();
    bits.push(no_panic(|| side_parser(&mut bytes).get_sexpr().map(str::to_string)).is_ok());
    let mut bytes = text.as_bytes();
    bits.push(no_panic(|| side_parser(&mut bytes).get_unsat_core::<Lit, _>(AnswerParser)).is_ok());
    let mut bytes = text.as_bytes();
    bits.push(no_panic(|| SmtParser::new(BufReader::new(&mut bytes)).check_sat()).is_ok());
    let mut bytes = text.as_bytes();
    bits.push(
        no_panic(|| {
            SmtParser::new(BufReader::new(&mut bytes))
                .get_values::<Value, (), String, _>(AnswerParser, ())
        })
        .is_ok(),
    );
    let mut sig: String = bits.iter().map(|&b| if b { '+' } else { '-' }).collect();
    for r in [term.err(), goals.err()].into_iter().flatten() {
        // the message up to the quoted input it shows
        sig.push_str(" | ");
        sig.push_str(r.split('`').next().unwrap_or(""));
    }
    sig
}

#[cfg(test)]
mod unit {
    use super::*;

    fn val(s: &str) -> Value {
        sexp_to_value(&Sexp::parse(s).unwrap()).unwrap()
    }

    #[test]
    fn values() {
        assert_eq!(val("true"), Value::Bool(true));
        assert_eq!(val(" false "), Value::Bool(false));
        assert_eq!(val("-5"), Value::Int((-5).into()));
        assert_eq!(val("(- 5)"), Value::Int((-5).into()));
        assert_eq!(val("(-\n  17)"), Value::Int((-17).into()));
        let big: BigInt = "-123456789012345678901234567890".parse().unwrap();
        assert_eq!(val("(- 123456789012345678901234567890)"), Value::Int(big));
        assert!(sexp_to_value(&Sexp::parse("x").unwrap()).is_err());
        assert!(sexp_to_value(&Sexp::parse("(/ 1 0)").unwrap()).is_err());
    }

    #[test]
    fn sexps() {
        let e = Sexp::parse("(|a b| (not c) ; comment\n |(weird)|)").unwrap();
        let Sexp::List(v) = &e else { panic!() };
        let lits: Vec<_> = v.iter().map(|x| sexp_lit(x).unwrap()).collect();
        assert_eq!(
            lits,
            vec![
                ("a b".to_string(), true),
                ("c".to_string(), false),
                ("(weird)".to_string(), true)
            ]
        );
        let e = Sexp::parse("(error \"line 1: \"\"x\"\" unknown\")").unwrap();
        assert_eq!(e.error_message().unwrap(), "line 1: \"x\" unknown");
        assert!(Sexp::parse("(a").is_err());
        assert!(Sexp::parse("a b").is_err());
    }

    /// Found by scripts/fuzz: rsmt2 panicked on these answers (a non-ASCII character where it
    /// tries a tag, or at the end of an s-expression); they must be errors.
    #[test]
    fn non_ascii_answers_are_errors_not_panics() {
        for text in [
            "(y \u{fffd}nt)",
            "(foral\u{fffd} () 0)x",
            "\u{e9}",
            "(\u{e9}",
        ] {
            let mut bytes = text.as_bytes();
            let _ = no_panic(|| side_parser(&mut bytes).get_sexpr().map(str::to_string));
            let mut bytes = text.as_bytes();
            assert!(
                no_panic(|| side_parser(&mut bytes).get_unsat_core::<Lit, _>(AnswerParser))
                    .is_err()
            );
            let mut bytes = text.as_bytes();
            assert!(no_panic(|| SmtParser::new(BufReader::new(&mut bytes)).check_sat()).is_err());
            fuzz_answer_readers(text);
        }
    }

    #[test]
    fn side_parser_stops_at_answer() {
        let mut input: &[u8] = b"(a (not b))\nsat\n";
        {
            let mut p = side_parser(&mut input);
            assert_eq!(p.get_sexpr().unwrap(), "(a (not b))");
        }
        assert_eq!(input, b"sat\n");
    }
}
