//! Terms printed by a solver (interpolants, definitions) read back into our own terms.
//!
//! The fragment is the one solvers print for linear integer and real arithmetic with
//! Booleans: numerals and decimals, `true`/`false`, declared variables,
//! `not and or => xor ite = distinct`, `+ - * abs`, `div`/`mod` by a constant, `/` by a
//! constant, `to_real to_int is_int`, `<= < >= >` (chainable), `let` and `!` annotations.
//! An `Int` operand beside a `Real` one is taken as a real (yices prints `(+ -1 x)` for a
//! real `x`). Anything else (an undeclared symbol, a product of two non-constants, a
//! quantifier) is an error naming it: a caller treats that as "no term", never guesses.

use super::parse::Sexp;
use crate::logic::*;
use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use rustc_hash::FxHashMap;

/// Parses `text`, one s-expression, into a term whose free variables are among `vars`
/// (by name, without `|...|` quotes).
pub fn parse_term(text: &str, vars: &FxHashMap<String, Var>) -> Result<Term, String> {
    let e = Sexp::parse(text)?;
    Reader { vars, lets: vec![] }.term(&e)
}

/// Parses z3's answer to `(apply TACTIC)`, `(goals (goal f1 .. fn :precision .. :depth ..) ..)`,
/// into the formula it stands for: the disjunction over goals of the conjunction of each
/// goal's formulas (free variables among `vars`, as for [`parse_term`]).
pub fn parse_goals(text: &str, vars: &FxHashMap<String, Var>) -> Result<Term, String> {
    let e = Sexp::parse(text)?;
    let Sexp::List(items) = &e else {
        return Err(format!("not a goal list: `{}`", show(&e)));
    };
    if items.first().and_then(Sexp::symbol) != Some("goals") {
        return Err(format!("not a goal list: `{}`", show(&e)));
    }
    let mut goals = vec![];
    for g in &items[1..] {
        let Sexp::List(parts) = g else {
            return Err(format!("not a goal: `{}`", show(g)));
        };
        if parts.first().and_then(Sexp::symbol) != Some("goal") {
            return Err(format!("not a goal: `{}`", show(g)));
        }
        let mut conj = vec![];
        let mut i = 1;
        while i < parts.len() {
            match &parts[i] {
                // `:precision precise`, `:depth 1`: a keyword and its value
                Sexp::Atom(a) if a.starts_with(':') => i += 2,
                f => {
                    let mut r = Reader { vars, lets: vec![] };
                    let t = r.term(f)?;
                    if t.sort() != Sort::Bool {
                        return Err(format!("goal formula is not Boolean: `{}`", show(f)));
                    }
                    conj.push(t);
                    i += 1;
                }
            }
        }
        goals.push(mk_and(conj));
    }
    Ok(mk_or(goals))
}

struct Reader<'a> {
    vars: &'a FxHashMap<String, Var>,
    /// `let` scopes, innermost last.
    lets: Vec<FxHashMap<String, Term>>,
}

impl Reader<'_> {
    fn term(&mut self, e: &Sexp) -> Result<Term, String> {
        match e {
            Sexp::Atom(a) => self.atom(a),
            Sexp::List(items) => {
                let Some(op) = items.first().and_then(Sexp::symbol) else {
                    return Err(format!("unsupported term `{}`", show(e)));
                };
                let args = &items[1..];
                match op {
                    "let" => self.let_term(args, e),
                    "!" => match args.first() {
                        Some(t) => self.term(t),
                        None => Err("empty annotation `(!)`".into()),
                    },
                    "-" if args.len() == 1 => Ok(mk_neg(self.num(&args[0])?)),
                    _ => {
                        let ts = args
                            .iter()
                            .map(|a| self.term(a))
                            .collect::<Result<Vec<_>, _>>()?;
                        apply(op, ts).map_err(|m| format!("{m} in `{}`", show(e)))
                    }
                }
            }
        }
    }

    fn num(&mut self, e: &Sexp) -> Result<Term, String> {
        let t = self.term(e)?;
        if t.sort() == Sort::Bool {
            return Err(format!("expected an arithmetic term, got `{}`", show(e)));
        }
        Ok(t)
    }

    fn atom(&self, a: &str) -> Result<Term, String> {
        match a {
            "true" => return Ok(mk_true()),
            "false" => return Ok(mk_false()),
            _ => {}
        }
        let digits = a.strip_prefix('-').unwrap_or(a);
        if digits.bytes().all(|c| c.is_ascii_digit()) && !digits.is_empty() {
            return a
                .parse::<BigInt>()
                .map(mk_int)
                .map_err(|e| format!("bad numeral `{a}`: {e}"));
        }
        if let Some((i, f)) = digits.split_once('.') {
            let ok = |d: &str| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit());
            if ok(i) && ok(f) {
                let n: BigInt = format!("{i}{f}")
                    .parse()
                    .map_err(|e| format!("bad decimal `{a}`: {e}"))?;
                let r = Rat::new(n, num_traits::pow(BigInt::from(10), f.len()));
                return Ok(mk_real(if a.starts_with('-') { -r } else { r }));
            }
        }
        let name = super::parse::unquote(a);
        for scope in self.lets.iter().rev() {
            if let Some(t) = scope.get(name) {
                return Ok(t.clone());
            }
        }
        match self.vars.get(name) {
            Some(v) => Ok(mk_var_of(v)),
            None => Err(format!("unknown symbol `{a}`")),
        }
    }

    fn let_term(&mut self, args: &[Sexp], whole: &Sexp) -> Result<Term, String> {
        let (Some(Sexp::List(binds)), Some(body), 2) = (args.first(), args.get(1), args.len())
        else {
            return Err(format!("malformed let `{}`", show(whole)));
        };
        // Parallel bindings: every right-hand side is read in the outer scope.
        let mut scope = FxHashMap::default();
        for b in binds {
            match b {
                Sexp::List(kv) if kv.len() == 2 => {
                    let Some(name) = kv[0].symbol() else {
                        return Err(format!("malformed let binding `{}`", show(b)));
                    };
                    let t = self.term(&kv[1])?;
                    scope.insert(name.to_string(), t);
                }
                _ => return Err(format!("malformed let binding `{}`", show(b))),
            }
        }
        self.lets.push(scope);
        let r = self.term(body);
        self.lets.pop();
        r
    }
}

/// The operator `op` applied to terms.
fn apply(op: &str, ts: Vec<Term>) -> Result<Term, String> {
    let all = |s: Sort| ts.iter().all(|t| t.sort() == s);
    let n = ts.len();
    let bools = all(Sort::Bool);
    let ints = all(Sort::Int);
    // arithmetic operands, Int and Real mixed (the constructors take the Ints as reals)
    let nums = ts.iter().all(|t| t.sort() != Sort::Bool);
    let chain = |f: fn(Term, Term) -> Term| -> Term {
        mk_and(
            ts.windows(2)
                .map(|w| f(w[0].clone(), w[1].clone()))
                .collect(),
        )
    };
    Ok(match op {
        "not" if n == 1 && bools => mk_not(ts[0].clone()),
        "and" if bools => mk_and(ts),
        "or" if bools => mk_or(ts),
        "=>" if n >= 2 && bools => {
            let mut it = ts.into_iter().rev();
            let last = it.next().unwrap();
            it.fold(last, |acc, a| mk_implies(a, acc))
        }
        "xor" if n >= 2 && bools => {
            let mut it = ts.into_iter();
            let first = it.next().unwrap();
            it.fold(first, |acc, b| mk_not(mk_eq(acc, b)))
        }
        "ite"
            if n == 3
                && ts[0].sort() == Sort::Bool
                && (ts[1].sort() == ts[2].sort()
                    || (ts[1].sort() != Sort::Bool && ts[2].sort() != Sort::Bool)) =>
        {
            mk_ite(ts[0].clone(), ts[1].clone(), ts[2].clone())
        }
        "=" if n >= 2 && (bools || nums) => chain(mk_eq),
        "distinct" if n >= 2 && (bools || nums) => mk_distinct(ts),
        // yices prints disequalities as `/=`
        "/=" if n == 2 && (bools || nums) => mk_distinct(ts),
        "<=" if n >= 2 && nums => chain(mk_le),
        "<" if n >= 2 && nums => chain(mk_lt),
        ">=" if n >= 2 && nums => chain(mk_ge),
        ">" if n >= 2 && nums => chain(mk_gt),
        "+" if n >= 1 && nums => mk_add(ts),
        "-" if n >= 2 && nums => {
            let mut it = ts.into_iter();
            let first = it.next().unwrap();
            it.fold(first, mk_sub)
        }
        "*" if n >= 1 && nums => {
            let real = !ints;
            let mut k = rat(1);
            let mut rest = None;
            for t in ts {
                match const_of(&t) {
                    Some(c) => k *= c,
                    None if rest.is_none() => rest = Some(t),
                    None => return Err("non-linear product".into()),
                }
            }
            match (rest, real) {
                (Some(t), true) => mk_mul_rat(&k, t),
                (Some(t), false) => mk_mul_const(&k.to_integer(), t),
                (None, true) => mk_real(k),
                (None, false) => mk_int(k.to_integer()),
            }
        }
        "/" if n >= 2 && nums => {
            let mut acc = mk_to_real(ts[0].clone());
            for t in &ts[1..] {
                match const_of(t) {
                    Some(d) if !d.is_zero() => acc = mk_mul_rat(&d.recip(), acc),
                    _ => return Err("`/` by a non-constant or zero".into()),
                }
            }
            acc
        }
        "to_real" if n == 1 && ints => mk_to_real(ts[0].clone()),
        "to_int" if n == 1 && nums => mk_to_int(mk_to_real(ts[0].clone())),
        "is_int" if n == 1 && nums => mk_is_int(mk_to_real(ts[0].clone())),
        "abs" if n == 1 && nums => {
            let t = ts[0].clone();
            mk_ite(mk_le(mk_int(0), t.clone()), t.clone(), mk_neg(t))
        }
        "div" | "mod" if n == 2 && ints => {
            let Some(d) = ts[1].as_int().filter(|d| !d.is_zero()) else {
                return Err(format!("`{op}` by a non-constant or zero"));
            };
            let d = d.clone();
            if op == "div" {
                mk_div(ts[0].clone(), d)
            } else {
                mk_mod(ts[0].clone(), d.abs())
            }
        }
        _ => return Err(format!("unsupported operator `{op}` with {n} argument(s)")),
    })
}

/// The value of a constant arithmetic term.
fn const_of(t: &Term) -> Option<Rat> {
    match t.get() {
        TermNode::Int(n) => Some(rat(n.clone())),
        TermNode::Real(r) => Some(r.clone()),
        _ => None,
    }
}

fn show(e: &Sexp) -> String {
    let s = match e {
        Sexp::Atom(a) => a.clone(),
        Sexp::List(v) => format!("({})", v.iter().map(show).collect::<Vec<_>>().join(" ")),
    };
    if s.len() > 200 {
        format!("{}...", &s[..s.floor_char_boundary(200)])
    } else {
        s
    }
}

#[cfg(test)]
mod unit {
    use super::*;

    fn vars() -> FxHashMap<String, Var> {
        let mut m = FxHashMap::default();
        for (n, s) in [
            ("x", Sort::Int),
            ("y", Sort::Int),
            ("b", Sort::Bool),
            ("a b", Sort::Int),
            ("r", Sort::Real),
        ] {
            m.insert(
                n.to_string(),
                Var {
                    name: n.into(),
                    sort: s,
                },
            );
        }
        m
    }

    fn p(s: &str) -> Result<Term, String> {
        parse_term(s, &vars())
    }

    fn x() -> Term {
        mk_var("x", Sort::Int)
    }
    fn y() -> Term {
        mk_var("y", Sort::Int)
    }

    #[test]
    fn solver_terms() {
        assert_eq!(p("(>= (+ -6 y) 0)").unwrap(), mk_ge(y(), mk_int(6)));
        assert_eq!(p("(<= 0 (+ y (- 7)))").unwrap(), mk_ge(y(), mk_int(7)));
        assert_eq!(
            p("(let ((a!1 (* 2 x))) (and (<= a!1 y) b))").unwrap(),
            mk_and(vec![
                mk_le(mk_mul_const(&2.into(), x()), y()),
                mk_var("b", Sort::Bool)
            ])
        );
        assert_eq!(
            p("(= (mod (+ (* (- 1) y) 0) 2) 0)").unwrap(),
            mk_eq(mk_mod(mk_neg(y()), 2.into()), mk_int(0))
        );
        assert_eq!(p("(! (< x |a b|) :named I1)").unwrap(), {
            mk_lt(x(), mk_var("a b", Sort::Int))
        });
        assert_eq!(p("(/= x y)").unwrap(), mk_not(mk_eq(x(), y())));
        assert_eq!(p("(<= x -3)").unwrap(), mk_le(x(), mk_int(-3)));
        assert_eq!(p("(- x y 1)").unwrap(), mk_sub(mk_sub(x(), y()), mk_int(1)));
        assert_eq!(p("(=> b false)").unwrap(), mk_not(mk_var("b", Sort::Bool)));
    }

    #[test]
    fn real_terms() {
        let r = mk_var("r", Sort::Real);
        assert_eq!(
            p("(<= r 1.5)").unwrap(),
            mk_le(r.clone(), mk_real(Rat::new(3.into(), 2.into())))
        );
        // yices: an integer numeral beside a real variable
        assert_eq!(p("(+ -1 r)").unwrap(), mk_sub(r.clone(), mk_real(rat(1))));
        assert_eq!(
            p("(< (* (/ 1 3) r) (- (/ 3 4)))").unwrap(),
            mk_lt(
                mk_mul_rat(&Rat::new(1.into(), 3.into()), r.clone()),
                mk_real(Rat::new((-3).into(), 4.into()))
            )
        );
        assert_eq!(
            p("(= (to_real x) r)").unwrap(),
            mk_eq(mk_to_real(x()), r.clone())
        );
        assert_eq!(p("(>= (/ r 2.0) 0.0)").unwrap(), mk_le(mk_real(rat(0)), r));
    }

    /// `t(i+1) = ite(b, t(i) + 1, 2 * t(i))`: a DAG of 3 nodes per level whose tree has 2^20
    /// copies of `x`. It prints with `let`s in linear size and reads back as the same term.
    #[test]
    fn a_dag_prints_in_linear_size_and_reads_back() {
        let b = mk_var("b", Sort::Bool);
        let mut t = x();
        for _ in 0..20 {
            t = mk_ite(
                b.clone(),
                mk_add(vec![t.clone(), mk_int(1)]),
                mk_mul_const(&2.into(), t),
            );
        }
        let phi = mk_le(t, y());
        let text = SmtTerm(&phi).to_string();
        assert!(text.len() < 20 * 100, "{} bytes", text.len());
        assert!(text.contains("(let "), "{text}");
        assert_eq!(p(&text).unwrap(), phi);
        // a small term prints as a plain tree
        let small = mk_and(vec![mk_le(x(), y()), mk_not(mk_le(x(), y()))]);
        assert!(!SmtTerm(&mk_or(vec![small, b])).to_string().contains("let"));
    }

    /// A subterm with a 78-digit numeral, repeated: a plain tree for the engines, with a
    /// `let` for checks ([`SmtTermCompact`]), and both read back as the same term.
    #[test]
    fn checks_name_a_repeated_subterm_that_engines_write_out() {
        let m: num_bigint::BigInt = num_bigint::BigInt::from(2).pow(256u32);
        let e = mk_mod(mk_add(vec![x(), mk_int(7)]), m.clone());
        let mut parts: Vec<Term> = (0..5)
            .map(|k| mk_not(mk_le(e.clone(), mk_int(k))))
            .collect();
        parts.push(mk_le(e.clone(), mk_int(m - 1)));
        parts.push(mk_not(mk_le(e, y())));
        let phi = mk_and(parts);
        let plain = SmtTerm(&phi).to_string();
        let compact = crate::logic::SmtTermCompact(&phi).to_string();
        assert!(!plain.contains("(let "), "{plain}");
        assert!(compact.contains("(let "), "{compact}");
        assert!(compact.len() < plain.len(), "{compact}");
        assert_eq!(p(&plain).unwrap(), phi);
        assert_eq!(p(&compact).unwrap(), phi);
    }

    #[test]
    fn outside_the_fragment() {
        assert!(p("(* x y)").unwrap_err().contains("non-linear"));
        assert!(p("(< z 1)").unwrap_err().contains("unknown symbol `z`"));
        assert!(p("(div x y)").is_err());
        assert!(p("(and x b)").is_err());
        assert!(p("(to_real b)").is_err());
        assert!(p("(/ x y)").is_err());
        assert!(p("(forall ((z Int)) (< z x))").is_err());
    }
}
