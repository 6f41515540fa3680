//! Exact evaluation of terms under an assignment, with SMT-LIB `div`/`mod` semantics.

use super::real::{RLin, Rat};
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
    if let Some(v) = eval_shallow(t, a, 2) {
        return v;
    }
    let mut memo: FxHashMap<u64, Value> = FxHashMap::default();
    eval_memo(t, a, &mut memo)
}

/// Evaluates shallow terms without a memo table (the common case of long counterexamples:
/// literals over variables, and conjunctions of them): `None` when `t` is deeper than
/// `depth` connectives above linear atoms over variables.
fn eval_shallow(t: &Term, a: &Assignment, depth: usize) -> Option<Result<Value, String>> {
    let var = |v: &Var| -> Result<Value, String> {
        match a.get(v) {
            Some(val) if val.sort() == v.sort => Ok(val.clone()),
            Some(val) => Err(format!("value {val} has the wrong sort for {}", v.name)),
            None => Err(format!("no value for variable {}", v.name)),
        }
    };
    let lin = |l: &super::Lin| -> Option<Result<BigInt, String>> {
        let mut acc = l.k.clone();
        for (s, c) in &l.terms {
            let TermNode::Var(v) = s.get() else {
                return None;
            };
            match var(v) {
                Ok(Value::Int(n)) => acc += c * n,
                Ok(_) => return Some(Err(format!("ill-sorted term {s:?}"))),
                Err(e) => return Some(Err(e)),
            }
        }
        Some(Ok(acc))
    };
    let sub = |s: &Term| -> Option<Result<bool, String>> {
        if depth == 0 {
            return None;
        }
        Some(match eval_shallow(s, a, depth - 1)? {
            Ok(Value::Bool(b)) => Ok(b),
            Ok(_) => Err(format!("ill-sorted term {s:?}")),
            Err(e) => Err(e),
        })
    };
    Some(match t.get() {
        TermNode::Var(v) => var(v),
        TermNode::Bool(b) => Ok(Value::Bool(*b)),
        TermNode::Int(n) => Ok(Value::Int(n.clone())),
        TermNode::Lin(l) => lin(l)?.map(Value::Int),
        TermNode::Le(l) => lin(l)?.map(|x| Value::Bool(!x.is_positive())),
        TermNode::EqZ(l) => lin(l)?.map(|x| Value::Bool(x.is_zero())),
        TermNode::Not(s) => sub(s)?.map(|b| Value::Bool(!b)),
        TermNode::And(ts) | TermNode::Or(ts) => {
            let and = matches!(t.get(), TermNode::And(_));
            // every child must be shallow (so that errors come out as with the memo)
            let mut vals = vec![];
            for s in ts {
                vals.push(sub(s)?);
            }
            let mut r = and;
            for v in vals {
                match v {
                    Ok(b) if b != and => {
                        r = !and;
                        break;
                    }
                    Ok(_) => {}
                    Err(e) => return Some(Err(e)),
                }
            }
            Ok(Value::Bool(r))
        }
        _ => return None,
    })
}

pub fn eval_bool(t: &Term, a: &Assignment) -> Result<bool, String> {
    match eval(t, a)? {
        Value::Bool(b) => Ok(b),
        v => Err(format!("expected a Boolean, got {v}")),
    }
}

#[allow(dead_code)]
pub fn eval_real(t: &Term, a: &Assignment) -> Result<Rat, String> {
    match eval(t, a)? {
        Value::Real(r) => Ok(r),
        v => Err(format!("expected a real, got {v}")),
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
            _ => Err(format!("ill-sorted term {t:?}")),
        }
    };
    let real = |t: &Term, memo: &mut FxHashMap<u64, Value>| -> Result<Rat, String> {
        match eval_memo(t, a, memo)? {
            Value::Real(r) => Ok(r),
            _ => Err(format!("ill-sorted term {t:?}")),
        }
    };
    let boolean = |t: &Term, memo: &mut FxHashMap<u64, Value>| -> Result<bool, String> {
        match eval_memo(t, a, memo)? {
            Value::Bool(b) => Ok(b),
            _ => Err(format!("ill-sorted term {t:?}")),
        }
    };
    let array = |t: &Term,
                 memo: &mut FxHashMap<u64, Value>|
     -> Result<std::sync::Arc<super::ArrayValue>, String> {
        match eval_memo(t, a, memo)? {
            Value::Array(v) => Ok(v),
            _ => Err(format!("ill-sorted term {t:?}")),
        }
    };
    let lin = |l: &super::Lin, memo: &mut FxHashMap<u64, Value>| -> Result<BigInt, String> {
        let mut acc = l.k.clone();
        for (s, c) in &l.terms {
            acc += c * int(s, memo)?;
        }
        Ok(acc)
    };
    let rlin = |l: &RLin, memo: &mut FxHashMap<u64, Value>| -> Result<Rat, String> {
        let mut acc = l.k.clone();
        for (s, c) in &l.terms {
            acc += c * real(s, memo)?;
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
        TermNode::Real(r) => Value::Real(r.clone()),
        TermNode::RLin(l) => Value::Real(rlin(l, memo)?),
        TermNode::RLe(l) => Value::Bool(!rlin(l, memo)?.is_positive()),
        TermNode::RLt(l) => Value::Bool(rlin(l, memo)?.is_negative()),
        TermNode::REqZ(l) => Value::Bool(rlin(l, memo)?.is_zero()),
        TermNode::ToReal(s) => Value::Real(Rat::from_integer(int(s, memo)?)),
        TermNode::ToInt(s) => Value::Int(real(s, memo)?.floor().to_integer()),
        TermNode::IsInt(s) => Value::Bool(real(s, memo)?.is_integer()),
        TermNode::Select(x, i) => {
            let i = eval_memo(i, a, memo)?;
            array(x, memo)?.get(&i)
        }
        TermNode::Store(x, i, v) => {
            let i = eval_memo(i, a, memo)?;
            let v = eval_memo(v, a, memo)?;
            super::array_value(array(x, memo)?.store(i, v))
        }
        TermNode::ConstArray(s, v) => {
            super::array_value(super::ArrayValue::constant(*s, eval_memo(v, a, memo)?))
        }
        TermNode::ArrEq(x, y) => Value::Bool(array(x, memo)? == array(y, memo)?),
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
