//! Bounded model checking of non-linear clauses by unfolding derivation trees, on the
//! clauses' own text: counterexamples (`unsat`) for systems whose terms the solver takes
//! natively (recursive datatypes first), whatever the theory.
//!
//! The clauses are read from the input's text as terms that are sent back to z3 as they
//! are ([`clauses`]); trees of height 0, 1, 2, .. are checked in one incremental z3 process
//! ([`unfold`]: a node per predicate instance, a selector per clause), and a model is
//! read back as a derivation whose values are the solver's constructor terms. The
//! derivation is printed in Golem's format ([`golem`]) and, like every answer, judged
//! against the original text before it is printed.

pub mod clauses;
mod sexp;
pub mod unfold;

pub use clauses::{read, Clauses, Unsupported};
pub use unfold::{Derivation, Limits, NoCex};

use crate::smt::{KillSwitch, Smt, SolverConfig};
use std::fmt::Write;
use std::time::{Duration, Instant};

/// What a search did, for `--stats` and logs.
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    pub checks: usize,
    pub nodes: usize,
    pub seconds: f64,
}

/// Searches a derivation of `false` in the clauses `cs` with the z3 of `z3` (its `--tee`
/// directory too; killed with `kill`'s other solvers), until `deadline`.
pub fn search(
    cs: &Clauses,
    z3: &SolverConfig,
    kill: &KillSwitch,
    deadline: Option<Instant>,
    limits: Limits,
    stats: &mut SearchStats,
) -> Result<Derivation, NoCex> {
    let start = Instant::now();
    let mut cfg = z3.clone();
    cfg.kill = kill.clone();
    let mut smt = Smt::new(&cfg, "treebmc").map_err(|e| NoCex::Solver(e.to_string()))?;
    let limit = deadline.map_or(Duration::from_secs(1 << 30), |d| {
        d.saturating_duration_since(Instant::now())
    });
    let _guard = smt.deadline(limit);
    let res = match unfold::Unfolding::new(cs, &mut smt) {
        Ok(mut u) => {
            let r = u.search(limits);
            stats.checks = u.checks;
            stats.nodes = u.nodes();
            r
        }
        Err(e) => Err(e),
    };
    smt.kill();
    stats.seconds = start.elapsed().as_secs_f64();
    res
}

/// The derivation in Golem's format: `0:\ttrue`, then one numbered step per node, its fact
/// (`(P v1 .. vn)`, or `false` last) and the steps it is derived from (`0` for a fact).
pub fn golem(cs: &Clauses, d: &Derivation) -> String {
    let mut out = String::from("0:\ttrue\n");
    for (i, s) in d.steps.iter().enumerate() {
        let fact = match s.pred {
            None => "false".to_string(),
            Some(p) if s.args.is_empty() => cs.preds[p].name.clone(),
            Some(p) => format!("({} {})", cs.preds[p].name, s.args.join(" ")),
        };
        let premises: Vec<String> = if s.premises.is_empty() {
            vec!["0".into()]
        } else {
            s.premises.iter().map(|p| (p + 1).to_string()).collect()
        };
        // Golem's layout, as `crate::witness::cex_to_golem` prints it: ` -> ` then ` n` per
        // premise (two spaces before the first), a blank line after each step
        let _ = write!(out, "{}:\t{fact} -> ", i + 1);
        for p in premises {
            let _ = write!(out, " {p}");
        }
        out.push_str("\n\n");
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests;
