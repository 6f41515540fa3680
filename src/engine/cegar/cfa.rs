//! A linear clause graph as a control-flow automaton: predicates are locations, facts leave
//! the initial location, queries enter the error location, and each clause is an edge.
//!
//! Every location has variables of its own (`cg!{p}!{k}` for parameter `k` of predicate
//! `p`; none at the initial and error locations). The edge of clause
//! `P(b) /\ phi => Q(h)` is labelled `phi /\ cur = b /\ next = h` over the current
//! variables of `P`, the next-state copies of `Q`'s variables (`cg!{q}!{k}!n`) and the
//! clause's own variables renamed apart (`cg!e{c}!{x}`). A path is unrolled by giving the
//! variables of the `j`-th location on it the version `j` ([`Cfa::op_at`]).

use crate::chc::{ChcSystem, ClauseId, PredId};
use crate::logic::*;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// A location: the initial one, the error one, or a predicate.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Loc(pub u32);

impl Loc {
    pub const INIT: Loc = Loc(0);
    pub const ERROR: Loc = Loc(1);

    pub fn of(p: PredId) -> Loc {
        Loc(p.0 + 2)
    }

    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// Index of an edge in [`Cfa::edges`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct EdgeId(pub u32);

impl EdgeId {
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// One clause as an edge.
#[derive(Clone, Debug)]
pub struct Edge {
    pub clause: ClauseId,
    pub from: Loc,
    pub to: Loc,
    /// The constraint over `from`'s variables, `to`'s next-state copies and [`Edge::aux`].
    pub op: Term,
    /// The clause's variables: `(original, renamed)`.
    pub aux: Vec<(Var, Var)>,
}

/// The control-flow automaton of a linear system.
pub struct Cfa {
    /// Per location, its variables (parameter order).
    pub vars: Vec<Vec<Var>>,
    /// Per location, the next-state copies of its variables.
    pub next: Vec<Vec<Var>>,
    pub edges: Vec<Edge>,
    /// Per location, its outgoing edges.
    pub out: Vec<Vec<EdgeId>>,
    /// Per location, the length of the shortest path to the error location (`None`: none).
    pub dist_err: Vec<Option<usize>>,
}

impl Cfa {
    /// The automaton of `sys`; `None` when a clause has two or more body predicates.
    pub fn new(sys: &ChcSystem) -> Option<Cfa> {
        if !sys.is_linear() {
            return None;
        }
        let nloc = sys.preds.len() + 2;
        let mut vars = vec![vec![], vec![]];
        let mut next = vec![vec![], vec![]];
        for p in sys.pred_ids() {
            let mk = |k: usize, s: Sort, suffix: &str| Var {
                name: format!("cg!{}!{k}{suffix}", p.0).into(),
                sort: s,
            };
            let sorts = &sys.pred(p).sorts;
            vars.push(
                sorts
                    .iter()
                    .enumerate()
                    .map(|(k, s)| mk(k, *s, ""))
                    .collect(),
            );
            next.push(
                sorts
                    .iter()
                    .enumerate()
                    .map(|(k, s)| mk(k, *s, "!n"))
                    .collect(),
            );
        }
        let mut edges = vec![];
        let mut out = vec![vec![]; nloc];
        for c in sys.clause_ids() {
            let mut aux = vec![];
            let r = sys.clauses[c.idx()].rename(&mut |v| {
                let w = Var {
                    name: format!("cg!e{}!{}", c.0, v.name).into(),
                    sort: v.sort,
                };
                aux.push((v.clone(), w.clone()));
                w
            });
            let mut conj = vec![r.constraint.clone()];
            let from = match r.body.first() {
                Some(b) => {
                    let l = Loc::of(b.pred);
                    for (v, a) in vars[l.idx()].iter().zip(&b.args) {
                        conj.push(mk_eq(mk_var_of(v), a.clone()));
                    }
                    l
                }
                None => Loc::INIT,
            };
            let to = match &r.head {
                Some(h) => {
                    let l = Loc::of(h.pred);
                    for (v, a) in next[l.idx()].iter().zip(&h.args) {
                        conj.push(mk_eq(mk_var_of(v), a.clone()));
                    }
                    l
                }
                None => Loc::ERROR,
            };
            out[from.idx()].push(EdgeId(edges.len() as u32));
            edges.push(Edge {
                clause: c,
                from,
                to,
                op: mk_and(conj),
                aux,
            });
        }
        let dist_err = distances(nloc, &edges);
        Some(Cfa {
            vars,
            next,
            edges,
            out,
            dist_err,
        })
    }

    pub fn edge(&self, e: EdgeId) -> &Edge {
        &self.edges[e.idx()]
    }

    /// The number of locations.
    pub fn locs(&self) -> usize {
        self.vars.len()
    }

    /// `f` over `loc`'s variables, moved to their next-state copies.
    pub fn to_next(&self, loc: Loc, f: &Term) -> Term {
        let map: FxHashMap<Var, Term> = self.vars[loc.idx()]
            .iter()
            .cloned()
            .zip(self.next[loc.idx()].iter().map(mk_var_of))
            .collect();
        subst(f, &map)
    }

    /// `v` at version `j`.
    pub fn versioned(v: &Var, j: usize) -> Var {
        Var {
            name: format!("{}@{j}", v.name).into(),
            sort: v.sort,
        }
    }

    /// `f` over `loc`'s variables at version `j`.
    pub fn state_at(&self, loc: Loc, f: &Term, j: usize) -> Term {
        let map: FxHashMap<Var, Term> = self.vars[loc.idx()]
            .iter()
            .map(|v| (v.clone(), mk_var_of(&Self::versioned(v, j))))
            .collect();
        subst(f, &map)
    }

    /// `f` over `loc`'s variables at version `j`, moved back to the unversioned variables.
    pub fn state_from(&self, loc: Loc, f: &Term, j: usize) -> Term {
        let map: FxHashMap<Var, Term> = self.vars[loc.idx()]
            .iter()
            .map(|v| (Self::versioned(v, j), mk_var_of(v)))
            .collect();
        subst(f, &map)
    }

    /// The label of `e` as the `j`-th edge of a path (`j >= 1`): `from`'s variables at version
    /// `j - 1`, `to`'s at version `j`, the clause's variables at version `j`.
    pub fn op_at(&self, e: EdgeId, j: usize) -> Term {
        let edge = self.edge(e);
        let mut map: FxHashMap<Var, Term> = FxHashMap::default();
        for v in &self.vars[edge.from.idx()] {
            map.insert(v.clone(), mk_var_of(&Self::versioned(v, j - 1)));
        }
        for (n, v) in self.next[edge.to.idx()]
            .iter()
            .zip(&self.vars[edge.to.idx()])
        {
            map.insert(n.clone(), mk_var_of(&Self::versioned(v, j)));
        }
        for (_, w) in &edge.aux {
            map.insert(w.clone(), mk_var_of(&Self::versioned(w, j)));
        }
        subst(&edge.op, &map)
    }

    /// `f` over `loc`'s variables, over the predicate's parameters `x0 ..` instead.
    pub fn to_params(&self, loc: Loc, f: &Term) -> Term {
        let map: FxHashMap<Var, Term> = self.vars[loc.idx()]
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let p = Var {
                    name: format!("x{k}").into(),
                    sort: v.sort,
                };
                (v.clone(), mk_var_of(&p))
            })
            .collect();
        subst(f, &map)
    }

    /// `f` over parameters `x0 ..`, over `loc`'s variables; `None` when `f` mentions a
    /// parameter `loc` does not have (or has with another sort).
    pub fn from_params(&self, loc: Loc, f: &Term) -> Option<Term> {
        let vars = &self.vars[loc.idx()];
        let mut map: FxHashMap<Var, Term> = FxHashMap::default();
        for v in free_vars(f) {
            let k: usize = v.name.strip_prefix('x')?.parse().ok()?;
            let w = vars.get(k).filter(|w| w.sort == v.sort)?;
            map.insert(v, mk_var_of(w));
        }
        Some(subst(f, &map))
    }
}

/// Backward breadth-first search from the error location.
fn distances(nloc: usize, edges: &[Edge]) -> Vec<Option<usize>> {
    let mut into: Vec<Vec<Loc>> = vec![vec![]; nloc];
    for e in edges {
        into[e.to.idx()].push(e.from);
    }
    let mut dist = vec![None; nloc];
    dist[Loc::ERROR.idx()] = Some(0);
    let mut queue = VecDeque::from([Loc::ERROR]);
    while let Some(l) = queue.pop_front() {
        let d = dist[l.idx()].unwrap_or(0);
        for &m in &into[l.idx()] {
            if dist[m.idx()].is_none() {
                dist[m.idx()] = Some(d + 1);
                queue.push_back(m);
            }
        }
    }
    dist
}
