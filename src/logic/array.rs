//! The theory of arrays: interned array sorts, `select`/`store`/constant-array terms with
//! read-over-write simplification, array equality, and array values (a default plus finitely
//! many stored points, which is what SMT solvers print).
//!
//! An array sort is a small id into a process-wide table of `(index, element)` pairs, so that
//! [`Sort`] stays `Copy`. The table only grows, and only by the sorts that input text and
//! solver output name ([`try_array_sort`]): at most [`MAX_ARRAY_SORTS`] of them, past which
//! such a text is an error (a file declares a handful of array sorts; only a long-running
//! process that reads many files with different nestings comes near the bound).

use super::term::{mk_bool, mk_eq, mk_ite, mk_node, mk_true, Term, TermNode};
use super::{Lin, Sort, Value};
use num_traits::Zero;
use std::fmt;
use std::sync::{Arc, LazyLock, Mutex};

/// An interned array sort: `(Array index element)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArrSort(u32);

/// The table of array sorts (an interner, not configuration).
static ARRAY_SORTS: LazyLock<Mutex<Vec<(Sort, Sort)>>> = LazyLock::new(|| Mutex::new(vec![]));

/// The most array sorts the table holds ([`try_array_sort`]).
pub const MAX_ARRAY_SORTS: usize = 4096;

/// The sort `(Array index elem)`, as the front-end and the reading of solver values ask for
/// it: an error when it would be new and the table already holds [`MAX_ARRAY_SORTS`].
pub fn try_array_sort(index: Sort, elem: Sort) -> Result<Sort, String> {
    intern(index, elem, MAX_ARRAY_SORTS)
}

/// The sort `(Array index elem)`, for code that builds it from sorts the input already
/// named (so that it is in the table, and the bound does not apply).
pub fn array_sort(index: Sort, elem: Sort) -> Sort {
    intern(index, elem, usize::MAX).unwrap_or_else(|e| unreachable!("{e}"))
}

fn intern(index: Sort, elem: Sort, max: usize) -> Result<Sort, String> {
    let mut table = ARRAY_SORTS.lock().unwrap_or_else(|e| e.into_inner());
    let id = match table.iter().position(|&p| p == (index, elem)) {
        Some(i) => i,
        None if table.len() >= max => {
            // printing the sorts reads the table: let it go first
            drop(table);
            return Err(format!(
                "more than {max} array sorts: `(Array {index} {elem})` is one too many"
            ));
        }
        None => {
            table.push((index, elem));
            table.len() - 1
        }
    };
    Ok(Sort::Array(ArrSort(id as u32)))
}

#[cfg(test)]
#[test]
fn the_table_has_a_bound() {
    // a private bound of 0: nothing new goes in, what is in is found
    let ii = array_sort(Sort::Int, Sort::Int);
    assert_eq!(intern(Sort::Int, Sort::Int, 0), Ok(ii));
    let nested = array_sort(Sort::Int, ii);
    let e = intern(nested, nested, 0).unwrap_err();
    assert!(e.contains("more than 0 array sorts"), "{e}");
}

impl ArrSort {
    /// The number of the sort in the table (for names).
    pub fn id(self) -> u32 {
        self.0
    }

    /// The index and the element sort.
    pub fn parts(self) -> (Sort, Sort) {
        ARRAY_SORTS.lock().unwrap_or_else(|e| e.into_inner())[self.0 as usize]
    }
}

impl fmt::Debug for ArrSort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (i, e) = self.parts();
        write!(f, "(Array {i} {e})")
    }
}

impl Sort {
    /// The index and element sorts of an array sort.
    pub fn array_parts(self) -> Option<(Sort, Sort)> {
        match self {
            Sort::Array(a) => Some(a.parts()),
            _ => None,
        }
    }

    pub fn is_array(self) -> bool {
        matches!(self, Sort::Array(_))
    }
}

// ---------------------------------------------------------------- values

/// The value of an array: `default` everywhere except at `points`, sorted by index, none of
/// them storing the default (so that equal arrays have equal values, the index sorts being
/// infinite; a `Bool` index is normalized too).
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct ArrayValue {
    pub sort: Sort,
    pub default: Value,
    pub points: Vec<(Value, Value)>,
}

impl ArrayValue {
    /// The array that is `default` everywhere.
    pub fn constant(sort: Sort, default: Value) -> ArrayValue {
        ArrayValue {
            sort,
            default,
            points: vec![],
        }
    }

    /// The value at `i`.
    pub fn get(&self, i: &Value) -> Value {
        match self.points.binary_search_by(|(k, _)| k.cmp(i)) {
            Ok(p) => self.points[p].1.clone(),
            Err(_) => self.default.clone(),
        }
    }

    /// The array with `v` stored at `i`.
    pub fn store(&self, i: Value, v: Value) -> ArrayValue {
        let mut out = self.clone();
        match out.points.binary_search_by(|(k, _)| k.cmp(&i)) {
            Ok(p) if v == out.default => {
                out.points.remove(p);
            }
            Ok(p) => out.points[p].1 = v,
            Err(_) if v == out.default => {}
            Err(p) => out.points.insert(p, (i, v)),
        }
        out.normalize();
        out
    }

    /// Over a `Bool` index, an array stored at both indices is the constant of its `false`
    /// value with at most one point.
    fn normalize(&mut self) {
        if self.points.len() == 2 && self.sort.array_parts().map(|p| p.0) == Some(Sort::Bool) {
            let at_false = self.points[0].1.clone(); // false < true
            self.default = at_false;
            let d = self.default.clone();
            self.points.retain(|(_, v)| *v != d);
        }
    }

    /// The value as a constant term: stores over a constant array.
    pub fn to_term(&self) -> Term {
        build_ground(self)
    }
}

impl fmt::Display for ArrayValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in &self.points {
            write!(f, "(store ")?;
        }
        write!(f, "((as const {}) {})", self.sort, self.default)?;
        for (k, v) in &self.points {
            write!(f, " {k} {v})")?;
        }
        Ok(())
    }
}

/// An array value (shared: nested arrays copy cheaply).
pub fn array_value(a: ArrayValue) -> Value {
    Value::Array(Arc::new(a))
}

// ---------------------------------------------------------------- terms

/// True when `t` is a constant: a number, a Boolean, or stores of constants over a constant
/// array.
pub fn is_ground(t: &Term) -> bool {
    match t.get() {
        TermNode::Int(_) | TermNode::Bool(_) | TermNode::Real(_) => true,
        TermNode::ConstArray(_, v) => is_ground(v),
        TermNode::Store(a, i, v) => is_ground(i) && is_ground(v) && is_ground(a),
        _ => false,
    }
}

/// True when `i` and `j` differ in every model: distinct constants, or integer terms whose
/// difference is a non-zero constant.
fn provably_distinct(i: &Term, j: &Term) -> bool {
    if i == j {
        return false;
    }
    if is_ground(i) && is_ground(j) {
        return true; // distinct hash-consed constants (ground arrays are normalized below)
    }
    if i.sort() == Sort::Int && j.sort() == Sort::Int {
        let d = Lin::of(i).sub(&Lin::of(j));
        return d.terms.is_empty() && !d.k.is_zero();
    }
    false
}

/// Most stores of one chain that `select` reads over by cases (`ite`).
const EXPAND_STORES: usize = 64;

/// `(select a i)`, reading over writes: through stores at provably different indices, to the
/// stored value at the same index, to the value of a constant array, into both branches of
/// an `ite`; over a store at an index that may or may not be `i`, by cases:
/// `select(store(b, j, v), i) = ite(i = j, v, select(b, i))` (up to [`EXPAND_STORES`]
/// stores), so that selects apply to array variables and the arithmetic sees the cases.
pub fn mk_select(a: Term, i: Term) -> Term {
    select_depth(a, i, 0)
}

fn select_depth(a: Term, i: Term, depth: usize) -> Term {
    let mut cur = a;
    loop {
        let next = match cur.get() {
            TermNode::Store(b, j, v) => {
                if *j == i {
                    return v.clone();
                }
                if !provably_distinct(&i, j) {
                    if depth >= EXPAND_STORES {
                        break;
                    }
                    let rest = select_depth(b.clone(), i.clone(), depth + 1);
                    return mk_ite(mk_eq(i, j.clone()), v.clone(), rest);
                }
                b.clone()
            }
            TermNode::ConstArray(_, v) => return v.clone(),
            TermNode::Ite(c, x, y) => {
                return mk_ite(
                    c.clone(),
                    select_depth(x.clone(), i.clone(), depth + 1),
                    select_depth(y.clone(), i, depth + 1),
                )
            }
            _ => break,
        };
        cur = next;
    }
    mk_node(TermNode::Select(cur, i))
}

/// `(store a i v)`: a store over a store at the same index replaces it; over ground arrays at
/// ground indices, the stores are kept sorted by index with the default dropped, so that
/// equal ground arrays are the same term.
pub fn mk_store(a: Term, i: Term, v: Term) -> Term {
    if is_ground(&a) && is_ground(&i) && is_ground(&v) {
        if let (Ok(Value::Array(av)), Ok(iv), Ok(vv)) = (
            super::eval(&a, &Default::default()),
            super::eval(&i, &Default::default()),
            super::eval(&v, &Default::default()),
        ) {
            let out = av.store(iv, vv);
            return build_ground(&out);
        }
    }
    if let TermNode::Store(b, j, _) = a.get() {
        if *j == i {
            return mk_store(b.clone(), i, v);
        }
    }
    mk_node(TermNode::Store(a, i, v))
}

/// How a formula uses arrays, for solvers that can leave out extensionality ([`array_use`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayUse {
    /// No term of an array sort.
    NoArrays,
    /// Arrays, but nothing that needs the extensionality axiom.
    Weak,
    /// Something that may need it.
    Extensional,
}

/// How `t` uses arrays: [`ArrayUse::Extensional`] when it may need the extensionality axiom,
/// that is an array equality that is not positive (reached from the top through conjunctions, disjunctions and the branches of
/// Boolean `ite`s only, never under a negation, an `ite` condition, an `iff` or inside a
/// non-Boolean term), or an array used as the index of a `select` or `store`.
///
/// Without them, arrays without the extensionality axiom have the same satisfiable formulas
/// as the full theory: read each array of a model of the weaker theory as the function its
/// `select`s give, and every atom keeps its value except array equalities, which can only
/// turn true; with all of them positive, the formula stays true. (An array index breaks
/// this: `b[i] != b[m]` holds with `i` and `m` apart in the weaker theory and equal as
/// functions.) SMT sessions over arrays turn z3's extensionality off while no live
/// assertion needs it ([`crate::smt::Smt`]): z3 otherwise adds extensionality lemmas for
/// every array equality its search sets false, which took it seconds on the equalities
/// between a predicate's array arguments and their updates in Solidity's `storage` clauses.
pub fn array_use(t: &Term) -> ArrayUse {
    const POS: u8 = 1;
    const NEG: u8 = 2;
    const ANY: u8 = 3; // both polarities
    let mut seen: rustc_hash::FxHashSet<(u64, u8)> = Default::default();
    let mut stack = vec![(t, POS)];
    let mut arrays = false;
    while let Some((t, pol)) = stack.pop() {
        if !seen.insert((t.uid(), pol)) {
            continue;
        }
        let boolean = t.sort() == Sort::Bool;
        arrays |= t.sort().is_array();
        match t.get() {
            TermNode::ArrEq(a, b) => {
                if pol != POS {
                    return ArrayUse::Extensional;
                }
                stack.extend([(a, ANY), (b, ANY)]);
            }
            TermNode::Select(_, i) | TermNode::Store(_, i, _) if i.sort().is_array() => {
                return ArrayUse::Extensional;
            }
            TermNode::Not(x) => {
                let flipped = match pol {
                    POS => NEG,
                    NEG => POS,
                    _ => ANY,
                };
                stack.push((x, flipped))
            }
            TermNode::And(xs) | TermNode::Or(xs) => stack.extend(xs.iter().map(|x| (x, pol))),
            TermNode::Ite(c, x, y) if boolean => {
                stack.extend([(c, ANY), (x, pol), (y, pol)]);
            }
            _ => stack.extend(t.children().into_iter().map(|x| (x, ANY))),
        }
    }
    if arrays {
        ArrayUse::Weak
    } else {
        ArrayUse::NoArrays
    }
}

/// The canonical term of a ground array value (stores in index order, no default stores).
fn build_ground(a: &ArrayValue) -> Term {
    let mut t = mk_node(TermNode::ConstArray(a.sort, a.default.to_term()));
    for (k, v) in &a.points {
        t = mk_node(TermNode::Store(t, k.to_term(), v.to_term()));
    }
    t
}

/// `((as const sort) v)`: the array of sort `sort` that is `v` everywhere.
pub fn mk_const_array(sort: Sort, v: Term) -> Term {
    mk_node(TermNode::ConstArray(sort, v))
}

/// Equality of two arrays: decided when both are ground.
pub fn mk_arr_eq(a: Term, b: Term) -> Term {
    if a == b {
        return mk_true();
    }
    if is_ground(&a) && is_ground(&b) {
        return mk_bool(false); // canonical ground terms: different terms, different arrays
    }
    let (a, b) = if a.uid() <= b.uid() { (a, b) } else { (b, a) };
    mk_node(TermNode::ArrEq(a, b))
}

#[cfg(test)]
#[path = "array_tests.rs"]
mod tests;
