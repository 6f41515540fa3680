//! The abstract reachability graph (Hajdu & Micskei, Def. 3) and the abstraction that expands it
//! (Alg. 1), independent of the domain: nodes are a location and a domain state, with
//! successor edges (a tree) and covered-by edges.

use super::cfa::{Cfa, EdgeId, Loc};
use super::domain::Domain;
use super::error::ErrorItps;
use super::safety::SafetyItps;
use super::search::Waitlist;
use super::Search;
use crate::chc::Cex;
use crate::engine::Stop;
use crate::smt::{KillSwitch, Smt};

/// Index of a node in the ARG.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// A node `(l, s)`.
#[derive(Clone, Debug)]
pub struct Node<S> {
    pub loc: Loc,
    pub state: S,
    /// The parent and the edge from it; `None` for the root.
    pub parent: Option<(NodeId, EdgeId)>,
    pub children: Vec<NodeId>,
    pub depth: usize,
    /// The node whose state contains this one's.
    pub covered_by: Option<NodeId>,
    /// Nodes that were covered by this one (some may have been uncovered since).
    pub covers: Vec<NodeId>,
    /// All successors are in the ARG.
    pub expanded: bool,
    /// Its state lies inside the location's safety interpolant: it needs no successors
    /// ([`super::safety`]).
    pub cut: bool,
    /// Not pruned.
    pub alive: bool,
}

/// The ARG. Pruned nodes stay in the arena, marked dead.
pub struct Arg<S> {
    nodes: Vec<Node<S>>,
    /// Per location, the nodes ever created at it (dead ones included).
    by_loc: Vec<Vec<NodeId>>,
    root: NodeId,
}

impl<S: Clone> Arg<S> {
    /// The ARG with the single node `(l0, init)`.
    pub fn new(init: S) -> Arg<S> {
        let mut arg = Arg {
            nodes: vec![],
            by_loc: vec![],
            root: NodeId(0),
        };
        arg.root = arg.add(Loc::INIT, init, None);
        arg
    }

    /// A new node, child of `parent` along the edge.
    pub fn add(&mut self, loc: Loc, state: S, parent: Option<(NodeId, EdgeId)>) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        let depth = parent.map_or(0, |(p, _)| self.nodes[p.idx()].depth + 1);
        self.nodes.push(Node {
            loc,
            state,
            parent,
            children: vec![],
            depth,
            covered_by: None,
            covers: vec![],
            expanded: false,
            cut: false,
            alive: true,
        });
        if self.by_loc.len() <= loc.idx() {
            self.by_loc.resize(loc.idx() + 1, vec![]);
        }
        self.by_loc[loc.idx()].push(id);
        if let Some((p, _)) = parent {
            self.nodes[p.idx()].children.push(id);
        }
        id
    }

    pub fn node(&self, n: NodeId) -> &Node<S> {
        &self.nodes[n.idx()]
    }

    /// Nodes created so far (pruned ones included).
    pub fn created(&self) -> usize {
        self.nodes.len()
    }

    /// The live nodes at `loc`.
    pub fn nodes_at(&self, loc: Loc) -> impl Iterator<Item = NodeId> + '_ {
        self.by_loc
            .get(loc.idx())
            .into_iter()
            .flatten()
            .copied()
            .filter(|n| self.nodes[n.idx()].alive)
    }

    /// Live nodes neither expanded, covered nor cut.
    pub fn unmarked(&self) -> impl Iterator<Item = NodeId> + '_ {
        (0..self.nodes.len() as u32).map(NodeId).filter(|&n| {
            let x = &self.nodes[n.idx()];
            x.alive && !x.expanded && x.covered_by.is_none() && !x.cut
        })
    }

    /// Per node, whether it is *closed*: live, not at the error location, and expanded with
    /// closed children, covered by a closed node, or cut (the greatest such set). The
    /// states of the closed nodes at each location, with the safety interpolants, are
    /// closed under every edge and never reach the error location (Tian et al.'s *full*
    /// safety interpolants).
    pub fn closed(&self) -> Vec<bool> {
        let mut open = vec![false; self.nodes.len()];
        let mut stack = vec![];
        for (i, x) in self.nodes.iter().enumerate() {
            let done = x.loc != Loc::ERROR && (x.expanded || x.covered_by.is_some() || x.cut);
            if !x.alive || !done {
                open[i] = true;
                if x.alive {
                    stack.push(NodeId(i as u32));
                }
            }
        }
        while let Some(m) = stack.pop() {
            let x = &self.nodes[m.idx()];
            let mut opened = vec![];
            if let Some((p, _)) = x.parent {
                opened.push(p);
            }
            opened.extend(
                x.covers
                    .iter()
                    .filter(|c| self.nodes[c.idx()].covered_by == Some(m)),
            );
            for o in opened {
                if !open[o.idx()] {
                    open[o.idx()] = true;
                    stack.push(o);
                }
            }
        }
        open.into_iter().map(|o| !o).collect()
    }

    /// The path from the root to `n`: its nodes (root first) and the edges between them.
    pub fn path(&self, n: NodeId) -> (Vec<NodeId>, Vec<EdgeId>) {
        let mut nodes = vec![n];
        let mut edges = vec![];
        let mut cur = n;
        while let Some((p, e)) = self.nodes[cur.idx()].parent {
            nodes.push(p);
            edges.push(e);
            cur = p;
        }
        nodes.reverse();
        edges.reverse();
        (nodes, edges)
    }

    /// Is `a` a proper ancestor of `b` (by successor edges)?
    pub fn is_ancestor(&self, a: NodeId, b: NodeId) -> bool {
        let mut cur = b;
        while let Some((p, _)) = self.nodes[cur.idx()].parent {
            if p == a {
                return true;
            }
            cur = p;
        }
        false
    }

    /// Lazy pruning: removes every subtree below the parent of `n` (`n`'s siblings too) and
    /// marks the parent unexpanded; nodes covered by a removed node are uncovered.
    pub fn prune_below_parent(&mut self, n: NodeId) {
        match self.nodes[n.idx()].parent {
            Some((p, _)) => self.unexpand(p),
            None => self.prune_all(),
        }
    }

    /// Full pruning: everything but the root, which is unexpanded again.
    pub fn prune_all(&mut self) {
        self.unexpand(self.root);
    }

    /// Removes the subtrees of `p`'s children; `p` becomes unexpanded.
    fn unexpand(&mut self, p: NodeId) {
        for c in std::mem::take(&mut self.nodes[p.idx()].children) {
            self.remove_subtree(c);
        }
        self.nodes[p.idx()].expanded = false;
    }

    fn remove_subtree(&mut self, n: NodeId) {
        let mut stack = vec![n];
        while let Some(m) = stack.pop() {
            let node = &mut self.nodes[m.idx()];
            node.alive = false;
            stack.extend(std::mem::take(&mut node.children));
            for c in std::mem::take(&mut node.covers) {
                let cov = &mut self.nodes[c.idx()];
                if cov.covered_by == Some(m) {
                    cov.covered_by = None;
                }
            }
        }
    }

    fn cut(&mut self, n: NodeId) {
        self.nodes[n.idx()].cut = true;
    }

    fn cover(&mut self, n: NodeId, by: NodeId) {
        self.nodes[n.idx()].covered_by = Some(by);
        self.nodes[by.idx()].covers.push(n);
    }
}

#[cfg(test)]
impl<S: Clone> Arg<S> {
    pub fn test_expand(&mut self, n: NodeId) {
        self.nodes[n.idx()].expanded = true;
    }

    pub fn test_cut(&mut self, n: NodeId) {
        self.cut(n);
    }

    pub fn test_cover(&mut self, n: NodeId, by: NodeId) {
        self.cover(n, by);
    }
}

/// What an abstraction run found.
pub enum Found {
    /// Nodes at the error location; none: the ARG is complete.
    Errors(Vec<NodeId>),
    /// A counterexample, by a jump along an error suffix ([`super::error`]).
    Cex(Cex),
}

/// Alg. 1: expands the ARG from its unmarked nodes in the order of the search strategy;
/// with Tian et al.'s interpolants, a node inside its location's safety interpolant is cut,
/// and one that meets an error interpolant tries the jump first.
pub struct Abstractor {
    waitlist: Waitlist,
    /// Coverings made.
    pub covered: usize,
    pub safety: SafetyItps,
    pub error: ErrorItps,
}

impl Abstractor {
    pub fn new(search: Search, cfa: &Cfa, safety: SafetyItps, error: ErrorItps) -> Abstractor {
        Abstractor {
            waitlist: Waitlist::new(search, cfa),
            covered: 0,
            safety,
            error,
        }
    }

    /// The waitlist: every unmarked node of `arg`.
    pub fn restart<S: Clone>(&mut self, arg: &Arg<S>) {
        self.waitlist.clear();
        for n in arg.unmarked() {
            let x = arg.node(n);
            self.waitlist.push(n, x.loc, x.depth);
        }
    }

    /// Expands until `errors` nodes at the error location exist (returned) or no node is
    /// unmarked but the error nodes (the ones found returned); none returned: the ARG is
    /// complete. A jump's counterexample ends the run.
    pub fn run<D: Domain>(
        &mut self,
        arg: &mut Arg<D::State>,
        dom: &mut D,
        cfa: &Cfa,
        smt: &mut Smt,
        kill: &KillSwitch,
        errors_wanted: usize,
    ) -> Result<Found, Stop> {
        let mut errors = vec![];
        while let Some(n) = self.waitlist.pop() {
            if kill.is_killed() {
                return Err(Stop::Killed);
            }
            let x = arg.node(n);
            if !x.alive || x.expanded || x.covered_by.is_some() || x.cut {
                continue;
            }
            if x.loc == Loc::ERROR {
                if !errors.contains(&n) {
                    errors.push(n);
                }
                if errors.len() >= errors_wanted {
                    return Ok(Found::Errors(errors));
                }
                continue;
            }
            // close: a live expanded node at the same location that contains this one
            let loc = x.loc;
            let candidates: Vec<_> = arg
                .nodes_at(loc)
                .filter(|&m| m != n && arg.node(m).expanded && arg.node(m).covered_by.is_none())
                .collect();
            let mut covered = false;
            for m in candidates {
                if dom.leq(smt, &arg.node(n).state, &arg.node(m).state)? {
                    arg.cover(n, m);
                    self.covered += 1;
                    covered = true;
                    break;
                }
            }
            if covered {
                continue;
            }
            // Tian et al.: inside the safety interpolant, or a jump to a counterexample
            if self.safety.active(loc)
                && self
                    .safety
                    .cuts(smt, loc, &dom.expr(cfa, loc, &arg.node(n).state))?
            {
                arg.cut(n);
                continue;
            }
            if let Some(cex) = self.error.jump(arg, dom, cfa, smt, n)? {
                return Ok(Found::Cex(cex));
            }
            // expand: every successor along every edge
            let state = arg.node(n).state.clone();
            for &e in &cfa.out[loc.idx()] {
                for s in dom.post(smt, cfa, &state, e)? {
                    let to = cfa.edge(e).to;
                    let c = arg.add(to, s, Some((n, e)));
                    if to == Loc::ERROR {
                        errors.push(c);
                    }
                    self.waitlist.push(c, to, arg.node(c).depth);
                }
            }
            arg.nodes[n.idx()].expanded = true;
            if errors.len() >= errors_wanted {
                return Ok(Found::Errors(errors));
            }
        }
        Ok(Found::Errors(errors))
    }
}
