//! Interpretations that no value satisfies, written `false`.
//!
//! Inlining writes an eliminated predicate back as its exact interpretation under the
//! model of the others ([`crate::frontend::passes::exact_interpretation`]), and those nest:
//! on Solidity's `array_struct_array_struct_storage_safe` files, 52 of the 64 predicates
//! come back as conjunctions of 4 to 40 KB whose bounds contradict each other (`0 <= i`
//! beside `i <= -3`, the function's entry guard read under a summary that rules it out).
//! The model is exact and correct, but the judge's z3 expands those definitions in every
//! assertion that applies them: 2.2 s for the 118 assertions of `..._sol_13`, where z3
//! solves the file in 0.7 s.
//!
//! Replacing an unsatisfiable formula by `false` changes no predicate's meaning, so the
//! result is a model exactly when the input is one (and it is checked by the validator and
//! the judge like any other). One query per interpretation of at least [`MIN_NODES`]
//! distinct nodes, each within the time the run gives this step: a query that is not
//! answered `unsat` leaves the interpretation as it is. The queries go to the engines'
//! solver when it is yices (it starts in 1 ms; z3 took 14 ms before its first answer, on
//! every `sat` of a kind2 file whose model has an interpretation this large), else to z3.

use crate::chc::Model;
use crate::logic::*;
use crate::smt::{SatResult, Smt, SolverConfig, SolverKind};
use std::time::{Duration, Instant};

/// Smallest interpretation (distinct nodes of its term) worth a solver query: below it,
/// reading the formula costs the checkers less than the query would.
pub const MIN_NODES: usize = 200;

/// `m` with every interpretation of at least [`MIN_NODES`] nodes that the solver of `cfg`
/// finds unsatisfiable within `budget` (for all queries together) replaced by `false`; the
/// number replaced. No solver is started when no interpretation is that large.
pub fn unsatisfiable_as_false(m: &mut Model, cfg: &SolverConfig, budget: Duration) -> usize {
    let mut large: Vec<_> = m
        .iter()
        .filter(|(_, f)| !has_quantifier(f) && dag_size(f) >= MIN_NODES)
        .map(|(p, _)| *p)
        .collect();
    if large.is_empty() {
        return 0;
    }
    large.sort();
    let deadline = Instant::now() + budget;
    let Ok(mut smt) = Smt::new(cfg, "prune-model") else {
        return 0;
    };
    smt.compact();
    // z3's `:timeout` bounds each check; the guard bounds the whole step, sending included
    let _guard = smt.deadline(budget);
    let mut replaced = 0;
    for p in large {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        // yices has no `:timeout`: the guard alone bounds it
        let timeout = match smt.kind() {
            SolverKind::Z3 => smt.raw(&format!(
                "(set-option :timeout {})",
                left.as_millis().max(1)
            )),
            _ => Ok(()),
        };
        let r = timeout
            .and_then(|()| smt.push())
            .and_then(|()| smt.assert(&m[&p]))
            .and_then(|()| smt.check_sat())
            .and_then(|r| smt.pop().map(|()| r));
        match r {
            Ok(SatResult::Unsat) => {
                m.insert(p, mk_false());
                replaced += 1;
            }
            Ok(_) => {}
            Err(e) => {
                log::info!("pruning the model stopped: {e}");
                break;
            }
        }
    }
    smt.kill();
    replaced
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chc::PredId;

    fn int(name: &str) -> Term {
        mk_var_of(&Var {
            name: name.into(),
            sort: Sort::Int,
        })
    }

    /// A conjunction of `n` bounds `z_k <= k` (distinct nodes) and `extra`.
    fn large(extra: Term, n: i64) -> Term {
        let mut conj: Vec<Term> = (0..n)
            .map(|k| mk_le(int(&format!("z{k}")), mk_int(k)))
            .collect();
        conj.push(extra);
        mk_and(conj)
    }

    /// `y <= x0 /\ 3 <= y /\ x0 <= 0` with `!sat`, or its last bound `x0 <= 3`.
    fn chain(sat: bool) -> Term {
        let (x, y) = (int("x0"), int("y"));
        let top = if sat { 3 } else { 0 };
        mk_and(vec![
            mk_le(y.clone(), x.clone()),
            mk_le(mk_int(3), y),
            mk_le(x, mk_int(top)),
        ])
    }

    #[test]
    fn only_unsatisfiable_interpretations_become_false() {
        for cfg in [crate::testing::z3(), crate::testing::yices()] {
            only_unsatisfiable_become_false(&cfg);
        }
    }

    fn only_unsatisfiable_become_false(cfg: &SolverConfig) {
        let contradictory = large(chain(false), MIN_NODES as i64);
        let satisfiable = large(chain(true), MIN_NODES as i64);
        let small = chain(false);
        let mut m = Model::default();
        m.insert(PredId(0), contradictory);
        m.insert(PredId(1), satisfiable.clone());
        m.insert(PredId(2), small.clone());
        let n = unsatisfiable_as_false(&mut m, cfg, Duration::from_secs(10));
        assert_eq!(n, 1);
        assert_eq!(m[&PredId(0)], mk_false());
        assert_eq!(m[&PredId(1)], satisfiable, "a satisfiable one is kept");
        assert_eq!(m[&PredId(2)], small, "a small one is not queried");
    }
}
