//! Inductive generalization: from a cube blocked at level `i` to a lemma, the negation of a
//! cube `g` that contains the blocked one (as a set of states) and is still disjoint from
//! `init` and inductive relative to `F_{i-1}`:
//! `init /\ g` and `F_{i-1} /\ not g /\ trans /\ g'` are unsatisfiable.
//!
//! 1. Unsat cores: the literals of the cube that `F_{i-1} /\ trans /\ cube'` needs, plus
//!    those that `init /\ cube` needs ([`generalize`]).
//! 2. Variable elimination ([`shadow`]): `g` is replaced by its real shadow without a variable
//!    `x` (Fourier–Motzkin: each upper bound of `x` resolved with each lower bound), a larger
//!    cube that no longer mentions `x`. The resolvents are linear combinations of the cube's
//!    literals, the relational lemmas an interpolating (Farkas) core would give; they block
//!    families of states that literal dropping can only block one by one.
//! 3. Pairwise sums ([`pair_sums`]): `g` is replaced by the sums of pairs of its literals, a
//!    larger cube that relates variables of different literals.
//! 4. Literal dropping (Bradley, *SAT-based model checking without unrolling*, VMCAI 2011):
//!    try `g \ {l}` for each literal `l`, keep it when the two checks still hold, and shrink
//!    it further to the unsat core of the relative induction query.
//! 5. Bound weakening ([`weaken_bounds`]): each remaining bound `t <= b` is raised while the
//!    cube stays blocked.

use super::context::{Context, Cube};
use crate::engine::Stop;
use crate::logic::*;
use num_traits::{Signed, Zero};

/// At most this many resolvents in one variable elimination.
const MAX_RESOLVENTS: usize = 16;

/// At most this many literals are summed pairwise.
const MAX_SUMMANDS: usize = 4;

/// At most this many sums in [`cross_sums`].
const MAX_SUMS: usize = 12;

/// At most this many successive weakenings of one bound.
const MAX_WEAKENINGS: usize = 16;

/// The two checks that say a cube is blocked at a level. PDR answers them over the
/// transition system ([`Context`]); Spacer over the clauses that define one predicate.
pub trait Blocking {
    /// `init /\ cube`: `None` when satisfiable, else the cube literals of an unsat core.
    fn init_core(&mut self, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop>;
    /// Relative induction, `F_{level-1} /\ not cube /\ trans /\ cube'`: `None` when
    /// satisfiable, else the cube literals of an unsat core.
    fn inductive_core(&mut self, level: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop>;
    /// `F_{level-1} /\ trans /\ cube'` (no `not cube`): `None` when satisfiable, else the
    /// cube literals of an unsat core.
    fn trans_core(&mut self, level: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop>;
    /// Relative induction when literal dropping tries the smaller cube `cube`: by default
    /// [`Blocking::inductive_core`]; PDR with counterexamples to generalization first blocks
    /// the predecessors that make it satisfiable ([`super::ctg`]).
    fn drop_core(&mut self, level: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        self.inductive_core(level, cube)
    }
}

impl Blocking for Context<'_> {
    fn init_core(&mut self, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        Context::init_core(self, cube)
    }
    fn inductive_core(&mut self, level: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        Context::inductive_core(self, level, cube)
    }
    fn trans_core(&mut self, level: usize, cube: &[Term]) -> Result<Option<Vec<Term>>, Stop> {
        Context::trans_core(self, level, cube)
    }
}

/// Which generalization steps run (each documented at its field of PDR's `Config`).
#[derive(Clone, Copy, Debug)]
pub struct Steps {
    pub eliminate_vars: bool,
    pub pair_sums: bool,
    pub drop_literals: bool,
    pub weaken_bounds: bool,
}

/// The literals of `cube` that are in `a` or `b`, in the cube's order.
fn keep(cube: &[Term], a: &[Term], b: &[Term]) -> Cube {
    cube.iter()
        .filter(|l| a.contains(l) || b.contains(l))
        .cloned()
        .collect()
}

/// The variables that have both an upper and a lower bound in the `<=` literals of `cube`.
fn bounded_vars(cube: &[Term]) -> Vec<Term> {
    let mut upper = vec![];
    let mut lower = vec![];
    for lit in cube {
        if let TermNode::Le(l) = lit.get() {
            for (t, c) in &l.terms {
                if t.as_var().is_some() {
                    let side = if c.is_positive() {
                        &mut upper
                    } else {
                        &mut lower
                    };
                    side.push(t.clone());
                }
            }
        }
    }
    let mut out: Vec<Term> = vec![];
    for t in upper {
        if lower.contains(&t) && !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// The real shadow of `cube` without the variable `x`: its literals without `x`, plus
/// `a*r_u + b*r_l <= 0` for each upper bound `b*x + r_u <= 0` and lower bound
/// `-a*x + r_l <= 0` (`a, b > 0`). It contains every state of the cube. `None` when `x`
/// occurs other than as a variable of `<=` literals, or would give too many resolvents.
pub fn shadow(cube: &[Term], x: &Term) -> Option<Cube> {
    let x_var = x.as_var()?;
    let mut out: Cube = vec![];
    let mut uppers = vec![];
    let mut lowers = vec![];
    for lit in cube {
        if let TermNode::Le(l) = lit.get() {
            let c = l.coef(x);
            if !c.is_zero() {
                let rest = l.add(&Lin::of(x).scale(&-&c));
                if free_vars(&mk_lin(rest.clone())).contains(x_var) {
                    return None;
                }
                if c.is_positive() {
                    uppers.push((c, rest));
                } else {
                    lowers.push((-c, rest));
                }
                continue;
            }
        }
        if free_vars(lit).contains(x_var) {
            return None;
        }
        out.push(lit.clone());
    }
    if uppers.is_empty() || lowers.is_empty() || uppers.len() * lowers.len() > MAX_RESOLVENTS {
        return None;
    }
    for (b, ru) in &uppers {
        for (a, rl) in &lowers {
            let r = mk_le_lin(ru.scale(a).add(&rl.scale(b)));
            if r.as_bool() != Some(true) && !out.contains(&r) {
                out.push(r);
            }
        }
    }
    Some(out)
}

/// The pairwise sums of the `<=` literals of `cube` (each implied by the cube), with its other
/// literals: a larger cube, whose literals relate the variables of different literals and no
/// longer mention the constants in which a family of blocked cubes differs
/// (`i2 >= k + 1 /\ i0 <= k` gives `i2 - i0 >= 1` for every `k`). `None` when `cube` has
/// fewer than two or more than [`MAX_SUMMANDS`] `<=` literals.
pub fn pair_sums(cube: &[Term]) -> Option<Cube> {
    let les = bounds(cube);
    if les.len() < 2 || les.len() > MAX_SUMMANDS {
        return None;
    }
    let mut out = not_bounds(cube);
    for (i, a) in les.iter().enumerate() {
        for b in &les[i + 1..] {
            let r = mk_le_lin(a.add(b));
            if r.as_bool() != Some(true) && !out.contains(&r) {
                out.push(r);
            }
        }
    }
    Some(out)
}

/// The sum of all `<=` literals of `cube` (implied by it), with its other literals, when it
/// has three to [`MAX_SUMMANDS`]: the Farkas combination that relates them all at once
/// (`x1 >= 101 /\ x2 >= 99 /\ x0 <= 199` gives `x0 <= x1 + x2 - 1`, where pairwise sums count
/// `x2` twice). On larger cubes (the lustre `DRAGON` files) the sum of every bound is
/// blocked for no useful reason, and the lemma it gives pushed PDR from 63 lemmas to 112.
pub fn total_sum(cube: &[Term]) -> Option<Cube> {
    let les = bounds(cube);
    if les.len() < 3 || les.len() > MAX_SUMMANDS {
        return None;
    }
    let sum = les[1..].iter().fold(les[0].clone(), |acc, b| acc.add(b));
    let r = mk_le_lin(sum);
    if r.as_bool().is_some() {
        return None;
    }
    let mut out = not_bounds(cube);
    out.push(r);
    Some(out)
}

/// The `lin` of each `lin <= 0` literal of `c`.
fn bounds(c: &[Term]) -> Vec<&Lin> {
    c.iter()
        .filter_map(|l| match l.get() {
            TermNode::Le(lin) => Some(lin),
            _ => None,
        })
        .collect()
}

/// The literals of `c` that are not `<=` literals.
fn not_bounds(c: &[Term]) -> Cube {
    c.iter()
        .filter(|l| !matches!(l.get(), TermNode::Le(_)))
        .cloned()
        .collect()
}

/// The sums of each `<=` literal of `g` with each other `<=` literal of `g` or `rest`, with
/// the other literals of `g`: implied by `g /\ rest`, so a cube that contains it. `None`
/// without sums or with more than [`MAX_SUMS`].
pub fn cross_sums(g: &[Term], rest: &[Term]) -> Option<Cube> {
    let (gs, rs) = (bounds(g), bounds(rest));
    let n = gs.len() * gs.len().saturating_sub(1) / 2 + gs.len() * rs.len();
    if n == 0 || n > MAX_SUMS {
        return None;
    }
    let mut out = not_bounds(g);
    for (i, a) in gs.iter().enumerate() {
        for b in gs[i + 1..].iter().chain(&rs) {
            let r = mk_le_lin(a.add(b));
            if r.as_bool() != Some(true) && !out.contains(&r) {
                out.push(r);
            }
        }
    }
    Some(out)
}

/// Replaces `g` by the larger cube `h` when `h` is still blocked at `level`, shrunk to the
/// cores of the two checks; returns whether it did.
fn try_larger<B: Blocking + ?Sized>(
    ctx: &mut B,
    level: usize,
    g: &mut Cube,
    icore: &mut Vec<Term>,
    h: Cube,
) -> Result<bool, Stop> {
    let Some(hcore) = ctx.init_core(&h)? else {
        return Ok(false);
    };
    let Some(core) = ctx.inductive_core(level, &h)? else {
        return Ok(false);
    };
    *g = keep(&h, &core, &hcore);
    *icore = hcore;
    Ok(true)
}

/// Is `h` still blocked at `level` (disjoint from `init`, inductive relative to `F_{level-1}`)?
fn blocked<B: Blocking + ?Sized>(ctx: &mut B, level: usize, h: &[Term]) -> Result<bool, Stop> {
    Ok(ctx.init_core(h)?.is_some() && ctx.inductive_core(level, h)?.is_some())
}

/// Raises each bound `t <= b` of `g` as far as `g` stays blocked, trying `b + 1`, `b + 2`,
/// `b + 4`, .. (at most [`MAX_WEAKENINGS`] steps): the lemma `t > b'` then excludes all the
/// states it can, where literal dropping would learn `t > b`, `t > b + 1`, .. one by one.
/// Real bounds `t <= b` and `t < b` are raised the same way (by the same steps on their
/// normal form, whose coefficients are integers), keeping their strictness.
fn weaken_bounds<B: Blocking + ?Sized>(
    ctx: &mut B,
    level: usize,
    g: &mut Cube,
) -> Result<(), Stop> {
    for i in 0..g.len() {
        let raise: Box<dyn Fn(i64) -> Term> = match g[i].get() {
            TermNode::Le(l) => {
                let l = l.clone();
                Box::new(move |step| {
                    let mut w = l.clone();
                    w.k -= step;
                    mk_le_lin(w)
                })
            }
            TermNode::RLe(l) | TermNode::RLt(l) => {
                let (l, strict) = (l.clone(), matches!(g[i].get(), TermNode::RLt(_)));
                Box::new(move |step| {
                    let mut w = l.clone();
                    w.k -= Rat::from_integer(step.into());
                    if strict {
                        mk_rlt_lin(w)
                    } else {
                        mk_rle_lin(w)
                    }
                })
            }
            _ => continue,
        };
        let mut step = 1i64;
        for _ in 0..MAX_WEAKENINGS {
            let mut h = g.clone();
            h[i] = raise(step);
            if !blocked(ctx, level, &h)? {
                break;
            }
            *g = h;
            step *= 2;
        }
    }
    Ok(())
}

/// Generalizes `cube`, blocked at `level` with the core `trans_core` of
/// `F_{level-1} /\ trans /\ cube'` and the core `init_core` of `init /\ cube`.
pub fn generalize<B: Blocking + ?Sized>(
    ctx: &mut B,
    cfg: &Steps,
    level: usize,
    cube: &[Term],
    trans_core: &[Term],
    init_core: Vec<Term>,
) -> Result<Cube, Stop> {
    let mut g = keep(cube, trans_core, &init_core);
    let mut icore = init_core;
    if cfg.eliminate_vars {
        for x in bounded_vars(&g) {
            if let Some(h) = shadow(&g, &x) {
                try_larger(ctx, level, &mut g, &mut icore, h)?;
            }
        }
    }
    if cfg.pair_sums {
        if let Some(h) = pair_sums(&g) {
            try_larger(ctx, level, &mut g, &mut icore, h)?;
        }
    }
    let candidates = if cfg.drop_literals { g.clone() } else { vec![] };
    for lit in candidates {
        if g.len() <= 1 {
            break;
        }
        if !g.contains(&lit) {
            continue;
        }
        let h: Cube = g.iter().filter(|l| **l != lit).cloned().collect();
        let mut hcore = icore.clone();
        if icore.contains(&lit) {
            match ctx.init_core(&h)? {
                None => continue,
                Some(c) => hcore = c,
            }
        }
        if let Some(core) = ctx.drop_core(level, &h)? {
            g = keep(&h, &core, &hcore);
            icore = hcore;
        }
    }
    if cfg.weaken_bounds {
        weaken_bounds(ctx, level, &mut g)?;
    }
    // a weakened bound may have become another literal of the cube
    let mut seen = rustc_hash::FxHashSet::default();
    g.retain(|l| seen.insert(l.clone()));
    Ok(g)
}

/// When the lemma `not g` learned from the blocked `cube` stops below the frontier, it may
/// hold for a bounded number of steps only (`y >= 1` while `y` counts down from `1000` as `x`
/// counts up). Other cubes that contain `cube` may be blocked at `level` for another, often
/// inductive, reason: the cube without `g`'s literals, the sum of all the cube's bounds
/// ([`total_sum`]), then the sums of `g`'s bounds with the cube's other bounds
/// (`x + y <= 999`). The first that is blocked and, generalized, is not implied by `not g`
/// is a second lemma for `level`.
pub fn second_cube<B: Blocking + ?Sized>(
    ctx: &mut B,
    cfg: &Steps,
    level: usize,
    cube: &[Term],
    g: &[Term],
) -> Result<Option<Cube>, Stop> {
    let rest: Cube = cube.iter().filter(|l| !g.contains(l)).cloned().collect();
    if rest.is_empty() || rest.len() == cube.len() {
        return Ok(None);
    }
    let sums = cross_sums(g, &rest);
    for h in [Some(rest), total_sum(cube), sums].into_iter().flatten() {
        let Some(init_core) = ctx.init_core(&h)? else {
            continue;
        };
        let Some(trans_core) = ctx.trans_core(level, &h)? else {
            continue;
        };
        let h = generalize(ctx, cfg, level, &h, &trans_core, init_core)?;
        // generalized (a bound weakened back to one of `g`'s), it may be `g` or weaker
        if !g.iter().all(|l| h.contains(l)) {
            return Ok(Some(h));
        }
    }
    Ok(None)
}

#[cfg(test)]
#[path = "generalize_tests.rs"]
mod tests;
