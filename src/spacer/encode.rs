//! The clauses as Spacer queries them: every application over variables of its own.
//!
//! Clause `c` becomes `constraint /\ h_k = head_arg_k /\ b{j}.k = body_j_arg_k` over
//! fresh names (`s{c}!v!x` for the clause's variable `x`, `s{c}!h{k}` for the head's
//! arguments, `s{c}!b{j}.{k}` for the `j`-th body application's), so a formula over a
//! predicate's parameters is instantiated at an application by renaming alone. An argument
//! that is a clause variable not yet used as an application's parameter is that parameter
//! itself, without a fresh name and an equality (a transition over 112 state variables
//! would carry 224 equalities, and each solver query and projection pays for them). A query
//! has the head [`Encoded::query_pred`], a predicate without parameters.

use crate::frontend::{ChcSystem, ClauseId, PredId};
use crate::logic::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// An application of a predicate to variables of the clause (`vars[k]` is parameter `k`).
#[derive(Clone, Debug)]
pub struct App {
    pub pred: PredId,
    pub vars: Vec<Var>,
}

/// One clause over fresh variables.
#[derive(Clone, Debug)]
pub struct NClause {
    /// The clause of the (preprocessed) system.
    pub id: ClauseId,
    /// The head; the query predicate for a query.
    pub head: App,
    pub body: Vec<App>,
    /// The constraint with the argument equalities.
    pub constraint: Term,
    /// Every variable of `constraint`, heads' and bodies' included.
    pub vars: Vec<Var>,
    /// Each variable of the original clause with its fresh name.
    pub orig: Vec<(Var, Var)>,
}

/// The system as Spacer sees it.
pub struct Encoded {
    pub clauses: Vec<NClause>,
    /// The predicates' parameters; the query predicate last, without parameters.
    pub params: Vec<Vec<Var>>,
    /// The pseudo-predicate that every query derives (`false`).
    pub query_pred: PredId,
    /// Per predicate, the clauses that define it.
    pub defining: Vec<Vec<usize>>,
    /// Per predicate, its body applications: (clause, position).
    pub uses: Vec<Vec<(usize, usize)>>,
}

impl Encoded {
    pub fn new(sys: &ChcSystem) -> Encoded {
        let np = sys.preds.len();
        let query_pred = PredId(np as u32);
        let mut params: Vec<Vec<Var>> = sys.preds.iter().map(|p| p.params()).collect();
        params.push(vec![]);
        let mut clauses = vec![];
        let mut defining = vec![vec![]; np + 1];
        let mut uses = vec![vec![]; np + 1];
        for (ci, c) in sys.clauses.iter().enumerate() {
            let mut orig = vec![];
            let r = c.rename(&mut |v| {
                let w = Var {
                    name: format!("s{ci}!v!{}", v.name).into(),
                    sort: v.sort,
                };
                orig.push((v.clone(), w.clone()));
                w
            });
            let mut conj = vec![r.constraint.clone()];
            let mut vars: Vec<Var> = orig.iter().map(|(_, w)| w.clone()).collect();
            // clause variables already standing for an application's parameter
            let mut claimed: FxHashSet<Var> = FxHashSet::default();
            let mut fresh_app = |pred: PredId, args: &[Term], tag: String, conj: &mut Vec<Term>| {
                let mut vs = vec![];
                for (k, a) in args.iter().enumerate() {
                    if let Some(x) = a.as_var() {
                        if claimed.insert(x.clone()) {
                            vs.push(x.clone());
                            continue;
                        }
                    }
                    let v = Var {
                        name: format!("s{ci}!{tag}{k}").into(),
                        sort: a.sort(),
                    };
                    conj.push(mk_eq(mk_var_of(&v), a.clone()));
                    vars.push(v.clone());
                    vs.push(v);
                }
                App { pred, vars: vs }
            };
            let head = match &r.head {
                Some(h) => fresh_app(h.pred, &h.args, "h".into(), &mut conj),
                None => App {
                    pred: query_pred,
                    vars: vec![],
                },
            };
            let body: Vec<App> = r
                .body
                .iter()
                .enumerate()
                .map(|(j, b)| fresh_app(b.pred, &b.args, format!("b{j}."), &mut conj))
                .collect();
            defining[head.pred.idx()].push(ci);
            for (j, b) in body.iter().enumerate() {
                uses[b.pred.idx()].push((ci, j));
            }
            clauses.push(NClause {
                id: ClauseId(ci as u32),
                head,
                body,
                constraint: mk_and(conj),
                vars,
                orig,
            });
        }
        Encoded {
            clauses,
            params,
            query_pred,
            defining,
            uses,
        }
    }

    /// `f` (over `pred`'s parameters) at the application `app`.
    pub fn at(&self, f: &Term, app: &App) -> Term {
        let map: FxHashMap<Var, Term> = self.params[app.pred.idx()]
            .iter()
            .cloned()
            .zip(app.vars.iter().map(mk_var_of))
            .collect();
        subst(f, &map)
    }

    /// A formula over `app`'s variables back over its predicate's parameters.
    pub fn to_params(&self, f: &Term, app: &App) -> Term {
        let map: FxHashMap<Var, Term> = app
            .vars
            .iter()
            .cloned()
            .zip(self.params[app.pred.idx()].iter().map(mk_var_of))
            .collect();
        subst(f, &map)
    }

    /// The values of `app`'s variables in `model`, as an assignment of the parameters.
    pub fn values_at(&self, app: &App, model: &Assignment) -> Option<Assignment> {
        let mut out = Assignment::default();
        for (p, v) in self.params[app.pred.idx()].iter().zip(&app.vars) {
            out.insert(p.clone(), model.get(v)?.clone());
        }
        Some(out)
    }
}
