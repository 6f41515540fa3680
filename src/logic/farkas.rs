//! Farkas certificates: why a conjunction of linear constraints has no rational solution.
//!
//! A system of rows `lin_j <= 0` and `lin_j = 0` (each `lin_j = sum c_ji x_i + k_j`, integer
//! coefficients) has no solution over the rationals exactly when some combination
//! `sum lambda_j lin_j`, with `lambda_j >= 0` for the inequalities and any sign for the
//! equalities, has every variable coefficient zero and a positive constant: the combination
//! then reads `k <= 0` with `k > 0` (Farkas' lemma). [`certificate`] finds such `lambda`,
//! normalized to constant 1, by phase 1 of the simplex method over exact rationals with
//! Bland's rule (so it terminates), after a presolve that drops every row with a variable
//! no other row mentions (its `lambda` must be 0). Its answer is checked by exact arithmetic
//! before it is returned; `None` means the system has a rational solution, or it was larger
//! than the caller's limit.
//!
//! The interpolation backend [`crate::interp`]'s `farkas` builds interpolants from these
//! certificates: the part of the combination that comes from `A` is implied by `A` and
//! contradicts `B`.

use super::real::Rat;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use rustc_hash::FxHashMap;

/// One constraint `sum coefs + k <= 0` (or `= 0` when `eq`), over variable indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub coefs: Vec<(usize, BigInt)>,
    pub k: BigInt,
    pub eq: bool,
}

/// `lambda` per row (zero for rows not used; non-negative for inequalities) whose
/// combination has no variable and the constant 1; `None` when the rows have a rational
/// solution or the tableau would exceed `max_cells` entries.
pub fn certificate(rows: &[Row], max_cells: usize) -> Option<Vec<Rat>> {
    let live = presolve(rows);
    // the variables the live rows mention, numbered densely
    let mut col_of: FxHashMap<usize, usize> = FxHashMap::default();
    for &j in &live {
        for (x, _) in &rows[j].coefs {
            let n = col_of.len();
            col_of.entry(*x).or_insert(n);
        }
    }
    // LP columns: lambda_j (and -lambda_j for an equality), then one artificial per
    // equation. Equations: one per variable (combination coefficient 0), and the constant.
    let mut cols: Vec<(usize, bool)> = vec![]; // (row, negated)
    for &j in &live {
        cols.push((j, false));
        if rows[j].eq {
            cols.push((j, true));
        }
    }
    let neq = col_of.len() + 1;
    let ncols = cols.len() + neq;
    if neq * (ncols + 1) > max_cells {
        log::debug!("farkas: {neq} x {ncols} tableau over the limit");
        return None;
    }
    let mut t: Vec<Vec<Rat>> = vec![vec![Rat::zero(); ncols + 1]; neq];
    for (c, &(j, neg)) in cols.iter().enumerate() {
        let sign = if neg { -BigInt::one() } else { BigInt::one() };
        for (x, a) in &rows[j].coefs {
            t[col_of[x]][c] += Rat::from_integer(a * &sign);
        }
        t[neq - 1][c] = Rat::from_integer(&rows[j].k * &sign);
    }
    for (i, row) in t.iter_mut().enumerate() {
        row[cols.len() + i] = Rat::one();
    }
    t[neq - 1][ncols] = Rat::one();
    let mut basis: Vec<usize> = (cols.len()..ncols).collect();
    // reduced costs of phase 1 (minimize the sum of the artificials), and minus its value
    let mut z: Vec<Rat> = vec![Rat::zero(); ncols + 1];
    for row in &t {
        for (c, v) in row.iter().enumerate() {
            if c < cols.len() || c == ncols {
                z[c] -= v;
            }
        }
    }
    // Bland: the lowest column with a negative reduced cost enters
    while let Some(e) = (0..ncols).find(|&c| z[c].is_negative()) {
        // ratio test, ties to the lowest basic column
        let mut leave: Option<(usize, Rat)> = None;
        for (i, row) in t.iter().enumerate() {
            if row[e].is_positive() {
                let r = &row[ncols] / &row[e];
                let better = match &leave {
                    None => true,
                    Some((l, best)) => r < *best || (r == *best && basis[i] < basis[*l]),
                };
                if better {
                    leave = Some((i, r));
                }
            }
        }
        let Some((l, _)) = leave else {
            // unbounded below cannot happen: the objective is a sum of non-negatives
            return None;
        };
        pivot(&mut t, &mut z, l, e);
        basis[l] = e;
    }
    if !z[ncols].is_zero() {
        return None; // the artificials cannot all be zero: the rows are satisfiable
    }
    let mut lambda = vec![Rat::zero(); rows.len()];
    for (i, &b) in basis.iter().enumerate() {
        if b < cols.len() {
            let (j, neg) = cols[b];
            let v = &t[i][ncols];
            if neg {
                lambda[j] -= v;
            } else {
                lambda[j] += v;
            }
        }
    }
    check(rows, &lambda).then_some(lambda)
}

/// The rows worth keeping: repeatedly drops a row with a variable that no other kept row
/// mentions (a combination with coefficient 0 on that variable cannot use the row).
fn presolve(rows: &[Row]) -> Vec<usize> {
    let mut alive = vec![true; rows.len()];
    let mut count: FxHashMap<usize, usize> = FxHashMap::default();
    for r in rows {
        for (x, _) in &r.coefs {
            *count.entry(*x).or_default() += 1;
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for (j, r) in rows.iter().enumerate() {
            if alive[j] && r.coefs.iter().any(|(x, _)| count[x] == 1) {
                alive[j] = false;
                changed = true;
                for (x, _) in &r.coefs {
                    *count.get_mut(x).unwrap() -= 1;
                }
            }
        }
    }
    (0..rows.len()).filter(|&j| alive[j]).collect()
}

fn pivot(t: &mut [Vec<Rat>], z: &mut [Rat], l: usize, e: usize) {
    let p = t[l][e].clone();
    for v in t[l].iter_mut() {
        *v /= &p;
    }
    let prow = t[l].clone();
    let sub = |row: &mut [Rat]| {
        let f = row[e].clone();
        if !f.is_zero() {
            for (v, pv) in row.iter_mut().zip(&prow) {
                if !pv.is_zero() {
                    *v -= &f * pv;
                }
            }
        }
    };
    for (i, row) in t.iter_mut().enumerate() {
        if i != l {
            sub(row);
        }
    }
    sub(z);
}

/// `lambda` is a certificate for `rows`: signs right, every variable cancels, constant 1.
pub fn check(rows: &[Row], lambda: &[Rat]) -> bool {
    if lambda.len() != rows.len() {
        return false;
    }
    let mut sum: FxHashMap<usize, Rat> = FxHashMap::default();
    let mut k = Rat::zero();
    for (r, l) in rows.iter().zip(lambda) {
        if l.is_zero() {
            continue;
        }
        if !r.eq && l.is_negative() {
            return false;
        }
        for (x, a) in &r.coefs {
            *sum.entry(*x).or_insert_with(Rat::zero) += l * Rat::from_integer(a.clone());
        }
        k += l * Rat::from_integer(r.k.clone());
    }
    k.is_one() && sum.values().all(|v| v.is_zero())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(coefs: &[(usize, i64)], k: i64, eq: bool) -> Row {
        Row {
            coefs: coefs.iter().map(|&(x, c)| (x, BigInt::from(c))).collect(),
            k: BigInt::from(k),
            eq,
        }
    }

    #[test]
    fn two_bounds_that_cross() {
        // x - 5 <= 0, 6 - x <= 0
        let rows = [row(&[(0, 1)], -5, false), row(&[(0, -1)], 6, false)];
        let l = certificate(&rows, 10_000).expect("infeasible");
        assert!(check(&rows, &l));
    }

    #[test]
    fn a_chain_through_an_equality() {
        // x = y + 1, y >= 3, x <= 3, and an unrelated row with a lone variable
        let rows = [
            row(&[(0, 1), (1, -1)], -1, true),
            row(&[(1, -1)], 3, false),
            row(&[(0, 1)], -3, false),
            row(&[(2, 1), (1, 1)], 0, false),
        ];
        let l = certificate(&rows, 10_000).expect("infeasible");
        assert!(check(&rows, &l));
        assert!(l[3].is_zero(), "the row with a lone variable is not used");
    }

    #[test]
    fn satisfiable_rows_have_no_certificate() {
        // x + y <= 4, x >= 1, y >= 1, x = y (x = y = 1 fits)
        let rows = [
            row(&[(0, 1), (1, 1)], -4, false),
            row(&[(0, -1)], 1, false),
            row(&[(1, -1)], 1, false),
            row(&[(0, 1), (1, -1)], 0, true),
        ];
        assert_eq!(certificate(&rows, 10_000), None);
        // 2x = 1 has a rational solution (no integer one): still none
        assert_eq!(certificate(&[row(&[(0, 2)], -1, true)], 10_000), None);
    }

    /// Random systems: every certificate checks, and a system with a known rational point
    /// (built around it) never gets one.
    #[test]
    fn random_systems() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m) as i64
        };
        let (mut some, mut none) = (0, 0);
        for _ in 0..400 {
            let nv = 1 + next(4) as usize;
            let point: Vec<i64> = (0..nv).map(|_| next(11) - 5).collect();
            let nr = 1 + next(6) as usize;
            let mut rows = vec![];
            let mut fits = true;
            for _ in 0..nr {
                let coefs: Vec<(usize, i64)> = (0..nv)
                    .map(|x| (x, next(7) - 3))
                    .filter(|(_, c)| *c != 0)
                    .collect();
                let at: i64 = coefs.iter().map(|&(x, c)| c * point[x]).sum();
                let eq = next(4) == 0;
                // slack >= 0 keeps the point (= 0 for an equality); a negative one may cut it off
                let slack = next(5) - 1;
                if slack < 0 || (eq && slack != 0) {
                    fits = false;
                }
                // at the point the row reads -slack <= 0 (or = 0)
                rows.push(row(&coefs, -at - slack, eq));
            }
            match certificate(&rows, 100_000) {
                Some(l) => {
                    assert!(check(&rows, &l), "{rows:?}");
                    assert!(
                        !fits,
                        "a certificate for rows the point {point:?} fits: {rows:?}"
                    );
                    some += 1;
                }
                None => none += 1,
            }
        }
        assert!(some > 20 && none > 20, "some {some}, none {none}");
    }
}
