//! Expansion of a learned step of a counterexample into the concrete steps it stands for.
//!
//! A learned transition `tau_l` taken with `n = N` from `pre` to `post` is `N` runs of its
//! cycle. Iteration by iteration we find the states between: by exact evaluation when the
//! equations of the cycle's transitions determine them (the common case: counters and
//! assignments), else by one solver query for the iteration, which also asks that `tau_l`
//! with `N - i - 1` iterations still leads to `post`. Learned transitions inside a cycle are
//! expanded recursively, or kept as segments of their own when asked (so a nested loop
//! becomes its outer iterations, each with its inner loop as one segment). The validator
//! replays or certifies the result; nothing here is trusted.

use super::{Table, Tr};
use crate::engine::Stop;
use crate::logic::*;
use crate::smt::{SatResult, Smt, SolverConfig};
use crate::ts::TransitionSystem;
use crate::ts::TsLink;
use num_bigint::BigInt;
use num_traits::Zero;
use rustc_hash::FxHashMap;
use std::time::Instant;

pub(super) struct Expander<'a> {
    ts: &'a TransitionSystem,
    cfg: &'a SolverConfig,
    smt: Option<Smt>,
    /// Iterations that needed the solver.
    pub queries: usize,
    /// Keep inner learned transitions whose cycle has no learned transition as segments.
    pub keep_segments: bool,
    pub deadline: Option<Instant>,
    plans: FxHashMap<usize, std::rc::Rc<Vec<StepPlan>>>,
    /// The count each inner learned transition had the last time it was expanded.
    last_count: FxHashMap<usize, BigInt>,
}

/// One step of a cycle, prepared for propagation.
struct StepPlan {
    t: Tr,
    lits: Vec<Term>,
    vars: Vec<Var>,
    defs: Vec<(Var, Term)>,
}

/// One step of a cycle with its values (state, next, and the step's other variables).
type Step = (Tr, Assignment);

impl<'a> Expander<'a> {
    pub fn new(ts: &'a TransitionSystem, cfg: &'a SolverConfig) -> Expander<'a> {
        Expander {
            ts,
            cfg,
            smt: None,
            queries: 0,
            keep_segments: false,
            deadline: None,
            plans: FxHashMap::default(),
            last_count: FxHashMap::default(),
        }
    }

    /// Appends the concrete steps of learned transition `l`, taken `nval` times with the
    /// step values `a` (state, next, and `l`'s iteration count).
    pub fn learned(
        &mut self,
        run: &Table,
        l: usize,
        a: &Assignment,
        nval: &BigInt,
        out: &mut Vec<TsLink>,
    ) -> Result<(), Stop> {
        let ts = self.ts;
        let cycle = run.learned[l].cycle.clone();
        let mut iterations = 0u32;
        let forced = run.pure(l);
        let mut y: Assignment = ts
            .state
            .iter()
            .filter_map(|s| a.get(s).map(|x| (s.clone(), x.clone())))
            .collect();
        let post = next_state(ts, a);
        let mut left = nval.clone();
        while left > BigInt::zero() {
            left -= 1;
            iterations = iterations.wrapping_add(1);
            if iterations.is_multiple_of(4096) && self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                return Err(Stop::SolverError("abmc: out of time expanding".into()));
            }
            // In a cycle of original transitions, values that equations determine are the
            // only ones possible: the run is forced, and only its end needs checking.
            let steps = match self.propagate(run, l, &y) {
                Some(steps) if forced && !left.is_zero() => steps,
                Some(steps) if self.ends_well(run, l, &steps, &post, &left) => steps,
                _ => self.solve(run, l, &cycle, &y, &post, &left)?,
            };
            for (t, s) in &steps {
                if let Tr::Learned(l2) = t {
                    if let Some(Value::Int(v)) = s.get(&run.learned[*l2].n) {
                        self.last_count.insert(*l2, v.clone());
                    }
                }
            }
            for (t, s) in steps {
                y = next_state(ts, &s);
                match t {
                    Tr::Orig(_) => out.push(TsLink::Step(s)),
                    Tr::Learned(l2) => {
                        let n2 = match s.get(&run.learned[l2].n) {
                            Some(Value::Int(v)) => v.clone(),
                            _ => return Err(Stop::SolverError("abmc: no inner count".into())),
                        };
                        if self.keep_segments && run.pure(l2) {
                            out.push(TsLink::Segment(run.segment(l2, s, n2)));
                        } else {
                            self.learned(run, l2, &s, &n2, out)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// What propagation needs of each step of `l`'s cycle: its literals, their variables
    /// and the definitions they give (computed once per learned transition).
    fn plan(&mut self, run: &Table, l: usize) -> std::rc::Rc<Vec<StepPlan>> {
        if let Some(p) = self.plans.get(&l) {
            return p.clone();
        }
        let p: Vec<StepPlan> = run.learned[l]
            .cycle
            .iter()
            .map(|&t| {
                let lits = run.lits(t);
                let mut vars = vec![];
                for lt in &lits {
                    for x in free_vars(lt) {
                        if !vars.contains(&x) {
                            vars.push(x);
                        }
                    }
                }
                let defs = lits.iter().flat_map(definitions).collect();
                StepPlan {
                    t,
                    lits,
                    vars,
                    defs,
                }
            })
            .collect();
        let p = std::rc::Rc::new(p);
        self.plans.insert(l, p.clone());
        p
    }

    /// The steps of one run of `l`'s cycle from `pre`, when equations determine every
    /// value; an inner learned step gets the count it had last time.
    fn propagate(&mut self, run: &Table, l: usize, pre: &Assignment) -> Option<Vec<Step>> {
        let ts = self.ts;
        let plan = self.plan(run, l);
        let mut y = pre.clone();
        let mut out = vec![];
        for st in plan.iter() {
            let mut a = y;
            if let Tr::Learned(l2) = st.t {
                let n2 = self.last_count.get(&l2)?;
                a.insert(run.learned[l2].n.clone(), Value::Int(n2.clone()));
            }
            let mut progress = true;
            while progress {
                progress = false;
                for (v, rhs) in &st.defs {
                    if a.contains_key(v) {
                        continue;
                    }
                    if let Ok(x) = eval(rhs, &a) {
                        a.insert(v.clone(), x);
                        progress = true;
                    }
                }
            }
            if !st.vars.iter().all(|v| a.contains_key(v))
                || !ts.next.iter().all(|n| a.contains_key(n))
                || !st.lits.iter().all(|l| eval_bool(l, &a) == Ok(true))
            {
                return None;
            }
            y = next_state(ts, &a);
            out.push((st.t, a));
        }
        Some(out)
    }

    /// Does the run `steps` end where `left` more iterations of `tau_l` reach `post`?
    fn ends_well(
        &self,
        run: &Table,
        l: usize,
        steps: &[Step],
        post: &Assignment,
        left: &BigInt,
    ) -> bool {
        let ts = self.ts;
        let Some((_, last)) = steps.last() else {
            return false;
        };
        if left.is_zero() {
            return ts
                .state
                .iter()
                .zip(&ts.next)
                .all(|(s, n)| last.get(n) == post.get(s));
        }
        let mut a = Assignment::default();
        for (s, n) in ts.state.iter().zip(&ts.next) {
            match (last.get(n), post.get(s)) {
                (Some(x), Some(p)) => {
                    a.insert(s.clone(), x.clone());
                    a.insert(n.clone(), p.clone());
                }
                _ => return false,
            }
        }
        a.insert(run.learned[l].n.clone(), Value::Int(left.clone()));
        run.learned[l]
            .lits
            .iter()
            .all(|t| eval_bool(t, &a) == Ok(true))
    }

    /// One run of `cycle` from `pre` by a solver query, such that `left` more iterations of
    /// `tau_l` reach `post`.
    fn solve(
        &mut self,
        run: &Table,
        l: usize,
        cycle: &[Tr],
        pre: &Assignment,
        post: &Assignment,
        left: &BigInt,
    ) -> Result<Vec<Step>, Stop> {
        self.queries += 1;
        let ts = self.ts;
        let k = cycle.len();
        let z = |m: usize, s: &Var| Var {
            name: format!("e.z{m}.{}", s.name).into(),
            sort: s.sort,
        };
        let c = |m: usize, v: &Var| Var {
            name: format!("e.c{m}.{}", v.name).into(),
            sort: v.sort,
        };
        // per step: unindexed variable -> solver variable
        let mut maps: Vec<FxHashMap<Var, Var>> = vec![];
        let mut phi = vec![];
        for (m, &t) in cycle.iter().enumerate() {
            let mut map = FxHashMap::default();
            let lits = run.lits(t);
            for lt in &lits {
                for v in free_vars(lt) {
                    let w = if let Some(p) = ts.state.iter().position(|s| *s == v) {
                        z(m, &ts.state[p])
                    } else if let Some(p) = ts.next.iter().position(|s| *s == v) {
                        z(m + 1, &ts.state[p])
                    } else {
                        c(m, &v)
                    };
                    map.insert(v, w);
                }
            }
            for (p, s) in ts.state.iter().enumerate() {
                map.insert(s.clone(), z(m, s));
                map.insert(ts.next[p].clone(), z(m + 1, s));
            }
            let sub: FxHashMap<Var, Term> =
                map.iter().map(|(v, w)| (v.clone(), mk_var_of(w))).collect();
            phi.extend(lits.iter().map(|lt| subst(lt, &sub)));
            maps.push(map);
        }
        for s in &ts.state {
            if let Some(x) = pre.get(s) {
                phi.push(mk_eq(mk_var_of(&z(0, s)), x.to_term()));
            }
        }
        if left.is_zero() {
            for s in &ts.state {
                if let Some(x) = post.get(s) {
                    phi.push(mk_eq(mk_var_of(&z(k, s)), x.to_term()));
                }
            }
        } else {
            let lt = &run.learned[l];
            let mut sub: FxHashMap<Var, Term> = FxHashMap::default();
            for (p, s) in ts.state.iter().enumerate() {
                sub.insert(s.clone(), mk_var_of(&z(k, s)));
                if let Some(x) = post.get(s) {
                    sub.insert(ts.next[p].clone(), x.to_term());
                }
            }
            sub.insert(lt.n.clone(), mk_int(left.clone()));
            phi.extend(lt.lits.iter().map(|t| subst(t, &sub)));
        }
        if self.smt.is_none() {
            self.smt = Some(Smt::new(self.cfg, "abmc-expand")?);
        }
        let smt = self.smt.as_mut().unwrap();
        smt.push()?;
        let mut vars: Vec<Var> = vec![];
        for t in &phi {
            for v in free_vars(t) {
                if !vars.contains(&v) {
                    vars.push(v);
                }
            }
        }
        for v in &vars {
            smt.declare(v)?;
        }
        for t in &phi {
            smt.assert(t)?;
        }
        let r = smt.check_sat()?;
        if r != SatResult::Sat {
            smt.pop()?;
            return Err(Stop::Bug(format!(
                "abmc: an iteration of a learned transition is {r} (acceleration bug?)"
            )));
        }
        let m = smt.get_model(&vars)?;
        smt.pop()?;
        let mut out = vec![];
        for (m_i, &t) in cycle.iter().enumerate() {
            let mut a = Assignment::default();
            for (v, w) in &maps[m_i] {
                let x = m.get(w).cloned().unwrap_or_else(|| w.sort.default_value());
                a.insert(v.clone(), x);
            }
            out.push((t, a));
        }
        Ok(out)
    }
}

/// The next-state values of step values `a`, under the state variables' names.
fn next_state(ts: &TransitionSystem, a: &Assignment) -> Assignment {
    ts.state
        .iter()
        .zip(&ts.next)
        .filter_map(|(s, n)| a.get(n).map(|x| (s.clone(), x.clone())))
        .collect()
}
