//! Hash-consed terms and their simplifying constructors.
//!
//! Every term is built through the `mk_*` functions, which normalize as they go:
//! integer expressions become a [`Lin`] (a sum of coefficient–atom pairs plus a
//! constant, over big integers), comparisons become `lin <= 0` or `lin = 0` with
//! the coefficients divided by their gcd, and Boolean connectives are flattened
//! and constant-folded. Two terms are equal iff they are the same hash-consed node.
//!
//! The factory's table holds each term once, without a copy of its node; terms that nothing
//! but the table holds any more are freed by a sweep each time the table has doubled, so
//! memory follows the terms the engines still hold (ids are never reused).

use super::arith::*;
use super::linear::Lin;
use super::real::{mk_reqz_lin, mk_rle_lin, mk_rlin, mk_rlt_lin, RLin, Rat};
use super::Sort;
use num_bigint::BigInt;
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, LazyLock, Mutex};

/// A variable: a name and a sort. Names are stored unquoted.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Var {
    pub name: Arc<str>,
    pub sort: Sort,
}

/// The node of a term.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TermNode {
    Var(Var),
    Bool(bool),
    Int(BigInt),
    Not(Term),
    /// At least two conjuncts, none of them a constant or a conjunction.
    And(Vec<Term>),
    /// At least two disjuncts, none of them a constant or a disjunction.
    Or(Vec<Term>),
    Ite(Term, Term, Term),
    /// Equality of two Boolean terms.
    Iff(Term, Term),
    /// A linear integer expression that is not a constant nor a single atom.
    Lin(Lin),
    /// `lin <= 0`.
    Le(Lin),
    /// `lin = 0`.
    EqZ(Lin),
    /// Integer division (SMT-LIB semantics) by a non-zero constant.
    Div(Term, BigInt),
    /// Integer remainder (SMT-LIB semantics) by a non-zero constant.
    Mod(Term, BigInt),
    /// `exists vars. body`: only in models translated back through inlining.
    Exists(Vec<Var>, Term),
    /// A real constant.
    Real(Rat),
    /// A linear real expression that is not a constant nor a single atom.
    RLin(RLin),
    /// `lin <= 0` over the reals.
    RLe(RLin),
    /// `lin < 0` over the reals.
    RLt(RLin),
    /// `lin = 0` over the reals.
    REqZ(RLin),
    /// `to_real` of an integer atom (a variable, `ite`, `div`, `mod` or `to_int` term).
    ToReal(Term),
    /// `to_int` (the floor) of a real term that is not integral by construction.
    ToInt(Term),
    /// `is_int` of a real term that is not integral by construction.
    IsInt(Term),
    /// `(select array index)` that does not read over a write (see [`super::array`]).
    Select(Term, Term),
    /// `(store array index value)`.
    Store(Term, Term, Term),
    /// `((as const sort) value)`: the array of `sort` that is `value` everywhere.
    ConstArray(Sort, Term),
    /// Equality of two array terms (ordered by id).
    ArrEq(Term, Term),
}

/// A hash-consed term: a shared node with a unique id. Equality, ordering and hashing go by
/// the id (two terms are equal iff they are the same node).
#[derive(Clone)]
pub struct Term(Arc<Inner>);

struct Inner {
    uid: u64,
    node: TermNode,
}

impl Term {
    /// The node.
    #[inline]
    pub fn get(&self) -> &TermNode {
        &self.0.node
    }

    /// The unique id: never reused, also after the term is freed, and smaller than the ids
    /// of every term built on it.
    #[inline]
    pub fn uid(&self) -> u64 {
        self.0.uid
    }
}

impl std::ops::Deref for Term {
    type Target = TermNode;
    #[inline]
    fn deref(&self) -> &TermNode {
        &self.0.node
    }
}

impl PartialEq for Term {
    #[inline]
    fn eq(&self, other: &Term) -> bool {
        self.0.uid == other.0.uid
    }
}

impl Eq for Term {}

impl PartialOrd for Term {
    #[inline]
    fn partial_cmp(&self, other: &Term) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Term {
    #[inline]
    fn cmp(&self, other: &Term) -> std::cmp::Ordering {
        self.0.uid.cmp(&other.0.uid)
    }
}

impl Hash for Term {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.uid.hash(state)
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.node.fmt(f)
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.node, f)
    }
}

/// A term in the factory's table, hashed and compared by its node (whose children compare
/// by id), so that the table is looked up with a node and holds no copy of it.
struct Key(Term);

impl Hash for Key {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0 .0.node.hash(state)
    }
}

impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Key) -> bool {
        self.0 .0.node == other.0 .0.node
    }
}

impl Eq for Key {}

impl Borrow<TermNode> for Key {
    #[inline]
    fn borrow(&self) -> &TermNode {
        &self.0 .0.node
    }
}

/// The term factory: every live term, once. The table holds a reference to each term, so a
/// term that only the table holds is garbage; [`Factory::sweep`] frees those when the table
/// has doubled since the last sweep (amortized constant time per term made).
struct Factory {
    table: FxHashSet<Key>,
    next_uid: u64,
    /// Size of the table that triggers the next sweep.
    sweep_at: usize,
}

/// The first sweep happens at this many terms (the parse of a large file makes ~10^5).
const FIRST_SWEEP: usize = 1 << 17;

impl Factory {
    fn mk(&mut self, node: TermNode) -> Term {
        if let Some(k) = self.table.get(&node) {
            return k.0.clone();
        }
        if self.table.len() >= self.sweep_at {
            super::lock_stats::sweep(|| self.sweep());
            self.sweep_at = (2 * self.table.len()).max(FIRST_SWEEP);
        }
        let t = Term(Arc::new(Inner {
            uid: self.next_uid,
            node,
        }));
        self.next_uid += 1;
        self.table.insert(Key(t.clone()));
        t
    }

    /// Frees every term that only the table holds, and then those that only freed terms
    /// held. The table is locked, so no thread can take a new reference to a term held by
    /// nothing else: a count of 1 means garbage for good. Children are taken out of the
    /// table before their parent is freed, so freeing never recurses.
    fn sweep(&mut self) {
        let mut dead: Vec<Term> = vec![];
        self.table.retain(|k| {
            if Arc::strong_count(&k.0 .0) == 1 {
                dead.push(k.0.clone());
                false
            } else {
                true
            }
        });
        while let Some(t) = dead.pop() {
            // held by `t` and the table only (a child that occurs twice in `t` waits for the
            // next sweep)
            for c in t.children() {
                if Arc::strong_count(&c.0) == 2 {
                    if let Some(k) = self.table.take(c.get()) {
                        dead.push(k.0);
                    }
                }
            }
            drop(t);
        }
    }
}

/// The global term factory (an interner, not configuration).
///
/// One lock, measured (2026-11-26, `--stats` `term-factory`, default 2-lane portfolio, on a
/// machine loaded by a benchmark): on 20 files of LIA-Lin and LIA taking 0.1-17 s, 2.43M
/// acquisitions, 0.29% contended, 0.068 s waiting against 11.9 s of CPU (0.57%; at most
/// 1.4% on one file), no sweep. Only a 1.2 MB file of `bench/scale` waited materially:
/// 0.18 s of 2.8-3.0 s CPU (6%), of which 0.07-0.08 s during its one sweep (which held the
/// lock that long) and ~0.1 s in 50-200 waits of ~0.5 ms each outside it (not broken down
/// further: table growth under the lock, or a holder descheduled on the loaded machine).
/// Shards swept one at a time would likely not spare the other lane the sweep's share,
/// since it makes terms in every shard (reasoned, not measured).
static FACTORY: LazyLock<Mutex<Factory>> = LazyLock::new(|| {
    Mutex::new(Factory {
        table: FxHashSet::default(),
        next_uid: 0,
        sweep_at: FIRST_SWEEP,
    })
});

pub(crate) fn mk_node(node: TermNode) -> Term {
    mk(node)
}

fn mk(node: TermNode) -> Term {
    lock_factory().mk(node)
}

/// Number of terms in the factory's table (live ones, and garbage not swept yet).
pub fn factory_size() -> usize {
    lock_factory().table.len()
}

/// The factory, locked, with its lock counted ([`super::lock_stats`]).
fn lock_factory() -> std::sync::MutexGuard<'static, Factory> {
    super::lock_stats::counted_lock(&FACTORY)
}

impl TermNode {
    /// The sort of the term.
    pub fn sort(&self) -> Sort {
        match self {
            TermNode::Var(v) => v.sort,
            TermNode::Int(_)
            | TermNode::Lin(_)
            | TermNode::Div(..)
            | TermNode::Mod(..)
            | TermNode::ToInt(_) => Sort::Int,
            TermNode::Real(_) | TermNode::RLin(_) | TermNode::ToReal(_) => Sort::Real,
            TermNode::Ite(_, t, _) => t.sort(),
            TermNode::Select(a, _) => match a.sort().array_parts() {
                Some((_, e)) => e,
                None => Sort::Bool, // ill-sorted: the parser never builds it
            },
            TermNode::Store(a, _, _) => a.sort(),
            TermNode::ConstArray(s, _) => *s,
            _ => Sort::Bool,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            TermNode::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<&BigInt> {
        match self {
            TermNode::Int(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_var(&self) -> Option<&Var> {
        match self {
            TermNode::Var(v) => Some(v),
            _ => None,
        }
    }

    /// Pushes the direct sub-terms on `stack`, last first, so that they pop in order (for
    /// walks that keep their own stack: no vector per node).
    pub fn push_children_rev<'a>(&'a self, stack: &mut Vec<&'a Term>) {
        match self {
            TermNode::Var(_) | TermNode::Bool(_) | TermNode::Int(_) | TermNode::Real(_) => {}
            TermNode::Not(t) | TermNode::Div(t, _) | TermNode::Mod(t, _) => stack.push(t),
            TermNode::ToReal(t) | TermNode::ToInt(t) | TermNode::IsInt(t) => stack.push(t),
            TermNode::RLin(l) | TermNode::RLe(l) | TermNode::RLt(l) | TermNode::REqZ(l) => {
                stack.extend(l.terms.iter().rev().map(|(t, _)| t))
            }
            TermNode::Exists(_, t) => stack.push(t),
            TermNode::And(ts) | TermNode::Or(ts) => stack.extend(ts.iter().rev()),
            TermNode::Ite(c, t, e) => stack.extend([e, t, c]),
            TermNode::Iff(a, b) | TermNode::Select(a, b) | TermNode::ArrEq(a, b) => {
                stack.extend([b, a])
            }
            TermNode::Store(a, i, v) => stack.extend([v, i, a]),
            TermNode::ConstArray(_, v) => stack.push(v),
            TermNode::Lin(l) | TermNode::Le(l) | TermNode::EqZ(l) => {
                stack.extend(l.terms.iter().rev().map(|(t, _)| t))
            }
        }
    }

    /// The direct sub-terms, in order.
    pub fn children(&self) -> Vec<&Term> {
        let mut out = vec![];
        self.push_children_rev(&mut out);
        out.reverse();
        out
    }
}

// ---------------------------------------------------------------- leaves

pub fn mk_var(name: &str, sort: Sort) -> Term {
    mk(TermNode::Var(Var {
        name: Arc::from(name),
        sort,
    }))
}

pub fn mk_var_of(v: &Var) -> Term {
    mk(TermNode::Var(v.clone()))
}

pub fn mk_bool(b: bool) -> Term {
    mk(TermNode::Bool(b))
}

pub fn mk_true() -> Term {
    mk_bool(true)
}

pub fn mk_false() -> Term {
    mk_bool(false)
}

pub fn mk_int(n: impl Into<BigInt>) -> Term {
    mk(TermNode::Int(n.into()))
}

// ---------------------------------------------------------------- Booleans

pub fn mk_not(t: Term) -> Term {
    match t.get() {
        TermNode::Bool(b) => mk_bool(!b),
        TermNode::Not(inner) => inner.clone(),
        // not (lin <= 0)  <=>  -lin + 1 <= 0  over the integers
        TermNode::Le(l) => {
            let mut n = l.neg();
            n.k += 1;
            mk_le_lin(n)
        }
        // not (lin <= 0)  <=>  -lin < 0, and back, over the reals
        TermNode::RLe(l) => mk_rlt_lin(l.neg()),
        TermNode::RLt(l) => mk_rle_lin(l.neg()),
        _ => mk(TermNode::Not(t)),
    }
}

/// The distinct elements of a junction in order of first occurrence: found by a
/// linear scan while there are few, by a hash set beyond [`Dedup::SMALL`].
struct Dedup {
    out: Vec<Term>,
    seen: FxHashSet<u64>,
}

impl Dedup {
    const SMALL: usize = 16;

    fn contains(&self, uid: u64) -> bool {
        if self.out.len() < Self::SMALL {
            self.out.iter().any(|t| t.uid() == uid)
        } else {
            self.seen.contains(&uid)
        }
    }

    fn insert(&mut self, t: Term) {
        if self.out.len() < Self::SMALL {
            if self.contains(t.uid()) {
                return;
            }
            self.out.push(t);
            if self.out.len() == Self::SMALL {
                self.seen.extend(self.out.iter().map(|t| t.uid()));
            }
        } else if self.seen.insert(t.uid()) {
            self.out.push(t);
        }
    }

    /// Adds `t`, flattening nested junctions of the same kind; false when `t` is the
    /// absorbing constant.
    fn add(&mut self, t: Term, is_and: bool) -> bool {
        match t.get() {
            TermNode::Bool(b) => *b == is_and,
            TermNode::And(inner) if is_and => inner.iter().all(|s| self.add(s.clone(), is_and)),
            TermNode::Or(inner) if !is_and => inner.iter().all(|s| self.add(s.clone(), is_and)),
            _ => {
                self.insert(t);
                true
            }
        }
    }
}

fn mk_junction(ts: Vec<Term>, is_and: bool) -> Term {
    let mut d = Dedup {
        out: Vec::with_capacity(ts.len()),
        seen: FxHashSet::default(),
    };
    for t in ts {
        if !d.add(t, is_and) {
            return mk_bool(!is_and);
        }
    }
    // x and not x
    for t in &d.out {
        if let TermNode::Not(inner) = t.get() {
            if d.contains(inner.uid()) {
                return mk_bool(!is_and);
            }
        }
    }
    let mut out = d.out;
    match out.len() {
        0 => mk_bool(is_and),
        1 => out.pop().unwrap(),
        _ if is_and => mk(TermNode::And(out)),
        _ => mk(TermNode::Or(out)),
    }
}

pub fn mk_and(ts: Vec<Term>) -> Term {
    mk_junction(ts, true)
}

pub fn mk_or(ts: Vec<Term>) -> Term {
    mk_junction(ts, false)
}

pub fn mk_and2(a: Term, b: Term) -> Term {
    mk_and(vec![a, b])
}

pub fn mk_implies(a: Term, b: Term) -> Term {
    mk_or(vec![mk_not(a), b])
}

pub fn mk_ite(c: Term, t: Term, e: Term) -> Term {
    match c.get() {
        TermNode::Bool(true) => return t,
        TermNode::Bool(false) => return e,
        TermNode::Not(inner) => return mk_ite(inner.clone(), e, t),
        _ => {}
    }
    if t == e {
        return t;
    }
    let (t, e) = coerce2(t, e);
    if t.sort() == Sort::Bool {
        return match (t.as_bool(), e.as_bool()) {
            (Some(true), Some(false)) => c,
            (Some(false), Some(true)) => mk_not(c),
            (Some(true), None) => mk_or(vec![c, e]),
            (Some(false), None) => mk_and(vec![mk_not(c), e]),
            (None, Some(true)) => mk_or(vec![mk_not(c), t]),
            (None, Some(false)) => mk_and(vec![c, t]),
            _ => mk(TermNode::Ite(c, t, e)),
        };
    }
    mk(TermNode::Ite(c, t, e))
}

/// Equality of two terms of the same sort.
pub fn mk_eq(a: Term, b: Term) -> Term {
    if a == b {
        return mk_true();
    }
    let (a, b) = coerce2(a, b);
    match a.sort() {
        Sort::Array(_) => super::array::mk_arr_eq(a, b),
        Sort::Int => mk_eqz_lin(Lin::of(&a).sub(&Lin::of(&b))),
        Sort::Real => mk_reqz_lin(RLin::of(&a).sub(&RLin::of(&b))),
        Sort::Bool => match (a.as_bool(), b.as_bool()) {
            (Some(x), _) => {
                if x {
                    b
                } else {
                    mk_not(b)
                }
            }
            (_, Some(y)) => {
                if y {
                    a
                } else {
                    mk_not(a)
                }
            }
            _ => {
                let (a, b) = if a.uid() <= b.uid() { (a, b) } else { (b, a) };
                mk(TermNode::Iff(a, b))
            }
        },
    }
}

/// Pairwise distinctness.
pub fn mk_distinct(ts: Vec<Term>) -> Term {
    // A repeated argument makes it false, without building the n(n-1)/2 disequalities
    // (`(distinct x x ...)` with 2,000 arguments took over a second; found by scripts/fuzz).
    let mut seen = FxHashSet::default();
    if !ts.iter().all(|t| seen.insert(t.uid())) {
        return mk_false();
    }
    let mut conj = vec![];
    for i in 0..ts.len() {
        for j in i + 1..ts.len() {
            conj.push(mk_not(mk_eq(ts[i].clone(), ts[j].clone())));
        }
    }
    mk_and(conj)
}

/// `exists vars. body`, dropping variables that do not occur in `body`.
pub fn mk_exists(vars: Vec<Var>, body: Term) -> Term {
    let fv = free_vars(&body);
    let vars: Vec<Var> = vars.into_iter().filter(|v| fv.contains(v)).collect();
    if vars.is_empty() {
        return body;
    }
    mk(TermNode::Exists(vars, body))
}

// ---------------------------------------------------------------- traversals

/// Rebuilds `t` bottom-up, replacing every variable `v` by `f(v)` when that is `Some`.
/// Shared sub-terms are visited once.
pub fn map_vars(t: &Term, f: &mut dyn FnMut(&Var) -> Option<Term>) -> Term {
    // leaves need no memo (most calls map one argument of a predicate application)
    match t.get() {
        TermNode::Var(v) => return f(v).unwrap_or_else(|| t.clone()),
        TermNode::Bool(_) | TermNode::Int(_) | TermNode::Real(_) => return t.clone(),
        _ => {}
    }
    let mut memo: FxHashMap<u64, Term> = FxHashMap::default();
    map_vars_memo(t, f, &mut memo)
}

fn map_vars_memo(
    t: &Term,
    f: &mut dyn FnMut(&Var) -> Option<Term>,
    memo: &mut FxHashMap<u64, Term>,
) -> Term {
    if let Some(r) = memo.get(&t.uid()) {
        return r.clone();
    }
    let r = match t.get() {
        TermNode::Var(v) => f(v).unwrap_or_else(|| t.clone()),
        TermNode::Bool(_) | TermNode::Int(_) | TermNode::Real(_) => t.clone(),
        TermNode::Not(a) => mk_not(map_vars_memo(a, f, memo)),
        TermNode::And(ts) => mk_and(ts.iter().map(|s| map_vars_memo(s, f, memo)).collect()),
        TermNode::Or(ts) => mk_or(ts.iter().map(|s| map_vars_memo(s, f, memo)).collect()),
        TermNode::Ite(c, a, b) => {
            let c = map_vars_memo(c, f, memo);
            let a = map_vars_memo(a, f, memo);
            let b = map_vars_memo(b, f, memo);
            mk_ite(c, a, b)
        }
        TermNode::Iff(a, b) => {
            let a = map_vars_memo(a, f, memo);
            mk_eq(a, map_vars_memo(b, f, memo))
        }
        TermNode::Lin(l) => mk_lin(map_lin(l, f, memo)),
        TermNode::Le(l) => mk_le_lin(map_lin(l, f, memo)),
        TermNode::EqZ(l) => mk_eqz_lin(map_lin(l, f, memo)),
        TermNode::Div(a, d) => mk_div(map_vars_memo(a, f, memo), d.clone()),
        TermNode::Mod(a, d) => mk_mod(map_vars_memo(a, f, memo), d.clone()),
        TermNode::RLin(l) => mk_rlin(map_rlin(l, f, memo)),
        TermNode::RLe(l) => mk_rle_lin(map_rlin(l, f, memo)),
        TermNode::RLt(l) => mk_rlt_lin(map_rlin(l, f, memo)),
        TermNode::REqZ(l) => mk_reqz_lin(map_rlin(l, f, memo)),
        TermNode::ToReal(a) => super::real::mk_to_real(map_vars_memo(a, f, memo)),
        TermNode::ToInt(a) => super::real::mk_to_int(map_vars_memo(a, f, memo)),
        TermNode::IsInt(a) => super::real::mk_is_int(map_vars_memo(a, f, memo)),
        TermNode::Select(a, i) => {
            let a = map_vars_memo(a, f, memo);
            super::array::mk_select(a, map_vars_memo(i, f, memo))
        }
        TermNode::Store(a, i, v) => {
            let a = map_vars_memo(a, f, memo);
            let i = map_vars_memo(i, f, memo);
            super::array::mk_store(a, i, map_vars_memo(v, f, memo))
        }
        TermNode::ConstArray(s, v) => super::array::mk_const_array(*s, map_vars_memo(v, f, memo)),
        TermNode::ArrEq(a, b) => {
            let a = map_vars_memo(a, f, memo);
            super::array::mk_arr_eq(a, map_vars_memo(b, f, memo))
        }
        TermNode::Exists(vs, body) => {
            let mut inner = |v: &Var| if vs.contains(v) { None } else { f(v) };
            let body = map_vars(body, &mut inner);
            mk_exists(vs.clone(), body)
        }
    };
    memo.insert(t.uid(), r.clone());
    r
}

fn map_lin(
    l: &Lin,
    f: &mut dyn FnMut(&Var) -> Option<Term>,
    memo: &mut FxHashMap<u64, Term>,
) -> Lin {
    // atoms that map to themselves keep their place (`l` is sorted, so they stay sorted);
    // the others are added one by one
    let mut same = Lin::constant(l.k.clone());
    let mut changed = vec![];
    for (t, c) in &l.terms {
        let m = map_vars_memo(t, f, memo);
        if m == *t {
            same.terms.push((m, c.clone()));
        } else {
            changed.push((m, c));
        }
    }
    let mut acc = same;
    for (m, c) in changed {
        acc = acc.add(&Lin::of(&m).scale(c));
    }
    acc
}

fn map_rlin(
    l: &RLin,
    f: &mut dyn FnMut(&Var) -> Option<Term>,
    memo: &mut FxHashMap<u64, Term>,
) -> RLin {
    let mut acc = RLin::constant(l.k.clone());
    for (t, c) in &l.terms {
        let m = map_vars_memo(t, f, memo);
        acc = acc.add(&RLin::of(&m).scale(c));
    }
    acc
}

/// Substitutes variables by terms.
pub fn subst(t: &Term, map: &FxHashMap<Var, Term>) -> Term {
    if map.is_empty() {
        return t.clone();
    }
    map_vars(t, &mut |v| map.get(v).cloned())
}

/// The free variables of `t`, in order of first occurrence.
pub fn free_vars(t: &Term) -> Vec<Var> {
    match t.get() {
        TermNode::Var(v) => return vec![v.clone()],
        TermNode::Bool(_) | TermNode::Int(_) | TermNode::Real(_) => return vec![],
        _ => {}
    }
    let mut out = vec![];
    let mut seen_vars: FxHashSet<Var> = FxHashSet::default();
    let mut seen: FxHashSet<u64> = FxHashSet::default();
    let mut stack: Vec<&Term> = vec![t];
    while let Some(t) = stack.pop() {
        if !seen.insert(t.uid()) {
            continue;
        }
        match t.get() {
            TermNode::Var(v) => {
                if seen_vars.insert(v.clone()) {
                    out.push(v.clone());
                }
            }
            TermNode::Exists(vs, body) => {
                for v in free_vars(body) {
                    if !vs.contains(&v) && seen_vars.insert(v.clone()) {
                        out.push(v);
                    }
                }
            }
            n => n.push_children_rev(&mut stack),
        }
    }
    out
}

/// Number of distinct nodes of `t` (its size as a DAG).
pub fn dag_size(t: &Term) -> usize {
    let mut seen: FxHashSet<u64> = FxHashSet::default();
    let mut stack = vec![t.clone()];
    while let Some(t) = stack.pop() {
        if seen.insert(t.uid()) {
            stack.extend(t.children().into_iter().cloned());
        }
    }
    seen.len()
}

/// The conjuncts of `t` (itself if it is not a conjunction).
pub fn conjuncts(t: &Term) -> Vec<Term> {
    match t.get() {
        TermNode::And(ts) => ts.clone(),
        TermNode::Bool(true) => vec![],
        _ => vec![t.clone()],
    }
}
