//! Acceleration of loops over `Real` (and mixed `Int`/`Real`) variables: exact closed forms
//! with rational slopes, checked term by term and against the loop run step by step from
//! every pre-state of a grid of rationals.

use super::*;
use num_bigint::BigInt;

fn var(name: &str, sort: Sort) -> Var {
    Var {
        name: name.into(),
        sort,
    }
}

fn rv(name: &str) -> Var {
    var(name, Sort::Real)
}

fn t(v: &Var) -> Term {
    mk_var_of(v)
}

/// The rational `p/q`.
fn q(p: i64, d: i64) -> Rat {
    Rat::new(BigInt::from(p), BigInt::from(d))
}

fn real(p: i64, d: i64) -> Term {
    mk_real(q(p, d))
}

/// `x + p/d`.
fn plus(x: Term, p: i64, d: i64) -> Term {
    mk_add(vec![x, real(p, d)])
}

fn sorted(mut v: Vec<Term>) -> Vec<Term> {
    v.sort_by_key(|t| t.uid());
    v
}

fn value(sort: Sort, r: &Rat) -> Value {
    match sort {
        Sort::Real => Value::Real(r.clone()),
        _ => Value::Int(r.to_integer()),
    }
}

/// A deterministic loop: `step` gives the next state (rationals; an `Int` variable's are
/// integral) and whether the guards hold in the current one.
type Step = dyn Fn(&[Rat]) -> (Vec<Rat>, bool);

/// Accelerates `tr` and checks it against `step` run `k = 1..=6` times from every pre-state
/// with each variable in `{-2, -7/4, .., 2}` (an `Int` one in `{-2, .., 2}`): `tau(pre, post,
/// k)` holds for the state the loop reaches iff every iteration's guard held (only "if" when
/// the acceleration is inexact), and for no other post-state (each variable moved by `1/4`,
/// an `Int` one by `1`). Returns whether the acceleration is exact.
fn check(pre: &[Var], post: &[Var], tr: &[Term], step: &Step) -> bool {
    let n = var("n", Sort::Int);
    let acc = accelerate(tr, pre, post, &n).expect("accelerates");
    let f = mk_and(acc.lits.clone());
    let grid = |s: Sort| -> Vec<Rat> {
        match s {
            Sort::Real => (-8..=8).map(|k| q(k, 4)).collect(),
            _ => (-2..=2).map(|k| q(k, 1)).collect(),
        }
    };
    let mut states: Vec<Vec<Rat>> = vec![vec![]];
    for v in pre {
        states = states
            .into_iter()
            .flat_map(|s| {
                grid(v.sort).into_iter().map(move |x| {
                    let mut s = s.clone();
                    s.push(x);
                    s
                })
            })
            .collect();
    }
    let holds = |s0: &[Rat], s: &[Rat], k: i64| -> bool {
        let mut a = Assignment::default();
        for ((v, w), (x, y)) in pre.iter().zip(post).zip(s0.iter().zip(s)) {
            a.insert(v.clone(), value(v.sort, x));
            a.insert(w.clone(), value(w.sort, y));
        }
        a.insert(n.clone(), Value::Int(k.into()));
        eval_bool(&f, &a).unwrap()
    };
    for s0 in &states {
        let mut s = s0.clone();
        let mut ok = true;
        for k in 1..=6 {
            let (next, g) = step(&s);
            ok &= g;
            s = next;
            let got = holds(s0, &s, k);
            if acc.exact {
                assert_eq!(got, ok, "lits = {:?}\nfrom {s0:?}, n = {k}", acc.lits);
            } else {
                assert!(!got || ok, "lits = {:?}\nfrom {s0:?}, n = {k}", acc.lits);
            }
            for (i, v) in pre.iter().enumerate() {
                let mut other = s.clone();
                other[i] += if v.sort == Sort::Real {
                    q(1, 4)
                } else {
                    q(1, 1)
                };
                assert!(!holds(s0, &other, k), "lits = {:?}", acc.lits);
            }
        }
    }
    acc.exact
}

#[test]
fn half_increment_has_an_exact_closed_form() {
    // x < 7/2, x' = x + 1/2: x^(n) = x + (1/2) n, the guard at the last iteration n - 1
    let (x, x1, n) = (rv("x"), rv("x'"), var("n", Sort::Int));
    let tr = vec![mk_lt(t(&x), real(7, 2)), mk_eq(t(&x1), plus(t(&x), 1, 2))];
    let acc = accelerate(&tr, std::slice::from_ref(&x), std::slice::from_ref(&x1), &n).unwrap();
    assert!(acc.exact);
    let half = |e: Term| mk_mul_rat(&q(1, 2), mk_to_real(e));
    let expected = vec![
        mk_ge(t(&n), mk_int(1)),
        mk_lt(
            mk_add(vec![t(&x), half(mk_sub(t(&n), mk_int(1)))]),
            real(7, 2),
        ),
        mk_eq(t(&x1), mk_add(vec![t(&x), half(t(&n))])),
    ];
    assert_eq!(sorted(acc.lits), sorted(expected));
    let step = |s: &[Rat]| (vec![&s[0] + q(1, 2)], s[0] < q(7, 2));
    assert!(check(&[x], &[x1], &tr, &step));
}

#[test]
fn rational_loops_agree_with_their_runs() {
    let (x, y, x1, y1) = (rv("x"), rv("y"), rv("x'"), rv("y'"));
    let (i, i1) = (var("i", Sort::Int), var("i'", Sort::Int));
    // x > -1, x' = x - 0.25
    let tr = vec![mk_gt(t(&x), real(-1, 1)), mk_eq(t(&x1), plus(t(&x), -1, 4))];
    let step = |s: &[Rat]| (vec![&s[0] - q(1, 4)], s[0] > q(-1, 1));
    assert!(check(
        std::slice::from_ref(&x),
        std::slice::from_ref(&x1),
        &tr,
        &step
    ));
    // y <= 3/2, y' = x, x' = x + 1/2: y follows x one iteration late
    let tr = vec![
        mk_le(t(&y), real(3, 2)),
        mk_eq(t(&y1), t(&x)),
        mk_eq(t(&x1), plus(t(&x), 1, 2)),
    ];
    let step = |s: &[Rat]| (vec![&s[0] + q(1, 2), s[0].clone()], s[1] <= q(3, 2));
    let (pre, post) = ([x.clone(), y.clone()], [x1.clone(), y1.clone()]);
    assert!(check(&pre, &post, &tr, &step));
    // mixed: i <= x, i' = i + 1, x' = x + 3/4 (the guard compares an Int with a Real)
    let tr = vec![
        mk_le(t(&i), t(&x)),
        mk_eq(t(&i1), mk_add(vec![t(&i), mk_int(1)])),
        mk_eq(t(&x1), plus(t(&x), 3, 4)),
    ];
    let step = |s: &[Rat]| (vec![&s[0] + q(1, 1), &s[1] + q(3, 4)], s[0] <= s[1]);
    let (pre, post) = ([i.clone(), x.clone()], [i1.clone(), x1.clone()]);
    assert!(check(&pre, &post, &tr, &step));
    // a temporary defined by 2d = 1 and one bounded from one side only: d < x + 5,
    // x' = x + d, 2d = 1, e <= x (e free above)
    let (d, e) = (rv("d"), rv("e"));
    let tr = vec![
        mk_lt(t(&d), plus(t(&x), 5, 1)),
        mk_eq(mk_mul_const(&2.into(), t(&d)), real(1, 1)),
        mk_eq(t(&x1), mk_add(vec![t(&x), t(&d)])),
        mk_le(t(&e), t(&x)),
    ];
    let step = |s: &[Rat]| (vec![&s[0] + q(1, 2)], q(1, 2) < &s[0] + q(5, 1));
    assert!(check(
        std::slice::from_ref(&x),
        std::slice::from_ref(&x1),
        &tr,
        &step
    ));
    // x != 2, x' = x + 3/4: the function may jump over 2, so only an under-approximation
    let tr = vec![
        mk_not(mk_eq(t(&x), real(2, 1))),
        mk_eq(t(&x1), plus(t(&x), 3, 4)),
    ];
    let step = |s: &[Rat]| (vec![&s[0] + q(3, 4)], s[0] != q(2, 1));
    assert!(!check(&[x], &[x1], &tr, &step));
}

#[test]
fn non_affine_real_updates_are_not_accelerated() {
    let n = var("n", Sort::Int);
    let (x, y, x1, y1) = (rv("x"), rv("y"), rv("x'"), rv("y'"));
    let (i, i1) = (var("i", Sort::Int), var("i'", Sort::Int));
    let pre = [x.clone(), y.clone()];
    let post = [x1.clone(), y1.clone()];
    // x' = x / 2: geometric
    let tr = vec![
        mk_eq(t(&x1), mk_mul_rat(&q(1, 2), t(&x))),
        mk_eq(t(&y1), t(&y)),
    ];
    assert!(accelerate(&tr, &pre, &post, &n).is_none());
    // y' = y + x, x' = x + 1/2: quadratic
    let tr = vec![
        mk_eq(t(&y1), mk_add(vec![t(&y), t(&x)])),
        mk_eq(t(&x1), plus(t(&x), 1, 2)),
    ];
    assert!(accelerate(&tr, &pre, &post, &n).is_none());
    // x' = x + i, i' = i + 1: quadratic through to_real
    let tr = vec![
        mk_eq(t(&x1), mk_add(vec![t(&x), t(&i)])),
        mk_eq(t(&i1), mk_add(vec![t(&i), mk_int(1)])),
    ];
    let (pre2, post2) = ([x.clone(), i.clone()], [x1.clone(), i1.clone()]);
    assert!(accelerate(&tr, &pre2, &post2, &n).is_none());
    // to_int(x) <= 3 with x' = x + 1/2: a floor along the iterations
    let tr = vec![
        mk_le(mk_to_int(t(&x)), mk_int(3)),
        mk_eq(t(&x1), plus(t(&x), 1, 2)),
        mk_eq(t(&y1), t(&y)),
    ];
    assert!(accelerate(&tr, &pre, &post, &n).is_none());
    // x' <= x + 1/2 only: constrained, not determined
    let tr = vec![mk_le(t(&x1), plus(t(&x), 1, 2)), mk_eq(t(&y1), t(&y))];
    assert!(accelerate(&tr, &pre, &post, &n).is_none());
}
