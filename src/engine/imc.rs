//! Interpolation-based model checking (IMC): McMillan, *Interpolation and SAT-based model
//! checking* (CAV 2003), on the transition system, in the formulation of Golem's IMC engine
//! (BMC first at every bound, then the fixpoint loop at that bound).
//!
//! The paper's steps and where they are here:
//!
//! - **The outer loop over `k`** ("if the procedure aborts, increase `k`"): `Imc::search`.
//!   At each `k >= 1` it first runs BMC at depth `k` in its own incremental solver
//!   ([`BmcSteps`]; depth 0 is checked before the loop), so every counterexample is found
//!   by BMC as in `bmc.rs` and answered as `Unsafe { k, vals }` with the model of the
//!   unrolling.
//! - **The procedure `FiniteRun(M, p, k)`** at one `k`: `Imc::fixpoint`. With `R = init`:
//!   - the prefix `A = R@0 /\ trans@0`;
//!   - the suffix `B` (`query_within`): the query is reached within `1..k` steps from step
//!     1, `q@1 \/ (trans@1 /\ (q@2 \/ (trans@2 /\ .. q@k)))`. A path may stop at the query
//!     (a state with no successor can still be bad), so `A /\ B` with `R = init` is exactly
//!     "some depth `1..k` has a counterexample", which BMC has just excluded;
//!   - `A /\ B` satisfiable with `R != init` means `R` over-approximates too much: abort, and
//!     the outer loop increases `k` (counted as `spurious`);
//!   - else the interpolant `I` of `(A, B)` from [`Interpolator::binary`] (checked by the
//!     interpolation layer; over the state variables at step 1, the only symbols `A` and `B`
//!     share), renamed back to the plain state variables: it contains the image of `R` and
//!     no state of it reaches the query within `k - 1` steps;
//!   - if `I => R` (one solver call: `I /\ not R` unsatisfiable), `R` is a fixpoint; else
//!     `R := R \/ I` and repeat.
//! - **The certificate**: the fixpoint `R = (exists locals. init) \/ I1 \/ .. \/ In` over the
//!   state variables, an inductive invariant that excludes the query. Before it is returned,
//!   `Imc::certify` checks the three conditions with the engine's solver (`init => R`,
//!   `R /\ trans => R'`, `R /\ query` unsatisfiable), and the validator re-checks the
//!   back-translated model against the original clauses.
//!
//! `init` may have step-local variables. `R` then holds `exists locals. init`
//! ([`mk_exists_elim`]: defined locals are substituted away). When a quantifier remains, the
//! solver checks (`I => R`, and `R'` in the consecution check) use the stronger
//! quantifier-free `I1 \/ .. \/ In` instead of `R`: still sound, only less complete.
//!
//! When the interpolation layer gives no interpolant (every backend unknown or out of time),
//! the fixpoint loop at this `k` stops and the outer loop moves on to `k + 1` (BMC keeps
//! deepening; counted as `interp unknown`). When the engine is killed, it stops with
//! [`Stop::Killed`].

use super::unroll::BmcSteps;
use super::{log_progress, Stop, TsAnswer, TsEngine, Unroller};
use crate::interp::{Backend, Interp, InterpConfig, Interpolator};
use crate::logic::*;
use crate::smt::{KillSwitch, SatResult, Smt, SmtStats, SolverConfig};
use crate::ts::TransitionSystem;
use rustc_hash::FxHashMap;
use std::time::Duration;

/// IMC settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Give up after this bound (default: none, run until killed).
    pub max_k: Option<usize>,
    /// Limit on one interpolation call of one backend (default 3 s).
    pub interp_timeout: Duration,
    /// Interpolation backends in order of preference (default: [`Backend::ALL`]).
    pub backends: Vec<Backend>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_k: None,
            interp_timeout: Duration::from_secs(3),
            backends: Backend::ALL.to_vec(),
        }
    }
}

pub struct Imc {
    cfg: Config,
    /// The current bound.
    k: usize,
    /// Interpolants received.
    interpolants: u64,
    /// Interpolation queries without an answer.
    interp_unknown: u64,
    /// Iterations of the fixpoint loop, over all bounds.
    iterations: u64,
    /// Fixpoint loops aborted because `A /\ B` was satisfiable with `R != init`.
    spurious: u64,
    /// Disjuncts of the invariant returned (interpolants, plus init).
    disjuncts: usize,
    smt: SmtStats,
}

/// The initial states in the forms the loop needs.
struct InitStates {
    /// `init` itself, its step-local variables free (existential wherever it is asserted).
    open: Term,
    /// `exists locals. init`, over the state variables.
    closed: Term,
    /// `closed` when it has no quantifier.
    qf: Option<Term>,
}

impl InitStates {
    fn new(ts: &TransitionSystem) -> InitStates {
        let locals: Vec<Var> = free_vars(&ts.init)
            .into_iter()
            .filter(|v| !ts.state.contains(v))
            .collect();
        let closed = mk_exists_elim(locals, ts.init.clone());
        let qf = (!matches!(closed.get(), TermNode::Exists(..))).then(|| closed.clone());
        InitStates {
            open: ts.init.clone(),
            closed,
            qf,
        }
    }
}

impl Imc {
    pub fn new(cfg: Config) -> Imc {
        Imc {
            cfg,
            k: 0,
            interpolants: 0,
            interp_unknown: 0,
            iterations: 0,
            spurious: 0,
            disjuncts: 0,
            smt: SmtStats::default(),
        }
    }

    fn run(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> Result<TsAnswer, Stop> {
        let mut bmc = BmcSteps::new(Unroller::new(Smt::new(smt, "imc-bmc")?));
        let check = match Smt::new(smt, "imc-check") {
            Ok(s) => s,
            Err(e) => {
                self.smt = bmc.stats();
                return Err(e.into());
            }
        };
        let mut check = Unroller::new(check);
        let mut icfg = InterpConfig::for_engine(&self.cfg.backends, smt);
        icfg.timeout = self.cfg.interp_timeout;
        let mut itp = Interpolator::new(icfg);
        if itp.backends().is_empty() {
            log::warn!("imc: no interpolation backend found; only BMC will run");
        }
        let r = self.search(ts, &mut bmc, &mut check, &mut itp, &smt.kill);
        self.smt = bmc.stats();
        self.smt += check.smt.stats();
        r
    }

    /// The outer loop: BMC at depth `k`, then the fixpoint loop at bound `k`.
    fn search(
        &mut self,
        ts: &TransitionSystem,
        bmc: &mut BmcSteps,
        check: &mut Unroller,
        itp: &mut Interpolator,
        kill: &KillSwitch,
    ) -> Result<TsAnswer, Stop> {
        let init = InitStates::new(ts);
        if let Some(vals) = bmc.check(ts, 0)? {
            return Ok(TsAnswer::Unsafe { k: 0, vals });
        }
        for k in 1.. {
            if self.cfg.max_k.is_some_and(|m| k > m) {
                return Err(Stop::Bound(k - 1));
            }
            self.k = k;
            log_progress("imc: k =", k);
            // init@0 /\ trans@0..trans@(k-1) /\ query@k
            if let Some(vals) = bmc.check(ts, k)? {
                return Ok(TsAnswer::Unsafe { k, vals });
            }
            if let Some(inv) = self.fixpoint(ts, k, &init, check, itp, kill)? {
                return Ok(TsAnswer::Safe(inv));
            }
        }
        unreachable!()
    }

    /// McMillan's `FiniteRun` at bound `k`: `Some(R)` for a checked fixpoint, `None` when
    /// the bound must grow (spurious counterexample, or no interpolant).
    fn fixpoint(
        &mut self,
        ts: &TransitionSystem,
        k: usize,
        init: &InitStates,
        check: &mut Unroller,
        itp: &mut Interpolator,
        kill: &KillSwitch,
    ) -> Result<Option<Term>, Stop> {
        let b = query_within(ts, k);
        let back: FxHashMap<Var, Term> = ts
            .state
            .iter()
            .map(|v| (ts.at_var(v, 1), mk_var_of(v)))
            .collect();
        // the interpolants so far, over the state variables: R = init \/ found
        let mut found: Vec<Term> = vec![];
        loop {
            self.iterations += 1;
            let r_open = mk_or(
                std::iter::once(init.open.clone())
                    .chain(found.iter().cloned())
                    .collect(),
            );
            let a = mk_and(vec![ts.at(&r_open, 0), ts.at(&ts.trans, 0)]);
            let i = match itp.binary(&a, &b) {
                Interp::Interpolant(mut is) if is.len() == 1 => {
                    self.interpolants += 1;
                    is.pop().unwrap()
                }
                Interp::Interpolant(is) => {
                    return Err(Stop::SolverError(format!(
                        "imc: {} interpolants for a binary query",
                        is.len()
                    )))
                }
                Interp::Sat(_) if found.is_empty() => {
                    // With R = init, A /\ B is a counterexample of depth 1..k, which BMC
                    // has just excluded: the solvers disagree.
                    return Err(Stop::SolverError(format!(
                        "imc: the interpolation layer finds a counterexample within {k} steps that BMC does not"
                    )));
                }
                Interp::Sat(_) => {
                    log::debug!("imc: k = {k}: spurious after {} interpolants", found.len());
                    self.spurious += 1;
                    return Ok(None);
                }
                Interp::Unknown(why) => {
                    if kill.is_killed() {
                        return Err(Stop::Killed);
                    }
                    self.interp_unknown += 1;
                    log::info!("imc: k = {k}: no interpolant ({why}); next bound");
                    return Ok(None);
                }
            };
            let i = subst(&i, &back);
            if let Some(v) = free_vars(&i).iter().find(|v| !ts.state.contains(v)) {
                return Err(Stop::SolverError(format!(
                    "imc: the interpolant mentions `{}`, not a state variable at step 1",
                    v.name
                )));
            }
            let r_qf = mk_or(
                init.qf
                    .iter()
                    .cloned()
                    .chain(found.iter().cloned())
                    .collect(),
            );
            if unsat(check, &mk_and(vec![i.clone(), mk_not(r_qf)]))? {
                log::info!(
                    "imc: fixpoint at k = {k} after {} interpolants",
                    found.len() + 1
                );
                self.certify(ts, init, &found, check)?;
                self.disjuncts = found.len() + 1;
                let inv = mk_or(std::iter::once(init.closed.clone()).chain(found).collect());
                return Ok(Some(inv));
            }
            found.push(i);
        }
    }

    /// Checks that `R = init \/ found` is an inductive invariant excluding the query:
    /// `init => R`, `R /\ trans => R'`, `R /\ query` unsatisfiable. On the right of an
    /// implication, `exists locals. init` is replaced by its quantifier-free form, or
    /// dropped when it has none (a stronger claim).
    fn certify(
        &mut self,
        ts: &TransitionSystem,
        init: &InitStates,
        found: &[Term],
        check: &mut Unroller,
    ) -> Result<(), Stop> {
        let r_open = mk_or(
            std::iter::once(init.open.clone())
                .chain(found.iter().cloned())
                .collect(),
        );
        let r_qf = mk_or(
            init.qf
                .iter()
                .cloned()
                .chain(found.iter().cloned())
                .collect(),
        );
        // without a quantifier-free form, `init => exists locals. init` holds as such
        let init_rhs = init.qf.clone().unwrap_or_else(|| init.open.clone());
        let r_init = mk_or(
            std::iter::once(init_rhs)
                .chain(found.iter().cloned())
                .collect(),
        );
        let conditions = [
            ("init => R", mk_and(vec![init.open.clone(), mk_not(r_init)])),
            (
                "R /\\ trans => R'",
                mk_and(vec![
                    r_open.clone(),
                    ts.trans.clone(),
                    mk_not(ts.prime(&r_qf)),
                ]),
            ),
            (
                "R /\\ query => false",
                mk_and(vec![r_open, ts.query.clone()]),
            ),
        ];
        for (what, q) in conditions {
            if !unsat(check, &q)? {
                log::error!("imc: the fixpoint fails its check `{what}` (a bug)");
                return Err(Stop::SolverError(format!(
                    "imc: the fixpoint fails its check `{what}`"
                )));
            }
        }
        Ok(())
    }
}

/// McMillan's suffix: the query within `1..k` steps of step 1,
/// `q@1 \/ (trans@1 /\ (q@2 \/ (trans@2 /\ .. q@k)))`.
fn query_within(ts: &TransitionSystem, k: usize) -> Term {
    let mut b = ts.at(&ts.query, k);
    for j in (1..k).rev() {
        b = mk_or(vec![
            ts.at(&ts.query, j),
            mk_and(vec![ts.at(&ts.trans, j), b]),
        ]);
    }
    b
}

/// Is `q` unsatisfiable? (`unknown` is an error: no claim rests on it.)
fn unsat(check: &mut Unroller, q: &Term) -> Result<bool, Stop> {
    check.push()?;
    check.assert(q)?;
    let r = check.check()?;
    check.pop()?;
    match r {
        SatResult::Unsat => Ok(true),
        SatResult::Sat => Ok(false),
        SatResult::Unknown => Err(Stop::SolverUnknown),
    }
}

impl TsEngine for Imc {
    fn name(&self) -> &'static str {
        "imc"
    }

    fn solve(&mut self, ts: &TransitionSystem, smt: &SolverConfig) -> TsAnswer {
        self.run(ts, smt).unwrap_or_else(TsAnswer::Unknown)
    }

    fn stats(&self) -> crate::engine::EngineStats {
        crate::engine::EngineStats::new(
            self.smt,
            vec![
                ("k", self.k.into()),
                ("interpolants", self.interpolants.into()),
                ("interp unknown", self.interp_unknown.into()),
                ("fixpoint iterations", self.iterations.into()),
                ("spurious", self.spurious.into()),
                ("invariant disjuncts", self.disjuncts.into()),
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::engine_solver;
    use crate::testing::ts::{assert_cex, assert_safe, assert_stops_when_killed, system, x, x1};

    #[test]
    fn proves_a_bounded_counter_safe_with_an_inductive_invariant() {
        let Some(cfg) = engine_solver() else { return };
        // x = 0; x < 10 -> x' = x + 1; bad: x > 10
        let ts = system(
            mk_eq(x(), mk_int(0)),
            mk_and(vec![
                mk_lt(x(), mk_int(10)),
                mk_eq(x1(), mk_add(vec![x(), mk_int(1)])),
            ]),
            mk_gt(x(), mk_int(10)),
        );
        let mut e = Imc::new(Config::default());
        assert_safe(&ts, &e.solve(&ts, &cfg));
        assert!(e.interpolants >= 1 && e.disjuncts >= 1);
    }

    #[test]
    fn init_with_a_local_variable_gives_an_existential_invariant() {
        let Some(cfg) = engine_solver() else { return };
        // x = 2y for a local y (not a definition of y: the coefficient is 2); x' = x + 2;
        // bad: x odd
        let y = mk_var("f.i0", Sort::Int);
        let ts = system(
            mk_eq(x(), mk_mul_const(&2.into(), y)),
            mk_eq(x1(), mk_add(vec![x(), mk_int(2)])),
            mk_eq(mk_mod(x(), 2.into()), mk_int(1)),
        );
        assert!(
            InitStates::new(&ts).qf.is_none(),
            "the local should stay quantified"
        );
        let mut e = Imc::new(Config::default());
        assert_safe(&ts, &e.solve(&ts, &cfg));
    }

    /// Two copies of a loop (the reve family: `x1 = x2`, `y1 = 2 * y2`): the strongest image
    /// after `k` steps is `0 <= x1 = x2 <= k /\ ...`, a new set at every step, so `own`'s
    /// projection never reaches a fixpoint; Farkas interpolants relate the copies linearly
    /// and do.
    #[test]
    fn farkas_interpolants_relate_two_copies_of_a_loop() {
        let Some(cfg) = engine_solver() else { return };
        let v = |n: &str| mk_var(n, Sort::Int);
        let ts = crate::testing::ts::system_over(
            &["a", "b", "c", "d"],
            mk_and(vec![
                mk_eq(v("a"), mk_int(0)),
                mk_eq(v("b"), mk_int(0)),
                mk_eq(v("c"), mk_int(0)),
                mk_eq(v("d"), mk_int(0)),
            ]),
            mk_and(vec![
                mk_eq(v("a'"), mk_add(vec![v("a"), mk_int(1)])),
                mk_eq(v("b'"), mk_add(vec![v("b"), mk_int(1)])),
                mk_eq(v("c'"), mk_add(vec![v("c"), mk_int(2)])),
                mk_eq(v("d'"), mk_add(vec![v("d"), mk_int(1)])),
            ]),
            mk_or(vec![
                mk_not(mk_eq(v("a"), v("b"))),
                mk_not(mk_eq(v("c"), mk_mul_const(&2.into(), v("d")))),
            ]),
        );
        let solve = |backends: Vec<Backend>| {
            let mut e = Imc::new(Config {
                max_k: Some(6),
                backends,
                ..Config::default()
            });
            e.solve(&ts, &cfg)
        };
        assert_safe(&ts, &solve(vec![Backend::Farkas]));
        // own's strongest interpolants grow with every step: no fixpoint within the bound
        assert!(!matches!(solve(vec![Backend::Own]), TsAnswer::Safe(_)));
    }

    #[test]
    fn finds_the_shortest_counterexample_by_bmc() {
        let Some(cfg) = engine_solver() else { return };
        // x = 0; x' = x + 1; bad: x = 5
        let ts = system(
            mk_eq(x(), mk_int(0)),
            mk_eq(x1(), mk_add(vec![x(), mk_int(1)])),
            mk_eq(x(), mk_int(5)),
        );
        let mut e = Imc::new(Config::default());
        assert_cex(&ts, &e.solve(&ts, &cfg), 5);
    }

    /// The suffix lets a path stop at the query: a bad state without successors counts.
    #[test]
    fn the_suffix_reaches_a_query_without_successors() {
        // trans needs x >= 0; bad: x = -1, a state without successors
        let ts = system(
            mk_eq(x(), mk_int(0)),
            mk_and(vec![
                mk_ge(x(), mk_int(0)),
                mk_eq(x1(), mk_add(vec![x(), mk_int(1)])),
            ]),
            mk_eq(x(), mk_int(-1)),
        );
        let b = query_within(&ts, 3);
        let mut vals = Assignment::default();
        for i in 1..=3 {
            vals.insert(ts.at_var(&ts.state[0], i), Value::Int((-1).into()));
        }
        assert_eq!(eval_bool(&ts.at(&ts.trans, 1), &vals), Ok(false));
        assert_eq!(eval_bool(&b, &vals), Ok(true));
        // and only states 1..k are asked: step 0 is A's
        let vars = free_vars(&b);
        assert!(!vars.contains(&ts.at_var(&ts.state[0], 0)));
        assert!(vars.contains(&ts.at_var(&ts.state[0], 3)));
    }

    #[test]
    fn stops_when_killed() {
        let Some(cfg) = engine_solver() else { return };
        // a counterexample of 10^6 steps: neither BMC nor the fixpoint loop ends soon
        let ts = system(
            mk_eq(x(), mk_int(0)),
            mk_eq(x1(), mk_add(vec![x(), mk_int(1)])),
            mk_eq(x(), mk_int(1_000_000)),
        );
        assert_stops_when_killed(&cfg, Duration::from_millis(500), || {
            Imc::new(Config::default()).solve(&ts, &cfg)
        });
    }
}
