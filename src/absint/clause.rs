//! The linear part of a clause over numbered columns, as the abstract domains read it.
//!
//! Columns are the parameters of each body application (one block per application, in
//! order), then the head's parameters, then the clause's integer variables. Argument terms
//! become equalities `param - arg = 0`; of the constraint only the top-level conjuncts that
//! are linear over integer variables are kept (`lin = 0`, `lin <= 0`, `not (lin <= 0)`), and
//! `(mod v m) = r` as a congruence. Everything else (disjunctions, `ite`, `div`, Booleans) is
//! dropped, which only weakens the constraint: every transformer built on it
//! over-approximates the clause.

use crate::chc::{ChcSystem, Clause, PredId};
use crate::logic::*;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use rustc_hash::FxHashMap;

/// `sum c_i * col_i + k`, read as `= 0` or `<= 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub coefs: Vec<(usize, BigInt)>,
    pub k: BigInt,
}

/// A predicate application's block of columns.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    pub pred: PredId,
    /// Its first column.
    pub first: usize,
    pub arity: usize,
}

/// A clause over numbered columns (module doc).
#[derive(Clone, Debug)]
pub struct LinClause {
    pub columns: usize,
    pub body: Vec<Block>,
    /// `None` for a query.
    pub head: Option<Block>,
    pub eqs: Vec<Row>,
    pub les: Vec<Row>,
    /// `col = r mod m`, `0 <= r < m`, `m >= 2`.
    pub congs: Vec<(usize, BigInt, BigInt)>,
}

impl LinClause {
    /// Reads clause `c` of `sys`.
    pub fn new(sys: &ChcSystem, c: &Clause) -> LinClause {
        let mut columns = 0;
        let mut block = |pred: PredId| {
            let arity = sys.pred(pred).sorts.len();
            let b = Block {
                pred,
                first: columns,
                arity,
            };
            columns += arity;
            b
        };
        let body: Vec<Block> = c.body.iter().map(|a| block(a.pred)).collect();
        let head = c.head.as_ref().map(|a| block(a.pred));
        let mut vars: FxHashMap<Var, usize> = FxHashMap::default();
        for v in c.vars() {
            if v.sort == Sort::Int && !vars.contains_key(&v) {
                vars.insert(v, columns);
                columns += 1;
            }
        }
        let mut lc = LinClause {
            columns,
            body,
            head,
            eqs: vec![],
            les: vec![],
            congs: vec![],
        };
        let apps = (c.body.iter().zip(lc.body.clone())).chain(c.head.iter().zip(lc.head));
        for (app, b) in apps {
            for (i, arg) in app.args.iter().enumerate() {
                if arg.sort() != Sort::Int {
                    continue;
                }
                if let Some(mut row) = row_of(&Lin::of(arg), &vars) {
                    // param - arg = 0
                    row.coefs.iter_mut().for_each(|(_, c)| *c = -&*c);
                    row.k = -row.k;
                    row.coefs.push((b.first + i, BigInt::one()));
                    lc.eqs.push(row);
                }
            }
        }
        for t in conjuncts(&c.constraint) {
            lc.read_conjunct(&t, &vars);
        }
        lc
    }

    fn read_conjunct(&mut self, t: &Term, vars: &FxHashMap<Var, usize>) {
        match t.get() {
            TermNode::EqZ(l) => {
                if let Some(r) = row_of(l, vars) {
                    self.eqs.push(r)
                } else if let Some(c) = congruence_of(l, vars) {
                    self.congs.push(c)
                }
            }
            TermNode::Le(l) => self.les.extend(row_of(l, vars)),
            TermNode::Not(u) => {
                if let TermNode::Le(l) = u.get() {
                    // not (l <= 0) is 1 - l <= 0 over the integers
                    let neg = Lin::constant(BigInt::one()).sub(l);
                    self.les.extend(row_of(&neg, vars))
                }
            }
            _ => {}
        }
    }
}

/// `l` as a row when every atom is an integer variable of the clause.
fn row_of(l: &Lin, vars: &FxHashMap<Var, usize>) -> Option<Row> {
    let coefs = l
        .terms
        .iter()
        .map(|(t, c)| Some((*vars.get(t.as_var()?)?, c.clone())))
        .collect::<Option<Vec<_>>>()?;
    Some(Row {
        coefs,
        k: l.k.clone(),
    })
}

/// `c * (mod v m) + k = 0` as `v = r mod |m|`, when `r = -k / c` is a remainder of `m`.
fn congruence_of(l: &Lin, vars: &FxHashMap<Var, usize>) -> Option<(usize, BigInt, BigInt)> {
    let [(atom, c)] = l.terms.as_slice() else {
        return None;
    };
    let TermNode::Mod(v, m) = atom.get() else {
        return None;
    };
    let col = *vars.get(v.as_var()?)?;
    let (r, rest) = (-&l.k).div_rem(c);
    let m = m.abs();
    (rest.is_zero() && !r.is_negative() && r < m && m > BigInt::one()).then_some((col, r, m))
}
