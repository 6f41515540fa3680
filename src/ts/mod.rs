//! Transition systems, and the one adapter between a linear clause graph and a transition system.
//!
//! A linear system becomes state variables (a location `loc` when there are several
//! predicates, plus slots for predicate arguments shared between the predicates, one family
//! per sort: Int, Real, Bool, and each array sort), and formulas `init(s, a)`,
//! `trans(s, s', a)`, `query(s, a)`, where `a` are step-local variables. Each clause is one
//! disjunct. Slots a predicate does not use are set to their sort's default value (0, false,
//! a constant array) on every transition into it, so an invariant restricted to `loc = P` is
//! P's model.

mod accel;
mod path;

pub use path::{AccelPath, Expand, TsLink, TsPath, TsSegment};

use crate::chc::{chain, Cex, Model};
use crate::chc::{ChcSystem, Clause, ClauseId, PredApp, PredId};
use crate::logic::*;
use rustc_hash::FxHashMap;

/// `init(s, a)`, `trans(s, s', a)`, `query(s, a)`. Every variable that is neither a
/// state nor a next-state variable is local to one step.
#[derive(Clone, Debug)]
pub struct TransitionSystem {
    pub state: Vec<Var>,
    pub next: Vec<Var>,
    pub init: Term,
    pub trans: Term,
    pub query: Term,
}

impl TransitionSystem {
    /// The name of `v` at step `i`: state and local variables get `@i`, next-state variables `@(i+1)`.
    pub fn at_var(&self, v: &Var, i: usize) -> Var {
        let (base, step) = match self.next.iter().position(|n| n == v) {
            Some(j) => (&self.state[j].name, i + 1),
            None => (&v.name, i),
        };
        Var {
            name: format!("{base}@{step}").into(),
            sort: v.sort,
        }
    }

    /// `t` with every variable renamed to step `i`.
    pub fn at(&self, t: &Term, i: usize) -> Term {
        map_vars(t, &mut |v| Some(mk_var_of(&self.at_var(v, i))))
    }

    /// The state variables at step `i`.
    pub fn state_at(&self, i: usize) -> Vec<Var> {
        self.state.iter().map(|v| self.at_var(v, i)).collect()
    }

    /// All variables of `t` renamed to step `i` (to declare them).
    pub fn vars_at(&self, t: &Term, i: usize) -> Vec<Var> {
        free_vars(t).iter().map(|v| self.at_var(v, i)).collect()
    }

    /// `t` over state variables, moved to next-state variables.
    pub fn prime(&self, t: &Term) -> Term {
        rename(t, &self.state, &self.next)
    }

    /// `t` over next-state variables, moved back to state variables ([`Self::prime`]'s inverse).
    pub fn unprime(&self, t: &Term) -> Term {
        rename(t, &self.next, &self.state)
    }
}

/// `t` with each variable of `from` replaced by the one at the same place in `to`.
fn rename(t: &Term, from: &[Var], to: &[Var]) -> Term {
    let map: FxHashMap<Var, Term> = from
        .iter()
        .zip(to)
        .map(|(f, v)| (f.clone(), mk_var_of(v)))
        .collect();
    subst(t, &map)
}

/// How one clause sits in the transition system.
#[derive(Clone, Debug)]
struct Encoded {
    clause: ClauseId,
    /// The clause's disjunct.
    formula: Term,
    /// Each clause variable (a variable term) as a term over the transition system's
    /// variables.
    vars: Vec<(Term, Term)>,
}

/// The role of a clause in the transition system, which names its local variables.
#[derive(Clone, Copy)]
enum Role {
    Init,
    Step,
    Query,
}

/// Terms every clause's encoding uses, made once: the state variables, now and next, the
/// `s = default` equations of unused slots, each predicate's slot positions, and the step-local
/// variables `f.i0`, `t.b1`, ... by role, sort and index.
struct EncodeCache {
    loc: Option<usize>,
    cur: Vec<Term>,
    next: Vec<Term>,
    default_cur: Vec<Term>,
    default_next: Vec<Term>,
    slot_pos: Vec<Vec<usize>>,
    /// `loc = n` of each predicate, now and next (by predicate index), made on first use.
    at_loc: [Vec<Option<Term>>; 2],
    /// The `s = default` equations of the slots each predicate leaves unused, now and next
    /// (by predicate index), made on first use.
    unused: [Vec<Option<Vec<Term>>>; 2],
    locals: FxHashMap<(u8, Sort, usize), Term>,
    /// `mk_eq` by the uids of its arguments: the same slot equations (`loc = 3`,
    /// `i2' = i2`) recur in many clauses, and normalizing them is the costly part.
    eqs: FxHashMap<(u64, u64), Term>,
}

impl EncodeCache {
    fn new(a: &TsAdapter) -> EncodeCache {
        let state = &a.ts.state;
        let cur: Vec<Term> = state.iter().map(mk_var_of).collect();
        let next: Vec<Term> = a.ts.next.iter().map(mk_var_of).collect();
        let default_cur = state
            .iter()
            .zip(&cur)
            .map(|(s, t)| mk_eq(t.clone(), default_of(s.sort)))
            .collect();
        let default_next = state
            .iter()
            .zip(&next)
            .map(|(s, t)| mk_eq(t.clone(), default_of(s.sort)))
            .collect();
        EncodeCache {
            loc: a.loc.as_ref().map(|l| a.state_pos[l]),
            cur,
            next,
            default_cur,
            default_next,
            slot_pos: a
                .slots
                .iter()
                .map(|ss| ss.iter().map(|s| a.state_pos[s]).collect())
                .collect(),
            at_loc: [vec![None; a.loc_of.len()], vec![None; a.loc_of.len()]],
            unused: [vec![None; a.loc_of.len()], vec![None; a.loc_of.len()]],
            locals: FxHashMap::default(),
            eqs: FxHashMap::default(),
        }
    }

    /// `loc = value` (or `loc' = value`) for predicate `p`, whose location `value` is made
    /// on first use only.
    fn at_loc(&mut self, p: PredId, next: bool, value: impl FnOnce() -> Term) -> Term {
        if let Some(t) = &self.at_loc[next as usize][p.idx()] {
            return t.clone();
        }
        let l = self.loc.expect("a location variable");
        let slot = if next { &self.next } else { &self.cur }[l].clone();
        let t = self.eq(slot, value());
        self.at_loc[next as usize][p.idx()] = Some(t.clone());
        t
    }

    /// The `s = default` equations of the slots other than the location that `p` leaves
    /// unused, now or next.
    fn unused(&mut self, p: PredId, next: bool) -> &[Term] {
        let (loc, pos) = (self.loc, &self.slot_pos[p.idx()]);
        let defaults = if next {
            &self.default_next
        } else {
            &self.default_cur
        };
        self.unused[next as usize][p.idx()].get_or_insert_with(|| {
            let mut used = vec![false; defaults.len()];
            for &j in pos {
                used[j] = true;
            }
            loc.iter().for_each(|&l| used[l] = true);
            (defaults.iter().zip(used).filter(|(_, u)| !u))
                .map(|(d, _)| d.clone())
                .collect()
        })
    }

    /// `mk_eq(a, b)`, made once per pair of arguments.
    fn eq(&mut self, a: Term, b: Term) -> Term {
        self.eqs
            .entry((a.uid(), b.uid()))
            .or_insert_with(|| mk_eq(a, b))
            .clone()
    }

    /// The `n`-th local variable of sort `sort` of a clause in `role`.
    fn local(&mut self, role: Role, sort: Sort, n: usize) -> Term {
        let key = (role as u8, sort, n);
        self.locals
            .entry(key)
            .or_insert_with(|| {
                let r = match role {
                    Role::Init => "f",
                    Role::Step => "t",
                    Role::Query => "q",
                };
                mk_var(&format!("{r}.{}", slot_name(sort, n)), sort)
            })
            .clone()
    }
}

/// A linear clause system seen as a transition system, and the way back.
pub struct TsAdapter {
    pub ts: TransitionSystem,
    loc: Option<Var>,
    slots: Vec<Vec<Var>>,
    inits: Vec<Encoded>,
    steps: Vec<Encoded>,
    queries: Vec<Encoded>,
    /// Clauses with neither body nor head: `constraint => false`.
    pub direct_queries: Vec<ClauseId>,
    preds: Vec<PredId>,
    /// Location value of each predicate (by predicate index).
    loc_of: Vec<usize>,
    /// Position of each state variable.
    state_pos: FxHashMap<Var, usize>,
}

/// The name of the `n`-th slot of sort `s`.
fn slot_name(s: Sort, n: usize) -> String {
    match s {
        Sort::Int => format!("i{n}"),
        Sort::Bool => format!("b{n}"),
        Sort::Real => format!("r{n}"),
        Sort::Array(a) => format!("a{}_{n}", a.id()),
    }
}

fn default_of(s: Sort) -> Term {
    s.default_value().to_term()
}

impl TsAdapter {
    /// `None` when the system is not linear.
    pub fn new(sys: &ChcSystem) -> Option<TsAdapter> {
        if !sys.is_linear() {
            return None;
        }
        let mut used = vec![false; sys.preds.len()];
        for c in &sys.clauses {
            for a in c.body.iter().chain(c.head.iter()) {
                used[a.pred.idx()] = true;
            }
        }
        let preds: Vec<PredId> = sys.pred_ids().filter(|p| used[p.idx()]).collect();
        let loc = (preds.len() > 1).then(|| Var {
            name: "loc".into(),
            sort: Sort::Int,
        });
        let mut state: Vec<Var> = loc.iter().cloned().collect();
        let mut slots = vec![vec![]; sys.preds.len()];
        // slots are shared between predicates, per sort: i0 i1 .. for Int, r.. for Real,
        // b.. for Bool, a<k>_.. for the k-th array sort
        let mut most: std::collections::BTreeMap<Sort, usize> = Default::default();
        for &p in &preds {
            let mut count: FxHashMap<Sort, usize> = FxHashMap::default();
            for s in &sys.pred(p).sorts {
                let n = count.entry(*s).or_default();
                slots[p.idx()].push(Var {
                    name: slot_name(*s, *n).into(),
                    sort: *s,
                });
                *n += 1;
            }
            for (s, n) in count {
                let m = most.entry(s).or_default();
                *m = (*m).max(n);
            }
        }
        // Int slots first, then Real, then Bool, then arrays (the order of `Sort`)
        for (&s, &n) in &most {
            for k in 0..n {
                state.push(Var {
                    name: slot_name(s, k).into(),
                    sort: s,
                });
            }
        }
        let next: Vec<Var> = state
            .iter()
            .map(|v| Var {
                name: format!("{}'", v.name).into(),
                sort: v.sort,
            })
            .collect();
        let mut a = TsAdapter {
            ts: TransitionSystem {
                state,
                next,
                init: mk_false(),
                trans: mk_false(),
                query: mk_false(),
            },
            loc,
            slots,
            inits: vec![],
            steps: vec![],
            queries: vec![],
            direct_queries: vec![],
            loc_of: vec![0; sys.preds.len()],
            state_pos: FxHashMap::default(),
            preds,
        };
        for (i, p) in a.preds.iter().enumerate() {
            a.loc_of[p.idx()] = i;
        }
        a.state_pos =
            a.ts.state
                .iter()
                .enumerate()
                .map(|(i, v)| (v.clone(), i))
                .collect();
        let mut cache = EncodeCache::new(&a);
        for (i, c) in sys.clauses.iter().enumerate() {
            let id = ClauseId(i as u32);
            match (c.body.is_empty(), c.head.is_none()) {
                (true, true) => a.direct_queries.push(id),
                (true, false) => {
                    let e = a.encode(&mut cache, id, c, Role::Init);
                    a.inits.push(e)
                }
                (false, true) => {
                    let e = a.encode(&mut cache, id, c, Role::Query);
                    a.queries.push(e)
                }
                (false, false) => {
                    let e = a.encode(&mut cache, id, c, Role::Step);
                    a.steps.push(e)
                }
            }
        }
        let or = |es: &[Encoded]| mk_or(es.iter().map(|e| e.formula.clone()).collect());
        a.ts.init = or(&a.inits);
        a.ts.trans = or(&a.steps);
        a.ts.query = or(&a.queries);
        Some(a)
    }

    fn loc_value(&self, p: PredId) -> Term {
        mk_int(self.loc_of[p.idx()] as i64)
    }

    fn next_of(&self, v: &Var) -> Var {
        self.ts.next[self.state_pos[v]].clone()
    }

    /// The disjunct of clause `c`; `role` prefixes its local variables.
    fn encode(&self, cache: &mut EncodeCache, id: ClauseId, c: &Clause, role: Role) -> Encoded {
        let mut map: FxHashMap<Var, Term> = FxHashMap::default();
        let mut conj = vec![];
        let mut eqs: Vec<(Term, Term)> = vec![];
        let loc = cache.loc;
        let mut bind =
            |app: &PredApp, next: bool, conj: &mut Vec<Term>, eqs: &mut Vec<(Term, Term)>| {
                if loc.is_some() {
                    conj.push(cache.at_loc(app.pred, next, || self.loc_value(app.pred)));
                }
                let terms = if next { &cache.next } else { &cache.cur };
                let pos = &cache.slot_pos[app.pred.idx()];
                for (arg, &j) in app.args.iter().zip(pos) {
                    let slot = terms[j].clone();
                    match arg.as_var() {
                        Some(v) if !map.contains_key(v) => {
                            map.insert(v.clone(), slot);
                        }
                        _ => eqs.push((slot, arg.clone())),
                    }
                }
                if next {
                    // unused slots get their default value
                    conj.extend_from_slice(cache.unused(app.pred, true));
                }
            };
        for b in &c.body {
            bind(b, false, &mut conj, &mut eqs);
        }
        if let Some(h) = &c.head {
            // A fact's head describes the initial state: current-state slots.
            bind(h, !c.body.is_empty(), &mut conj, &mut eqs);
        }
        if c.body.is_empty() {
            // init: unused slots of the head predicate are at their default too
            if let Some(h) = &c.head {
                conj.extend_from_slice(cache.unused(h.pred, false));
            }
        }
        let mut count: FxHashMap<Sort, usize> = FxHashMap::default();
        let mut vars = vec![];
        for x in c.var_terms() {
            let v = x.as_var().expect("a variable term");
            let t = match map.get(v) {
                Some(t) => t.clone(),
                None => {
                    let c = count.entry(v.sort).or_default();
                    let n = *c;
                    *c += 1;
                    let t = cache.local(role, v.sort, n);
                    map.insert(v.clone(), t.clone());
                    t
                }
            };
            vars.push((x, t));
        }
        conj.push(subst(&c.constraint, &map));
        for (s, a) in eqs {
            conj.push(cache.eq(s, subst(&a, &map)));
        }
        Encoded {
            clause: id,
            formula: mk_and(conj),
            vars,
        }
    }

    /// Back from an invariant over the state variables to a model of the clause system.
    pub fn model(&self, sys: &ChcSystem, inv: &Term) -> Model {
        let mut m = Model::default();
        for &p in &self.preds {
            let params = sys.pred(p).params();
            let mut map: FxHashMap<Var, Term> = FxHashMap::default();
            if let Some(l) = &self.loc {
                map.insert(l.clone(), self.loc_value(p));
            }
            for s in &self.ts.state {
                if Some(s) != self.loc.as_ref() {
                    map.insert(s.clone(), default_of(s.sort));
                }
            }
            for (slot, x) in self.slots[p.idx()].iter().zip(&params) {
                map.insert(slot.clone(), mk_var_of(x));
            }
            m.insert(p, subst(inv, &map));
        }
        m
    }

    /// A PDR lemma for predicate `p`'s invariant `inv` (over its parameters `x0 ..`), as the
    /// cube it excludes: `loc = p /\ not inv(slots)` (without `loc` for a single predicate).
    /// `None` when no clause mentions `p` (it has no location).
    pub fn seed_cube(&self, sys: &ChcSystem, p: PredId, inv: &Term) -> Option<Vec<Term>> {
        if !self.preds.contains(&p) {
            return None;
        }
        let map: FxHashMap<Var, Term> = sys
            .pred(p)
            .params()
            .into_iter()
            .zip(self.slots[p.idx()].iter().map(mk_var_of))
            .collect();
        let mut cube = vec![];
        if let Some(l) = &self.loc {
            cube.push(mk_eq(mk_var_of(l), self.loc_value(p)));
        }
        cube.push(mk_not(subst(inv, &map)));
        Some(cube)
    }

    /// Back from a path of length `k` (a model of `init@0 /\ trans@0 .. trans@(k-1) /\ query@k`,
    /// over step-indexed variables) to a counterexample of the clause system.
    pub fn cex(&self, k: usize, vals: &Assignment) -> Option<Cex> {
        let pick = |es: &[Encoded], i: usize| -> Option<(ClauseId, Assignment)> {
            for e in es {
                if eval_bool(&self.ts.at(&e.formula, i), vals) == Ok(true) {
                    let mut step_vals = Assignment::default();
                    for (v, t) in &e.vars {
                        if let (Some(v), Ok(x)) = (v.as_var(), eval(&self.ts.at(t, i), vals)) {
                            step_vals.insert(v.clone(), x);
                        }
                    }
                    return Some((e.clause, step_vals));
                }
            }
            None
        };
        let mut out = vec![pick(&self.inits, 0)?];
        for i in 0..k {
            out.push(pick(&self.steps, i)?);
        }
        out.push(pick(&self.queries, k)?);
        Some(chain(out))
    }
}
