//! Model-based projection (MBP) for linear integer and real arithmetic with Booleans.
//!
//! Given a conjunction `phi`, a model `M` of it and variables `xs`, [`project`] returns a
//! conjunction `psi` of literals over the other variables with `M |= psi` and
//! `psi |= exists xs. phi`: the disjunct of a quantifier elimination that `M` selects. This is
//! the projection of Komuravelli, Gurfinkel, Chaki (*SMT-based model checking for recursive
//! programs*, CAV 2014) and Bjørner, Janota (*Playing with quantified satisfaction*, LPAR
//! 2015), on top of Loos–Weispfenning virtual substitution:
//!
//! 0. Top-level equalities `x = y` and `x = not y` between Booleans, `x` eliminated, are
//!    solved by substitution ([`bool_eq`]).
//! 1. [`implicant`] resolves the Boolean structure with the model: literals true in `M`
//!    whose conjunction implies `phi`.
//! 2. Purification: every `ite` term becomes the branch `M` takes (its condition joins the
//!    literals); `div t d` and `mod t d` that mention an eliminated variable (or an `ite`) become `q` and
//!    `t - d*q` for a fresh variable `q` (eliminated too) with `0 <= t - d*q <= |d| - 1`.
//!    A disequality becomes the strict inequality `M` satisfies; literals on eliminated
//!    Booleans are dropped. So the result has no `ite` and no disequality.
//! 3. Each integer variable `x` is eliminated from constraints `lin <= 0`, `lin = 0` and
//!    `d | lin` ([`int`]):
//!    - with an equality `a*x + t = 0` (smallest `|a|` first): for `|a| = 1`, `x := -a*t`;
//!      else every other constraint is multiplied by `|a|`, `a*x` is replaced by `-t`, and
//!      `|a| | t` is added;
//!    - otherwise, with `L` the lcm of the coefficients of `x`, every constraint is scaled
//!      to mention `y = L*x` with coefficient ±1 and `L | y` is added. If `y` lacks a lower
//!      or an upper bound, its constraints are dropped (a far enough `y` in the residue class
//!      of `M(y)` satisfies them). Else the greatest lower bound `y >= t` under `M` (or the
//!      least upper bound, on the side with fewer bounds) is chosen and `y := t + k` is
//!      substituted, with `k = (M(y) - M(t)) mod D` and `D` the lcm of the divisors on `y`:
//!      `M(t) <= M(t) + k <= M(y)` and `M(t) + k = M(y) (mod D)`, so `M` satisfies the result.
//!
//! Each sort has a plug-in ([`Plugin`]), asked in the order of [`PLUGINS`]: arrays
//! ([`array`]) rewrite the input first; Booleans ([`bool_eq`]) solve their equalities and
//! drop literals on eliminated Booleans; reals ([`real`]) and integers ([`int`]) take the
//! arithmetic literals and eliminate their variables, over one linear core
//! ([`LinearSum`], shared purification of `ite` atoms). A new sort adds a plug-in to that
//! list; the entry point [`project`] hands each variable to the plug-in of its sort.
//!
//! Real variables, real literals (`<=`, `<`, `=`, `is_int`), `to_real` and `to_int` are the
//! real plug-in's ([`real`]): purification creates a fresh integer for each `to_int` of
//! an impure term, the real variables are eliminated first (Loos–Weispfenning with strict
//! bounds), and the real constraints left on eliminated integers become integer constraints
//! over `to_int` of the kept part, before step 3 runs on all integers, fresh ones included.
//!
//! Step 3 and the real plug-in are exact, so a variable is replaced by its model value (an
//! under-approximation that `M` still satisfies) only when the lcm `L` grows past
//! [`MAX_LCM`]; such replacements are counted in [`Projection::model_substitutions`].

use super::*;
use num_bigint::BigInt;
use rustc_hash::{FxHashMap, FxHashSet};

mod array;
#[cfg(test)]
mod array_tests;
mod bool_eq;
mod implicant;
mod int;
mod real;
#[cfg(test)]
mod real_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

pub use implicant::implicant;

/// Above this lcm of coefficients, a variable is replaced by its model value.
pub const MAX_LCM: u64 = 1 << 40;

/// The result of [`project`].
#[derive(Clone, Debug)]
pub struct Projection {
    /// Literals over the kept variables: the model satisfies them and they imply
    /// `exists xs. phi`.
    pub lits: Vec<Term>,
    /// Variables replaced by their model value instead of being eliminated exactly.
    pub model_substitutions: usize,
}

/// A projection problem as the plug-ins rewrite it: `exists elim. /\ phi` under `model`.
struct Problem {
    phi: Vec<Term>,
    model: Assignment,
    elim: Vec<Var>,
    /// Variables a plug-in replaced by their model value.
    substitutions: usize,
}

/// A theory's part of the projection (compare z3's `project_plugin`, one per theory).
trait Plugin: Sync {
    /// Does this plug-in eliminate the variables of `sort`?
    fn owns(&self, sort: Sort) -> bool;

    /// Rewrites the problem before its literals are taken apart (arrays replace their
    /// variables; Booleans solve their equalities). The default keeps it.
    fn prepare(&self, problem: Problem) -> Result<Problem, String> {
        Ok(problem)
    }

    /// Is `t` an atom of this theory that [`Plugin::prepare`] has already freed of
    /// eliminated variables (so that any left under it are only read through it)?
    fn opaque(&self, _t: &Term) -> bool {
        false
    }

    /// Takes a literal of the implicant if it is this theory's: keeps it, drops it, or
    /// turns it into constraints of the projector. `false` when the literal is not its.
    fn add_lit(&self, p: &mut Projector, lit: &Term) -> Result<bool, String>;

    /// Eliminates `vars` (this plug-in's, fresh ones included) from its constraints.
    fn eliminate(&self, _p: &mut Projector, _vars: Vec<Term>) -> Result<(), String> {
        Ok(())
    }
}

/// The plug-ins, in the order they prepare the problem, take literals and eliminate. Reals
/// come before integers: eliminating a real can leave constraints on integers.
const PLUGINS: [&dyn Plugin; 4] = [&array::Arrays, &bool_eq::Bools, &real::Reals, &int::Ints];

/// The position of the integer plug-in in [`PLUGINS`], which takes the fresh integer
/// variables (quotients, floors) that the other plug-ins introduce.
const INT: usize = 3;

/// The position in [`PLUGINS`] of the plug-in of `sort`.
fn plugin_of(sort: Sort) -> Result<usize, String> {
    (PLUGINS.iter().position(|p| p.owns(sort)))
        .ok_or_else(|| format!("mbp: no projection for sort {sort}"))
}

/// Projects `exists elim. /\ phi` under `model` (see the module documentation). The
/// formulas in `phi` may have any Boolean structure; `model` must satisfy them and assign
/// every variable they mention.
pub fn project(phi: &[Term], model: &Assignment, elim: &[Var]) -> Result<Projection, String> {
    let mut problem = Problem {
        phi: phi.to_vec(),
        model: model.clone(),
        elim: elim.to_vec(),
        substitutions: 0,
    };
    for plugin in PLUGINS {
        problem = plugin.prepare(problem)?;
    }
    let mut p = Projector {
        model: problem.model,
        elim: problem.elim.iter().cloned().collect(),
        impure_memo: FxHashMap::default(),
        atoms: FxHashMap::default(),
        quotients: FxHashMap::default(),
        to_eliminate: vec![vec![]; PLUGINS.len()],
        ratoms: FxHashMap::default(),
        floors: FxHashMap::default(),
        rcons: vec![],
        pending: vec![],
        kept: vec![],
        cons: vec![],
        fresh: 0,
        substitutions: problem.substitutions,
    };
    for v in &problem.elim {
        p.to_eliminate[plugin_of(v.sort)?].push(mk_var_of(v));
    }
    for f in &problem.phi {
        let lits = implicant(f, &p.model)?;
        p.pending.extend(lits.into_iter().rev());
    }
    while let Some(lit) = p.pending.pop() {
        p.add_lit(lit)?;
    }
    for (i, plugin) in PLUGINS.iter().enumerate() {
        let vars = std::mem::take(&mut p.to_eliminate[i]);
        plugin.eliminate(&mut p, vars)?;
    }
    p.finish()
}

// ---------------------------------------------------------------- the shared state

/// What the plug-ins share while projecting: the model, the literals kept, and the
/// arithmetic constraints (integer and real) still to eliminate from.
struct Projector {
    /// The model, extended with the values of fresh variables.
    model: Assignment,
    elim: FxHashSet<Var>,
    impure_memo: FxHashMap<u64, bool>,
    /// Purified atoms that mention eliminated variables.
    atoms: FxHashMap<u64, Lin>,
    /// The fresh quotient variable of `div t d`, by `(t, d)`.
    quotients: FxHashMap<(u64, BigInt), Lin>,
    /// The variables each plug-in eliminates (by position in [`PLUGINS`]), as terms.
    to_eliminate: Vec<Vec<Term>>,
    /// Purified real atoms that mention eliminated variables.
    ratoms: FxHashMap<u64, RLin>,
    /// The fresh integer variable of `to_int t`, by `t`.
    floors: FxHashMap<u64, Lin>,
    /// Real constraints that may mention eliminated variables.
    rcons: Vec<real::RCon>,
    /// Literals still to classify.
    pending: Vec<Term>,
    /// Literals without eliminated variables.
    kept: Vec<Term>,
    /// Constraints that may mention eliminated integer variables.
    cons: Vec<int::Con>,
    fresh: usize,
    substitutions: usize,
}

impl Projector {
    /// Does `t` mention an eliminated variable or contain an `ite`?
    fn impure(&mut self, t: &Term) -> bool {
        if let Some(&b) = self.impure_memo.get(&t.uid()) {
            return b;
        }
        let b = match t.get() {
            TermNode::Var(v) => self.elim.contains(v),
            // opaque atoms: eliminated variables under them were replaced by `prepare`
            _ if PLUGINS.iter().any(|p| p.opaque(t)) => {
                free_vars(t).iter().any(|v| self.elim.contains(v))
            }
            TermNode::Ite(..) => true,
            _ => t.children().into_iter().any(|c| self.impure(c)),
        };
        self.impure_memo.insert(t.uid(), b);
        b
    }

    /// Hands a literal of the implicant to the first plug-in that takes it.
    fn add_lit(&mut self, lit: Term) -> Result<(), String> {
        for plugin in PLUGINS {
            if plugin.add_lit(self, &lit)? {
                return Ok(());
            }
        }
        Err(format!("mbp: unexpected literal {}", SmtTerm(&lit)))
    }

    /// The value of a linear sum under the model, its atoms evaluated by `eval`.
    fn sum_value<C: Coef>(
        &self,
        l: &LinearSum<C>,
        eval: fn(&Term, &Assignment) -> Result<C, String>,
    ) -> Result<C, String> {
        let mut acc = l.k.clone();
        for (t, c) in &l.terms {
            acc = acc + c.clone() * eval(t, &self.model)?;
        }
        Ok(acc)
    }

    /// `l` with each atom replaced by `atom` of it (integer and real purification).
    fn purify_sum<C: Coef>(
        &mut self,
        l: &LinearSum<C>,
        atom: fn(&mut Self, &Term) -> Result<LinearSum<C>, String>,
    ) -> Result<LinearSum<C>, String> {
        let mut acc = LinearSum::constant(l.k.clone());
        for (a, c) in &l.terms {
            let p = atom(self, a)?;
            acc = acc.add(&p.scale(c));
        }
        Ok(acc)
    }

    /// The branch of `ite c x y` that the model takes; the literals of its condition join
    /// the pending ones.
    fn take_branch<'t>(&mut self, c: &Term, x: &'t Term, y: &'t Term) -> Result<&'t Term, String> {
        let cv = eval_bool(c, &self.model)?;
        let cond = if cv { c.clone() } else { mk_not(c.clone()) };
        let lits = implicant(&cond, &self.model)?;
        self.pending.extend(lits);
        Ok(if cv { x } else { y })
    }

    /// A fresh integer variable `mbp!<prefix><n>` with model value `value`, to eliminate.
    fn fresh_int(&mut self, prefix: &str, value: BigInt) -> Term {
        let var = loop {
            let v = Var {
                name: format!("mbp!{prefix}{}", self.fresh).into(),
                sort: Sort::Int,
            };
            self.fresh += 1;
            if !self.model.contains_key(&v) {
                break v;
            }
        };
        self.model.insert(var.clone(), Value::Int(value));
        self.elim.insert(var.clone());
        let t = mk_var_of(&var);
        self.to_eliminate[INT].push(t.clone());
        t
    }

    /// The output: kept literals and remaining constraints, deduplicated, with only the
    /// tightest of upper bounds on the same expression, each checked against the model.
    fn finish(self) -> Result<Projection, String> {
        let mut lits = self.kept;
        for c in &self.cons {
            debug_assert!(c
                .lin()
                .terms
                .iter()
                .all(|(t, _)| t.as_var().is_none_or(|v| !self.elim.contains(v))));
            lits.push(c.to_term());
        }
        let mut out: Vec<Term> = vec![];
        let mut seen = FxHashSet::default();
        let mut bound_of: FxHashMap<Vec<(Term, BigInt)>, usize> = FxHashMap::default();
        for l in lits {
            if l.as_bool() == Some(true) || !seen.insert(l.uid()) {
                continue;
            }
            if eval_bool(&l, &self.model) != Ok(true) {
                return Err(format!(
                    "mbp: the model falsifies the result {}",
                    SmtTerm(&l)
                ));
            }
            if let TermNode::Le(lin) = l.get() {
                if let Some(&j) = bound_of.get(&lin.terms) {
                    // lin.terms + k <= 0: the larger k is the tighter bound
                    if let TermNode::Le(old) = out[j].get() {
                        if lin.k > old.k {
                            out[j] = l.clone();
                        }
                    }
                    continue;
                }
                bound_of.insert(lin.terms.clone(), out.len());
            }
            out.push(l);
        }
        Ok(Projection {
            lits: out,
            model_substitutions: self.substitutions,
        })
    }
}
