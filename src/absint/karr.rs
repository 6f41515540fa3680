//! Affine equalities between a predicate's arguments: Karr, *Affine relationships among
//! variables of a program* (Acta Informatica 6, 1976), exact over the rationals.
//!
//! An affine subspace of `Q^dim` is kept as equalities `sum a_i x_i + a_dim = 0` in reduced
//! row echelon form (a canonical form, so two values are equal exactly when their rows
//! are). The transformer of a clause conjoins the body values with the clause's linear
//! equalities and projects onto the head by Gauss-Jordan elimination ([`transfer`]); the
//! join is the affine hull of the union, computed from generators: a point and the
//! directions of each side, plus the difference of the two points ([`Affine::join`]).
//! Subspaces only shrink in dimension along an ascending chain, so no widening is needed.
//!
//! The same algorithm runs over any field ([`Field`]): over the integers modulo a prime `p`
//! it finds affine congruences `sum a_i x_i + a_dim = 0 mod p`, sound for the integer
//! program because every integer equality of a clause holds modulo `p` too.

use super::clause::{LinClause, Row};
use super::field::{Field, Fp};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational as Q;
use num_traits::One;

/// Rows of `dim + 1` entries: coefficients, then the constant.
type Mat<F> = Vec<Vec<F>>;

/// An affine subspace of `F^dim`, or the empty set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affine<F = Q> {
    pub dim: usize,
    /// `None`: empty. Otherwise the equalities in reduced row echelon form.
    rows: Option<Mat<F>>,
}

impl<F: Field> Affine<F> {
    pub fn bottom(dim: usize) -> Affine<F> {
        Affine { dim, rows: None }
    }

    pub fn top(dim: usize) -> Affine<F> {
        Affine {
            dim,
            rows: Some(vec![]),
        }
    }

    pub fn is_bottom(&self) -> bool {
        self.rows.is_none()
    }

    /// The subspace of the integer rows `sum c_i x_i + k = 0`.
    pub fn of_rows(dim: usize, rows: &[Row]) -> Affine<F> {
        let mut m: Mat<F> = rows
            .iter()
            .map(|r| {
                let mut v = vec![F::zero(); dim + 1];
                for (i, c) in &r.coefs {
                    v[*i] = v[*i].add(&F::of_int(c));
                }
                v[dim] = F::of_int(&r.k);
                v
            })
            .collect();
        let ok = rref(&mut m, dim);
        Affine {
            dim,
            rows: ok.then_some(m),
        }
    }

    /// The affine hull of the union.
    pub fn join(&self, other: &Affine<F>) -> Affine<F> {
        let (Some(a), Some(b)) = (&self.rows, &other.rows) else {
            return if self.is_bottom() { other } else { self }.clone();
        };
        let (p, mut dirs) = generators(a, self.dim);
        let (q, more) = generators(b, self.dim);
        dirs.extend(more);
        dirs.push(q.iter().zip(&p).map(|(x, y)| x.sub(y)).collect());
        Affine {
            dim: self.dim,
            rows: Some(constraints(&p, dirs, self.dim)),
        }
    }
}

impl Affine<Q> {
    /// The equalities with integer coefficients (each row scaled by the lcm of its
    /// denominators).
    pub fn equalities(&self) -> Vec<Row> {
        let Some(rows) = &self.rows else {
            return vec![];
        };
        rows.iter()
            .map(|r| {
                let l = r.iter().fold(BigInt::one(), |l, x| l.lcm(x.denom()));
                let int = |x: &Q| (x * Q::from_integer(l.clone())).to_integer();
                Row {
                    coefs: (0..self.dim)
                        .filter(|&i| !Field::is_zero(&r[i]))
                        .map(|i| (i, int(&r[i])))
                        .collect(),
                    k: int(&r[self.dim]),
                }
            })
            .collect()
    }
}

impl<const P: u64> Affine<Fp<P>> {
    /// The congruences `sum c_i x_i + k = 0 mod P`, coefficients in `1..P`, `k` in `0..P`.
    pub fn congruences(&self) -> Vec<Row> {
        let Some(rows) = &self.rows else {
            return vec![];
        };
        rows.iter()
            .map(|r| Row {
                coefs: (0..self.dim)
                    .filter(|&i| !r[i].is_zero())
                    .map(|i| (i, BigInt::from(r[i].value())))
                    .collect(),
                k: BigInt::from(r[self.dim].value()),
            })
            .collect()
    }
}

/// The image of the body values under clause `c`, on its head's arguments: the body values
/// on their blocks of columns and the clause's equalities, every column but the head's
/// eliminated.
pub fn transfer<F: Field>(c: &LinClause, bodies: &[&Affine<F>]) -> Affine<F> {
    let head = c.head.expect("a clause with a head");
    let n = c.columns;
    if bodies.iter().any(|b| b.is_bottom()) {
        return Affine::bottom(head.arity);
    }
    // the head's columns go last, so that echelon rows with a pivot there mention nothing else
    let keep = head.first..head.first + head.arity;
    let pos = |col: usize| {
        if keep.contains(&col) {
            n - head.arity + (col - head.first)
        } else if col < head.first {
            col
        } else {
            col - head.arity
        }
    };
    let mut m: Mat<F> = vec![];
    for (b, v) in c.body.iter().zip(bodies) {
        for r in v.rows.iter().flatten() {
            let mut row = vec![F::zero(); n + 1];
            for (i, x) in r[..b.arity].iter().enumerate() {
                row[pos(b.first + i)] = x.clone();
            }
            row[n] = r[b.arity].clone();
            m.push(row);
        }
    }
    for e in &c.eqs {
        let mut row = vec![F::zero(); n + 1];
        for (col, x) in &e.coefs {
            row[pos(*col)] = row[pos(*col)].add(&F::of_int(x));
        }
        row[n] = F::of_int(&e.k);
        m.push(row);
    }
    // `col = r mod m` is `col - r = 0` in a field where `m` is zero (the integers modulo a
    // prime dividing `m`); elsewhere it says nothing
    for (col, r, md) in &c.congs {
        if F::of_int(md).is_zero() {
            let mut row = vec![F::zero(); n + 1];
            row[pos(*col)] = F::one();
            row[n] = F::of_int(r).neg();
            m.push(row);
        }
    }
    if !rref(&mut m, n) {
        return Affine::bottom(head.arity);
    }
    let first = n - head.arity;
    let rows = m
        .into_iter()
        .filter(|r| r[..first].iter().all(|x| x.is_zero()))
        .map(|r| r[first..].to_vec())
        .collect();
    Affine {
        dim: head.arity,
        rows: Some(rows),
    }
}

/// Gauss-Jordan elimination on the first `n` columns: rows in reduced row echelon form,
/// zero rows dropped. False when the rows are inconsistent (a row `0 = c`, `c != 0`).
pub(super) fn rref<F: Field>(m: &mut Mat<F>, n: usize) -> bool {
    let mut r = 0;
    for col in 0..n {
        let Some(p) = (r..m.len()).find(|&i| !m[i][col].is_zero()) else {
            continue;
        };
        m.swap(r, p);
        let inv = m[r][col].recip();
        m[r].iter_mut()
            .filter(|x| !x.is_zero())
            .for_each(|x| *x = x.mul(&inv));
        let pivot = m[r].clone();
        // only the pivot row's nonzero columns change: the rows are mostly zeros, and every
        // product of exact rationals costs a gcd
        let nonzero: Vec<usize> = (0..pivot.len()).filter(|&j| !pivot[j].is_zero()).collect();
        for (i, row) in m.iter_mut().enumerate() {
            if i != r && !row[col].is_zero() {
                let f = row[col].clone();
                for &j in &nonzero {
                    row[j] = row[j].sub(&pivot[j].mul(&f));
                }
            }
        }
        r += 1;
        if r == m.len() {
            break;
        }
    }
    let ok = m[r..].iter().all(|row| row[n].is_zero());
    m.truncate(r);
    ok
}

/// A point of the subspace of rows `m` (in reduced row echelon form) and a basis of its
/// directions: the free columns set to 0, then each free column set to 1 in turn.
fn generators<F: Field>(m: &Mat<F>, dim: usize) -> (Vec<F>, Vec<Vec<F>>) {
    let pivots: Vec<usize> = m
        .iter()
        .map(|r| r.iter().position(|x| !x.is_zero()).expect("no zero rows"))
        .collect();
    let mut point = vec![F::zero(); dim];
    for (r, &p) in m.iter().zip(&pivots) {
        point[p] = r[dim].neg();
    }
    let dirs = (0..dim)
        .filter(|c| !pivots.contains(c))
        .map(|f| {
            let mut v = vec![F::zero(); dim];
            v[f] = F::one();
            for (r, &p) in m.iter().zip(&pivots) {
                v[p] = r[f].neg();
            }
            v
        })
        .collect();
    (point, dirs)
}

/// The equalities of the subspace `point + span(dirs)`: every `a` orthogonal to the
/// directions, with the constant `-a . point`.
fn constraints<F: Field>(point: &[F], dirs: Vec<Vec<F>>, dim: usize) -> Mat<F> {
    let mut m: Mat<F> = dirs
        .into_iter()
        .map(|mut v| {
            v.push(F::zero());
            v
        })
        .collect();
    rref(&mut m, dim);
    let (_, normals) = generators(&m, dim);
    let mut out: Mat<F> = normals
        .into_iter()
        .map(|mut a| {
            let k = a
                .iter()
                .zip(point)
                .fold(F::zero(), |k, (x, y)| k.add(&x.mul(y)));
            a.push(k.neg());
            a
        })
        .collect();
    rref(&mut out, dim);
    out
}
