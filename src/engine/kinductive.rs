//! From a k-inductive invariant to a plain inductive one, quantifier-free, by interpolation
//! (Golem's `kinductiveToInductive`, mode UNFOLD: the reinforced unfolding of Bjørner,
//! Gurfinkel, McMillan, Rybalchenko, *Horn clause solvers for program verification*, 2015,
//! Sec. 4.2).
//!
//! `F` (over the state variables) is **k-inductive** when it holds in every state reachable
//! within `k - 1` steps and `F@0 /\ trans@0 /\ .. /\ F@(k-1) /\ trans@(k-1) => F@k`.
//! Unfold the definition of an inductive `Inv`, `init(x1) \/ (Inv(x0) /\ trans(x0, x1)) =>
//! Inv(x1)`, `m` times with `F` on the steps: [`unfolding`]
//!
//! `B_0 = true`, `B_m(x0..xm) = init@m \/ (B_(m-1) /\ F@(m-1) /\ trans@(m-1))`,
//!
//! the states `xm` that are initial, or are reached by `F`-steps from an initial state, or
//! end an `m`-step `F`-path from anywhere. `F` is k-inductive exactly when `B_k => F@k`.
//! Split `k = i + j` with `i = ceil(k/2)`: `B_i(x0..xi) /\ B_j(xi..xk) => B_k`, so
//! `B_i /\ B_j(xi..xk) /\ not F@k` is unsatisfiable, and an interpolant `I(xi)` of
//! `(B_i, B_j(xi..xk) /\ not F@k)` gives `F /\ I`, which is `i`-inductive: `B_i => I@i`
//! makes it hold within `i - 1` steps, and `I@i /\ B_j(xi..xk) => F@k` (with `B_i`
//! reaching `F /\ I` at every step) makes the step hold. Halving `k` until it is 1 gives an
//! inductive invariant, stronger than `F`, in about `log2 k` interpolation calls
//! ([`to_inductive`]).
//!
//! When interpolation fails, [`by_projection`] builds Golem's other form (mode QE):
//! `F /\ not exists x1..x(k-1). D` with `D` "an `F`-path from `x0` leaves `F` within
//! `k - 1` steps", `F@0 /\ trans@0 /\ (not F@1 \/ (F@1 /\ trans@1 /\ (not F@2 \/ ..)))`,
//! the quantifier eliminated by enumerating model-based projections (exact for LIA).
//!
//! The result is not checked here: callers check the three conditions of an inductive
//! invariant with their own solver before they answer with it.

use super::{Stop, Unroller};
use crate::interp::{Interp, Interpolator};
use crate::logic::*;
use crate::smt::{KillSwitch, SatResult};
use crate::ts::TransitionSystem;
use rustc_hash::FxHashMap;

/// `B_m` over steps `offset..offset+m` (see the module documentation): `F` at steps
/// `offset..offset+m-1`, `trans` between them, `init` at any step after `offset`.
pub fn unfolding(ts: &TransitionSystem, f: &Term, m: usize, offset: usize) -> Term {
    let mut b = mk_true();
    for l in 1..=m {
        let at = offset + l;
        b = mk_or(vec![
            ts.at(&ts.init, at),
            mk_and(vec![b, ts.at(f, at - 1), ts.at(&ts.trans, at - 1)]),
        ]);
    }
    b
}

/// An inductive invariant stronger than `f`, for `f` k-inductive (`k >= 1`) over the state
/// variables; `f` itself for `k = 1`. An error when an interpolation query has no answer
/// (or is satisfiable: then `f` is not k-inductive).
pub fn to_inductive(
    ts: &TransitionSystem,
    f: &Term,
    mut k: usize,
    itp: &mut Interpolator,
    kill: &KillSwitch,
) -> Result<Term, Stop> {
    let mut inv = f.clone();
    while k > 1 {
        let j = k / 2;
        let i = k - j;
        let a = unfolding(ts, &inv, i, 0);
        let b = mk_and(vec![unfolding(ts, &inv, j, i), mk_not(ts.at(&inv, k))]);
        let back: FxHashMap<Var, Term> = ts
            .state
            .iter()
            .map(|v| (ts.at_var(v, i), mk_var_of(v)))
            .collect();
        let found = match itp.binary(&a, &b) {
            Interp::Interpolant(mut is) if is.len() == 1 => subst(&is.pop().unwrap(), &back),
            Interp::Interpolant(is) => {
                return Err(Stop::SolverError(format!(
                    "k-to-1 induction: {} interpolants for a binary query",
                    is.len()
                )))
            }
            Interp::Sat(_) => {
                return Err(Stop::SolverError(format!(
                    "k-to-1 induction: the invariant is not {k}-inductive"
                )))
            }
            Interp::Unknown(why) => {
                if kill.is_killed() {
                    return Err(Stop::Killed);
                }
                return Err(Stop::SolverError(format!(
                    "k-to-1 induction: no interpolant at k = {k}: {why}"
                )));
            }
        };
        if let Some(v) = free_vars(&found).iter().find(|v| !ts.state.contains(v)) {
            return Err(Stop::SolverError(format!(
                "k-to-1 induction: the interpolant mentions `{}`, not a state variable",
                v.name
            )));
        }
        inv = mk_and(vec![inv, found]);
        k = i;
    }
    Ok(inv)
}

/// `f /\ not exists x1..x(k-1). D` (see the module documentation), the quantifier
/// eliminated by a disjunction of model-based projections of `D` onto step 0, enumerated in
/// `u`; `None` past `max` projections.
pub fn by_projection(
    ts: &TransitionSystem,
    f: &Term,
    k: usize,
    u: &mut Unroller,
    max: usize,
) -> Result<Option<Term>, Stop> {
    let mut d = mk_false();
    for i in (1..k).rev() {
        d = mk_and(vec![
            mk_or(vec![d, mk_not(ts.at(f, i))]),
            ts.at(f, i - 1),
            ts.at(&ts.trans, i - 1),
        ]);
    }
    let keep = ts.state_at(0);
    let elim: Vec<Var> = free_vars(&d)
        .into_iter()
        .filter(|v| !keep.contains(v))
        .collect();
    u.push()?;
    let r = (|| {
        u.assert(&d)?;
        let mut ds = vec![];
        loop {
            match u.check()? {
                SatResult::Unsat => return Ok(Some(mk_or(ds))),
                SatResult::Unknown => return Err(Stop::SolverUnknown),
                SatResult::Sat => {}
            }
            if ds.len() == max {
                return Ok(None);
            }
            let m = u.model()?;
            let p = mbp::project(std::slice::from_ref(&d), &m, &elim)
                .map_err(|e| Stop::Bug(format!("k-to-1 induction: projection: {e}")))?;
            let psi = mk_and(p.lits);
            u.assert(&mk_not(psi.clone()))?;
            ds.push(psi);
        }
    })();
    u.pop()?;
    let back: FxHashMap<Var, Term> = keep
        .iter()
        .zip(&ts.state)
        .map(|(a, s)| (a.clone(), mk_var_of(s)))
        .collect();
    Ok(r?.map(|bad| mk_and(vec![f.clone(), mk_not(subst(&bad, &back))])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{Backend, InterpConfig};
    use crate::smt::{Smt, SolverConfig, SolverKind};
    use crate::testing::ts::inductive_failure;
    use crate::testing::{skip, solver, z3_unsat};

    fn var(n: &str) -> Term {
        mk_var(n, Sort::Int)
    }

    fn state(names: &[&str]) -> Vec<Var> {
        names
            .iter()
            .map(|n| Var {
                name: (*n).into(),
                sort: Sort::Int,
            })
            .collect()
    }

    /// `a = b = 0; a' = b, b' = a`: `F = (a = 0)` is 2-inductive (two steps of `F` put 0 in
    /// both cells) but not 1-inductive (`a = 0, b = 1` steps to `a = 1`).
    fn swap() -> TransitionSystem {
        let st = state(&["a", "b"]);
        let nx = state(&["a'", "b'"]);
        TransitionSystem {
            state: st,
            next: nx,
            init: mk_and(vec![mk_eq(var("a"), mk_int(0)), mk_eq(var("b"), mk_int(0))]),
            trans: mk_and(vec![mk_eq(var("a'"), var("b")), mk_eq(var("b'"), var("a"))]),
            query: mk_not(mk_eq(var("a"), mk_int(0))),
        }
    }

    #[test]
    fn a_two_inductive_property_becomes_inductive() {
        let Some(z3) = solver(SolverKind::Z3) else {
            return;
        };
        let ts = swap();
        let f = mk_eq(var("a"), mk_int(0));
        // not 1-inductive: a = 0, b = 1 steps to a = 1
        assert!(!z3_unsat(
            &z3,
            &mk_and(vec![f.clone(), ts.trans.clone(), mk_not(ts.prime(&f))])
        ));
        let kill = KillSwitch::default();
        let mut itp = Interpolator::new(InterpConfig::for_engine(
            &Backend::ALL,
            &SolverConfig {
                kill: kill.clone(),
                ..z3.clone()
            },
        ));
        if itp.backends().is_empty() {
            skip("no interpolation backend found");
            return;
        }
        let inv = to_inductive(&ts, &f, 2, &mut itp, &kill).unwrap();
        // stronger than F, so it excludes the query too
        assert_eq!(inductive_failure(&z3, &ts, &inv), None, "{inv:?}");
    }

    #[test]
    fn the_projection_form_is_inductive_too() {
        let Some(z3) = solver(SolverKind::Z3) else {
            return;
        };
        let ts = swap();
        let f = mk_eq(var("a"), mk_int(0));
        let mut u = Unroller::new(Smt::new(&z3, "kinductive-test").unwrap());
        let inv = by_projection(&ts, &f, 2, &mut u, 16).unwrap().unwrap();
        assert_eq!(inductive_failure(&z3, &ts, &inv), None, "{inv:?}");
    }

    #[test]
    fn the_unfolding_is_exactly_the_k_induction_condition() {
        let Some(z3) = solver(SolverKind::Z3) else {
            return;
        };
        let ts = swap();
        let f = mk_eq(var("a"), mk_int(0));
        // B_1 => F@1 fails (F is not 1-inductive), B_2 => F@2 holds
        let fails = |m: usize| mk_and(vec![unfolding(&ts, &f, m, 0), mk_not(ts.at(&f, m))]);
        assert!(!z3_unsat(&z3, &fails(1)));
        assert!(z3_unsat(&z3, &fails(2)));
        // with an offset, only steps offset.. are mentioned
        let vars = free_vars(&unfolding(&ts, &f, 2, 3));
        assert!(vars.iter().all(|v| {
            let step: usize = v.name.rsplit('@').next().unwrap().parse().unwrap();
            (3..=5).contains(&step)
        }));
    }

    #[test]
    fn a_property_that_is_not_k_inductive_is_refused() {
        let Some(z3) = solver(SolverKind::Z3) else {
            return;
        };
        let ts = swap();
        let f = mk_eq(var("a"), mk_int(0));
        let kill = KillSwitch::default();
        let mut itp = Interpolator::new(InterpConfig::for_engine(
            &Backend::ALL,
            &SolverConfig {
                kill: kill.clone(),
                ..z3.clone()
            },
        ));
        if itp.backends().is_empty() {
            skip("no interpolation backend found");
            return;
        }
        // claimed 1-inductive: returned unchanged (k = 1 is the identity) ...
        assert_eq!(to_inductive(&ts, &f, 1, &mut itp, &kill).unwrap(), f);
        // ... but a false claim is caught: from `a = 1, b = 0`, `b != 1` fails after one step
        let g = mk_not(mk_eq(var("b"), mk_int(1)));
        let bad = TransitionSystem {
            init: mk_and(vec![mk_eq(var("a"), mk_int(1)), mk_eq(var("b"), mk_int(0))]),
            ..ts
        };
        assert!(to_inductive(&bad, &g, 2, &mut itp, &kill).is_err());
    }
}
