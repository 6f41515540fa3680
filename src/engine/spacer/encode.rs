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
//!
//! *Shared slots* (with `share`, for Spacer's joint queries): the clauses defining one
//! predicate `P` (when there are several) share their applications' variables by position,
//! as z3's o-variables: the head is `p{P}!h{k}` in each of them, and the `r`-th application
//! of `Q` in a body is `p{P}!b{Q}.{r}.{k}`. A clause variable that is such a parameter takes
//! the shared name. A lemma of `Q` is then asserted once per *slot* (`P`, `Q`, `r`), not
//! once per clause and application: a predicate of the LIA track's llreve files is defined by
//! 82 clauses that apply a 19-ary predicate up to 8 times each. The clauses stay apart
//! because each holds only under its own literal.

use crate::chc::{ChcSystem, ClauseId, PredId};
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
    /// The slots: body applications over the same variables (module doc). Without sharing,
    /// one per (clause, position).
    pub slots: Vec<Slot>,
    /// `slot_of[c][j]`: the slot of body application `j` of clause `c`.
    pub slot_of: Vec<Vec<usize>>,
    /// Per predicate, the slots of its applications.
    pub pred_slots: Vec<Vec<usize>>,
}

/// Body applications of one predicate over the same variables, in different clauses.
#[derive(Clone, Debug)]
pub struct Slot {
    pub app: App,
    /// The clauses with an application in the slot.
    pub users: Vec<usize>,
}

impl Encoded {
    /// The clauses over fresh variables; with `share`, a predicate's defining clauses share
    /// their applications' variables (module doc).
    pub fn new(sys: &ChcSystem, share: bool) -> Encoded {
        let np = sys.preds.len();
        let query_pred = PredId(np as u32);
        let mut params: Vec<Vec<Var>> = sys.preds.iter().map(|p| p.params()).collect();
        params.push(vec![]);
        let mut n_defining = vec![0usize; np + 1];
        for c in &sys.clauses {
            n_defining[c.head.as_ref().map_or(np, |h| h.pred.idx())] += 1;
        }
        let mut clauses = vec![];
        let mut defining = vec![vec![]; np + 1];
        let mut slots: Vec<Slot> = vec![];
        let mut slot_of = vec![];
        let mut pred_slots = vec![vec![]; np + 1];
        // shared slots by (head predicate, body predicate, occurrence)
        let mut shared: FxHashMap<(PredId, PredId, usize), usize> = FxHashMap::default();
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
            let head_pred = r.head.as_ref().map_or(query_pred, |h| h.pred);
            let share = share && n_defining[head_pred.idx()] > 1;
            let mut conj = vec![r.constraint.clone()];
            let mut vars: Vec<Var> = orig.iter().map(|(_, w)| w.clone()).collect();
            // clause variables already standing for an application's parameter, and the
            // shared name each takes
            let mut claimed: FxHashSet<Var> = FxHashSet::default();
            let mut renamed: FxHashMap<Var, Var> = FxHashMap::default();
            let mut fresh_app = |pred: PredId, args: &[Term], tag: String, conj: &mut Vec<Term>| {
                let mut vs = vec![];
                for (k, a) in args.iter().enumerate() {
                    let name = if share {
                        format!("p{}!{tag}{k}", head_pred.idx())
                    } else {
                        format!("s{ci}!{tag}{k}")
                    };
                    let v = Var {
                        name: name.into(),
                        sort: a.sort(),
                    };
                    if let Some(x) = a.as_var() {
                        if claimed.insert(x.clone()) {
                            if share {
                                renamed.insert(x.clone(), v.clone());
                                vs.push(v);
                            } else {
                                vs.push(x.clone());
                            }
                            continue;
                        }
                    }
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
            // per body application, how many of its predicate's come before it
            let mut seen: FxHashMap<PredId, usize> = FxHashMap::default();
            let occurrence: Vec<usize> = r
                .body
                .iter()
                .map(|b| {
                    let n = seen.entry(b.pred).or_default();
                    *n += 1;
                    *n - 1
                })
                .collect();
            let body: Vec<App> = r
                .body
                .iter()
                .enumerate()
                .map(|(j, b)| {
                    let tag = if share {
                        format!("b{}.{}.", b.pred.idx(), occurrence[j])
                    } else {
                        format!("b{j}.")
                    };
                    fresh_app(b.pred, &b.args, tag, &mut conj)
                })
                .collect();
            if !renamed.is_empty() {
                let map: FxHashMap<Var, Term> = renamed
                    .iter()
                    .map(|(x, v)| (x.clone(), mk_var_of(v)))
                    .collect();
                conj = conj.iter().map(|t| subst(t, &map)).collect();
                for v in vars.iter_mut().chain(orig.iter_mut().map(|(_, w)| w)) {
                    if let Some(w) = renamed.get(v) {
                        *v = w.clone();
                    }
                }
            }
            defining[head.pred.idx()].push(ci);
            let mut of = vec![];
            for (b, &occ) in body.iter().zip(&occurrence) {
                let key = (head.pred, b.pred, occ);
                let s = match shared.get(&key) {
                    Some(&s) if share => s,
                    _ => {
                        slots.push(Slot {
                            app: b.clone(),
                            users: vec![],
                        });
                        pred_slots[b.pred.idx()].push(slots.len() - 1);
                        if share {
                            shared.insert(key, slots.len() - 1);
                        }
                        slots.len() - 1
                    }
                };
                slots[s].users.push(ci);
                of.push(s);
            }
            slot_of.push(of);
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
            slots,
            slot_of,
            pred_slots,
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
