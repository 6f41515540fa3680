//! Global guidance for Spacer's local generalization: Vediramana Krishnan, Chen, Shoham and
//! Gurfinkel, *Global guidance for local generalization in model checking* (CAV 2020), the
//! rules behind z3's `fp.spacer.global=true`.
//!
//! **Clusters.** Lemmas of one predicate whose cubes differ only in the constant terms of
//! their linear literals (`lin + k <= 0`, `lin + k = 0`) form a cluster: the pattern is the
//! cube with each differing constant replaced by a parameter, and each lemma is a point,
//! the vector of its constants. Every lemma ever learned is kept in its cluster (also when
//! a stronger lemma later replaced it in the frames), since the cluster is the evidence that
//! local generalization keeps finding the same shape.
//!
//! When a new lemma joins a cluster of at least two points, one rule proposes a new proof
//! obligation, a *guess*: a region the search then tries to block. Guesses are *may*
//! obligations: blocking one yields a lemma by the ordinary machinery (checked, generalized,
//! pushed), reaching one only yields must-summaries, never a counterexample.
//!
//! | paper | here |
//! | --- | --- |
//! | lemma cluster, pattern (anti-unification up to numerals) | [`Global::observe`], [`signature`] |
//! | *Subsume*: block the convex closure of the cluster's points, projected onto the predicate's parameters | [`Global::on_lemma`], [`closure`] |
//! | *Conjecture*: the pattern varies in a single literal; drop it from the obligation | [`Global::on_lemma`] |
//! | *Concretize*: a pattern with a parameter multiplying a variable (lemmas differing in a coefficient) | [`Global::concretize`] |
//! | gas: how often a cluster may propose | [`GAS`] |
//!
//! The convex closure is over-approximated by the affine hull of the points, the bounding box
//! along its free directions, and the congruence of each free direction (all points' offsets
//! are multiples of `g`: the parameter is `0 mod g`, which is where parity facts come from).
//! Parameters are eliminated exactly when an equality with a unit coefficient defines them
//! (the congruence then becomes a `mod` literal over the predicate's parameters), else by the
//! real shadow (Fourier–Motzkin), an over-approximation. Every member's cube lies in the
//! result, so blocking it generalizes all of them at once.
//!
//! Clusters abstract constant terms only. Lemmas that differ in a coefficient (`k*x + y <=
//! 0` for k = 1, 2, 3, ..., which z3 abstracts into the non-linear pattern `v*x + y <= 0`)
//! are recorded per inequality; an obligation with such an inequality is then concretized.

use crate::chc::PredId;
use crate::engine::pdr::context::{cube_of, Cube};
use crate::logic::*;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use rustc_hash::{FxHashMap, FxHashSet};

/// How many guesses one cluster may propose.
pub const GAS: usize = 8;

/// Largest number of parameters (free directions of a cluster) the closure handles.
const MAX_PARAMS: usize = 6;

/// Largest number of constraints Fourier–Motzkin may build.
const MAX_CONSTRAINTS: usize = 64;

/// Which rule proposed a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    Subsume,
    Conjecture,
    Concretize,
}

/// A proposed obligation: is a valuation of `cube` derivable for `pred` by height `level`?
#[derive(Clone, Debug)]
pub struct Guess {
    pub pred: PredId,
    pub cube: Cube,
    pub level: usize,
    pub rule: Rule,
}

/// Counters for `--stats`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GlobalCounters {
    pub clusters: usize,
    pub subsume: usize,
    pub conjecture: usize,
    pub concretize: usize,
}

/// A literal split into its shape (the literal with constant term zero) and its constant.
#[derive(Clone, Debug)]
struct Shaped {
    shape: Term,
    /// The constant term, for `lin + k <= 0` (`eq: false`) and `lin + k = 0` (`eq: true`).
    k: Option<(bool, Lin)>,
}

/// A cube's literals by shape, sorted; the key of its cluster.
pub fn signature(cube: &[Term]) -> (Vec<Term>, Vec<Option<(bool, Lin)>>) {
    let mut lits: Vec<(Shaped, Option<BigInt>)> = cube
        .iter()
        .map(|l| {
            let s = shaped(l);
            let k = s.k.as_ref().map(|(_, lin)| lin.k.clone());
            (s, k)
        })
        .collect();
    lits.sort_by(|a, b| a.0.shape.cmp(&b.0.shape).then_with(|| a.1.cmp(&b.1)));
    lits.into_iter().map(|(s, _)| (s.shape, s.k)).unzip()
}

fn shaped(l: &Term) -> Shaped {
    let l = &mod_normal(l);
    let (eq, lin) = match l.get() {
        TermNode::Le(lin) => (false, lin),
        TermNode::EqZ(lin) => (true, lin),
        _ => {
            return Shaped {
                shape: l.clone(),
                k: None,
            }
        }
    };
    let zero = Lin {
        terms: lin.terms.clone(),
        k: BigInt::zero(),
    };
    let shape = if eq {
        mk_eqz_lin(zero)
    } else {
        mk_le_lin(zero)
    };
    Shaped {
        shape,
        k: Some((eq, lin.clone())),
    }
}

/// `(e + c) mod m = r` as `e mod m = (r - c) mod m`, the form whose constant varies with
/// the residue (projections produce the former); other literals unchanged.
fn mod_normal(l: &Term) -> Term {
    let TermNode::EqZ(lin) = l.get() else {
        return l.clone();
    };
    let [(atom, c)] = &lin.terms[..] else {
        return l.clone();
    };
    let TermNode::Mod(inner, m) = atom.get() else {
        return l.clone();
    };
    let inner = Lin::of(inner);
    // c * mod(inner, m) + k = 0 with c = 1 (mk_eqz_lin makes the first coefficient positive)
    if !c.is_one() || inner.k.is_zero() {
        return l.clone();
    }
    let r = -&lin.k;
    if r.is_negative() || &r >= m {
        return l.clone();
    }
    let e = Lin {
        terms: inner.terms.clone(),
        k: BigInt::zero(),
    };
    let r = (&r - &inner.k).mod_floor(m);
    mk_eq(mk_mod(mk_lin(e), m.clone()), mk_int(r))
}

/// A cluster: one pattern, the points of its lemmas, and the gas left.
struct Cluster {
    /// Per literal position: its `lin` without constant and whether it is an equality, for
    /// the positions that have a constant term.
    forms: Vec<Option<(bool, Lin)>>,
    /// The literals without a constant term (the same in every member).
    fixed: Vec<Term>,
    /// The constant terms of the positions with one, and the lemma's level.
    points: Vec<(Vec<BigInt>, usize)>,
    gas: usize,
}

/// The clusters of every predicate, and the guesses proposed so far.
#[derive(Default)]
pub struct Global {
    clusters: FxHashMap<(PredId, Vec<Term>), Cluster>,
    /// Per predicate and inequality over given atoms: the coefficient vectors its lemmas
    /// had. Two or more: the pattern abstracts a coefficient (z3's non-linear pattern).
    coefs: FxHashMap<(PredId, Vec<Term>), Vec<Vec<BigInt>>>,
    posted: FxHashSet<(PredId, Vec<Term>)>,
    pub counters: GlobalCounters,
}

impl Global {
    /// Adds lemma `not cube` of `pred` at `level` to its cluster; returns the cluster's key
    /// when it has a parameter position.
    pub fn observe(
        &mut self,
        pred: PredId,
        cube: &[Term],
        level: usize,
    ) -> Option<(PredId, Vec<Term>)> {
        for l in cube {
            if let TermNode::Le(lin) = l.get() {
                if lin.terms.len() >= 2 {
                    let (atoms, cs): (Vec<Term>, Vec<BigInt>) = lin.terms.iter().cloned().unzip();
                    let seen = self.coefs.entry((pred, atoms)).or_default();
                    if !seen.contains(&cs) {
                        seen.push(cs);
                    }
                }
            }
        }
        let (shapes, ks) = signature(cube);
        if ks.iter().all(|k| k.is_none()) {
            return None;
        }
        let point: Vec<BigInt> = ks.iter().flatten().map(|(_, l)| l.k.clone()).collect();
        let key = (pred, shapes.clone());
        let cl = self.clusters.entry(key.clone()).or_insert_with(|| Cluster {
            forms: ks
                .iter()
                .map(|k| {
                    k.as_ref().map(|(eq, l)| {
                        (
                            *eq,
                            Lin {
                                terms: l.terms.clone(),
                                k: BigInt::zero(),
                            },
                        )
                    })
                })
                .collect(),
            fixed: shapes
                .iter()
                .zip(&ks)
                .filter(|(_, k)| k.is_none())
                .map(|(s, _)| s.clone())
                .collect(),
            points: vec![],
            gas: GAS,
        });
        match cl.points.iter_mut().find(|(p, _)| *p == point) {
            Some(p) => p.1 = p.1.max(level),
            None => {
                cl.points.push((point, level));
                if cl.points.len() == 2 {
                    self.counters.clusters += 1;
                }
            }
        }
        Some(key)
    }

    /// After lemma `not lemma` of `pred` at `level` blocked the obligation `pob` (at
    /// `pob_level`): the guess its cluster proposes, if any.
    pub fn on_lemma(
        &mut self,
        pred: PredId,
        lemma: &[Term],
        level: usize,
        pob: &[Term],
        pob_level: usize,
    ) -> Option<Guess> {
        let key = self.observe(pred, lemma, level)?;
        let cl = self.clusters.get_mut(&key)?;
        if cl.points.len() < 2 || cl.gas == 0 {
            return None;
        }
        let dims = cl.points[0].0.len();
        let varying: Vec<usize> = (0..dims)
            .filter(|&j| cl.points.iter().any(|(p, _)| p[j] != cl.points[0].0[j]))
            .collect();
        if varying.is_empty() {
            return None;
        }
        let level = cl.points.iter().map(|p| p.1).min()?.min(pob_level).max(1);
        let (cube, rule) = if varying.len() == 1 {
            // the position of the varying literal among those with a constant term
            let pos = cl
                .forms
                .iter()
                .enumerate()
                .filter(|(_, f)| f.is_some())
                .nth(varying[0])
                .map(|(i, _)| i)?;
            let shape = &key.1[pos];
            let drop = |c: &[Term]| -> Vec<Term> {
                c.iter()
                    .filter(|l| shaped(l).shape != *shape)
                    .cloned()
                    .collect()
            };
            let mut cube = drop(pob);
            if cube.len() == pob.len() {
                cube = drop(lemma);
            }
            if cube.is_empty() {
                // nothing is left to conjecture: block the closure of the points
                (closure(cl)?, Rule::Subsume)
            } else {
                (cube, Rule::Conjecture)
            }
        } else {
            (closure(cl)?, Rule::Subsume)
        };
        let mut sorted = cube.clone();
        sorted.sort();
        if !self.posted.insert((pred, sorted)) {
            return None;
        }
        cl.gas -= 1;
        match rule {
            Rule::Subsume => self.counters.subsume += 1,
            Rule::Conjecture => self.counters.conjecture += 1,
            Rule::Concretize => self.counters.concretize += 1,
        }
        Some(Guess {
            pred,
            cube,
            level,
            rule,
        })
    }
}

impl Global {
    /// *Concretize*: when obligation `cube` of `pred` (with `point`, a valuation in it) has an
    /// inequality over atoms whose lemmas came with two or more coefficient vectors, the box
    /// corner of `point` that implies it (`x <= v` for a positive coefficient, `x >= v` for a
    /// negative one), in place of the inequality. The box lies in the obligation, and its
    /// lemma generalizes without the coefficient that kept changing.
    pub fn concretize(
        &mut self,
        pred: PredId,
        cube: &[Term],
        point: &Assignment,
        level: usize,
    ) -> Option<Guess> {
        let mut changed = false;
        let mut out: Vec<Term> = vec![];
        for l in cube {
            let TermNode::Le(lin) = l.get() else {
                out.push(l.clone());
                continue;
            };
            let atoms: Vec<Term> = lin.terms.iter().map(|(a, _)| a.clone()).collect();
            let varied = self
                .coefs
                .get(&(pred, atoms))
                .is_some_and(|seen| seen.len() >= 2);
            if !varied {
                out.push(l.clone());
                continue;
            }
            for (a, c) in &lin.terms {
                let v = mk_int(eval_int(a, point).ok()?);
                out.push(if c.is_positive() {
                    mk_le(a.clone(), v)
                } else {
                    mk_ge(a.clone(), v)
                });
            }
            changed = true;
        }
        if !changed {
            return None;
        }
        let mut sorted = out.clone();
        sorted.sort();
        sorted.dedup();
        if !self.posted.insert((pred, sorted)) {
            return None;
        }
        self.counters.concretize += 1;
        Some(Guess {
            pred,
            cube: out,
            level,
            rule: Rule::Concretize,
        })
    }
}

/// A linear constraint over the predicate's parameters (`x`) and the cluster's parameters
/// (`t`): `x + t . coefs <= 0` (or `= 0`), or a congruence `x + t . coefs = 0 mod m`.
#[derive(Clone, Debug)]
struct Row {
    x: Lin,
    t: Vec<BigInt>,
    kind: Kind,
}

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Le,
    Eq,
    Mod(BigInt),
}

impl Row {
    fn scale(&self, c: &BigInt) -> Row {
        Row {
            x: self.x.scale(c),
            t: self.t.iter().map(|a| a * c).collect(),
            kind: self.kind.clone(),
        }
    }

    fn add(&self, o: &Row) -> Row {
        Row {
            x: self.x.add(&o.x),
            t: self.t.iter().zip(&o.t).map(|(a, b)| a + b).collect(),
            kind: self.kind.clone(),
        }
    }
}

/// The pattern of a cluster over the convex closure of its points, projected onto the
/// predicate's parameters (an over-approximation), as a cube.
fn closure(cl: &Cluster) -> Option<Cube> {
    let p0 = &cl.points[0].0;
    let dims = p0.len();
    // the free directions: the reduced row echelon form of the differences to p0
    let rows: Vec<Vec<BigRational>> = cl.points[1..]
        .iter()
        .map(|(p, _)| {
            p.iter()
                .zip(p0)
                .map(|(a, b)| BigRational::from_integer(a - b))
                .collect()
        })
        .collect();
    let (basis, pivots) = rref(rows, dims);
    let n = basis.len();
    if n == 0 || n > MAX_PARAMS {
        return None;
    }
    // k_j = p0_j + sum_r t_r basis_r[j]; t_r = k_{pivot r} - p0_{pivot r}
    let mut out: Vec<Row> = vec![];
    for (j, f) in cl.forms.iter().flatten().enumerate() {
        let (eq, lin) = f;
        let denoms = basis
            .iter()
            .fold(BigInt::one(), |acc, b| acc.lcm(b[j].denom()));
        let mut x = lin.scale(&denoms);
        x.k = &denoms * &p0[j];
        let t = basis
            .iter()
            .map(|b| (&b[j] * BigRational::from_integer(denoms.clone())).to_integer())
            .collect();
        out.push(Row {
            x,
            t,
            kind: if *eq { Kind::Eq } else { Kind::Le },
        });
    }
    for (r, &c) in pivots.iter().enumerate() {
        let offs: Vec<BigInt> = cl.points.iter().map(|(p, _)| &p[c] - &p0[c]).collect();
        let lo = offs.iter().min()?.clone();
        let hi = offs.iter().max()?.clone();
        let unit = |s: i32| -> Vec<BigInt> {
            (0..n)
                .map(|i| {
                    if i == r {
                        BigInt::from(s)
                    } else {
                        BigInt::zero()
                    }
                })
                .collect()
        };
        // lo <= t_r: -t_r + lo <= 0; t_r <= hi: t_r - hi <= 0
        out.push(Row {
            x: Lin::constant(lo),
            t: unit(-1),
            kind: Kind::Le,
        });
        out.push(Row {
            x: Lin::constant(-hi),
            t: unit(1),
            kind: Kind::Le,
        });
        let g = offs.iter().fold(BigInt::zero(), |acc, o| acc.gcd(o));
        if g > BigInt::one() {
            out.push(Row {
                x: Lin::zero(),
                t: unit(1),
                kind: Kind::Mod(g),
            });
        }
    }
    for r in 0..n {
        out = eliminate(out, r)?;
    }
    let mut lits: Vec<Term> = cl.fixed.clone();
    for row in out {
        let l = match row.kind {
            Kind::Le => mk_le_lin(row.x),
            Kind::Eq => mk_eqz_lin(row.x),
            Kind::Mod(m) => mk_eq(mk_mod(mk_lin(row.x), m), mk_int(0)),
        };
        if l.as_bool() == Some(false) {
            return None;
        }
        if l.as_bool() != Some(true) && !lits.contains(&l) {
            lits.push(l);
        }
    }
    if lits.is_empty() {
        return None;
    }
    Some(cube_of(lits))
}

/// Rows without parameter `r`: exact substitution by an equality with a unit coefficient
/// (or by any equality, with the divisibility it implies), else the real shadow.
fn eliminate(rows: Vec<Row>, r: usize) -> Option<Vec<Row>> {
    let (with, mut out): (Vec<Row>, Vec<Row>) = rows.into_iter().partition(|w| !w.t[r].is_zero());
    // an equality: `c t + A = 0` (also as two opposite inequalities)
    let def = with
        .iter()
        .position(|w| w.kind == Kind::Eq)
        .map(|i| with[i].clone())
        .or_else(|| {
            with.iter().find_map(|a| {
                let neg = a.scale(&BigInt::from(-1));
                let opposite = a.kind == Kind::Le
                    && with
                        .iter()
                        .any(|b| b.kind == Kind::Le && b.x == neg.x && b.t == neg.t);
                opposite.then(|| Row {
                    kind: Kind::Eq,
                    ..a.clone()
                })
            })
        });
    if let Some(d) = def {
        let c = d.t[r].clone();
        let abs = c.abs();
        let sign = BigInt::from(if c.is_positive() { 1 } else { -1 });
        // c t = -A: for d' t + B (op), |c| (d' t + B) = |c| B - d' sign(c) A
        let a = Row {
            t: {
                let mut t = d.t.clone();
                t[r] = BigInt::zero();
                t
            },
            ..d.clone()
        };
        for w in &with {
            let dw = w.t[r].clone();
            let mut rest = w.clone();
            rest.t[r] = BigInt::zero();
            let mut nw = rest.scale(&abs).add(&a.scale(&(-&dw * &sign)));
            nw.kind = match &w.kind {
                Kind::Mod(m) => Kind::Mod(m * &abs),
                k => k.clone(),
            };
            if !(w.kind == Kind::Eq && w.x == d.x && w.t == d.t) {
                out.push(nw);
            }
        }
        if !abs.is_one() {
            out.push(Row {
                kind: Kind::Mod(abs),
                ..a
            });
        }
    } else {
        let (lower, upper): (Vec<&Row>, Vec<&Row>) = with
            .iter()
            .filter(|w| w.kind == Kind::Le)
            .partition(|w| w.t[r].is_negative());
        if lower.len() * upper.len() + out.len() > MAX_CONSTRAINTS {
            return None;
        }
        for l in &lower {
            for u in &upper {
                // c_L t + A <= 0 (c_L < 0), c_U t + B <= 0 (c_U > 0)
                let nl = l.scale(&u.t[r]).add(&u.scale(&-&l.t[r]));
                out.push(nl);
            }
        }
        // congruences on t are dropped: an over-approximation
    }
    Some(out)
}

/// The reduced row echelon form of `rows` (over the rationals, `dims` columns): the
/// non-zero rows and their pivot columns.
fn rref(mut rows: Vec<Vec<BigRational>>, dims: usize) -> (Vec<Vec<BigRational>>, Vec<usize>) {
    let mut pivots = vec![];
    let mut r = 0;
    for c in 0..dims {
        let Some(p) = (r..rows.len()).find(|&i| !rows[i][c].is_zero()) else {
            continue;
        };
        rows.swap(r, p);
        let inv = rows[r][c].recip();
        for x in rows[r].iter_mut() {
            *x = &*x * &inv;
        }
        for i in 0..rows.len() {
            if i != r && !rows[i][c].is_zero() {
                let f = rows[i][c].clone();
                let pr = rows[r].clone();
                for (x, y) in rows[i].iter_mut().zip(&pr) {
                    *x = &*x - &f * y;
                }
            }
        }
        pivots.push(c);
        r += 1;
    }
    rows.truncate(r);
    (rows, pivots)
}

#[cfg(test)]
#[path = "global_tests.rs"]
mod tests;
