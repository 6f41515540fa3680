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
//! `om1_with_relays_general_3_10_agreement` (LRA-Lin), but took 2.5 times as long.
//!
//! The loop ends only when `A => I`, and every disjunct refutes `B`: `I` is an interpolant
//! over the shared symbols. One solver process holds both sides, each asserted once behind
//! a selector literal. It gives up ([`Answer::Unknown`]) after [`MAX_DISJUNCTS`]
//! disjuncts, on `unknown`, or when a projection fails (arrays, non-linear terms).

use super::backend::Answer;
use crate::logic::{free_vars, mbp, mk_and, mk_implies, mk_not, mk_or, mk_var, Sort, Term, Var};
use crate::smt::{SatResult, Smt, SmtError};
use rustc_hash::FxHashMap;

/// Most disjuncts before it gives up.
pub const MAX_DISJUNCTS: usize = 1024;

/// The core-generalized interpolant of `(A, B)`, with `smt` (any solver with unsatisfiable
/// cores: yices or z3) for the models and cores.
pub(super) fn interpolate(smt: &mut Smt, a: &Term, b: &Term) -> Result<Answer, SmtError> {
    let va = free_vars(a);
    let vb = free_vars(b);
    let elim: Vec<Var> = va.iter().filter(|v| !vb.contains(v)).cloned().collect();
    smt.push()?;
    let r = (|| {
        for v in va.iter().chain(&vb) {
            smt.declare(v)?;
        }
        let sel_a = mk_var("itp!sel_a", Sort::Bool);
        let sel_b = mk_var("itp!sel_b", Sort::Bool);
        smt.assert(&mk_implies(sel_a.clone(), a.clone()))?;
        smt.assert(&mk_implies(sel_b.clone(), b.clone()))?;
        let mut disj: Vec<Term> = vec![];
        let mut selectors: FxHashMap<Term, Term> = FxHashMap::default();
        loop {
            let m = match smt.check_sat_assuming(std::slice::from_ref(&sel_a))? {
                SatResult::Unsat => return Ok(Answer::Interpolants(vec![mk_or(disj)])),
                SatResult::Unknown => {
                    return Ok(Answer::Unknown("cores: unknown on A /\\ not I".into()))
                }
                SatResult::Sat => smt.get_model(&va)?,
            };
            if disj.len() >= MAX_DISJUNCTS {
                return Ok(Answer::Unknown(format!(
                    "cores: more than {MAX_DISJUNCTS} disjuncts"
                )));
            }
            let p = match mbp::project(std::slice::from_ref(a), &m, &elim) {
                Ok(p) => p.lits,
                Err(e) => return Ok(Answer::Unknown(format!("cores: projection: {e}"))),
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
            let mut sels = vec![sel_b.clone()];
            sels.extend(named.iter().map(|(s, _)| s.clone()));
            match smt.check_sat_assuming(&sels)? {
                SatResult::Unsat => {}
                SatResult::Sat => return Ok(Answer::Sat),
                SatResult::Unknown => {
                    return Ok(Answer::Unknown("cores: unknown on p /\\ B".into()))
                }
            }
            let core = smt.unsat_assumptions()?;
            named.retain(|(s, _)| core.contains(s));
            let g = mk_and(named.into_iter().map(|(_, l)| l).collect());
            smt.assert(&mk_implies(sel_a.clone(), mk_not(g.clone())))?;
            disj.push(g);
        }
    })();
    let popped = smt.pop();
    let r = r?;
    popped?;
    Ok(r)
}
