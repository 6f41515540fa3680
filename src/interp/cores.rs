//! Interpolants from projections generalized by unsatisfiable cores, for any solver: the
//! model-based interpolation of IC3/PDR's lemma generalization (Bradley, VMCAI 2011) and
//! Spacer's (Komuravelli, Gurfinkel, Chaki, CAV 2014), applied to one binary query.
//!
//! [`super::own`] returns the exact projection `exists (vars(A) \ vars(B)). A`, a disjunction
//! that can need thousands of disjuncts when `A` has many cases (a transition relation full
//! of `ite`s unrolled over a few steps). Here each disjunct is made as weak as `B` allows:
//!
//! - while `A /\ not I` has a model `M`, project `A` under `M` onto the shared symbols
//!   ([`crate::logic::mbp`]): a cube `p` with `p => exists ... A`, true in `M`;
//! - `p /\ B` is unsatisfiable when `A /\ B` is (`B` does not mention what was projected
//!   away); a satisfiable one means `A /\ B` is: the answer is `sat`;
//! - the literals of `p` in the solver's unsatisfiable core with `B` form `g`: weaker than
//!   `p`, still unsatisfiable with `B`, true in `M`. `I` takes `g` as a disjunct.
//!
//! The core is the solver's, not minimized: dropping its literals one at a time (up to 24
//! checks) left 57 disjuncts where the core alone leaves 97 on the k-to-1 queries of
//! `om1_with_relays_general_3_10_agreement` (LRA-Lin), but took 2.5 times as long; asking
//! yices for the core of its core changed almost nothing (57 and 78 disjuncts against 57
//! and 76 on `om1_with_relays_general_3_16_agreement`).
//!
//! The loop ends only when `A => I`, and every disjunct refutes `B`: `I` is an interpolant
//! over the shared symbols. One solver process holds both sides, each asserted once behind
//! a selector literal; each query assumes the other side's selector and the literals'
//! selectors false, so the solver does not search them. It gives up ([`Answer::Unknown`])
//! after [`MAX_DISJUNCTS`] disjuncts, on `unknown`, or when a projection fails (arrays,
//! non-linear terms).
//!
//! With helper processes (when the caller has idle cores: [`super::InterpConfig::workers`])
//! each process runs the same loop on its own, with its own random seed, and they share
//! their disjuncts: before each model query a process blocks the disjuncts the others have
//! found since. The first process whose `A /\ not I` is unsatisfiable has blocked only
//! shared disjuncts, so their disjunction is an interpolant; the others stop after their
//! current query. Two processes may find the same region at once: the disjunction then
//! repeats a disjunct, which is harmless. With two processes, the other lanes paused, the
//! k-to-1 models of the 52 `oral_messages` files labelled sat (LRA-Lin, `--print-witness`,
//! 5 s) came for 28 files against 26, in 37.1 s against 45.7 s on the 26 both solve
//! (docs/interpolation.md).

use super::backend::Answer;
use crate::logic::{free_vars, mbp, mk_and, mk_implies, mk_not, mk_or, mk_var, Sort, Term, Var};
use crate::smt::{SatResult, Smt, SmtError};
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Most disjuncts before it gives up.
pub const MAX_DISJUNCTS: usize = 1024;

/// What the processes share: the disjuncts found so far, and whether one of them is done.
#[derive(Default)]
struct Shared {
    disjuncts: Mutex<Vec<Term>>,
    done: AtomicBool,
}

/// How one process's loop ended.
enum End {
    /// `A /\ not I` is unsatisfiable, `I` the shared disjuncts.
    Covered,
    /// `A /\ B` is satisfiable.
    Sat,
    Unknown(String),
    /// Another process ended first.
    Stopped,
}

/// The core-generalized interpolant of `(A, B)`, with `smt` (any solver with unsatisfiable
/// cores: yices or z3) for the models and cores, and `helpers` (processes of the same
/// solver, possibly none) running the same loop in parallel threads.
pub(super) fn interpolate(
    smt: &mut Smt,
    helpers: &mut [Smt],
    a: &Term,
    b: &Term,
) -> Result<Answer, SmtError> {
    let shared = Shared::default();
    let (first, rest) = std::thread::scope(|s| {
        let threads: Vec<_> = helpers
            .iter_mut()
            .map(|h| {
                let shared = &shared;
                s.spawn(move || in_scope(h, a, b, shared))
            })
            .collect();
        let first = in_scope(smt, a, b, &shared);
        shared.done.store(true, Ordering::SeqCst);
        let rest: Vec<Result<End, SmtError>> = threads
            .into_iter()
            .map(|t| {
                t.join()
                    .unwrap_or_else(|_| Err(SmtError::Solver("cores: a helper panicked".into())))
            })
            .collect();
        (first, rest)
    });
    let disjuncts = shared
        .disjuncts
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let mut ends = vec![];
    for (h, r) in helpers.iter_mut().zip(rest) {
        match r {
            Ok(e) => ends.push(e),
            // a failed helper is left inside this query's scope: killed, so that the caller
            // starts a fresh one; the answer stands on the others
            Err(e) => {
                log::debug!("cores: a helper failed: {e}");
                h.kill();
            }
        }
    }
    ends.push(first?);
    if ends.iter().any(|e| matches!(e, End::Sat)) {
        return Ok(Answer::Sat);
    }
    if ends.iter().any(|e| matches!(e, End::Covered)) {
        return Ok(Answer::Interpolants(vec![mk_or(disjuncts)]));
    }
    Ok(Answer::Unknown(
        ends.into_iter()
            .find_map(|e| match e {
                End::Unknown(why) => Some(why),
                _ => None,
            })
            .unwrap_or_else(|| "cores: stopped".into()),
    ))
}

/// [`run`] inside a solver scope, which it pops.
fn in_scope(smt: &mut Smt, a: &Term, b: &Term, shared: &Shared) -> Result<End, SmtError> {
    smt.push()?;
    let r = run(smt, a, b, shared);
    let end = match r {
        Ok(e) => e,
        Err(e) => {
            shared.done.store(true, Ordering::SeqCst);
            return Err(e);
        }
    };
    if !matches!(end, End::Stopped) {
        shared.done.store(true, Ordering::SeqCst);
    }
    smt.pop()?;
    Ok(end)
}

/// One process's loop (see the module documentation).
fn run(smt: &mut Smt, a: &Term, b: &Term, shared: &Shared) -> Result<End, SmtError> {
    let va = free_vars(a);
    let vb = free_vars(b);
    let elim: Vec<Var> = va.iter().filter(|v| !vb.contains(v)).cloned().collect();
    for v in va.iter().chain(&vb) {
        smt.declare(v)?;
    }
    let sel_a = mk_var("itp!sel_a", Sort::Bool);
    let sel_b = mk_var("itp!sel_b", Sort::Bool);
    smt.assert(&mk_implies(sel_a.clone(), a.clone()))?;
    smt.assert(&mk_implies(sel_b.clone(), b.clone()))?;
    let mut blocked = 0;
    let mut selectors: FxHashMap<Term, Term> = FxHashMap::default();
    loop {
        if shared.done.load(Ordering::SeqCst) {
            return Ok(End::Stopped);
        }
        // block what every process has found so far
        let new: Vec<Term> = {
            let d = shared.disjuncts.lock().unwrap_or_else(|e| e.into_inner());
            d[blocked..].to_vec()
        };
        blocked += new.len();
        for g in new {
            smt.assert(&mk_implies(sel_a.clone(), mk_not(g)))?;
        }
        let mut only_a = vec![sel_a.clone(), mk_not(sel_b.clone())];
        only_a.extend(selectors.values().map(|s| mk_not(s.clone())));
        let m = match smt.check_sat_assuming(&only_a)? {
            SatResult::Unsat => return Ok(End::Covered),
            SatResult::Unknown => return Ok(End::Unknown("cores: unknown on A /\\ not I".into())),
            SatResult::Sat => smt.get_model(&va)?,
        };
        if blocked >= MAX_DISJUNCTS {
            return Ok(End::Unknown(format!(
                "cores: more than {MAX_DISJUNCTS} disjuncts"
            )));
        }
        let p = match mbp::project(std::slice::from_ref(a), &m, &elim) {
            Ok(p) => p.lits,
            Err(e) => return Ok(End::Unknown(format!("cores: projection: {e}"))),
        };
        // each literal of `p` behind its own selector (asserted once: projections of
        // different models share most of their literals)
        let mut named: Vec<(Term, Term)> = vec![];
        for l in p {
            let s = match selectors.get(&l) {
                Some(s) => s.clone(),
                None => {
                    let s = mk_var(&format!("itp!l{}", selectors.len()), Sort::Bool);
                    smt.assert(&mk_implies(s.clone(), l.clone()))?;
                    selectors.insert(l.clone(), s.clone());
                    s
                }
            };
            if !named.iter().any(|(t, _)| *t == s) {
                named.push((s, l));
            }
        }
        let mut sels = vec![sel_b.clone(), mk_not(sel_a.clone())];
        sels.extend(named.iter().map(|(s, _)| s.clone()));
        match smt.check_sat_assuming(&sels)? {
            SatResult::Unsat => {}
            SatResult::Sat => return Ok(End::Sat),
            SatResult::Unknown => return Ok(End::Unknown("cores: unknown on p /\\ B".into())),
        }
        let core = smt.unsat_assumptions()?;
        named.retain(|(s, _)| core.contains(s));
        let g = mk_and(named.into_iter().map(|(_, l)| l).collect());
        shared
            .disjuncts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(g);
    }
}
