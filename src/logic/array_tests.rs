//! Array terms: read-over-write simplification checked against a reference semantics on
//! random terms, canonical ground arrays, and array values.

use super::*;
use crate::logic::testing::Rng;
use crate::logic::{
    eval, mk_add, mk_and, mk_implies, mk_int, mk_not, mk_or, mk_var, Assignment, Term, Var,
};
use crate::testing::rng::Rng as _;
use std::collections::BTreeMap;

fn int_array() -> Sort {
    array_sort(Sort::Int, Sort::Int)
}

/// A test-only term over one array sort `(Array Int Int)`: built without simplification,
/// evaluated by a reference semantics of its own (maps with a default).
#[derive(Clone, Debug)]
enum A {
    Var(usize),
    Const(i64),
    Store(Box<A>, Box<I>, Box<I>),
}

#[derive(Clone, Debug)]
enum I {
    Var(usize),
    Num(i64),
    Plus(Box<I>, i64),
    Select(Box<A>, Box<I>),
}

const ARRAYS: [&str; 2] = ["a", "b"];
const INTS: [&str; 3] = ["x", "y", "z"];

/// Which case to build: a leaf (0 or 1) at depth 0, else any of 0..=4.
fn choice(rng: &mut Rng, depth: u32) -> i64 {
    rng.range(0, if depth == 0 { 1 } else { 4 })
}

fn gen_a(rng: &mut Rng, depth: u32) -> A {
    match choice(rng, depth) {
        0 => A::Var(rng.range(0, 1) as usize),
        1 => A::Const(rng.range(-2, 2)),
        _ => A::Store(
            Box::new(gen_a(rng, depth - 1)),
            Box::new(gen_i(rng, depth - 1)),
            Box::new(gen_i(rng, depth - 1)),
        ),
    }
}

fn gen_i(rng: &mut Rng, depth: u32) -> I {
    match choice(rng, depth) {
        0 => I::Var(rng.range(0, 2) as usize),
        1 => I::Num(rng.range(-2, 2)),
        2 => I::Plus(Box::new(gen_i(rng, depth - 1)), rng.range(-1, 1)),
        _ => I::Select(
            Box::new(gen_a(rng, depth - 1)),
            Box::new(gen_i(rng, depth - 1)),
        ),
    }
}

/// Reference values: an array is a default and a map.
type RefArray = (i64, BTreeMap<i64, i64>);

fn ref_a(a: &A, arrays: &[RefArray], ints: &[i64]) -> RefArray {
    match a {
        A::Var(k) => arrays[*k].clone(),
        A::Const(d) => (*d, BTreeMap::new()),
        A::Store(b, i, v) => {
            let (d, mut m) = ref_a(b, arrays, ints);
            m.insert(ref_i(i, arrays, ints), ref_i(v, arrays, ints));
            (d, m)
        }
    }
}

fn ref_i(i: &I, arrays: &[RefArray], ints: &[i64]) -> i64 {
    match i {
        I::Var(k) => ints[*k],
        I::Num(n) => *n,
        I::Plus(j, k) => ref_i(j, arrays, ints) + k,
        I::Select(a, j) => {
            let (d, m) = ref_a(a, arrays, ints);
            *m.get(&ref_i(j, arrays, ints)).unwrap_or(&d)
        }
    }
}

fn term_a(a: &A) -> Term {
    match a {
        A::Var(k) => mk_var(ARRAYS[*k], int_array()),
        A::Const(d) => mk_const_array(int_array(), mk_int(*d)),
        A::Store(b, i, v) => mk_store(term_a(b), term_i(i), term_i(v)),
    }
}

fn term_i(i: &I) -> Term {
    match i {
        I::Var(k) => mk_var(INTS[*k], Sort::Int),
        I::Num(n) => mk_int(*n),
        I::Plus(j, k) => mk_add(vec![term_i(j), mk_int(*k)]),
        I::Select(a, j) => mk_select(term_a(a), term_i(j)),
    }
}

fn value_of(r: &RefArray) -> Value {
    let mut a = ArrayValue::constant(int_array(), Value::Int((r.0).into()));
    for (k, v) in &r.1 {
        a = a.store(Value::Int((*k).into()), Value::Int((*v).into()));
    }
    array_value(a)
}

/// `select`, `store`, equality and the constant arrays, simplified as they are built, agree
/// with the reference semantics on random terms and assignments.
#[test]
fn simplified_array_terms_keep_their_meaning() {
    let mut rng = Rng(7);
    let mut checked = 0;
    for _ in 0..400 {
        let i = gen_i(&mut rng, 4);
        let a1 = gen_a(&mut rng, 3);
        let a2 = gen_a(&mut rng, 3);
        let (ti, teq) = (term_i(&i), mk_eq(term_a(&a1), term_a(&a2)));
        for _ in 0..8 {
            let arrays: Vec<RefArray> = (0..2)
                .map(|_| {
                    let mut m = BTreeMap::new();
                    for _ in 0..rng.range(0, 3) {
                        m.insert(rng.range(-2, 2), rng.range(-2, 2));
                    }
                    (rng.range(-2, 2), m)
                })
                .collect();
            let ints: Vec<i64> = (0..3).map(|_| rng.range(-2, 2)).collect();
            let mut asg = Assignment::default();
            for (k, name) in ARRAYS.iter().enumerate() {
                let v = Var {
                    name: (*name).into(),
                    sort: int_array(),
                };
                asg.insert(v, value_of(&arrays[k]));
            }
            for (k, name) in INTS.iter().enumerate() {
                asg.insert(
                    Var {
                        name: (*name).into(),
                        sort: Sort::Int,
                    },
                    Value::Int(ints[k].into()),
                );
            }
            let want = ref_i(&i, &arrays, &ints);
            assert_eq!(
                eval(&ti, &asg).unwrap(),
                Value::Int(want.into()),
                "{i:?} at {arrays:?} {ints:?}: built as {ti}"
            );
            let eq = value_of(&ref_a(&a1, &arrays, &ints)) == value_of(&ref_a(&a2, &arrays, &ints));
            assert_eq!(
                eval(&teq, &asg).unwrap(),
                Value::Bool(eq),
                "{a1:?} = {a2:?}: {teq}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 3200);
}

#[test]
fn ground_arrays_are_canonical() {
    let s = int_array();
    let c0 = mk_const_array(s, mk_int(0));
    // stores in two orders, and a store of the default, give the same term
    let x = mk_store(
        mk_store(c0.clone(), mk_int(1), mk_int(5)),
        mk_int(2),
        mk_int(6),
    );
    let y = mk_store(
        mk_store(c0.clone(), mk_int(2), mk_int(6)),
        mk_int(1),
        mk_int(5),
    );
    let z = mk_store(y.clone(), mk_int(3), mk_int(0));
    assert_eq!(x, y);
    assert_eq!(x, z);
    assert_eq!(mk_eq(x.clone(), c0.clone()), mk_bool(false));
    assert_eq!(mk_select(x.clone(), mk_int(2)), mk_int(6));
    assert_eq!(mk_select(x, mk_int(7)), mk_int(0));
}

#[test]
fn read_over_write_by_cases() {
    let s = int_array();
    let a = mk_var("a", s);
    let (i, j) = (mk_var("i", Sort::Int), mk_var("j", Sort::Int));
    let st = mk_store(a.clone(), i.clone(), mk_int(3));
    // the same index: the stored value; a provably different one: through the store
    assert_eq!(mk_select(st.clone(), i.clone()), mk_int(3));
    let i1 = mk_add(vec![i.clone(), mk_int(1)]);
    assert_eq!(mk_select(st.clone(), i1.clone()), mk_select(a.clone(), i1));
    // another index: by cases
    assert_eq!(
        mk_select(st, j.clone()),
        mk_ite(mk_eq(j.clone(), i), mk_int(3), mk_select(a, j))
    );
}

#[test]
fn nested_array_values_print_as_solvers_write_them() {
    let inner = array_sort(Sort::Int, Sort::Int);
    let outer = array_sort(Sort::Int, inner);
    let d = array_value(ArrayValue::constant(inner, Value::Int(0.into())));
    let row = array_value(
        ArrayValue::constant(inner, Value::Int(0.into()))
            .store(Value::Int(2.into()), Value::Int((-7).into())),
    );
    let m = ArrayValue::constant(outer, d).store(Value::Int(1.into()), row);
    assert_eq!(
        array_value(m).to_string(),
        "(store ((as const (Array Int (Array Int Int))) ((as const (Array Int Int)) 0)) 1 \
         (store ((as const (Array Int Int)) 0) 2 (- 7)))"
    );
}

#[test]
fn extensionality_is_needed_for_negative_array_equalities_and_array_indices() {
    let (a, b) = (mk_var("a", int_array()), mk_var("b", int_array()));
    let (p, x) = (mk_var("p", Sort::Bool), mk_var("x", Sort::Int));
    let eq = mk_arr_eq(a.clone(), b.clone());
    let positive = [
        eq.clone(),
        mk_and(vec![eq.clone(), p.clone()]),
        mk_or(vec![mk_not(p.clone()), eq.clone()]),
        mk_ite(p.clone(), eq.clone(), mk_not(p.clone())),
        mk_not(mk_not(eq.clone())),
        mk_not(mk_and(vec![mk_not(eq.clone()), p.clone()])),
    ];
    for f in &positive {
        assert_eq!(array_use(f), ArrayUse::Weak, "{}", crate::logic::SmtTerm(f));
    }
    let by_arrays = array_sort(int_array(), Sort::Int);
    let c = mk_var("c", by_arrays);
    let other = [
        mk_not(eq.clone()),
        mk_or(vec![mk_not(eq.clone()), p.clone()]),
        mk_implies(eq.clone(), p.clone()),
        mk_ite(eq.clone(), p.clone(), mk_not(p.clone())),
        mk_eq(eq.clone(), p.clone()),
        mk_eq(x.clone(), mk_ite(eq.clone(), mk_int(1), mk_int(2))),
        // `c[a] != c[b]`: no array equality, but `a` and `b` must differ as functions
        mk_not(mk_eq(
            mk_select(c.clone(), a.clone()),
            mk_select(c.clone(), b.clone()),
        )),
    ];
    for f in &other {
        assert_eq!(
            array_use(f),
            ArrayUse::Extensional,
            "{}",
            crate::logic::SmtTerm(f)
        );
    }
    let no_arrays = mk_or(vec![mk_not(p.clone()), mk_eq(x.clone(), mk_int(3))]);
    assert_eq!(array_use(&no_arrays), ArrayUse::NoArrays);
}
