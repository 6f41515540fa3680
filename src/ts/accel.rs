//! Paths of transition-system engines back to clause applications, by step index: concrete
//! paths ([`TsPath`]) and paths with accelerated segments ([`AccelPath`]), whose segments
//! become segments over a predicate's arguments.

use super::{default_of, Encoded, TsAdapter};
use super::{AccelPath, TsLink, TsPath, TsSegment};
use crate::chc::{chain, AccelCex, Cex, CexStep, Link, Segment};
use crate::chc::{ChcSystem, ClauseId, PredId};
use crate::logic::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// The first clause of `es` whose disjunct holds under `a` (unindexed values of one step),
/// with the values of its variables.
fn pick(es: &[Encoded], a: &Assignment) -> Option<(ClauseId, Assignment)> {
    for e in es {
        if eval_bool(&e.formula, a) == Ok(true) {
            let mut vals = Assignment::default();
            for (v, t) in &e.vars {
                let x = match t.as_var() {
                    Some(w) => a.get(w).cloned(),
                    None => eval(t, a).ok(),
                };
                if let (Some(v), Some(x)) = (v.as_var(), x) {
                    vals.insert(v.clone(), x);
                }
            }
            return Some((e.clause, vals));
        }
    }
    None
}

impl TsAdapter {
    /// Back from a concrete path, step by step, to a counterexample of the clause system.
    pub fn cex_path(&self, p: &TsPath) -> Option<Cex> {
        let mut out = Vec::with_capacity(p.steps.len() + 2);
        out.push(pick(&self.inits, &p.init)?);
        for a in &p.steps {
            out.push(pick(&self.steps, a)?);
        }
        out.push(pick(&self.queries, &p.query)?);
        Some(chain(out))
    }

    /// Back from a path with segments to a counterexample with segments of the clause
    /// system `sys` (the one the adapter was built from). `None` when a step or a segment
    /// does not map to clauses.
    pub fn accel_cex(&self, sys: &ChcSystem, p: &AccelPath) -> Option<AccelCex> {
        let step = |(clause, vals): (ClauseId, Assignment)| {
            Link::Step(CexStep {
                clause,
                vals,
                premises: vec![],
            })
        };
        let mut out = vec![step(pick(&self.inits, &p.init)?)];
        for l in &p.links {
            out.push(match l {
                TsLink::Step(a) => step(pick(&self.steps, a)?),
                TsLink::Segment(s) => Link::Segment(self.segment(sys, s)?),
            });
        }
        out.push(step(pick(&self.queries, &p.query)?));
        Some(out)
    }

    /// The predicate at location value `v`.
    fn pred_at(&self, v: Option<&Value>) -> Option<PredId> {
        match (&self.loc, v) {
            (None, _) => self.preds.first().copied(),
            (Some(_), Some(Value::Int(i))) => self.preds.get(usize::try_from(i).ok()?).copied(),
            _ => None,
        }
    }

    /// A segment over the arguments of the predicate it starts and ends at.
    fn segment(&self, sys: &ChcSystem, s: &TsSegment) -> Option<Segment> {
        let (pred, pred_end) = match &self.loc {
            Some(l) => (
                self.pred_at(s.ends.get(l))?,
                self.pred_at(s.ends.get(&self.next_of(l)))?,
            ),
            None => (self.pred_at(None)?, self.pred_at(None)?),
        };
        if pred != pred_end {
            return None;
        }
        let cycle = s
            .sample
            .iter()
            .map(|a| pick(&self.steps, a).map(|(c, _)| c))
            .collect::<Option<Vec<_>>>()?;
        let sorts = &sys.pred(pred).sorts;
        let fresh = |p: &str| -> Vec<Var> {
            sorts
                .iter()
                .enumerate()
                .map(|(i, s)| Var {
                    name: format!("{p}{i}").into(),
                    sort: *s,
                })
                .collect()
        };
        let (pre, post) = (fresh("x"), fresh("y"));
        let slots = &self.slots[pred.idx()];
        let mut map: FxHashMap<Var, Term> = FxHashMap::default();
        for st in &self.ts.state {
            let nx = self.next_of(st);
            if Some(st) == self.loc.as_ref() {
                let v = self.loc_value(pred);
                map.insert(st.clone(), v.clone());
                map.insert(nx, v);
            } else if let Some(i) = slots.iter().position(|x| x == st) {
                map.insert(st.clone(), mk_var_of(&pre[i]));
                map.insert(nx, mk_var_of(&post[i]));
            } else {
                map.insert(st.clone(), default_of(st.sort));
                map.insert(nx, default_of(st.sort));
            }
        }
        let tau = subst(&mk_and(s.tau.clone()), &map);
        let ok: FxHashSet<&Var> = pre.iter().chain(&post).chain([&s.n]).collect();
        if free_vars(&tau).iter().any(|v| !ok.contains(v)) {
            return None;
        }
        let from = slots
            .iter()
            .map(|x| s.ends.get(x).cloned())
            .collect::<Option<Vec<_>>>()?;
        let to = slots
            .iter()
            .map(|x| s.ends.get(&self.next_of(x)).cloned())
            .collect::<Option<Vec<_>>>()?;
        Some(Segment {
            pred,
            cycle,
            pre,
            post,
            n: s.n.clone(),
            tau,
            count: s.count.clone(),
            from,
            to,
        })
    }
}
