//! Array variables eliminated exactly (through [`Qe`]): each case's result is quantifier-free and equivalent
//! to a formula known by hand, as a z3 process decides (quantifier-free arrays and integers
//! are decidable); random cases are checked in both directions.

use super::Qe;
use crate::logic::testing::{iv, Rng};
use crate::logic::*;
use crate::smt::{SatResult, Smt};
use crate::testing::rng::Rng as _;
use crate::testing::z3;
use rustc_hash::FxHashMap;

fn arr(name: &str) -> Term {
    mk_var(name, array_sort(Sort::Int, Sort::Int))
}

fn var(t: &Term) -> Var {
    t.as_var().unwrap().clone()
}

/// Is `f` unsatisfiable (z3, 20 s)? `None` when z3 cannot tell.
fn unsat(z3: &mut Smt, f: Term) -> Option<bool> {
    z3.push().unwrap();
    z3.assert(&f).unwrap();
    let r = z3.check_sat().unwrap();
    z3.pop().unwrap();
    match r {
        SatResult::Unsat => Some(true),
        SatResult::Sat => Some(false),
        SatResult::Unknown => None,
    }
}

fn equivalent(z3: &mut Smt, a: &Term, b: &Term) -> bool {
    let differ = mk_not(mk_eq(a.clone(), b.clone()));
    unsat(z3, differ) == Some(true)
}

/// `exists vars. body` eliminated by a [`Qe`]: quantifier-free, and the rewrites counted.
fn eliminate(vars: Vec<Var>, body: Term) -> Term {
    let cfg = z3();
    let mut qe = Qe::new(cfg.clone(), Some(cfg), None);
    let got = qe.eliminate(&mk_exists(vars, body.clone())).unwrap();
    assert!(!has_quantifier(&got), "{body} gave {got}");
    assert!(qe.stats.array_rewrites > 0, "{:?}", qe.stats);
    assert_eq!(qe.stats.kept_arrays, 0, "{:?}", qe.stats);
    got
}

#[test]
fn a_store_equation_is_peeled_into_a_read_of_the_other_side() {
    let (a, c) = (arr("a"), arr("c"));
    let (i, h) = (iv("i"), iv("h"));
    let mut z3s = Smt::new(&z3(), "qe-array-test").unwrap();
    // exists a. store(a, i, a[i] + h) = c /\ h >= 1 /\ a[i] >= 0:  c[i] >= h >= 1
    let body = mk_and(vec![
        mk_eq(
            mk_store(
                a.clone(),
                i.clone(),
                mk_add(vec![mk_select(a.clone(), i.clone()), h.clone()]),
            ),
            c.clone(),
        ),
        mk_le(mk_int(1), h.clone()),
        mk_le(mk_int(0), mk_select(a.clone(), i.clone())),
    ]);
    let got = eliminate(vec![var(&a)], body);
    let want = mk_and(vec![
        mk_le(h.clone(), mk_select(c.clone(), i.clone())),
        mk_le(mk_int(1), h),
    ]);
    assert!(equivalent(&mut z3s, &got, &want), "{got}");
    // two stores: exists a. store(store(a, 0, x), 1, y) = c  iff  c[0] = x /\ c[1] = y
    let (x, y) = (iv("x"), iv("y"));
    let body = mk_eq(
        c.clone(),
        mk_store(
            mk_store(a.clone(), mk_int(0), x.clone()),
            mk_int(1),
            y.clone(),
        ),
    );
    let got = eliminate(vec![var(&a)], body);
    let want = mk_and(vec![
        mk_eq(mk_select(c.clone(), mk_int(0)), x),
        mk_eq(mk_select(c, mk_int(1)), y),
    ]);
    assert!(equivalent(&mut z3s, &got, &want), "{got}");
}

#[test]
fn an_array_only_read_becomes_one_value_per_index() {
    let a = arr("a");
    let (i, j) = (iv("i"), iv("j"));
    let mut z3s = Smt::new(&z3(), "qe-array-test").unwrap();
    // exists a. a[i] = 5 /\ a[j] = 6  iff  i != j
    let body = mk_and(vec![
        mk_eq(mk_select(a.clone(), i.clone()), mk_int(5)),
        mk_eq(mk_select(a.clone(), j.clone()), mk_int(6)),
    ]);
    let got = eliminate(vec![var(&a)], body);
    assert!(
        equivalent(&mut z3s, &got, &mk_not(mk_eq(i.clone(), j.clone()))),
        "{got}"
    );
    // nested: exists m. m[i][j] = 3 /\ m[k][j] = 4  iff  i != k
    let m = mk_var("m", array_sort(Sort::Int, array_sort(Sort::Int, Sort::Int)));
    let k = iv("k");
    let body = mk_and(vec![
        mk_eq(
            mk_select(mk_select(m.clone(), i.clone()), j.clone()),
            mk_int(3),
        ),
        mk_eq(mk_select(mk_select(m.clone(), k.clone()), j), mk_int(4)),
    ]);
    let got = eliminate(vec![var(&m)], body);
    assert!(equivalent(&mut z3s, &got, &mk_not(mk_eq(i, k))), "{got}");
}

#[test]
fn arrays_compared_as_wholes_stay_quantified() {
    let (a, b) = (arr("a"), arr("b"));
    let cfg = z3();
    let mut qe = Qe::new(cfg.clone(), Some(cfg), None);
    // exists a b. a != b /\ a[0] = b[0]: no rule applies
    let body = mk_and(vec![
        mk_not(mk_eq(a.clone(), b.clone())),
        mk_eq(
            mk_select(a.clone(), mk_int(0)),
            mk_select(b.clone(), mk_int(0)),
        ),
    ]);
    let got = qe
        .eliminate(&mk_exists(vec![var(&a), var(&b)], body))
        .unwrap();
    assert!(has_quantifier(&got), "{got}");
    assert_eq!(qe.stats.kept_arrays, 1, "{:?}", qe.stats);
}

/// A Boolean quantified beside arrays that stay quantified is split into its two cases, so
/// that only arrays stay quantified; the result is equivalent.
#[test]
fn booleans_beside_kept_arrays_are_split_into_cases() {
    let (a, b) = (arr("a"), arr("b"));
    let (f, x) = (mk_var("f", Sort::Bool), iv("x"));
    let cfg = z3();
    let mut qe = Qe::new(cfg.clone(), Some(cfg), None);
    // exists a b f. a != b /\ a[0] = b[0] /\ (f => x >= 1) /\ (not f => x <= -1)
    let body = mk_and(vec![
        mk_not(mk_eq(a.clone(), b.clone())),
        mk_eq(
            mk_select(a.clone(), mk_int(0)),
            mk_select(b.clone(), mk_int(0)),
        ),
        mk_implies(f.clone(), mk_le(mk_int(1), x.clone())),
        mk_implies(mk_not(f.clone()), mk_le(x.clone(), mk_int(-1))),
    ]);
    let q = mk_exists(vec![var(&a), var(&b), var(&f)], body);
    let got = qe.eliminate(&q).unwrap();
    // every quantifier left binds arrays only
    let mut only_arrays = true;
    let mut seen = vec![got.clone()];
    while let Some(t) = seen.pop() {
        if let TermNode::Exists(vs, _) = t.get() {
            only_arrays &= vs.iter().all(|v| v.sort.is_array());
        }
        let mut kids = vec![];
        t.push_children_rev(&mut kids);
        seen.extend(kids.into_iter().cloned());
    }
    assert!(only_arrays, "{got}");
    let mut z3s = Smt::new(&z3(), "qe-array-test").unwrap();
    assert!(equivalent(&mut z3s, &got, &q), "{got}");
    assert!(
        equivalent(&mut z3s, &got, &mk_not(mk_eq(x.clone(), mk_int(0)))),
        "{got}"
    );
}

/// Random conjunctions of store equations and reads of `a`, eliminated; then for sampled
/// values of the free variables (`x`, `y`, `z`, and `c` an array with stores at 0..2), the
/// result (evaluated exactly) is true iff `phi` with those values has a solution for `a`
/// (a quantifier-free query z3 decides).
#[test]
fn random_array_formulas_are_eliminated_exactly() {
    let (a, c) = (arr("a"), arr("c"));
    let xs = [iv("x"), iv("y"), iv("z")];
    let mut z3s = Smt::new(&z3(), "qe-array-test").unwrap();
    let cfg = z3();
    let mut qe = Qe::new(cfg.clone(), Some(cfg), None);
    let mut r = Rng(2026);
    let (mut held, mut failed) = (0, 0);
    for n in 0..40 {
        let pick = |r: &mut Rng| xs[r.range(0, 2) as usize].clone();
        let small = |r: &mut Rng| mk_int(r.range(0, 2));
        let mut conj = vec![];
        if n % 2 == 0 {
            // store(a, i, e) = c, e over a's reads and the variables
            let i = if r.range(0, 1) == 0 {
                small(&mut r)
            } else {
                pick(&mut r)
            };
            let e = mk_add(vec![mk_select(a.clone(), small(&mut r)), pick(&mut r)]);
            conj.push(mk_eq(mk_store(a.clone(), i, e), c.clone()));
        }
        for _ in 0..3 {
            let idx = if r.range(0, 1) == 0 {
                small(&mut r)
            } else {
                pick(&mut r)
            };
            let s = mk_select(a.clone(), idx);
            let t = pick(&mut r);
            conj.push(match r.range(0, 2) {
                0 => mk_eq(s, t),
                1 => mk_le(s, t),
                _ => mk_not(mk_eq(s, t)),
            });
        }
        let phi = mk_and(conj);
        let got = qe
            .eliminate(&mk_exists(vec![var(&a)], phi.clone()))
            .unwrap();
        assert!(!has_quantifier(&got), "{n}: {phi} gave {got}");
        for _ in 0..10 {
            let mut m = Assignment::default();
            for x in &xs {
                m.insert(var(x), Value::Int(r.range(-1, 2).into()));
            }
            let mut cv = ArrayValue::constant(c.sort(), Value::Int(r.range(-1, 2).into()));
            for k in 0..3 {
                cv = cv.store(Value::Int(k.into()), Value::Int(r.range(-1, 2).into()));
            }
            m.insert(var(&c), array_value(cv));
            let map: FxHashMap<Var, Term> =
                m.iter().map(|(v, x)| (v.clone(), x.to_term())).collect();
            let solvable = !unsat(&mut z3s, subst(&phi, &map)).expect("quantifier-free");
            let holds = eval_bool(&got, &m).unwrap();
            if holds == solvable {
                held += 1;
            } else {
                failed += 1;
                eprintln!("{n}: {phi} gave {got}: at {m:?} it is {holds}, the exists {solvable}");
            }
        }
    }
    assert_eq!(failed, 0, "{failed} samples differ ({held} agree)");
    assert!(qe.stats.array_rewrites >= 30, "{:?}", qe.stats);
}
