//! Transitive projection checked by enumeration on small ranges: the learned relation is
//! transitive (with `n1 + n2` for the composition), holds for every number of iterations of
//! its loop, and holds on the loop it was learned from.

use super::project::transitive_projection;
use crate::logic::*;

fn iv(name: &str) -> Var {
    Var {
        name: name.into(),
        sort: Sort::Int,
    }
}

fn a(pairs: &[(&Var, i64)]) -> Assignment {
    pairs
        .iter()
        .map(|(v, k)| ((*v).clone(), Value::Int((*k).into())))
        .collect()
}

/// `R(x, y, x', y', n)` under the given values.
fn holds(r: &[Term], vars: &[&Var], vals: &[i64]) -> bool {
    let m = a(&vars
        .iter()
        .copied()
        .zip(vals.iter().copied())
        .collect::<Vec<_>>());
    eval_bool(&mk_and(r.to_vec()), &m).unwrap()
}

#[test]
fn trl_transitive_projection_is_transitive_and_covers_every_iteration() {
    let (x, y, xp, yp, n) = (iv("x"), iv("y"), iv("x'"), iv("y'"), iv("trl.n1"));
    let (x0, y0, x1, y1) = (iv("x@0"), iv("y@0"), iv("x@1"), iv("y@1"));
    // the loop: x < 10, x' = x + 1, y' = y - 2
    let pi = vec![
        mk_lt(mk_var_of(&x0), mk_int(10)),
        mk_eq(mk_var_of(&x1), mk_add(vec![mk_var_of(&x0), mk_int(1)])),
        mk_eq(mk_var_of(&y1), mk_sub(mk_var_of(&y0), mk_int(2))),
    ];
    let model = a(&[(&x0, 3), (&y0, 5), (&x1, 4), (&y1, 3)]);
    let r = transitive_projection(
        &pi,
        &model,
        &[x.clone(), y.clone()],
        &[xp.clone(), yp.clone()],
        &[x0, y0],
        &[x1, y1],
        &n,
    )
    .unwrap();
    let vars = [&x, &y, &xp, &yp, &n];
    assert!(holds(&r, &vars, &[3, 5, 4, 3, 1]), "the loop's own step");
    // every number of iterations k >= 1 from every start the guard admits
    for x in -3..10 {
        for y in -3..3 {
            let (mut cx, mut cy) = (x, y);
            for k in 1..6 {
                if cx >= 10 {
                    break;
                }
                cx += 1;
                cy -= 2;
                assert!(
                    holds(&r, &vars, &[x, y, cx, cy, k]),
                    "{x},{y} -> {cx},{cy} in {k}"
                );
            }
        }
    }
    // transitivity: R(a, b, n1) /\ R(b, c, n2) -> R(a, c, n1 + n2)
    let range = -2..5;
    let mut pairs = 0;
    for ax in range.clone() {
        for bx in range.clone() {
            for cx in range.clone() {
                for n1 in 1..4 {
                    for n2 in 1..4 {
                        let (ay, by, cy) = (0, -2 * (bx - ax), -2 * (cx - ax));
                        if holds(&r, &vars, &[ax, ay, bx, by, n1])
                            && holds(&r, &vars, &[bx, by, cx, cy, n2])
                        {
                            pairs += 1;
                            assert!(holds(&r, &vars, &[ax, ay, cx, cy, n1 + n2]));
                        }
                    }
                }
            }
        }
    }
    assert!(pairs > 0, "the relation composes with itself somewhere");
    // and it is not everything: a step that moves y the wrong way is outside
    assert!(!holds(&r, &vars, &[3, 5, 4, 7, 1]));
}

#[test]
fn trl_shortest_loop_is_the_latest_shortest_repetition() {
    use super::{shortest_loop, Tr};
    let (a, b) = (Tr::Orig(0), Tr::Orig(1));
    assert_eq!(shortest_loop(&[a, b]), None);
    assert_eq!(shortest_loop(&[a, b, a]), Some((0, 2)));
    assert_eq!(shortest_loop(&[a, b, b]), Some((1, 2)));
    assert_eq!(shortest_loop(&[a, a, b, b]), Some((2, 3)));
}

/// A projected literal over a `Real` difference and an `Int` one (as `to_real`) is read
/// with its constant times `to_real(n)`, keeping its strictness: `2 d0 - d1 + 1 < 0` is
/// `2 (x' - x) - (i' - i) + n < 0`, and an integer literal stays integer.
#[test]
fn trl_recurrence_reads_real_literals_over_the_differences() {
    use super::project::recurrence;
    let rv = |s: &str| Var {
        name: s.into(),
        sort: Sort::Real,
    };
    let (x, xp, d0) = (rv("x"), rv("x'"), rv("trl.d0"));
    let (i, ip, d1, n) = (iv("i"), iv("i'"), iv("trl.d1"), iv("trl.n1"));
    let v = |w: &Var| mk_var_of(w);
    let diffs = vec![
        (d0.clone(), mk_sub(v(&xp), v(&x))),
        (d1.clone(), mk_sub(v(&ip), v(&i))),
    ];
    let two = |e: Term| mk_mul_const(&2.into(), e);
    let lit = mk_lt(mk_add(vec![two(v(&d0)), mk_neg(v(&d1))]), mk_int(-1));
    let expected = mk_lt(
        mk_add(vec![two(mk_sub(v(&xp), v(&x))), mk_sub(v(&i), v(&ip))]),
        mk_neg(mk_to_real(v(&n))),
    );
    assert_eq!(recurrence(&lit, &diffs, &n), Some(expected));
    let lit = mk_le(v(&d1), mk_int(3));
    let expected = mk_le(mk_sub(v(&ip), v(&i)), mk_mul_const(&3.into(), v(&n)));
    assert_eq!(recurrence(&lit, &diffs, &n), Some(expected));
    // a literal over a state variable is not a recurrence
    assert_eq!(recurrence(&mk_le(v(&x), v(&d0)), &diffs, &n), None);
}

/// A state variable the loop leaves unconstrained (`z`, havocked: in no literal of the loop,
/// so no model value) gets no recurrence; the relation is learned over the others and says
/// nothing of `z`. (Before, the projection failed with `no value for variable z@1`, and the
/// TRL lane gave up: `PRODUCER_CONSUMER_vt_e2` of LIA-Lin.)
#[test]
fn trl_projection_leaves_an_unconstrained_variable_free() {
    let (x, z, xp, zp, n) = (iv("x"), iv("z"), iv("x'"), iv("z'"), iv("trl.n1"));
    let (x0, z0, x1, z1) = (iv("x@0"), iv("z@0"), iv("x@1"), iv("z@1"));
    let pi = vec![
        mk_lt(mk_var_of(&x0), mk_int(10)),
        mk_eq(mk_var_of(&x1), mk_add(vec![mk_var_of(&x0), mk_int(1)])),
    ];
    let model = a(&[(&x0, 3), (&x1, 4)]);
    let r = transitive_projection(
        &pi,
        &model,
        &[x.clone(), z.clone()],
        &[xp.clone(), zp.clone()],
        &[x0, z0],
        &[x1, z1],
        &n,
    )
    .unwrap();
    let vars = [&x, &z, &xp, &zp, &n];
    for (z, zp) in [(0, 0), (5, -7), (-2, 100)] {
        assert!(holds(&r, &vars, &[3, z, 4, zp, 1]), "z {z} -> {zp}");
        assert!(holds(&r, &vars, &[3, z, 5, zp, 2]), "z {z} -> {zp} in 2");
    }
    assert!(!holds(&r, &vars, &[3, 0, 3, 0, 1]), "x must move");
}
