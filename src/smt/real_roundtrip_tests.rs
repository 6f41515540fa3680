//! Round trips of rationals and real terms through our printer and every reader of them:
//! the solver-value reader, the solver-term reader, the CHC-COMP front-end, and z3.

use super::parse::{sexp_to_value, Sexp};
use super::sexp_term::parse_term;
use crate::logic::testing::Rng;
use crate::logic::*;
use crate::testing::rng::Rng as _;
use num_bigint::BigInt;
use rustc_hash::FxHashMap;

fn random_rat(rng: &mut Rng) -> Rat {
    // small and large numerators, denominators from 1 to a big power of ten
    let num = match rng.range(0, 3) {
        0 => BigInt::from(rng.range(-9, 9)),
        1 => BigInt::from(rng.range(-1000, 1000)),
        _ => BigInt::from(rng.range(-1000, 1000)) * num_traits::pow(BigInt::from(10), 25),
    };
    let den = match rng.range(0, 3) {
        0 => BigInt::from(1),
        1 => BigInt::from(rng.range(1, 12)),
        _ => num_traits::pow(BigInt::from(7), rng.range(1, 30) as usize),
    };
    Rat::new(num, den)
}

fn real_vars() -> (Vec<Term>, FxHashMap<String, Var>) {
    let mut map = FxHashMap::default();
    let mut ts = vec![];
    for (n, s) in [("r", Sort::Real), ("s", Sort::Real), ("n", Sort::Int)] {
        let v = Var {
            name: n.into(),
            sort: s,
        };
        ts.push(mk_var_of(&v));
        map.insert(n.to_string(), v);
    }
    (ts, map)
}

/// A random real literal: a comparison of two random linear real expressions.
fn random_literal(rng: &mut Rng, vs: &[Term]) -> Term {
    let mut side = || {
        let mut parts = vec![mk_real(random_rat(rng))];
        for v in vs {
            if rng.range(0, 1) == 0 {
                parts.push(mk_mul_rat(&random_rat(rng), mk_to_real(v.clone())));
            }
        }
        mk_add(parts)
    };
    let (a, b) = (side(), side());
    match rng.range(0, 4) {
        0 => mk_le(a, b),
        1 => mk_lt(a, b),
        2 => mk_eq(a, b),
        3 => mk_not(mk_lt(a, b)),
        // a comparison is normalized to integer coefficients; the branches of an `ite` keep
        // their rational ones, so they print as fractions
        _ => mk_eq(mk_ite(mk_lt(a.clone(), b.clone()), a, b), vs[1].clone()),
    }
}

#[test]
fn rationals_print_and_read_back_as_the_same_value() {
    let mut rng = Rng(7);
    for _ in 0..2000 {
        let r = random_rat(&mut rng);
        let text = rat_smtlib(&r);
        let read = sexp_to_value(&Sexp::parse(&text).unwrap()).unwrap();
        assert_eq!(read, Value::Real(r.clone()), "{text}");
        assert_eq!(format!("{}", Value::Real(r.clone())), text);
        let (_, map) = real_vars();
        assert_eq!(parse_term(&text, &map).unwrap(), mk_real(r), "{text}");
    }
}

#[test]
fn real_terms_print_and_read_back_as_the_same_term() {
    let mut rng = Rng(11);
    let (vs, map) = real_vars();
    for _ in 0..1000 {
        let t = random_literal(&mut rng, &vs);
        let text = SmtTerm(&t).to_string();
        assert_eq!(parse_term(&text, &map).unwrap(), t, "{text}");
    }
}

#[test]
fn the_front_end_reads_printed_rationals_as_written() {
    let mut rng = Rng(5);
    for _ in 0..200 {
        let r = random_rat(&mut rng);
        let text = format!(
            "(set-logic HORN)\n(declare-fun P (Real) Bool)\n(assert (forall ((x Real)) (=> (= x {}) (P x))))\n(assert (forall ((x Real)) (=> (P x) false)))\n(check-sat)\n",
            rat_smtlib(&r)
        );
        let sys = crate::frontend::parse_str(&text).unwrap();
        let want = mk_eq(mk_var("x", Sort::Real), mk_real(r.clone()));
        let c = &sys.clauses[0];
        // the fact's head argument is x, or the constant itself after normalization
        let got = mk_and(vec![
            c.constraint.clone(),
            mk_eq(
                c.head.as_ref().unwrap().args[0].clone(),
                mk_var("x", Sort::Real),
            ),
        ]);
        let a: Assignment = [(
            Var {
                name: "x".into(),
                sort: Sort::Real,
            },
            Value::Real(r.clone()),
        )]
        .into_iter()
        .collect();
        let mut a2 = a.clone();
        for v in free_vars(&got) {
            a2.entry(v).or_insert(Value::Real(r.clone()));
        }
        assert!(eval_bool(&want, &a).unwrap());
        assert!(
            eval_bool(&got, &a2).unwrap(),
            "{} for {}",
            SmtTerm(&got),
            rat_smtlib(&r)
        );
    }
}

#[test]
fn z3_reads_printed_real_literals_with_their_meaning() {
    let mut z3 = crate::testing::z3();
    z3.reals = true;
    let mut rng = Rng(3);
    let (vs, _) = real_vars();
    let mut smt = crate::smt::Smt::new(&z3, "real-roundtrip").unwrap();
    for v in &vs {
        smt.declare(v.as_var().unwrap()).unwrap();
    }
    for _ in 0..40 {
        let t = random_literal(&mut rng, &vs);
        // a model of t from z3 must satisfy t under our exact evaluation, and a model of
        // not t must falsify it
        for want in [true, false] {
            smt.push().unwrap();
            smt.assert(&if want { t.clone() } else { mk_not(t.clone()) })
                .unwrap();
            if smt.check_sat().unwrap() == crate::smt::SatResult::Sat {
                let vars: Vec<Var> = vs.iter().map(|v| v.as_var().unwrap().clone()).collect();
                let m = smt.get_model(&vars).unwrap();
                assert_eq!(eval_bool(&t, &m).unwrap(), want, "{}", SmtTerm(&t));
            }
            smt.pop().unwrap();
        }
    }
}
