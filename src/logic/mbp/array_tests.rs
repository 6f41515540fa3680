//! Property test of the array projection ([`super::array`]): random conjunctions over arrays
//! and integers with a planted model. The result must hold in the model and imply
//! `exists xs. phi` (z3 checks `result /\ not exists xs. phi` unsat).

use super::*;
use crate::logic::testing::Rng;
use crate::smt::{SatResult, Smt};
use crate::testing::rng::Rng as _;
use crate::testing::z3;

fn arr() -> Sort {
    array_sort(Sort::Int, Sort::Int)
}

struct Gen {
    rng: Rng,
    arrays: Vec<Term>,
    ints: Vec<Term>,
}

impl Gen {
    fn int(&mut self, depth: u32) -> Term {
        match self.rng.range(0, if depth == 0 { 1 } else { 3 }) {
            0 => self.ints[self.rng.range(0, self.ints.len() as i64 - 1) as usize].clone(),
            1 => mk_int(self.rng.range(-2, 2)),
            _ => {
                let a = self.array(depth - 1);
                mk_select(a, self.int(depth - 1))
            }
        }
    }

    fn array(&mut self, depth: u32) -> Term {
        match self.rng.range(0, if depth == 0 { 0 } else { 2 }) {
            0 => self.arrays[self.rng.range(0, self.arrays.len() as i64 - 1) as usize].clone(),
            _ => {
                let a = self.array(depth - 1);
                let i = self.int(depth - 1);
                mk_store(a, i, self.int(depth - 1))
            }
        }
    }

    fn literal(&mut self) -> Term {
        match self.rng.range(0, 3) {
            0 => {
                let a = self.array(1);
                mk_eq(a, self.array(2))
            }
            1 => {
                let a = self.int(2);
                mk_le(a, self.int(2))
            }
            _ => {
                let a = self.int(2);
                mk_eq(a, self.int(2))
            }
        }
    }
}

fn v(name: &str, sort: Sort) -> Var {
    Var {
        name: name.into(),
        sort,
    }
}

/// The projection of `exists elim. /\ phi` under `model`, checked to hold in the model and
/// to mention no eliminated variable.
fn projected(phi: &[Term], model: &Assignment, elim: &[Var]) -> Term {
    assert!(phi.iter().all(|f| eval_bool(f, model).unwrap()));
    let r = project(phi, model, elim).unwrap();
    let psi = mk_and(r.lits.clone());
    assert!(eval_bool(&psi, model).unwrap(), "{}", SmtTerm(&psi));
    for x in free_vars(&psi) {
        assert!(!elim.contains(&x), "{} left in {}", x.name, SmtTerm(&psi));
    }
    psi
}

/// Asserts that z3 finds the projection `psi` equivalent to `expected` (exact), over the
/// variables `free`.
fn assert_equivalent(psi: &Term, expected: Term, free: &[&Var]) {
    let mut smt = Smt::new(&z3(), "mbp-arrays").unwrap();
    for x in free {
        smt.declare(x).unwrap();
    }
    smt.assert(&mk_not(mk_eq(psi.clone(), expected))).unwrap();
    assert_eq!(
        smt.check_sat().unwrap(),
        SatResult::Unsat,
        "not exact: {}",
        SmtTerm(psi)
    );
}

fn random_array(rng: &mut Rng) -> Value {
    let mut a = ArrayValue::constant(arr(), Value::Int(rng.range(-2, 2).into()));
    for _ in 0..rng.range(0, 2) {
        a = a.store(
            Value::Int(rng.range(-2, 2).into()),
            Value::Int(rng.range(-2, 2).into()),
        );
    }
    array_value(a)
}

/// Rounds of the property test.
const ROUNDS: usize = 100;

#[test]
fn projection_of_random_array_conjunctions() {
    let mut smt = Smt::new(&z3(), "mbp-arrays").unwrap();
    smt.raw("(set-option :timeout 500)").unwrap();
    let names = [("a", true), ("b", false), ("c", true)];
    let arrays: Vec<Var> = names
        .iter()
        .map(|(n, _)| Var {
            name: (*n).into(),
            sort: arr(),
        })
        .collect();
    let ints: Vec<Var> = ["i", "j", "x", "y"]
        .iter()
        .map(|n| Var {
            name: (*n).into(),
            sort: Sort::Int,
        })
        .collect();
    let elim: Vec<Var> = vec![
        arrays[0].clone(),
        arrays[2].clone(),
        ints[0].clone(),
        ints[1].clone(),
    ];
    let mut g = Gen {
        rng: Rng(11),
        arrays: arrays.iter().map(mk_var_of).collect(),
        ints: ints.iter().map(mk_var_of).collect(),
    };
    let (mut conclusive, mut nontrivial) = (0, 0);
    for round in 0..ROUNDS {
        let mut model = Assignment::default();
        for v in &arrays {
            model.insert(v.clone(), random_array(&mut g.rng));
        }
        for v in &ints {
            model.insert(v.clone(), Value::Int(g.rng.range(-2, 2).into()));
        }
        // literals made true in the model
        let phi: Vec<Term> = (0..g.rng.range(1, 4))
            .map(|_| {
                let l = g.literal();
                if eval_bool(&l, &model).unwrap() {
                    l
                } else {
                    mk_not(l)
                }
            })
            .collect();
        let r = project(&phi, &model, &elim).unwrap_or_else(|e| panic!("round {round}: {e}"));
        let psi = mk_and(r.lits.clone());
        let shown = || {
            let p: Vec<String> = phi.iter().map(|t| SmtTerm(t).to_string()).collect();
            format!("phi: {}\nresult: {}", p.join(" "), SmtTerm(&psi))
        };
        assert!(
            eval_bool(&psi, &model).unwrap(),
            "round {round}: the model falsifies the result\n{}",
            shown()
        );
        for v in free_vars(&psi) {
            assert!(
                !elim.contains(&v),
                "round {round}: {} left\n{}",
                v.name,
                shown()
            );
        }
        if psi != mk_true() {
            nontrivial += 1;
        }
        smt.push().unwrap();
        for v in arrays.iter().chain(&ints) {
            smt.declare(v).unwrap();
        }
        smt.assert(&psi).unwrap();
        smt.assert(&mk_not(mk_exists(elim.clone(), mk_and(phi.clone()))))
            .unwrap();
        let res = smt.check_sat().unwrap();
        smt.pop().unwrap();
        assert_ne!(
            res,
            SatResult::Sat,
            "round {round}: the result does not imply exists\n{}",
            shown()
        );
        if res == SatResult::Unsat {
            conclusive += 1;
        }
    }
    eprintln!("array projection: {conclusive} of {ROUNDS} checks conclusive, {nontrivial} results not `true`");
    assert!(
        conclusive * 2 >= ROUNDS,
        "too many unknowns: {conclusive} of {ROUNDS} conclusive"
    );
    assert!(
        nontrivial * 3 >= ROUNDS,
        "too few non-trivial results: {nontrivial}"
    );
}

/// A store equation is projected through the partial equality, exactly: `exists a.
/// store(a, i, a[i] + h) = c /\ 1 <= h` is `1 <= h` (the old value `a[i]` is free), where
/// replacing `a` by its model value would tie `c` to that value.
#[test]
fn a_store_equation_projects_exactly() {
    let (a, c, i, h) = (
        v("a", arr()),
        v("c", arr()),
        v("i", Sort::Int),
        v("h", Sort::Int),
    );
    let (ta, tc, ti, th) = (mk_var_of(&a), mk_var_of(&c), mk_var_of(&i), mk_var_of(&h));
    let phi = vec![
        mk_eq(
            mk_store(
                ta.clone(),
                ti.clone(),
                mk_add(vec![mk_select(ta.clone(), ti.clone()), th.clone()]),
            ),
            tc.clone(),
        ),
        mk_le(mk_int(1), th.clone()),
    ];
    let mut model = Assignment::default();
    let av = ArrayValue::constant(arr(), Value::Int(0.into()))
        .store(Value::Int(2.into()), Value::Int(5.into()));
    model.insert(a.clone(), array_value(av.clone()));
    model.insert(
        c.clone(),
        array_value(av.store(Value::Int(2.into()), Value::Int(8.into()))),
    );
    model.insert(i.clone(), Value::Int(2.into()));
    model.insert(h.clone(), Value::Int(3.into()));
    let psi = projected(&phi, &model, std::slice::from_ref(&a));
    assert_equivalent(&psi, mk_le(mk_int(1), th), &[&c, &i, &h]);
}

/// An array of arrays read at a symbolic index is projected exactly: `exists c, z.
/// c[k][z] = 5 /\ z = y /\ 0 <= y` is `0 <= y`. The element `c[k]`, itself an array read
/// at `z`, is eliminated in turn (rule 2 again), where replacing it by its model value
/// would read a concrete array at `y` and fix `y` to its model value (7).
#[test]
fn an_array_of_arrays_projects_exactly() {
    let nested = array_sort(Sort::Int, arr());
    let (c, k, z, y) = (
        v("c", nested),
        v("k", Sort::Int),
        v("z", Sort::Int),
        v("y", Sort::Int),
    );
    let (tc, tk, tz, ty) = (mk_var_of(&c), mk_var_of(&k), mk_var_of(&z), mk_var_of(&y));
    let phi = vec![
        mk_eq(mk_select(mk_select(tc, tk), tz.clone()), mk_int(5)),
        mk_eq(tz, ty.clone()),
        mk_le(mk_int(0), ty.clone()),
    ];
    let inner = ArrayValue::constant(arr(), Value::Int(0.into()))
        .store(Value::Int(7.into()), Value::Int(5.into()));
    let outer = ArrayValue::constant(nested, array_value(inner));
    let mut model = Assignment::default();
    model.insert(c.clone(), array_value(outer));
    model.insert(k.clone(), Value::Int(1.into()));
    model.insert(z.clone(), Value::Int(7.into()));
    model.insert(y.clone(), Value::Int(7.into()));
    let psi = projected(&phi, &model, &[c.clone(), z.clone()]);
    assert_equivalent(&psi, mk_le(mk_int(0), ty), &[&k, &y]);
}

/// An update whose stored value mentions an eliminated variable is projected exactly:
/// `exists q. b' = store(b, k, b[k] + q) /\ 0 <= q` is `b' = store(b, k, b'[k]) /\ b[k] <=
/// b'[k]`, where replacing `q` by its model value (3) would give one update only (and the
/// MBP loop of quantifier elimination would enumerate them without end).
#[test]
fn a_stored_value_projects_exactly() {
    let (b, b2, k, q) = (
        v("b", arr()),
        v("b2", arr()),
        v("k", Sort::Int),
        v("q", Sort::Int),
    );
    let (tb, tb2, tk, tq) = (mk_var_of(&b), mk_var_of(&b2), mk_var_of(&k), mk_var_of(&q));
    let bk = mk_select(tb.clone(), tk.clone());
    let phi = vec![
        mk_eq(
            tb2.clone(),
            mk_store(tb.clone(), tk.clone(), mk_add(vec![bk.clone(), tq.clone()])),
        ),
        mk_le(mk_int(0), tq.clone()),
    ];
    let av = ArrayValue::constant(arr(), Value::Int(1.into()));
    let mut model = Assignment::default();
    model.insert(b.clone(), array_value(av.clone()));
    model.insert(
        b2.clone(),
        array_value(av.store(Value::Int(2.into()), Value::Int(4.into()))),
    );
    model.insert(k.clone(), Value::Int(2.into()));
    model.insert(q.clone(), Value::Int(3.into()));
    let psi = projected(&phi, &model, std::slice::from_ref(&q));
    let exists = mk_exists(vec![q.clone()], mk_and(phi.clone()));
    assert_equivalent(&psi, exists, &[&b, &b2, &k]);
}

/// An array defined by an update in place of itself, what the split of a stored value
/// leaves (`a = store(b, k, a[k])`: `a` is `b` but at `k`), is eliminated by the store chain
/// over a fresh element ([`crate::logic::array_elim`], rule 3): `exists a. a = store(b, k,
/// a[k]) /\ x = a[k] /\ 3 <= x` is `3 <= x`, where the array's model value would pin `b`
/// and `x`.
#[test]
fn an_update_in_place_projects_exactly() {
    let (a, b, k, x) = (
        v("a", arr()),
        v("b", arr()),
        v("k", Sort::Int),
        v("x", Sort::Int),
    );
    let (ta, tb, tk, tx) = (mk_var_of(&a), mk_var_of(&b), mk_var_of(&k), mk_var_of(&x));
    let ak = mk_select(ta.clone(), tk.clone());
    let phi = vec![
        mk_arr_eq(ta.clone(), mk_store(tb.clone(), tk.clone(), ak.clone())),
        mk_eq(tx.clone(), ak),
        mk_le(mk_int(3), tx.clone()),
    ];
    let av = ArrayValue::constant(arr(), Value::Int(1.into()));
    let mut model = Assignment::default();
    model.insert(b.clone(), array_value(av.clone()));
    model.insert(
        a.clone(),
        array_value(av.store(Value::Int(2.into()), Value::Int(4.into()))),
    );
    model.insert(k.clone(), Value::Int(2.into()));
    model.insert(x.clone(), Value::Int(4.into()));
    let psi = projected(&phi, &model, std::slice::from_ref(&a));
    let mut smt = Smt::new(&z3(), "mbp-arrays").unwrap();
    // exact, checked without a quantifier: `phi` implies `psi`, and `psi` implies `phi` with
    // the witness `a := store(b, k, x)`
    for y in [&a, &b, &k, &x] {
        smt.declare(y).unwrap();
    }
    let witness = FxHashMap::from_iter([(a.clone(), mk_store(tb, tk, tx))]);
    let phi_w = subst(&mk_and(phi.clone()), &witness);
    for f in [
        mk_and(vec![mk_and(phi.clone()), mk_not(psi.clone())]),
        mk_and(vec![psi.clone(), mk_not(phi_w)]),
    ] {
        smt.push().unwrap();
        smt.assert(&f).unwrap();
        let r = smt.check_sat().unwrap();
        smt.pop().unwrap();
        assert_eq!(r, SatResult::Unsat, "not exact: {}", SmtTerm(&psi));
    }
}
