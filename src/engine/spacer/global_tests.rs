//! The clusters and guesses of global guidance, on cubes written by hand: each guess must
//! contain every member cube of its cluster, and the subsume guesses must be what the paper
//! promises (an equality between parameters, a parity fact).

use super::*;
use crate::logic::testing::iv;

fn x() -> Term {
    iv("gx")
}

fn y() -> Term {
    iv("gy")
}

fn holds(cube: &[Term], vals: &[(&Term, i64)]) -> bool {
    let a: Assignment = vals
        .iter()
        .map(|(t, v)| (t.as_var().unwrap().clone(), Value::Int(BigInt::from(*v))))
        .collect();
    cube.iter().all(|l| eval_bool(l, &a).unwrap())
}

/// Feeds the lemmas to a fresh `Global` (each blocking its own cube) and returns the last
/// guess.
fn guess(lemmas: &[Vec<Term>]) -> Option<Guess> {
    let mut g = Global::default();
    let mut last = None;
    for (i, l) in lemmas.iter().enumerate() {
        last = g.on_lemma(PredId(0), l, i + 1, l, i + 1);
    }
    last
}

#[test]
fn subsume_finds_the_equality_between_two_counters() {
    // blocked: x >= k, y <= k - 1 for k = 1, 2, 3
    let lemmas: Vec<Vec<Term>> = (1..=3)
        .map(|k| vec![mk_ge(x(), mk_int(k)), mk_le(y(), mk_int(k - 1))])
        .collect();
    let g = guess(&lemmas).expect("a guess");
    assert_eq!(g.rule, Rule::Subsume);
    assert_eq!(g.level, 1);
    for a in -6..=6 {
        for b in -6..=6 {
            let member = (1..=3).any(|k| a >= k && b < k);
            let inside = holds(&g.cube, &[(&x(), a), (&y(), b)]);
            assert!(
                !member || inside,
                "x={a} y={b} is blocked by a member but not the guess"
            );
            // the closure: y < x, with x >= 1 and y <= 2
            assert_eq!(inside, b < a && a >= 1 && b <= 2, "x={a} y={b}");
        }
    }
}

#[test]
fn subsume_finds_parity() {
    // blocked: x = 1, x = 3, x = 5
    let lemmas: Vec<Vec<Term>> = [1, 3, 5]
        .iter()
        .map(|k| cube_of(vec![mk_eq(x(), mk_int(*k))]))
        .collect();
    let g = guess(&lemmas).expect("a guess");
    assert_eq!(g.rule, Rule::Subsume);
    for a in -4..=9 {
        let inside = holds(&g.cube, &[(&x(), a)]);
        assert_eq!(inside, a % 2 != 0 && (1..=5).contains(&a), "x={a}");
    }
}

#[test]
fn conjecture_drops_the_varying_literal() {
    // blocked: x >= k, y <= 0 for k = 4, 7: the pattern varies in `x >= .` only
    let lemmas: Vec<Vec<Term>> = [4, 7]
        .iter()
        .map(|k| vec![mk_ge(x(), mk_int(*k)), mk_le(y(), mk_int(0))])
        .collect();
    let g = guess(&lemmas).expect("a guess");
    assert_eq!(g.rule, Rule::Conjecture);
    assert_eq!(g.cube, vec![mk_le(y(), mk_int(0))]);
}

#[test]
fn no_guess_without_a_cluster_or_twice() {
    let mut g = Global::default();
    let a = vec![mk_ge(x(), mk_int(1)), mk_le(y(), mk_int(0))];
    let b = vec![
        mk_ge(x(), mk_int(1)),
        mk_le(mk_add(vec![x(), y()]), mk_int(0)),
    ];
    assert!(g.on_lemma(PredId(0), &a, 1, &a, 1).is_none());
    // another shape: another cluster
    assert!(g.on_lemma(PredId(0), &b, 1, &b, 1).is_none());
    // another predicate: another cluster
    let c = vec![mk_ge(x(), mk_int(2)), mk_le(y(), mk_int(0))];
    assert!(g.on_lemma(PredId(1), &c, 1, &c, 1).is_none());
    assert!(g.on_lemma(PredId(0), &c, 1, &c, 1).is_some());
    // the same guess is not proposed again
    let d = vec![mk_ge(x(), mk_int(3)), mk_le(y(), mk_int(0))];
    assert!(g.on_lemma(PredId(0), &d, 1, &d, 1).is_none());
}

#[test]
fn subsume_over_residues() {
    // blocked: (x + c) mod 7 = 0 for c = 1, 6, 2: x mod 7 in {6, 1, 5}, one literal each, so
    // nothing is left to conjecture; the closure is 1 <= x mod 7 <= 6
    let lemmas: Vec<Vec<Term>> = [1, 6, 2]
        .iter()
        .map(|c| {
            vec![mk_eq(
                mk_mod(mk_add(vec![x(), mk_int(*c)]), BigInt::from(7)),
                mk_int(0),
            )]
        })
        .collect();
    let g = guess(&lemmas).expect("a guess");
    assert_eq!(g.rule, Rule::Subsume);
    for a in -9..=20 {
        let inside = holds(&g.cube, &[(&x(), a)]);
        assert_eq!(inside, a.rem_euclid(7) != 0, "x={a}");
    }
}

#[test]
fn concretize_after_coefficients_vary() {
    // blocked: k*x + y <= 0 for k = 1, 2: the coefficient of x keeps changing
    let mut g = Global::default();
    for k in 1..=2 {
        let l = vec![mk_le(
            mk_add(vec![mk_mul_const(&BigInt::from(k), x()), y()]),
            mk_int(0),
        )];
        assert!(g.on_lemma(PredId(0), &l, 1, &l, 1).is_none());
    }
    // the next obligation 3*x + y <= 0, from the point x = 1, y = -5: the box x <= 1, y <= -5
    let ob = vec![mk_le(
        mk_add(vec![mk_mul_const(&BigInt::from(3), x()), y()]),
        mk_int(0),
    )];
    let point: Assignment = [(x(), 1), (y(), -5)]
        .iter()
        .map(|(t, v)| (t.as_var().unwrap().clone(), Value::Int(BigInt::from(*v))))
        .collect();
    let c = g.concretize(PredId(0), &ob, &point, 2).expect("a guess");
    assert_eq!(c.rule, Rule::Concretize);
    assert_eq!(c.level, 2);
    for a in -4..=4 {
        for b in -9..=2 {
            let inside = holds(&c.cube, &[(&x(), a), (&y(), b)]);
            assert_eq!(inside, a <= 1 && b <= -5, "x={a} y={b}");
            assert!(!inside || 3 * a + b <= 0, "the box lies in the obligation");
        }
    }
    // another predicate has seen one coefficient vector only
    assert!(g.concretize(PredId(1), &ob, &point, 2).is_none());
}
