//! Counterexamples of ABMC: a path whose learned steps stay accelerated segments (the
//! validator certifies them without expanding), and their full expansion on demand.
//!
//! A learned step whose cycle has only original transitions becomes one segment; one whose
//! cycle has learned transitions itself (a nested loop) is expanded one level, into its
//! outer iterations with each inner learned step a segment.

use super::expand::Expander;
use super::{Learned, Run, Tr};
use crate::engine::{Stop, TsAnswer};
use crate::logic::*;
use crate::smt::SolverConfig;
use crate::ts::TransitionSystem;
use crate::ts::{AccelPath, Expand, TsLink, TsPath, TsSegment};
use num_bigint::BigInt;
use std::sync::Arc;
use std::time::Instant;

/// What expansion needs of a run: the implicants and the learned transitions.
#[derive(Clone)]
pub(super) struct Table {
    pub orig: Vec<Vec<Term>>,
    pub learned: Vec<Learned>,
}

impl Table {
    /// The literals of `t` over state, next and other variables.
    pub fn lits(&self, t: Tr) -> Vec<Term> {
        match t {
            Tr::Orig(o) => self.orig[o].clone(),
            Tr::Learned(l) => self.learned[l].lits.clone(),
        }
    }

    /// Is `l`'s cycle made of original transitions only?
    pub fn pure(&self, l: usize) -> bool {
        self.learned[l]
            .cycle
            .iter()
            .all(|t| matches!(t, Tr::Orig(_)))
    }

    /// Learned step `l` with step values `a` (state, next, count) as a segment.
    pub fn segment(&self, l: usize, a: Assignment, count: BigInt) -> TsSegment {
        let lt = &self.learned[l];
        TsSegment {
            tau: lt.lits.clone(),
            n: lt.n.clone(),
            count,
            ends: a,
            sample: lt.sample.clone(),
            learned: l,
        }
    }
}

/// Expands the segments of ABMC's paths.
struct AbmcExpander {
    ts: TransitionSystem,
    cfg: SolverConfig,
    table: Table,
}

impl Expand for AbmcExpander {
    fn expand(&self, path: &AccelPath, deadline: Option<Instant>) -> Result<TsPath, String> {
        let mut ex = Expander::new(&self.ts, &self.cfg);
        ex.deadline = deadline;
        let mut links = vec![];
        for l in &path.links {
            match l {
                TsLink::Step(a) => links.push(TsLink::Step(a.clone())),
                TsLink::Segment(s) => ex
                    .learned(&self.table, s.learned, &s.ends, &s.count, &mut links)
                    .map_err(|e| e.to_string())?,
            }
        }
        let steps = links
            .into_iter()
            .map(|l| match l {
                TsLink::Step(a) => Ok(a),
                TsLink::Segment(_) => Err("a segment left after expansion".to_string()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(TsPath {
            init: path.init.clone(),
            steps,
            query: path.query.clone(),
        })
    }
}

/// The count of a learned step from its values.
fn count(tab: &Table, l: usize, a: &Assignment) -> Result<BigInt, Stop> {
    match a.get(&tab.learned[l].n) {
        Some(Value::Int(v)) => Ok(v.clone()),
        _ => Err(Stop::SolverError("abmc: no iteration count".into())),
    }
}

impl Run<'_> {
    fn table(&self) -> Table {
        Table {
            orig: self.orig.all.clone(),
            learned: self.learned.clone(),
        }
    }

    /// A counterexample from a model of the unrolling to bound `b` with the query: the
    /// trace's steps, learned ones as segments (see the module documentation).
    pub(super) fn counterexample(
        &mut self,
        b: usize,
        model: &Assignment,
    ) -> Result<TsAnswer, Stop> {
        let trace = self.trace(model, b)?;
        let tab = self.table();
        let mut ex = Expander::new(self.ts, self.smt_cfg);
        ex.keep_segments = true;
        let mut links = vec![];
        for (j, &t) in trace.iter().enumerate() {
            let a = self.step_values(model, j);
            match t {
                Tr::Orig(_) => links.push(TsLink::Step(a)),
                Tr::Learned(l) => {
                    let n = count(&tab, l, &a)?;
                    if tab.pure(l) {
                        links.push(TsLink::Segment(tab.segment(l, a, n)));
                    } else {
                        ex.learned(&tab, l, &a, &n, &mut links)?;
                    }
                }
            }
        }
        let mut len = BigInt::from(0);
        for l in &links {
            len += match l {
                TsLink::Step(_) => BigInt::from(1),
                TsLink::Segment(s) => &s.count * BigInt::from(tab.learned[s.learned].cycle.len()),
            };
        }
        self.c.cex_steps = usize::try_from(&len).unwrap_or(usize::MAX);
        let ts = self.ts;
        let vals_of = |t: &Term, j: usize| -> Assignment {
            free_vars(t)
                .into_iter()
                .filter_map(|v| model.get(&ts.at_var(&v, j)).map(|x| (v, x.clone())))
                .collect()
        };
        let path = AccelPath {
            init: vals_of(&ts.init, 0),
            query: vals_of(&ts.query, b),
            links,
            expander: Arc::new(AbmcExpander {
                ts: ts.clone(),
                cfg: self.smt_cfg.clone(),
                table: tab,
            }),
        };
        log::info!(
            "abmc: counterexample of {b} steps, {} segments, {len} concrete steps",
            path.segments()
        );
        if path.segments() == 0 {
            // no acceleration used: a plain path
            let steps = path
                .links
                .into_iter()
                .filter_map(|l| match l {
                    TsLink::Step(a) => Some(a),
                    TsLink::Segment(_) => None,
                })
                .collect();
            let p = TsPath {
                init: path.init,
                steps,
                query: path.query,
            };
            return Ok(TsAnswer::UnsafePath(p));
        }
        Ok(TsAnswer::UnsafeAccel(path))
    }
}
