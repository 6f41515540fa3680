//! The check of every candidate by the SMT solver: Houdini (Flanagan and Leino, *Houdini,
//! an annotation assistant for ESC/Java*, FME 2001). Candidates are conjectured per
//! predicate; a clause `body /\ constraint => head` whose body applications are assumed to
//! satisfy their predicates' candidates, and whose head then violates one, refutes that
//! candidate. Refuted candidates are dropped and the clauses that assumed them are asked
//! again, until no clause refutes any: what is left is an inductive invariant of the whole
//! system (each candidate inductive relative to the others).
//!
//! A clause is asked one query `hyp /\ not (c1 /\ .. /\ cn)`; on a model, every candidate the
//! model falsifies goes at once (exact evaluation), so a clause costs one query per round of
//! drops plus the final `unsat`.

use crate::chc::{ChcSystem, Clause, PredApp};
use crate::logic::*;
use crate::smt::{SatResult, Smt, SmtError, SolverConfig};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::time::Duration;

/// What survived, and whether it blocks every query.
#[derive(Clone, Debug)]
pub struct Checked {
    /// Per predicate, the candidates that are inductive together.
    pub invariants: Vec<Vec<Term>>,
    /// Every query clause is unsatisfiable under the invariants: their conjunctions are a
    /// model of the system.
    pub blocks_queries: bool,
    /// Solver queries asked.
    pub queries: usize,
}

/// Why the check gave up.
#[derive(Debug)]
pub enum Failed {
    /// Its time ran out (the solver was killed).
    Time,
    /// The solver said `unknown` or failed.
    Solver(String),
}

impl From<SmtError> for Failed {
    fn from(e: SmtError) -> Failed {
        Failed::Solver(e.to_string())
    }
}

/// Keeps the candidates of `cands` (per predicate, over its parameters `x0 ..`) that are
/// inductive together; gives up after `limit`.
pub fn houdini(
    sys: &ChcSystem,
    cands: Vec<Vec<Term>>,
    smt_cfg: &SolverConfig,
    limit: Duration,
) -> Result<Checked, Failed> {
    let mut smt = Smt::new(smt_cfg, "absint")?;
    let guard = smt.deadline(limit);
    let r = Houdini::new(sys, cands, &mut smt).and_then(|mut h| h.run());
    if guard.fired() {
        return Err(Failed::Time);
    }
    r
}

struct Houdini<'a> {
    sys: &'a ChcSystem,
    /// The clauses with variables named apart (`h{clause}!name`).
    clauses: Vec<Clause>,
    vars: Vec<Vec<Var>>,
    alive: Vec<Vec<Term>>,
    params: Vec<Vec<Var>>,
    smt: &'a mut Smt,
    queries: usize,
}

impl<'a> Houdini<'a> {
    fn new(
        sys: &'a ChcSystem,
        alive: Vec<Vec<Term>>,
        smt: &'a mut Smt,
    ) -> Result<Houdini<'a>, Failed> {
        let clauses: Vec<Clause> = sys
            .clauses
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.rename(&mut |v| Var {
                    name: format!("h{i}!{}", v.name).into(),
                    sort: v.sort,
                })
            })
            .collect();
        let vars: Vec<Vec<Var>> = clauses.iter().map(|c| c.vars()).collect();
        for v in vars.iter().flatten() {
            smt.declare(v)?;
        }
        Ok(Houdini {
            sys,
            clauses,
            vars,
            alive,
            params: sys.preds.iter().map(|p| p.params()).collect(),
            smt,
            queries: 0,
        })
    }

    /// The candidates of `app`'s predicate, over its arguments.
    fn at(&self, app: &PredApp) -> Vec<Term> {
        let map: FxHashMap<Var, Term> = self.params[app.pred.idx()]
            .iter()
            .cloned()
            .zip(app.args.iter().cloned())
            .collect();
        self.alive[app.pred.idx()]
            .iter()
            .map(|t| subst(t, &map))
            .collect()
    }

    /// `constraint /\ the body applications' candidates` of clause `c`.
    fn hypothesis(&self, c: usize) -> Term {
        let cl = &self.clauses[c];
        let mut conj = vec![cl.constraint.clone()];
        for b in &cl.body {
            conj.extend(self.at(b));
        }
        mk_and(conj)
    }

    fn check(&mut self) -> Result<bool, Failed> {
        self.queries += 1;
        match self.smt.check_sat()? {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => Err(Failed::Solver("the solver answered unknown".into())),
        }
    }

    fn run(&mut self) -> Result<Checked, Failed> {
        let n = self.clauses.len();
        let mut users = vec![vec![]; self.sys.preds.len()];
        for (i, c) in self.clauses.iter().enumerate() {
            for b in &c.body {
                users[b.pred.idx()].push(i);
            }
        }
        let mut queued = vec![true; n];
        let mut queue: VecDeque<usize> = (0..n).collect();
        while let Some(c) = queue.pop_front() {
            queued[c] = false;
            let Some(head) = self.clauses[c].head.clone() else {
                continue;
            };
            let p = head.pred.idx();
            if self.alive[p].is_empty() {
                continue;
            }
            if !self.drop_refuted(c, &head)? {
                continue;
            }
            // the clauses that assumed the dropped candidates, this one too
            for &u in users[p].iter().chain([&c]) {
                if !queued[u] {
                    queued[u] = true;
                    queue.push_back(u);
                }
            }
        }
        let mut blocks_queries = true;
        for c in 0..n {
            if self.clauses[c].head.is_none() {
                let hyp = self.hypothesis(c);
                self.smt.push()?;
                self.smt.assert(&hyp)?;
                let sat = self.check();
                self.smt.pop()?;
                if sat? {
                    blocks_queries = false;
                    break;
                }
            }
        }
        Ok(Checked {
            invariants: std::mem::take(&mut self.alive),
            blocks_queries,
            queries: self.queries,
        })
    }

    /// Asks clause `c` once: drops the candidates of its head that a model of the
    /// hypothesis falsifies. True when some were dropped.
    fn drop_refuted(&mut self, c: usize, head: &PredApp) -> Result<bool, Failed> {
        let hyp = self.hypothesis(c);
        let goals = self.at(head);
        self.smt.push()?;
        self.smt.assert(&hyp)?;
        self.smt.assert(&mk_not(mk_and(goals.clone())))?;
        let model = match self.check() {
            Ok(true) => self
                .smt
                .get_model(&self.vars[c])
                .map(Some)
                .map_err(Failed::from),
            Ok(false) => Ok(None),
            Err(e) => Err(e),
        };
        self.smt.pop()?;
        let Some(model) = model? else {
            return Ok(false);
        };
        let p = head.pred.idx();
        let before = self.alive[p].len();
        let keep: Vec<bool> = goals
            .iter()
            .map(|g| eval_bool(g, &model) == Ok(true))
            .collect();
        let mut k = keep.iter();
        self.alive[p].retain(|_| *k.next().expect("one per candidate"));
        if self.alive[p].len() == before {
            // the model satisfies every goal by our evaluation but not the solver's: keep nothing
            self.alive[p].clear();
        }
        Ok(true)
    }
}
