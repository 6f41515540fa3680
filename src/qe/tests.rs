//! Random small formulas: the result of [`Qe::eliminate`] is quantifier-free and equivalent
//! to the `exists` it replaces, as a z3 process of the test's own decides:
//! `(exists xs. phi) <> R` must be unsatisfiable under `(check-sat-using (then qe smt))`
//! (z3's plain `check-sat` can loop on quantified `mod`), with a time limit.

use super::*;
use crate::smt::SolverKind;

use crate::logic::testing::{iv, Rng};
use crate::testing::rng::Rng as _;

/// A random linear term over `vars` (coefficients in -3..3, a constant in -5..5).
fn lin(r: &mut Rng, vars: &[Term]) -> Term {
    let mut ts = vec![mk_int(r.range(-5, 5))];
    for v in vars {
        let c = r.range(-3, 3);
        if c != 0 {
            ts.push(mk_mul_const(&c.into(), v.clone()));
        }
    }
    mk_add(ts)
}

/// A random atom: `<=`, `=`, a parity (`mod`) or a `div` bound, or a Boolean variable.
fn atom(r: &mut Rng, vars: &[Term], b: &Term) -> Term {
    match r.range(0, 5) {
        0 | 1 => mk_le(lin(r, vars), lin(r, vars)),
        2 => mk_eq(lin(r, vars), lin(r, vars)),
        3 => {
            let d = r.range(2, 4);
            mk_eq(mk_mod(lin(r, vars), d.into()), mk_int(r.range(0, d - 1)))
        }
        4 => mk_le(mk_div(lin(r, vars), r.range(2, 3).into()), lin(r, vars)),
        _ => b.clone(),
    }
}

/// A random formula of depth `d` over `vars`: and/or/not of atoms.
fn formula(r: &mut Rng, vars: &[Term], b: &Term, d: u32) -> Term {
    if d == 0 {
        return atom(r, vars, b);
    }
    let a = formula(r, vars, b, d - 1);
    let c = formula(r, vars, b, d - 1);
    match r.range(0, 3) {
        0 | 1 => mk_and(vec![a, c]),
        2 => mk_or(vec![a, c]),
        _ => mk_and(vec![mk_not(a), c]),
    }
}

thread_local! {
    /// Oracle queries z3 left undecided, in this test's thread.
    static UNDECIDED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Is `r` equivalent to `q`, a term whose quantifiers are all `exists` in positive positions?
/// `q /\ not r` is checked with the quantified variables as constants (quantifier-free);
/// `r /\ not q'` with `q'` z3's own elimination of `q` (`(apply (then qe simplify))`: z3's
/// `check-sat` on a negated quantifier over `div` does not finish in 20 s).
fn equivalent(z3: &mut Smt, q: &Term, r: &Term) -> bool {
    let open = strip_exists(q);
    /// `f` unsatisfiable? An undecided query (z3's time limit) counts as a pass: the test
    /// counts the cases z3 decided.
    fn ask(z3: &mut Smt, f: Term) -> bool {
        z3.push().unwrap();
        z3.assert(&f).unwrap();
        let res = z3.check_sat().unwrap();
        z3.pop().unwrap();
        if res == SatResult::Unknown {
            UNDECIDED.with(|u| u.set(u.get() + 1));
        }
        res != SatResult::Sat
    }
    if !ask(z3, mk_and(vec![open.clone(), mk_not(r.clone())])) {
        return false;
    }
    let kept = free_vars(q);
    let names = kept
        .iter()
        .map(|v| (v.name.to_string(), v.clone()))
        .collect();
    for tactic in ["(then qe simplify)", "(then qe2 simplify)"] {
        // a process of its own: z3 may give up (`tactic failed: canceled` at the time limit),
        // which leaves the process unusable
        let mut z = Smt::new(&crate::testing::z3(), "qe-oracle").unwrap();
        z.raw("(set-option :timeout 10000)").unwrap();
        z.assert(q).unwrap();
        let text = z.raw_query(&format!("(apply {tactic})"));
        if let Some(q2) = text
            .ok()
            .and_then(|t| crate::smt::parse_goals(&t, &names).ok())
        {
            return ask(z3, mk_and(vec![r.clone(), mk_not(q2)]));
        }
    }
    // z3 leaves a quantifier (it does on some `div`/`mod` formulas): sample instead, up to
    // 40 models of `r`, each of which must make `q` true (a quantifier-free query)
    z3.push().unwrap();
    z3.assert(r).unwrap();
    for _ in 0..40 {
        if z3.check_sat().unwrap() != SatResult::Sat {
            break;
        }
        let m = z3.get_model(&kept).unwrap();
        let fix: Vec<Term> = m
            .iter()
            .map(|(v, x)| mk_eq(mk_var_of(v), x.to_term()))
            .collect();
        z3.push().unwrap();
        let holds = !ask(z3, mk_and(vec![open.clone(), mk_and(fix.clone())]));
        z3.pop().unwrap();
        if !holds {
            z3.pop().unwrap();
            return false;
        }
        z3.assert(&mk_not(mk_and(fix))).unwrap();
    }
    z3.pop().unwrap();
    true
}

/// `q` without its (positive, uniquely named) `exists` binders.
fn strip_exists(q: &Term) -> Term {
    match q.get() {
        TermNode::Exists(_, b) => strip_exists(b),
        TermNode::And(ts) => mk_and(ts.iter().map(strip_exists).collect()),
        TermNode::Or(ts) => mk_or(ts.iter().map(strip_exists).collect()),
        _ => q.clone(),
    }
}

#[test]
fn random_formulas_are_eliminated_exactly() {
    let Some(z3cfg) = crate::testing::solver(SolverKind::Z3) else {
        return;
    };
    let Some(smt) = crate::testing::engine_solver() else {
        return;
    };
    let mut qe = Qe::new(smt, Some(z3cfg.clone()), None);
    let mut check = Smt::new(&z3cfg, "qe-test").unwrap();
    check.raw("(set-option :timeout 20000)").unwrap();
    let (x, y, a, b) = (iv("x"), iv("y"), iv("a"), iv("b"));
    let p = mk_var("p", Sort::Bool);
    let q = mk_var("q", Sort::Bool);
    let mut r = Rng(12);
    for i in 0..40 {
        let phi = formula(&mut r, &[x.clone(), y.clone(), a.clone(), b.clone()], &p, 1);
        let (vs, bool_var) = if i % 3 == 0 { (&q, true) } else { (&p, false) };
        let mut elim = vec![a.as_var().unwrap().clone(), b.as_var().unwrap().clone()];
        if bool_var {
            elim.push(vs.as_var().unwrap().clone());
        }
        // a nested quantifier every fourth formula, under a negation every fifth
        let inner = mk_exists(elim.clone(), phi.clone());
        let t = match i % 5 {
            4 => mk_not(inner.clone()),
            _ if i % 4 == 3 => mk_exists(
                vec![y.as_var().unwrap().clone()],
                mk_and(vec![inner.clone(), mk_le(y.clone(), x.clone())]),
            ),
            _ => inner.clone(),
        };
        let got = qe
            .eliminate(&t)
            .unwrap_or_else(|e| panic!("{i}: {e} on {t}"));
        assert!(!has_quantifier(&got), "{i}: {got}");
        // under a negation: the inner quantifier's result is the negated result
        let (t, got) = match t.get() {
            TermNode::Not(inner) => (inner.clone(), mk_not(got)),
            _ => (t, got),
        };
        assert!(
            equivalent(&mut check, &t, &got),
            "{i}: not equivalent:\n  {}\n  {}",
            SmtTerm(&t),
            SmtTerm(&got)
        );
    }
    assert!(qe.stats.by_mbp > 0, "{:?}", qe.stats);
    let undecided = UNDECIDED.with(|u| u.get());
    eprintln!(
        "{:?}; oracle queries z3 left undecided: {undecided}",
        qe.stats
    );
    assert!(
        undecided <= 10,
        "z3 decided too few cases: {undecided} undecided"
    );
}

#[test]
fn the_z3_fallback_is_exact_too() {
    let Some(z3cfg) = crate::testing::solver(SolverKind::Z3) else {
        return;
    };
    // a loop allowed no projection at all must hand every quantifier to z3
    let mut qe = Qe::new(z3cfg.clone(), Some(z3cfg.clone()), None);
    qe.max_projections = 0;
    let mut check = Smt::new(&z3cfg, "qe-test").unwrap();
    check.raw("(set-option :timeout 20000)").unwrap();
    let (x, y, a) = (iv("x"), iv("y"), iv("a"));
    let p = mk_var("p", Sort::Bool);
    let mut r = Rng(99);
    for i in 0..15 {
        let phi = formula(&mut r, &[x.clone(), y.clone(), a.clone()], &p, 2);
        let t = mk_exists(vec![a.as_var().unwrap().clone()], phi);
        let got = qe
            .eliminate(&t)
            .unwrap_or_else(|e| panic!("{i}: {e} on {t}"));
        assert!(!has_quantifier(&got), "{i}: {got}");
        assert!(equivalent(&mut check, &t, &got), "{i}: {t} vs {got}");
    }
    assert!(qe.stats.fallbacks > 0, "{:?}", qe.stats);
    assert_eq!(qe.stats.failures, 0, "{:?}", qe.stats);
}

#[test]
fn real_formulas_are_eliminated_exactly() {
    let Some(z3cfg) = crate::testing::solver(SolverKind::Z3) else {
        return;
    };
    let mut qe = Qe::new(z3cfg.clone(), Some(z3cfg.clone()), None);
    let mut check = Smt::new(&z3cfg, "qe-test").unwrap();
    check.raw("(set-option :timeout 20000)").unwrap();
    let rv = |n: &str| mk_var(n, Sort::Real);
    let (x, y, a, b) = (rv("x"), rv("y"), rv("a"), rv("b"));
    let n = iv("n");
    let p = mk_var("p", Sort::Bool);
    let mut r = Rng(7);
    // real comparisons, strict and not (a real `lin` of integer coefficients, halved)
    let rlin = |r: &mut Rng, vs: &[Term]| mk_mul_rat(&Rat::new(1.into(), 2.into()), lin(r, vs));
    for i in 0..20 {
        let vs = [x.clone(), y.clone(), a.clone(), b.clone(), n.clone()];
        let mut conj = vec![];
        for _ in 0..3 {
            let (s, t) = (rlin(&mut r, &vs), rlin(&mut r, &vs));
            conj.push(match r.range(0, 3) {
                0 => mk_le(s, t),
                1 => mk_lt(s, t),
                2 => mk_or(vec![mk_lt(s, t), p.clone()]),
                _ => mk_not(mk_eq(s, t)),
            });
        }
        let mut elim = vec![a.as_var().unwrap().clone(), b.as_var().unwrap().clone()];
        if i % 4 == 0 {
            elim.push(n.as_var().unwrap().clone());
        }
        let t = mk_exists(elim, mk_and(conj));
        let got = qe
            .eliminate(&t)
            .unwrap_or_else(|e| panic!("{i}: {e} on {t}"));
        assert!(!has_quantifier(&got), "{i}: {got}");
        assert!(
            equivalent(&mut check, &t, &got),
            "{i}: not equivalent:\n  {}\n  {}",
            SmtTerm(&t),
            SmtTerm(&got)
        );
    }
    assert!(qe.stats.by_mbp > 0, "{:?}", qe.stats);
    eprintln!("{:?}", qe.stats);
}
