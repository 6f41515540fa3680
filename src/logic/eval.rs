//! Exact evaluation of terms under an assignment, with SMT-LIB `div`/`mod` semantics.

use super::term::{Term, TermNode, Var};
use super::Value;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, Zero};
use rustc_hash::FxHashMap;

/// Values of variables.
pub type Assignment = FxHashMap<Var, Value>;

/// SMT-LIB `mod`: the remainder `r` with `a = d*q + r` and `0 <= r < |d|`.
pub fn smt_mod(a: &BigInt, d: &BigInt) -> BigInt {
    a.mod_floor(&d.abs())
}

/// SMT-LIB `div`: the quotient `q` with `a = d*q + r` and `0 <= r < |d|`.
pub fn smt_div(a: &BigInt, d: &BigInt) -> BigInt {
    (a - smt_mod(a, d)) / d
}

/// Evaluates `t`; an unassigned variable is an error naming it.
pub fn eval(t: &Term, a: &Assignment) -> Result<Value, String> {
    let mut memo: FxHashMap<u64, Value> = FxHashMap::default();
    eval_memo(t, a, &mut memo)
}

pub fn eval_bool(t: &Term, a: &Assignment) -> Result<bool, String> {
    match eval(t, a)? {
        Value::Bool(b) => Ok(b),
        v => Err(format!("expected a Boolean, got {v}")),
    }
}

pub fn eval_int(t: &Term, a: &Assignment) -> Result<BigInt, String> {
    match eval(t, a)? {
        Value::Int(n) => Ok(n),
        v => Err(format!("expected an integer, got {v}")),
    }
}

fn eval_memo(t: &Term, a: &Assignment, memo: &mut FxHashMap<u64, Value>) -> Result<Value, String> {
    if let Some(v) = memo.get(&t.uid()) {
        return Ok(v.clone());
    }
    let int = |t: &Term, memo: &mut FxHashMap<u64, Value>| -> Result<BigInt, String> {
        match eval_memo(t, a, memo)? {
            Value::Int(n) => Ok(n),
            Value::Bool(_) => Err(format!("ill-sorted term {t:?}")),
        }
    };
    let boolean = |t: &Term, memo: &mut FxHashMap<u64, Value>| -> Result<bool, String> {
        match eval_memo(t, a, memo)? {
            Value::Bool(b) => Ok(b),
            Value::Int(_) => Err(format!("ill-sorted term {t:?}")),
        }
    };
    let lin = |l: &super::Lin, memo: &mut FxHashMap<u64, Value>| -> Result<BigInt, String> {
        let mut acc = l.k.clone();
        for (s, c) in &l.terms {
            acc += c * int(s, memo)?;
        }
        Ok(acc)
    };
    let v = match t.get() {
        TermNode::Var(v) => match a.get(v) {
            Some(val) if val.sort() == v.sort => val.clone(),
            Some(val) => return Err(format!("value {val} has the wrong sort for {}", v.name)),
            None => return Err(format!("no value for variable {}", v.name)),
        },
        TermNode::Bool(b) => Value::Bool(*b),
        TermNode::Int(n) => Value::Int(n.clone()),
        TermNode::Not(s) => Value::Bool(!boolean(s, memo)?),
        TermNode::And(ts) => {
            let mut r = true;
            for s in ts {
                if !boolean(s, memo)? {
                    r = false;
                    break;
                }
            }
            Value::Bool(r)
        }
        TermNode::Or(ts) => {
            let mut r = false;
            for s in ts {
                if boolean(s, memo)? {
                    r = true;
                    break;
                }
            }
            Value::Bool(r)
        }
        TermNode::Ite(c, x, y) => {
            if boolean(c, memo)? {
                eval_memo(x, a, memo)?
            } else {
                eval_memo(y, a, memo)?
            }
        }
        TermNode::Iff(x, y) => Value::Bool(boolean(x, memo)? == boolean(y, memo)?),
        TermNode::Lin(l) => Value::Int(lin(l, memo)?),
        TermNode::Le(l) => Value::Bool(!lin(l, memo)?.is_positive()),
        TermNode::EqZ(l) => Value::Bool(lin(l, memo)?.is_zero()),
        TermNode::Div(s, d) => Value::Int(smt_div(&int(s, memo)?, d)),
        TermNode::Mod(s, d) => Value::Int(smt_mod(&int(s, memo)?, d)),
        TermNode::Exists(..) => return Err("cannot evaluate a quantifier".into()),
    };
    memo.insert(t.uid(), v.clone());
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div_mod_follow_smtlib() {
        // a = d*q + r with 0 <= r < |d|
        for a in -9i64..=9 {
            for d in [-4i64, -3, -1, 1, 2, 3, 5] {
                let (a, d) = (BigInt::from(a), BigInt::from(d));
                let q = smt_div(&a, &d);
                let r = smt_mod(&a, &d);
                assert_eq!(&d * &q + &r, a);
                assert!(!r.is_negative() && r < d.abs());
            }
        }
    }
}
