//! Bounded unfolding of derivation trees in one incremental solver process.
//!
//! Every node of the tree is a predicate instance with constants of its own: its
//! arguments, a Boolean `act` (the node is used), one selector per clause whose head is its
//! predicate, and a copy of that clause's variables per selector. The root is the query
//! (`false`), its clauses the queries. Asserted for each node:
//!
//! - `act => (or sel_1 .. sel_m)`;
//! - `sel_c => (and act_child .. (C_c vars args child-args))`, where `C_c` is a
//!   `define-fun` per clause (its constraint, the head arguments equal to the node's, each
//!   body application's arguments equal to its child's);
//! - `act => level_k`, `k` the node's distance from the root.
//!
//! The children of a node are shared among its clauses: the `j`-th application of `Q` in
//! any clause of the node goes to the node's child `(Q, j)`. Depth `d` is checked by
//! assuming `(not level_{d+1})` (the nodes below depth `d` are declared, not defined): a
//! model is a derivation tree of height at most `d`, read from the true selectors and the
//! nodes' argument values (constructor terms for datatypes, as the solver prints them). Each
//! depth then defines the next level of nodes, so nothing is asserted twice.
//!
//! The tree may grow exponentially with the depth on non-linear clauses: the unfolding stops
//! at [`Limits::nodes`] nodes.

use super::clauses::Clauses;
use super::sexp::{read, unlet, S};
use crate::smt::{Smt, SmtError};
use rustc_hash::FxHashMap;
use std::fmt::Write;

/// Bounds on the unfolding.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The deepest tree height checked.
    pub depth: usize,
    /// The most nodes defined.
    pub nodes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: 1000,
            nodes: 20_000,
        }
    }
}

/// A derivation: nodes in an order where children come first, the root (`false`) last;
/// each with its clause, its predicate's arguments (values as printed by the solver) and
/// its children (indices into the derivation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derivation {
    pub steps: Vec<DStep>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DStep {
    pub clause: usize,
    /// `None`: the query's conclusion.
    pub pred: Option<usize>,
    pub args: Vec<String>,
    pub premises: Vec<usize>,
}

/// How the search ended without a derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoCex {
    /// No derivation of height at most `depth` exists (and none at all when `complete`:
    /// the tree stopped growing).
    Bound { depth: usize, complete: bool },
    /// The node limit was reached after checking `depth`.
    Nodes { depth: usize },
    /// The solver failed or was killed.
    Solver(String),
}

struct Node {
    /// `None`: the root.
    pred: Option<usize>,
    level: usize,
    /// `(Q, j)` -> the child node.
    children: FxHashMap<(usize, usize), usize>,
}

/// The unfolding on one solver.
pub struct Unfolding<'a> {
    cs: &'a Clauses,
    smt: &'a mut Smt,
    nodes: Vec<Node>,
    /// Clauses by head predicate (`None`, the queries, last).
    by_head: Vec<Vec<usize>>,
    /// The nodes declared but not yet defined.
    frontier: Vec<usize>,
    pub checks: usize,
}

fn arg(n: usize, i: usize) -> String {
    format!("|t!{n}!{i}|")
}
fn act(n: usize) -> String {
    format!("|t!{n}!a|")
}
fn sel(n: usize, c: usize) -> String {
    format!("|t!{n}!s!{c}|")
}
fn var(n: usize, c: usize, k: usize) -> String {
    format!("|t!{n}!{c}!{k}|")
}
fn level(k: usize) -> String {
    format!("|t!level!{k}|")
}
fn def(c: usize) -> String {
    format!("|t!clause!{c}|")
}

fn e(err: SmtError) -> NoCex {
    NoCex::Solver(err.to_string())
}

impl<'a> Unfolding<'a> {
    /// Sends the prelude and the clause definitions, and declares the root.
    pub fn new(cs: &'a Clauses, smt: &'a mut Smt) -> Result<Unfolding<'a>, NoCex> {
        let mut by_head = vec![vec![]; cs.preds.len() + 1];
        for (k, c) in cs.clauses.iter().enumerate() {
            let h = c.head.as_ref().map_or(cs.preds.len(), |a| a.pred);
            by_head[h].push(k);
        }
        let mut u = Unfolding {
            cs,
            smt,
            nodes: vec![],
            by_head,
            frontier: vec![],
            checks: 0,
        };
        for p in &cs.prelude {
            u.smt.raw(p).map_err(e)?;
        }
        for k in 0..cs.clauses.len() {
            let d = u.definition(k);
            u.smt.raw(&d).map_err(e)?;
        }
        let root = u.declare(None, 0)?;
        u.smt.raw(&format!("(assert {})", act(root))).map_err(e)?;
        Ok(u)
    }

    /// `(define-fun C_k (vars heads bodies) Bool (and constraint equalities))`.
    fn definition(&self, k: usize) -> String {
        let c = &self.cs.clauses[k];
        let mut params: Vec<String> = c.vars.iter().map(|(v, s)| format!("({v} {s})")).collect();
        let mut conj: Vec<String> = c.constraint.clone();
        if let Some(h) = &c.head {
            for (i, (a, s)) in h.args.iter().zip(&self.cs.preds[h.pred].sorts).enumerate() {
                params.push(format!("(|t!h!{i}| {s})"));
                conj.push(format!("(= |t!h!{i}| {a})"));
            }
        }
        for (b, atom) in c.body.iter().enumerate() {
            let sorts = &self.cs.preds[atom.pred].sorts;
            for (i, (a, s)) in atom.args.iter().zip(sorts).enumerate() {
                params.push(format!("(|t!b!{b}!{i}| {s})"));
                conj.push(format!("(= |t!b!{b}!{i}| {a})"));
            }
        }
        let body = match conj.len() {
            0 => "true".to_string(),
            1 => conj.pop().unwrap_or_default(),
            _ => format!("(and {})", conj.join(" ")),
        };
        format!("(define-fun {} ({}) Bool {body})", def(k), params.join(" "))
    }

    fn sorts(&self, pred: Option<usize>) -> &[String] {
        pred.map_or(&[][..], |p| &self.cs.preds[p].sorts)
    }

    /// Declares a node's arguments and `act` (`act => level`); it joins the frontier.
    fn declare(&mut self, pred: Option<usize>, lvl: usize) -> Result<usize, NoCex> {
        let n = self.nodes.len();
        let mut out = String::new();
        for (i, s) in self.sorts(pred).iter().enumerate() {
            let _ = writeln!(out, "(declare-const {} {s})", arg(n, i));
        }
        let _ = writeln!(out, "(declare-const {} Bool)", act(n));
        if lvl > 0 && self.nodes.iter().all(|m| m.level < lvl) {
            let _ = writeln!(out, "(declare-const {} Bool)", level(lvl));
        }
        if lvl > 0 {
            let _ = writeln!(out, "(assert (=> {} {}))", act(n), level(lvl));
        }
        self.smt.raw(&out).map_err(e)?;
        self.nodes.push(Node {
            pred,
            level: lvl,
            children: FxHashMap::default(),
        });
        self.frontier.push(n);
        Ok(n)
    }

    fn clauses_of(&self, pred: Option<usize>) -> &[usize] {
        &self.by_head[pred.unwrap_or(self.cs.preds.len())]
    }

    /// Defines node `n`: its selectors, their clauses, and its children (declared).
    fn define(&mut self, n: usize) -> Result<(), NoCex> {
        let pred = self.nodes[n].pred;
        let lvl = self.nodes[n].level;
        let clauses = self.clauses_of(pred).to_vec();
        let mut out = String::new();
        let sels: Vec<String> = clauses.iter().map(|&c| sel(n, c)).collect();
        for s in &sels {
            let _ = writeln!(out, "(declare-const {s} Bool)");
        }
        let _ = match sels.len() {
            0 => writeln!(out, "(assert (not {}))", act(n)),
            _ => writeln!(out, "(assert (=> {} (or {})))", act(n), sels.join(" ")),
        };
        for &c in &clauses {
            let cl = &self.cs.clauses[c];
            let mut args: Vec<String> = vec![];
            for (k, (_, s)) in cl.vars.iter().enumerate() {
                let _ = writeln!(out, "(declare-const {} {s})", var(n, c, k));
                args.push(var(n, c, k));
            }
            args.extend((0..self.sorts(pred).len()).map(|i| arg(n, i)));
            let mut acts = vec![];
            let mut seen: FxHashMap<usize, usize> = FxHashMap::default();
            for atom in &cl.body {
                let j = seen.entry(atom.pred).or_insert(0);
                let slot = (atom.pred, *j);
                *j += 1;
                let child = match self.nodes[n].children.get(&slot) {
                    Some(&m) => m,
                    None => {
                        self.smt.raw(&out).map_err(e)?;
                        out.clear();
                        let m = self.declare(Some(atom.pred), lvl + 1)?;
                        self.nodes[n].children.insert(slot, m);
                        m
                    }
                };
                acts.push(act(child));
                args.extend((0..atom.args.len()).map(|i| arg(child, i)));
            }
            let app = if args.is_empty() {
                def(c)
            } else {
                format!("({} {})", def(c), args.join(" "))
            };
            let _ = writeln!(
                out,
                "(assert (=> {} (and {} {app})))",
                sel(n, c),
                acts.join(" ")
            );
        }
        self.smt.raw(&out).map_err(e)
    }

    /// Checks depths 0, 1, .. up to `limits`, defining one level of nodes per depth.
    pub fn search(&mut self, limits: Limits) -> Result<Derivation, NoCex> {
        for depth in 0..=limits.depth {
            let todo = std::mem::take(&mut self.frontier);
            for n in todo {
                self.define(n)?;
            }
            if self.frontier.is_empty() {
                // no node below: one last check decides every height
                return match self.check(None)? {
                    true => self.derivation(),
                    false => Err(NoCex::Bound {
                        depth,
                        complete: true,
                    }),
                };
            }
            if self.check(Some(depth + 1))? {
                return self.derivation();
            }
            if self.nodes.len() > limits.nodes {
                return Err(NoCex::Nodes { depth });
            }
        }
        Err(NoCex::Bound {
            depth: limits.depth,
            complete: false,
        })
    }

    /// Is there a tree using no node of level `below`?
    fn check(&mut self, below: Option<usize>) -> Result<bool, NoCex> {
        self.checks += 1;
        let cmd = match below {
            Some(k) => format!("(check-sat-assuming ((not {})))", level(k)),
            None => "(check-sat)".to_string(),
        };
        let ans = self.smt.raw_query(&cmd).map_err(e)?;
        match ans.trim() {
            "sat" => Ok(true),
            "unsat" => Ok(false),
            a => Err(NoCex::Solver(format!("the solver answered {a}"))),
        }
    }

    /// The values of `names`, as printed.
    fn values(&mut self, names: &[String]) -> Result<Vec<String>, NoCex> {
        if names.is_empty() {
            return Ok(vec![]);
        }
        let ans = self
            .smt
            .raw_query(&format!("(get-value ({}))", names.join(" ")))
            .map_err(e)?;
        let bad = || NoCex::Solver(format!("cannot read the values {ans}"));
        let pairs = match read(&ans).map_err(|_| bad())? {
            S::List(ps) if ps.len() == names.len() => ps,
            _ => return Err(bad()),
        };
        pairs
            .into_iter()
            .map(|p| match p {
                S::List(kv) if kv.len() == 2 => Ok(Some(unlet(&kv[1]).to_string())),
                _ => Err(bad()),
            })
            .map(|v| v.and_then(|v| v.ok_or_else(bad)))
            .collect()
    }

    /// The derivation of the last model: from the root, the first true selector of every
    /// used node and its clause's children.
    fn derivation(&mut self) -> Result<Derivation, NoCex> {
        // (node, clause, children nodes) from the root down, a level at a time
        let mut chosen: Vec<(usize, usize, Vec<usize>)> = vec![];
        let mut level_nodes = vec![0usize];
        while !level_nodes.is_empty() {
            let mut names = vec![];
            for &n in &level_nodes {
                for &c in self.clauses_of(self.nodes[n].pred) {
                    names.push(sel(n, c));
                }
            }
            let vals = self.values(&names)?;
            let mut next = vec![];
            let mut at = 0;
            for &n in &level_nodes {
                let cls = self.clauses_of(self.nodes[n].pred).to_vec();
                let k = cls.len();
                let pick = (0..k).find(|&i| vals[at + i] == "true");
                at += k;
                let Some(i) = pick else {
                    return Err(NoCex::Solver(format!("node {n} has no clause")));
                };
                let c = cls[i];
                let mut seen: FxHashMap<usize, usize> = FxHashMap::default();
                let mut kids = vec![];
                for atom in &self.cs.clauses[c].body {
                    let j = seen.entry(atom.pred).or_insert(0);
                    let slot = (atom.pred, *j);
                    *j += 1;
                    let m = *self.nodes[n]
                        .children
                        .get(&slot)
                        .ok_or_else(|| NoCex::Solver(format!("node {n} has no child")))?;
                    kids.push(m);
                    next.push(m);
                }
                chosen.push((n, c, kids));
            }
            level_nodes = next;
        }
        // children first: the reverse of the top-down order
        let mut index: FxHashMap<usize, usize> = FxHashMap::default();
        let mut steps = vec![];
        for (n, c, kids) in chosen.into_iter().rev() {
            let pred = self.nodes[n].pred;
            let names: Vec<String> = (0..self.sorts(pred).len()).map(|i| arg(n, i)).collect();
            let args = self.values(&names)?;
            let premises = kids.iter().map(|m| index[m]).collect();
            index.insert(n, steps.len());
            steps.push(DStep {
                clause: c,
                pred,
                args,
                premises,
            });
        }
        Ok(Derivation { steps })
    }

    /// Nodes defined or declared.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }
}
