//! The bottom layer every other one shares: the clause system (predicates, clauses, their
//! ids) and the certificates of its answers ([`Model`], [`Cex`], [`AccelCex`]). The
//! front-end produces it; preprocessing, engines, validation and the library use it.

mod cert;
mod features;

pub use cert::{accel_cex_len, chain, is_chain, AccelCex, Cex, CexStep, Link, Model, Segment};
pub use features::Features;

use crate::logic::{free_vars, mk_var_of, subst, SmtTerm, Sort, Term, TermNode, Var};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;

/// Index of a predicate in [`ChcSystem::preds`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct PredId(pub u32);

impl PredId {
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// Index of a clause in [`ChcSystem::clauses`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct ClauseId(pub u32);

impl ClauseId {
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// A declared predicate.
#[derive(Clone, Debug)]
pub struct PredDecl {
    pub name: String,
    pub sorts: Vec<Sort>,
}

impl PredDecl {
    /// The formal parameters used in models: `x0 .. x{n-1}`.
    pub fn params(&self) -> Vec<Var> {
        self.sorts
            .iter()
            .enumerate()
            .map(|(i, s)| Var {
                name: format!("x{i}").into(),
                sort: *s,
            })
            .collect()
    }
}

/// An application `P(t1, ..., tn)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PredApp {
    pub pred: PredId,
    pub args: Vec<Term>,
}

/// `body_1 /\ ... /\ body_n /\ constraint => head`; no head means `false` (a query).
#[derive(Clone, Debug)]
pub struct Clause {
    pub body: Vec<PredApp>,
    pub constraint: Term,
    pub head: Option<PredApp>,
    /// 1-based line of the clause in the input (0 for clauses made by passes).
    pub line: usize,
}

impl Clause {
    pub fn is_fact(&self) -> bool {
        self.body.is_empty()
    }

    pub fn is_query(&self) -> bool {
        self.head.is_none()
    }

    /// All variables of the clause, in order of occurrence.
    pub fn vars(&self) -> Vec<Var> {
        match self.var_leaves() {
            Some(ts) => ts.iter().filter_map(|t| t.as_var().cloned()).collect(),
            None => self.vars_with_binders(),
        }
    }

    /// [`Clause::vars`] as terms.
    pub fn var_terms(&self) -> Vec<Term> {
        match self.var_leaves() {
            Some(ts) => ts,
            None => self.vars_with_binders().iter().map(mk_var_of).collect(),
        }
    }

    /// The variable leaves of the clause's terms in order of occurrence, by one walk that
    /// visits each shared node once; `None` when a term binds variables.
    fn var_leaves(&self) -> Option<Vec<Term>> {
        let mut vars = vec![];
        let mut seen: FxHashSet<u64> = FxHashSet::with_capacity_and_hasher(128, Default::default());
        let mut stack: Vec<&Term> = vec![];
        let args = self
            .body
            .iter()
            .chain(self.head.iter())
            .flat_map(|a| &a.args);
        for t in args.chain(std::iter::once(&self.constraint)) {
            stack.push(t);
            while let Some(t) = stack.pop() {
                if !seen.insert(t.uid()) {
                    continue;
                }
                match t.get() {
                    TermNode::Var(_) => vars.push(t.clone()),
                    TermNode::Exists(..) => return None,
                    n => n.push_children_rev(&mut stack),
                }
            }
        }
        Some(vars)
    }

    /// [`Clause::vars`] by the free variables of each term.
    fn vars_with_binders(&self) -> Vec<Var> {
        let mut vars = vec![];
        let mut seen = FxHashSet::default();
        for a in self.body.iter().chain(self.head.iter()) {
            for t in &a.args {
                for v in free_vars(t) {
                    if seen.insert(v.clone()) {
                        vars.push(v)
                    }
                }
            }
        }
        for v in free_vars(&self.constraint) {
            if seen.insert(v.clone()) {
                vars.push(v)
            }
        }
        vars
    }

    /// The clause with its variables renamed by `f`.
    pub fn rename(&self, f: &mut dyn FnMut(&Var) -> Var) -> Clause {
        let map: FxHashMap<Var, Term> = self
            .vars()
            .into_iter()
            .map(|v| {
                let w = f(&v);
                (v, mk_var_of(&w))
            })
            .collect();
        let app = |a: &PredApp| PredApp {
            pred: a.pred,
            args: a.args.iter().map(|t| subst(t, &map)).collect(),
        };
        Clause {
            body: self.body.iter().map(app).collect(),
            constraint: subst(&self.constraint, &map),
            head: self.head.as_ref().map(app),
            line: self.line,
        }
    }
}

/// A set of Horn clauses over declared predicates.
#[derive(Clone, Debug, Default)]
pub struct ChcSystem {
    pub preds: Vec<PredDecl>,
    pub clauses: Vec<Clause>,
    /// The input's datatypes, when the front-end eliminated them: how answers are written
    /// back in the input's sorts ([`crate::logic::datatype::Records`]).
    pub records: Option<std::sync::Arc<crate::logic::datatype::Records>>,
    /// The input's bit-vectors, when the front-end eliminated them: how answers are
    /// written back in the input's sorts ([`crate::logic::bitvec::Bitvecs`]).
    pub bitvecs: Option<std::sync::Arc<crate::logic::bitvec::Bitvecs>>,
    /// The input's recursive datatypes, when the front-end abstracted them by sizes: the
    /// clauses are then an over-approximation of the input (a model of them, composed with
    /// the size functions, is one of the input; a counterexample proves nothing), and the
    /// input's own clauses are kept as text ([`crate::logic::adt::Adt`]).
    pub adt: Option<std::sync::Arc<crate::logic::adt::Adt>>,
}

impl ChcSystem {
    pub fn pred(&self, p: PredId) -> &PredDecl {
        &self.preds[p.idx()]
    }

    /// True when no clause has two or more body predicates.
    pub fn is_linear(&self) -> bool {
        self.clauses.iter().all(|c| c.body.len() <= 1)
    }

    pub fn pred_ids(&self) -> impl Iterator<Item = PredId> {
        (0..self.preds.len() as u32).map(PredId)
    }

    /// Clauses with head `p`.
    pub fn defining(&self, p: PredId) -> Vec<ClauseId> {
        self.clause_ids()
            .filter(|&c| self.clauses[c.idx()].head.as_ref().map(|h| h.pred) == Some(p))
            .collect()
    }

    /// Clauses with `p` in the body.
    pub fn using(&self, p: PredId) -> Vec<ClauseId> {
        self.clause_ids()
            .filter(|&c| self.clauses[c.idx()].body.iter().any(|b| b.pred == p))
            .collect()
    }

    pub fn clause_ids(&self) -> impl Iterator<Item = ClauseId> {
        (0..self.clauses.len() as u32).map(ClauseId)
    }
}

impl fmt::Display for ChcSystem {
    /// Prints the system in CHC-COMP format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::logic::smt_symbol;
        writeln!(f, "(set-logic HORN)")?;
        for p in &self.preds {
            let sorts: Vec<String> = p.sorts.iter().map(|s| s.to_string()).collect();
            writeln!(
                f,
                "(declare-fun {} ({}) Bool)",
                smt_symbol(&p.name),
                sorts.join(" ")
            )?;
        }
        for c in &self.clauses {
            let vars = c.vars();
            let app = |a: &PredApp| {
                if a.args.is_empty() {
                    smt_symbol(&self.pred(a.pred).name)
                } else {
                    let args: Vec<String> = a.args.iter().map(|t| SmtTerm(t).to_string()).collect();
                    format!(
                        "({} {})",
                        smt_symbol(&self.pred(a.pred).name),
                        args.join(" ")
                    )
                }
            };
            let mut body: Vec<String> = c.body.iter().map(app).collect();
            body.push(SmtTerm(&c.constraint).to_string());
            let head = c.head.as_ref().map(app).unwrap_or_else(|| "false".into());
            let imp = format!("(=> (and {}) {})", body.join(" "), head);
            if vars.is_empty() {
                writeln!(f, "(assert {imp})")?;
            } else {
                let vs: Vec<String> = vars
                    .iter()
                    .map(|v| format!("({} {})", smt_symbol(&v.name), v.sort))
                    .collect();
                writeln!(f, "(assert (forall ({}) {imp}))", vs.join(" "))?;
            }
        }
        writeln!(f, "(check-sat)")
    }
}
