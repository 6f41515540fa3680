//! Generalization against explicit state sets: a cube is blocked when no state of the set
//! satisfies it, and a core is the whole cube.

use super::*;
use crate::logic::{Assignment, Value};

/// `init` and `reach` are finite sets of states; every check ignores the level.
struct States {
    init: Vec<Assignment>,
    reach: Vec<Assignment>,
}

fn meets(states: &[Assignment], cube: &[Term]) -> bool {
    states
        .iter()
        .any(|s| cube.iter().all(|l| eval_bool(l, s).unwrap()))
}

impl Blocking for States {
    fn init_core(&mut self, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        Ok((!meets(&self.init, cube)).then(|| cube.to_vec()))
    }
    fn inductive_core(&mut self, _: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        Ok((!meets(&self.reach, cube)).then(|| cube.to_vec()))
    }
    fn trans_core(&mut self, level: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        self.inductive_core(level, cube)
    }
}

fn x_var() -> Var {
    Var {
        name: "x".into(),
        sort: Sort::Int,
    }
}

fn x() -> Term {
    mk_var_of(&x_var())
}

/// `x >= k`.
fn at_least(k: i64) -> Term {
    mk_ge(x(), mk_int(k))
}

/// The states `x = 0 .. 3`, `x = 0` initial.
fn small_x() -> States {
    let state = |k: i64| -> Assignment {
        let mut a = Assignment::default();
        a.insert(x_var(), Value::Int(k.into()));
        a
    };
    States {
        init: vec![state(0)],
        reach: (0..=3).map(state).collect(),
    }
}

fn all_steps() -> Steps {
    Steps {
        eliminate_vars: true,
        pair_sums: true,
        drop_literals: true,
        weaken_bounds: true,
    }
}

#[test]
fn a_lemma_keeps_each_literal_once() {
    let steps = Steps {
        eliminate_vars: false,
        pair_sums: false,
        drop_literals: false,
        weaken_bounds: false,
    };
    let twice = vec![at_least(5), at_least(5)];
    let g = generalize(&mut small_x(), &steps, 1, &twice, &twice, vec![]).unwrap();
    assert_eq!(g.len(), 1, "{g:?}");
}

/// From `x >= 4 /\ x >= 8` over the states `x <= 3`, the lemma is `x < 4` (`x >= 8` alone,
/// weakened by 4), which is the cube's first literal. The rest of the cube, `x >= 8`, weakens
/// to the same `x >= 4`: no second lemma may repeat the first.
#[test]
fn a_second_lemma_is_not_the_first_again() {
    let mut states = small_x();
    let steps = all_steps();
    let cube = vec![at_least(4), at_least(8)];
    let g = generalize(&mut states, &steps, 1, &cube, &cube, vec![]).unwrap();
    assert_eq!(g, vec![at_least(4)]);
    if let Some(h) = second_cube(&mut states, &steps, 1, &cube, &g).unwrap() {
        assert!(
            !g.iter().all(|l| h.contains(l)),
            "second lemma {h:?} is implied by the first {g:?}"
        );
    }
}

/// A strict real bound is raised as a strict bound: from `x > 7/4` over the reachable
/// states `x = 0, 1/2, 1, 3/2`, the cube weakens to `x > 3/2` (not to `x >= 3/2`, which
/// meets a reachable state, as the integer `x >= c + 1` reading of a strict bound would).
#[test]
fn a_strict_real_bound_weakens_strictly() {
    let xv = Var {
        name: "x".into(),
        sort: Sort::Real,
    };
    let state = |p: i64| -> Assignment {
        let mut a = Assignment::default();
        a.insert(xv.clone(), Value::Real(Rat::new(p.into(), 2.into())));
        a
    };
    let mut states = States {
        init: vec![state(0)],
        reach: (0..=3).map(state).collect(),
    };
    let steps = Steps {
        eliminate_vars: false,
        pair_sums: false,
        drop_literals: false,
        weaken_bounds: true,
    };
    let half = |p: i64| mk_real(Rat::new(p.into(), 4.into()));
    let cube = vec![mk_gt(mk_var_of(&xv), half(7))];
    let g = generalize(&mut states, &steps, 1, &cube, &cube, vec![]).unwrap();
    assert_eq!(g, vec![mk_gt(mk_var_of(&xv), half(6))]);
}
