//! The interpolation commands each solver really takes, over one [`Smt`] process started in
//! its interpolating mode ([`SolverConfig::interpolating`](crate::smt::SolverConfig)).
//!
//! | backend | command |
//! | --- | --- |
//! | SmtInterpol | `(get-interpolants A1 ... An)` over `:named` assertions: a whole sequence in one call |
//! | z3 | `(get-interpolant A B)`; prints `sat` when `A /\ B` is satisfiable |
//! | cvc5 | `A` asserted, then `(get-interpolant I (not B))`; prints `fail` when it finds none |
//! | yices | MCSAT: models of `B /\ I` over the shared symbols, each refuted by `A` with `(check-sat-assuming-model ...)` and generalized by `(get-unsat-model-interpolant)` into a conjunct of `I` |
//!
//! Each function leaves the solver's assertion stack as it found it (push/pop), so one
//! process serves many calls. Answers are read back with [`parse_term`] over the symbols of
//! the query; a term outside our fragment is [`Answer::Unknown`], never a guess.

use crate::logic::{free_vars, mk_and, mk_not, mk_var_of, smt_symbol, subst, SmtTerm, Term, Var};
use crate::smt::{parse_term, SatResult, Smt, SmtError};
use rustc_hash::FxHashMap;

/// What one backend said about a sequence `A1, ..., An`.
#[derive(Clone, Debug)]
pub(super) enum Answer {
    /// `n - 1` interpolants (unchecked).
    Interpolants(Vec<Term>),
    /// The conjunction is satisfiable (unchecked).
    Sat,
    /// No answer, and why.
    Unknown(String),
}

/// The symbols of the query by name, for reading answers back.
pub(super) fn vocabulary(parts: &[Term]) -> FxHashMap<String, Var> {
    let mut m = FxHashMap::default();
    for p in parts {
        for v in free_vars(p) {
            m.insert(v.name.to_string(), v);
        }
    }
    m
}

fn declare_all(smt: &mut Smt, parts: &[Term]) -> Result<(), SmtError> {
    for p in parts {
        for v in free_vars(p) {
            smt.declare(&v)?;
        }
    }
    Ok(())
}

/// Runs `f` between a push and its pop. The pop is skipped when `f` failed (the solver is
/// then unusable anyway).
fn scoped<T>(
    smt: &mut Smt,
    f: impl FnOnce(&mut Smt) -> Result<T, SmtError>,
) -> Result<T, SmtError> {
    smt.push()?;
    let r = f(smt)?;
    smt.pop()?;
    Ok(r)
}

fn read(text: &str, vocab: &FxHashMap<String, Var>, who: &str) -> Answer {
    match parse_term(text, vocab) {
        Ok(t) => Answer::Interpolants(vec![t]),
        Err(e) => Answer::Unknown(format!("{who}: cannot read the interpolant: {e}")),
    }
}

/// SmtInterpol: the whole sequence in one `get-interpolants`.
pub(super) fn smtinterpol(smt: &mut Smt, parts: &[Term]) -> Result<Answer, SmtError> {
    let vocab = vocabulary(parts);
    scoped(smt, |smt| {
        declare_all(smt, parts)?;
        let mut names = vec![];
        for (i, p) in parts.iter().enumerate() {
            let name = format!("chcsolve_ip{i}");
            smt.raw(&format!("(assert (! {} :named {name}))", SmtTerm(p)))?;
            names.push(name);
        }
        match smt.check_sat()? {
            SatResult::Sat => return Ok(Answer::Sat),
            SatResult::Unknown => return Ok(Answer::Unknown("smtinterpol: unknown".into())),
            SatResult::Unsat => {}
        }
        let text = smt.raw_query(&format!("(get-interpolants {})", names.join(" ")))?;
        Ok(read_list(&text, &vocab, parts.len() - 1))
    })
}

/// The interpolants of a `(I1 ... Ik)` answer.
fn read_list(text: &str, vocab: &FxHashMap<String, Var>, expect: usize) -> Answer {
    let items = match split_list(text) {
        Some(items) => items,
        None => return Answer::Unknown(format!("smtinterpol: not a list: `{text}`")),
    };
    if items.len() != expect {
        return Answer::Unknown(format!(
            "smtinterpol: {} interpolants for {} cuts",
            items.len(),
            expect
        ));
    }
    let mut out = vec![];
    for it in items {
        match parse_term(&it, vocab) {
            Ok(t) => out.push(t),
            Err(e) => {
                return Answer::Unknown(format!("smtinterpol: cannot read the interpolant: {e}"))
            }
        }
    }
    Answer::Interpolants(out)
}

/// The texts of the elements of a parenthesized list.
fn split_list(text: &str) -> Option<Vec<String>> {
    let t = text.trim();
    let inner = t.strip_prefix('(')?.strip_suffix(')')?;
    let b = inner.as_bytes();
    let (mut out, mut depth, mut start, mut i) = (vec![], 0i32, None, 0);
    while i < b.len() {
        let c = b[i];
        match c {
            b'|' => {
                start.get_or_insert(i);
                i += 1;
                while i < b.len() && b[i] != b'|' {
                    i += 1;
                }
            }
            b'(' => {
                start.get_or_insert(i);
                depth += 1;
            }
            b')' => {
                depth -= 1;
                if depth == 0 {
                    out.push(inner[start.take()?..=i].to_string());
                }
            }
            c if c.is_ascii_whitespace() => {
                if depth == 0 {
                    if let Some(s) = start.take() {
                        out.push(inner[s..i].to_string());
                    }
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
        i += 1;
    }
    if let Some(s) = start {
        out.push(inner[s..].to_string());
    }
    Some(out)
}

/// z3: `(get-interpolant A B)`.
pub(super) fn z3(smt: &mut Smt, a: &Term, b: &Term) -> Result<Answer, SmtError> {
    let parts = [a.clone(), b.clone()];
    let vocab = vocabulary(&parts);
    scoped(smt, |smt| {
        declare_all(smt, &parts)?;
        let text = smt.raw_query(&format!("(get-interpolant {} {})", SmtTerm(a), SmtTerm(b)))?;
        Ok(match text.trim() {
            "sat" => Answer::Sat,
            "unknown" => Answer::Unknown("z3: unknown".into()),
            t => read(t, &vocab, "z3"),
        })
    })
}

/// cvc5: `A` asserted, `(get-interpolant I (not B))`, answered `(define-fun I () Bool t)`.
pub(super) fn cvc5(smt: &mut Smt, a: &Term, b: &Term, n: usize) -> Result<Answer, SmtError> {
    let parts = [a.clone(), b.clone()];
    let vocab = vocabulary(&parts);
    scoped(smt, |smt| {
        declare_all(smt, &parts)?;
        smt.assert(a)?;
        let name = format!("chcsolve_itp{n}");
        let text = smt.raw_query(&format!(
            "(get-interpolant {name} {})",
            SmtTerm(&mk_not(b.clone()))
        ))?;
        let t = text.trim();
        if t == "fail" || t == "unknown" {
            return Ok(Answer::Unknown(format!("cvc5: {t}")));
        }
        // (define-fun NAME () Bool BODY)
        let Some(items) = split_list(t).filter(|v| v.len() == 5 && v[0] == "define-fun") else {
            return Ok(Answer::Unknown(format!("cvc5: unexpected answer `{t}`")));
        };
        Ok(read(&items[4], &vocab, "cvc5"))
    })
}

/// Most model refutations the yices loop makes before it gives up.
const YICES_ROUNDS: usize = 64;

/// yices (MCSAT): `I` grows by model interpolants until `B /\ I` is unsatisfiable.
/// yices 2.6.5 rejects a quoted symbol (`|x'|`) in `check-sat-assuming-model` with a syntax
/// error, so variables whose names need quoting are renamed to simple symbols for the
/// query (`itp!` and a hash of the name and sort) and back in the interpolant.
pub(super) fn yices(smt: &mut Smt, a: &Term, b: &Term) -> Result<Answer, SmtError> {
    let quoted: Vec<Var> = vocabulary(&[a.clone(), b.clone()])
        .into_values()
        .filter(|v| smt_symbol(&v.name) != *v.name)
        .collect();
    if quoted.is_empty() {
        return yices_simple(smt, a, b);
    }
    let mut fwd = FxHashMap::default();
    let mut back = FxHashMap::default();
    for v in quoted {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        v.hash(&mut h);
        let w = Var {
            name: format!("itp!{:x}", h.finish()).into(),
            sort: v.sort,
        };
        fwd.insert(v.clone(), mk_var_of(&w));
        back.insert(w, mk_var_of(&v));
    }
    let (a, b) = (subst(a, &fwd), subst(b, &fwd));
    Ok(match yices_simple(smt, &a, &b)? {
        Answer::Interpolants(itps) => {
            Answer::Interpolants(itps.iter().map(|i| subst(i, &back)).collect())
        }
        other => other,
    })
}

fn yices_simple(smt: &mut Smt, a: &Term, b: &Term) -> Result<Answer, SmtError> {
    let parts = [a.clone(), b.clone()];
    let vocab = vocabulary(&parts);
    let va = free_vars(a);
    let vb = free_vars(b);
    let shared: Vec<Var> = va.iter().filter(|v| vb.contains(v)).cloned().collect();
    declare_all(smt, &parts)?;
    let mut conj: Vec<Term> = vec![];
    for _ in 0..YICES_ROUNDS {
        // A model of B /\ I, restricted to the shared symbols.
        let model = scoped(smt, |smt| {
            smt.assert(b)?;
            for j in &conj {
                smt.assert(j)?;
            }
            match smt.check_sat()? {
                SatResult::Unsat => Ok(None),
                SatResult::Unknown => Ok(Some(None)),
                SatResult::Sat => Ok(Some(Some(smt.get_values(&shared)?))),
            }
        })?;
        let values = match model {
            None => return Ok(Answer::Interpolants(vec![mk_and(conj)])),
            Some(None) => return Ok(Answer::Unknown("yices: unknown".into())),
            Some(Some(v)) => v,
        };
        // Refute it with A, or find A /\ B satisfiable.
        let refuted = scoped(smt, |smt| {
            smt.assert(a)?;
            if shared.is_empty() {
                return Ok(match smt.check_sat()? {
                    SatResult::Sat => Answer::Sat,
                    SatResult::Unsat => Answer::Interpolants(vec![crate::logic::mk_false()]),
                    SatResult::Unknown => Answer::Unknown("yices: unknown".into()),
                });
            }
            let names: Vec<String> = shared.iter().map(|v| smt_symbol(&v.name)).collect();
            let vals: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            let r = smt.raw_query(&format!(
                "(check-sat-assuming-model ({}) ({}))",
                names.join(" "),
                vals.join(" ")
            ))?;
            Ok(match r.trim() {
                "sat" => Answer::Sat,
                "unsat" => {
                    let text = smt.raw_query("(get-unsat-model-interpolant)")?;
                    read(&text, &vocab, "yices")
                }
                other => Answer::Unknown(format!("yices: {other}")),
            })
        })?;
        match refuted {
            Answer::Interpolants(mut j) => {
                let j = j.pop().unwrap();
                if shared.is_empty() {
                    return Ok(Answer::Interpolants(vec![j]));
                }
                conj.push(j)
            }
            other => return Ok(other),
        }
    }
    Ok(Answer::Unknown(format!(
        "yices: no interpolant after {YICES_ROUNDS} model refutations"
    )))
}

#[cfg(test)]
mod unit {
    use super::split_list;

    #[test]
    fn lists() {
        assert_eq!(
            split_list("((<= 0 x) true |a b| (and (< y 1) b))").unwrap(),
            vec!["(<= 0 x)", "true", "|a b|", "(and (< y 1) b)"]
        );
        assert_eq!(split_list("()").unwrap(), Vec::<String>::new());
        assert!(split_list("x").is_none());
    }
}
