//! Non-recursive datatypes (SMT-LIB's `declare-datatypes`) and how their values are laid
//! out as plain values: the declarations, the layout of a sort as a list of parts of the
//! sorts the engines know, and the way back (a part as an expression over a value of the
//! datatype, plain part values as one value of the datatype).
//!
//! The layout (see docs/records.md):
//! - `Int`, `Bool`, `Real`: one part, the value itself;
//! - a datatype with one constructor (a record): the parts of its fields, in order;
//! - a datatype with several constructors: an `Int` tag (the constructor's index), then the
//!   parts of every field of every constructor, in declaration order; a constructor term
//!   fills the other constructors' parts with the default of their sort;
//! - `(Array I E)` with no datatype in `I`: one array `(Array I P)` per part `P` of `E`;
//! - `(Array I E)` with a datatype in `I`: nothing when no clause reads such an array (its
//!   value never matters), else, curried over the parts `I1 .. In` of the index, one
//!   `(Array I1 (Array I2 .. P))` per part `P` of `E`.
//!
//! The front-end's pass (`frontend/passes/records`) rewrites the clauses by this layout; the
//! witness printer maps answers back with [`Records`].

use super::{ArrayValue, Value};
use rustc_hash::FxHashMap;
use std::fmt::Write;

/// A sort of the input: the engines' sorts and declared datatypes (by index).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DSort {
    Int,
    Bool,
    Real,
    Array(Box<DSort>, Box<DSort>),
    Data(usize),
}

impl DSort {
    /// True when no datatype occurs in the sort.
    pub fn is_plain(&self) -> bool {
        match self {
            DSort::Data(_) => false,
            DSort::Array(i, e) => i.is_plain() && e.is_plain(),
            _ => true,
        }
    }

    /// The SMT-LIB text of a plain sort.
    pub fn plain_text(&self) -> String {
        match self {
            DSort::Int => "Int".into(),
            DSort::Bool => "Bool".into(),
            DSort::Real => "Real".into(),
            DSort::Array(i, e) => format!("(Array {} {})", i.plain_text(), e.plain_text()),
            DSort::Data(d) => format!("datatype#{d}"),
        }
    }

    /// The default value of a plain sort, as text (`0`, `false`, `0.0`, constant arrays).
    pub fn default_text(&self) -> String {
        match self {
            DSort::Int | DSort::Data(_) => "0".into(),
            DSort::Bool => "false".into(),
            DSort::Real => "0.0".into(),
            DSort::Array(_, e) => {
                format!("((as const {}) {})", self.plain_text(), e.default_text())
            }
        }
    }
}

/// A field of a constructor: its selector's name as written and its sort.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub sort: DSort,
}

/// A constructor: its name as written and its fields.
#[derive(Clone, Debug)]
pub struct Ctor {
    pub name: String,
    pub fields: Vec<Field>,
}

/// A declared datatype: its name as written and its constructors.
#[derive(Clone, Debug)]
pub struct Datatype {
    pub name: String,
    pub ctors: Vec<Ctor>,
}

impl Datatype {
    /// A record: one constructor, no tag.
    pub fn is_record(&self) -> bool {
        self.ctors.len() == 1
    }
}

/// One part of a layout: the suffix that names it (`!field!field`, `!tag`) and its plain sort.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub suffix: String,
    pub sort: DSort,
}

/// The declared datatypes of an input, with the lookups of their symbols.
#[derive(Clone, Debug, Default)]
pub struct Datatypes {
    pub types: Vec<Datatype>,
    /// Arrays indexed by a datatype that some clause reads (index, element): laid out
    /// curried; the others have no parts.
    pub read_arrays: Vec<(DSort, DSort)>,
    by_name: FxHashMap<String, usize>,
    /// Constructor by name: (datatype, constructor).
    ctor_of: FxHashMap<String, (usize, usize)>,
    /// Selector by name: (datatype, constructor, field).
    sel_of: FxHashMap<String, (usize, usize, usize)>,
}

/// A symbol without its `|quotes|`.
pub fn key(s: &str) -> &str {
    s.strip_prefix('|')
        .and_then(|s| s.strip_suffix('|'))
        .unwrap_or(s)
}

impl Datatypes {
    /// Declares the datatypes of one `declare-datatypes` group, whose names must be known
    /// before their fields' sorts are read (`names`), then their constructors.
    pub fn declare_names(&mut self, names: &[String]) -> Result<Vec<usize>, String> {
        let mut ids = vec![];
        for n in names {
            if self.by_name.contains_key(key(n)) {
                return Err(format!("datatype `{n}` declared twice"));
            }
            self.by_name.insert(key(n).to_string(), self.types.len());
            ids.push(self.types.len());
            self.types.push(Datatype {
                name: n.clone(),
                ctors: vec![],
            });
        }
        Ok(ids)
    }

    /// Gives datatype `d` its constructors, and checks the group is not recursive.
    pub fn define(&mut self, d: usize, ctors: Vec<Ctor>) -> Result<(), String> {
        for (c, ctor) in ctors.iter().enumerate() {
            if self
                .ctor_of
                .insert(key(&ctor.name).to_string(), (d, c))
                .is_some()
            {
                return Err(format!("constructor `{}` declared twice", ctor.name));
            }
            for (f, field) in ctor.fields.iter().enumerate() {
                if self
                    .sel_of
                    .insert(key(&field.name).to_string(), (d, c, f))
                    .is_some()
                {
                    return Err(format!("selector `{}` declared twice", field.name));
                }
            }
        }
        self.types[d].ctors = ctors;
        Ok(())
    }

    /// The first datatype of `ids` that reaches itself through its fields (also through
    /// arrays and other datatypes), if any.
    pub fn recursive(&self, ids: &[usize]) -> Option<&str> {
        fn reaches(dt: &Datatypes, s: &DSort, target: usize, seen: &mut Vec<usize>) -> bool {
            match s {
                DSort::Data(d) if *d == target => true,
                DSort::Data(d) if !seen.contains(d) => {
                    seen.push(*d);
                    let fields = dt.types[*d].ctors.iter().flat_map(|c| &c.fields);
                    fields
                        .collect::<Vec<_>>()
                        .into_iter()
                        .any(|f| reaches(dt, &f.sort, target, seen))
                }
                DSort::Array(i, e) => reaches(dt, i, target, seen) || reaches(dt, e, target, seen),
                _ => false,
            }
        }
        ids.iter().copied().find_map(|d| {
            let mut seen = vec![];
            let fields = self.types[d].ctors.iter().flat_map(|c| &c.fields);
            let rec = fields
                .collect::<Vec<_>>()
                .into_iter()
                .any(|f| reaches(self, &f.sort, d, &mut seen));
            rec.then(|| self.types[d].name.as_str())
        })
    }

    pub fn datatype(&self, name: &str) -> Option<usize> {
        self.by_name.get(key(name)).copied()
    }

    pub fn ctor(&self, name: &str) -> Option<(usize, usize)> {
        self.ctor_of.get(key(name)).copied()
    }

    pub fn selector(&self, name: &str) -> Option<(usize, usize, usize)> {
        self.sel_of.get(key(name)).copied()
    }

    /// The sort as written in SMT-LIB (datatypes by their names as declared).
    pub fn sort_text(&self, s: &DSort) -> String {
        match s {
            DSort::Data(d) => self.types[*d].name.clone(),
            DSort::Array(i, e) => format!("(Array {} {})", self.sort_text(i), self.sort_text(e)),
            s => s.plain_text(),
        }
    }

    /// Is an array indexed by `i` with elements `e` laid out (curried), or dropped?
    fn kept(&self, i: &DSort, e: &DSort) -> bool {
        self.read_arrays.iter().any(|(a, b)| a == i && b == e)
    }

    /// The parts of sort `s`, in order (see the module's documentation).
    pub fn layout(&self, s: &DSort) -> Vec<Part> {
        let mut out = vec![];
        self.layout_into(s, String::new(), &mut out);
        out
    }

    fn layout_into(&self, s: &DSort, prefix: String, out: &mut Vec<Part>) {
        match s {
            DSort::Data(d) => {
                let dt = &self.types[*d];
                if !dt.is_record() {
                    out.push(Part {
                        suffix: format!("{prefix}!tag"),
                        sort: DSort::Int,
                    });
                }
                for f in dt.ctors.iter().flat_map(|c| &c.fields) {
                    self.layout_into(&f.sort, format!("{prefix}!{}", key(&f.name)), out);
                }
            }
            DSort::Array(i, e) if i.is_plain() => {
                for p in self.layout(e) {
                    out.push(Part {
                        suffix: format!("{prefix}{}", p.suffix),
                        sort: DSort::Array(i.clone(), Box::new(p.sort)),
                    });
                }
            }
            DSort::Array(i, e) => {
                if !self.kept(i, e) {
                    return;
                }
                let index = self.layout(i);
                for p in self.layout(e) {
                    let sort = index.iter().rev().fold(p.sort, |acc, ip| {
                        DSort::Array(Box::new(ip.sort.clone()), Box::new(acc))
                    });
                    out.push(Part {
                        suffix: format!("{prefix}{}", p.suffix),
                        sort,
                    });
                }
            }
            s => out.push(Part {
                suffix: prefix,
                sort: s.clone(),
            }),
        }
    }

    /// The number of parts of `s`.
    pub fn width(&self, s: &DSort) -> usize {
        self.layout(s).len()
    }

    /// Where the parts of field `f` of constructor `c` of datatype `d` start among the parts
    /// of a value of `d`.
    pub fn field_offset(&self, d: usize, c: usize, f: usize) -> usize {
        let dt = &self.types[d];
        let mut at = usize::from(!dt.is_record());
        for (ci, ctor) in dt.ctors.iter().enumerate() {
            for (fi, field) in ctor.fields.iter().enumerate() {
                if (ci, fi) == (c, f) {
                    return at;
                }
                at += self.width(&field.sort);
            }
        }
        at
    }

    /// Can an array indexed by `i` be laid out curried? Only when every datatype in `i` is a
    /// record (a tag would leave the other constructors' parts free, so that equal indices
    /// could differ).
    pub fn curriable(&self, i: &DSort) -> bool {
        match i {
            DSort::Data(d) => {
                self.types[*d].is_record()
                    && self.types[*d].ctors[0]
                        .fields
                        .iter()
                        .all(|f| self.curriable(&f.sort))
            }
            DSort::Array(a, e) => a.is_plain() && self.curriable(e),
            _ => true,
        }
    }
}

/// What the witness printer needs to map answers on the laid-out clauses back to the
/// input's sorts: the datatypes and each predicate's argument sorts as declared.
#[derive(Clone, Debug)]
pub struct Records {
    pub types: Datatypes,
    /// Per predicate, in declaration order: each argument's sort and its text as written.
    pub preds: Vec<Vec<(DSort, String)>>,
}

impl Records {
    /// Does predicate `p` take an argument whose sort holds a datatype?
    pub fn changes(&self, p: usize) -> bool {
        self.preds
            .get(p)
            .is_some_and(|args| args.iter().any(|(s, _)| !s.is_plain()))
    }

    /// The parameters `((r0 S0) ..)` of predicate `p` in the input's sorts, and the `let`
    /// bindings that give the laid-out parameters `x0 ..` (as [`crate::chc::PredDecl::params`]
    /// names them) their values over those.
    pub fn params(&self, p: usize) -> (String, String) {
        let mut params = vec![];
        let mut binds = vec![];
        let mut fresh = 0;
        for (i, (s, text)) in self.preds[p].iter().enumerate() {
            params.push(format!("(r{i} {text})"));
            for e in self.part_exprs(s, &format!("r{i}"), &mut fresh) {
                binds.push(format!("(x{} {e})", binds.len()));
            }
        }
        (params.join(" "), binds.join(" "))
    }

    /// The expressions, over a value `e` of sort `s`, of its parts.
    fn part_exprs(&self, s: &DSort, e: &str, fresh: &mut usize) -> Vec<String> {
        let dt = &self.types;
        match s {
            DSort::Data(d) => {
                let t = &dt.types[*d];
                let mut out = vec![];
                if !t.is_record() {
                    let mut tag = (t.ctors.len() - 1).to_string();
                    for (c, ctor) in t.ctors.iter().enumerate().rev().skip(1) {
                        tag = format!("(ite ((_ is {}) {e}) {c} {tag})", ctor.name);
                    }
                    out.push(tag);
                }
                for ctor in &t.ctors {
                    for f in &ctor.fields {
                        let inner = self.part_exprs(&f.sort, &format!("({} {e})", f.name), fresh);
                        if t.is_record() {
                            out.extend(inner);
                            continue;
                        }
                        // another constructor's parts read as the default (as its terms fill them)
                        let parts = dt.layout(&f.sort);
                        for (x, p) in inner.into_iter().zip(parts) {
                            out.push(format!(
                                "(ite ((_ is {}) {e}) {x} {})",
                                ctor.name,
                                p.sort.default_text()
                            ));
                        }
                    }
                }
                out
            }
            DSort::Array(i, el) if el.is_plain() && i.is_plain() => vec![e.to_string()],
            DSort::Array(i, el) if i.is_plain() => {
                *fresh += 1;
                let v = format!("i!{fresh}");
                let inner = self.part_exprs(el, &format!("(select {e} {v})"), fresh);
                let it = i.plain_text();
                inner
                    .into_iter()
                    .map(|x| format!("(lambda (({v} {it})) {x})"))
                    .collect()
            }
            DSort::Array(i, el) => {
                if !dt.kept(i, el) {
                    return vec![];
                }
                let index = dt.layout(i);
                let names: Vec<String> = index
                    .iter()
                    .map(|_| {
                        *fresh += 1;
                        format!("i!{fresh}")
                    })
                    .collect();
                let idx = self.build(i, &mut names.iter().cloned());
                let inner = self.part_exprs(el, &format!("(select {e} {idx})"), fresh);
                inner
                    .into_iter()
                    .map(|x| {
                        names.iter().zip(&index).rev().fold(x, |acc, (n, p)| {
                            format!("(lambda (({n} {})) {acc})", p.sort.plain_text())
                        })
                    })
                    .collect()
            }
            _ => vec![e.to_string()],
        }
    }

    /// A value of a curriable sort `s` (see [`Datatypes::curriable`]) from expressions of
    /// its parts.
    fn build(&self, s: &DSort, parts: &mut dyn Iterator<Item = String>) -> String {
        match s {
            DSort::Data(d) => {
                let c = &self.types.types[*d].ctors[0];
                if c.fields.is_empty() {
                    return c.name.clone();
                }
                let args: Vec<String> = c
                    .fields
                    .iter()
                    .map(|f| self.build(&f.sort, parts))
                    .collect();
                format!("({} {})", c.name, args.join(" "))
            }
            DSort::Array(i, e) if !e.is_plain() => {
                let n = self.types.width(e);
                let arrays: Vec<String> = parts.take(n).collect();
                let sel: Vec<String> = arrays.iter().map(|a| format!("(select {a} j!)")).collect();
                format!(
                    "(lambda ((j! {})) {})",
                    i.plain_text(),
                    self.build(e, &mut sel.into_iter())
                )
            }
            _ => parts.next().unwrap_or_default(),
        }
    }

    /// The values of predicate `p`'s arguments, as text in the input's sorts, from the
    /// values of its laid-out arguments; an error when one cannot be written as a literal.
    pub fn ground_args(&self, p: usize, vals: &[Value]) -> Result<Vec<String>, String> {
        let mut it = vals.iter();
        let out = self.preds[p]
            .iter()
            .map(|(s, _)| self.value(s, &mut it))
            .collect::<Result<Vec<_>, _>>()?;
        if it.next().is_some() {
            return Err("more values than arguments".into());
        }
        Ok(out)
    }

    fn value(&self, s: &DSort, it: &mut dyn Iterator<Item = &Value>) -> Result<String, String> {
        let dt = &self.types;
        match s {
            DSort::Data(d) => {
                let t = &dt.types[*d];
                let chosen = if t.is_record() {
                    0
                } else {
                    match it.next() {
                        Some(Value::Int(n)) => usize::try_from(n.clone())
                            .ok()
                            .filter(|&c| c < t.ctors.len())
                            .ok_or_else(|| format!("tag {n} of {} out of range", t.name))?,
                        _ => return Err(format!("no tag for {}", t.name)),
                    }
                };
                let mut args = vec![];
                for (c, ctor) in t.ctors.iter().enumerate() {
                    for f in &ctor.fields {
                        let v = self.value(&f.sort, it)?;
                        if c == chosen {
                            args.push(v);
                        }
                    }
                }
                let name = &t.ctors[chosen].name;
                if args.is_empty() {
                    Ok(name.clone())
                } else {
                    Ok(format!("({name} {})", args.join(" ")))
                }
            }
            DSort::Array(i, e) if i.is_plain() && e.is_plain() => it
                .next()
                .map(|v| v.to_string())
                .ok_or("missing value".into()),
            DSort::Array(i, e) if i.is_plain() => {
                let n = dt.width(e);
                let arrays: Vec<&ArrayValue> = (0..n)
                    .map(|_| match it.next() {
                        Some(Value::Array(a)) => Ok(&**a),
                        _ => Err("an array part is not an array".to_string()),
                    })
                    .collect::<Result<_, _>>()?;
                let mut idx: Vec<&Value> = arrays
                    .iter()
                    .flat_map(|a| a.points.iter().map(|p| &p.0))
                    .collect();
                idx.sort();
                idx.dedup();
                let defaults: Vec<&Value> = arrays.iter().map(|a| &a.default).collect();
                let default = self.value(e, &mut defaults.into_iter())?;
                let mut out = format!("((as const {}) {default})", dt.sort_text(s));
                for k in idx {
                    let at: Vec<&Value> = arrays
                        .iter()
                        .map(|a| {
                            a.points
                                .iter()
                                .find(|(j, _)| j == k)
                                .map_or(&a.default, |(_, v)| v)
                        })
                        .collect();
                    let v = self.value(e, &mut at.into_iter())?;
                    out = format!("(store {out} {k} {v})");
                }
                Ok(out)
            }
            DSort::Array(i, e) => {
                if !dt.kept(i, e) {
                    // never read: any value does
                    let mut w = String::new();
                    let _ = write!(w, "((as const {}) {})", dt.sort_text(s), self.default(e));
                    return Ok(w);
                }
                self.curried_value(s, i, e, it)
            }
            _ => it
                .next()
                .map(|v| v.to_string())
                .ok_or("missing value".into()),
        }
    }

    /// The value of an array indexed by a datatype `i`, from its curried parts: the stores
    /// at every index where some part differs from its default. An error when a part's
    /// defaults differ below the top (no finite store chain over a constant array writes it).
    fn curried_value(
        &self,
        s: &DSort,
        i: &DSort,
        e: &DSort,
        it: &mut dyn Iterator<Item = &Value>,
    ) -> Result<String, String> {
        let dt = &self.types;
        let depth = dt.width(i);
        let parts: Vec<&Value> = it.take(dt.width(e)).collect();
        let mut defaults = vec![];
        let mut points: Vec<Vec<(Vec<Value>, Value)>> = vec![];
        for v in &parts {
            let Some((d, pts)) = leaves(v, depth) else {
                return self.curried_lambda(s, i, e, &parts);
            };
            defaults.push(d);
            points.push(pts);
        }
        let default = self.value(e, &mut defaults.iter())?;
        let mut idx: Vec<&Vec<Value>> = points.iter().flatten().map(|(k, _)| k).collect();
        idx.sort();
        idx.dedup();
        let mut out = format!("((as const {}) {default})", dt.sort_text(s));
        for k in idx {
            let at: Vec<&Value> = points
                .iter()
                .zip(&defaults)
                .map(|(pts, d)| pts.iter().find(|(j, _)| j == k).map_or(d, |(_, v)| v))
                .collect();
            let key = self.value(i, &mut k.iter())?;
            let v = self.value(e, &mut at.into_iter())?;
            out = format!("(store {out} {key} {v})");
        }
        Ok(out)
    }

    /// The value of an array indexed by a datatype `i` whose curried `parts` are no finite
    /// store chain over it: `(lambda ((r I)) (select (select A (f1 r)) (f2 r)))`, with `A`
    /// the curried value and `f1, f2` the index's parts; only for elements of a plain sort.
    fn curried_lambda(
        &self,
        s: &DSort,
        i: &DSort,
        e: &DSort,
        parts: &[&Value],
    ) -> Result<String, String> {
        if !self.types.curriable(e) {
            return Err(format!(
                "a value of {} is not printed",
                self.types.sort_text(s)
            ));
        }
        let mut fresh = 0;
        let index = self.part_exprs(i, "r!", &mut fresh);
        let elems = parts.iter().map(|a| {
            index
                .iter()
                .fold(a.to_string(), |acc, ix| format!("(select {acc} {ix})"))
        });
        let body = self.build(e, &mut elems.collect::<Vec<_>>().into_iter());
        Ok(format!(
            "(lambda ((r! {})) {body})",
            self.types.sort_text(i)
        ))
    }

    /// The default value of `s` as text: the first constructor over defaults.
    fn default(&self, s: &DSort) -> String {
        match s {
            DSort::Data(d) => {
                let c = &self.types.types[*d].ctors[0];
                if c.fields.is_empty() {
                    return c.name.clone();
                }
                let args: Vec<String> = c.fields.iter().map(|f| self.default(&f.sort)).collect();
                format!("({} {})", c.name, args.join(" "))
            }
            DSort::Array(_, e) => format!(
                "((as const {}) {})",
                self.types.sort_text(s),
                self.default(e)
            ),
            s => s.default_text(),
        }
    }
}

/// A curried array value of `depth` levels as its leaves' default and the points where it
/// differs, by index tuple; `None` when an inner default differs from the leaves' default.
fn leaves(v: &Value, depth: usize) -> Option<(Value, Vec<(Vec<Value>, Value)>)> {
    if depth == 0 {
        return Some((v.clone(), vec![]));
    }
    let Value::Array(a) = v else { return None };
    let (d, inner) = leaves(&a.default, depth - 1)?;
    if !inner.is_empty() {
        return None;
    }
    let mut out = vec![];
    for (k, x) in &a.points {
        if depth == 1 {
            out.push((vec![k.clone()], x.clone()));
            continue;
        }
        let (d2, pts) = leaves(x, depth - 1)?;
        if d2 != d {
            return None;
        }
        out.extend(pts.into_iter().map(|(mut ix, y)| {
            ix.insert(0, k.clone());
            (ix, y)
        }));
    }
    Some((d, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{array_sort, array_value, Sort};
    use num_bigint::BigInt;

    #[test]
    fn curried_leaves() {
        let int = |n: i64| Value::Int(BigInt::from(n));
        let ii = array_sort(Sort::Int, Sort::Int);
        let c0 = array_value(ArrayValue::constant(ii, int(0)));
        let mut inner = ArrayValue::constant(ii, int(0));
        inner.points.push((int(0), int(5)));
        let outer_sort = array_sort(ii, ii);
        let mut outer = ArrayValue::constant(outer_sort, c0.clone());
        outer.points.push((c0.clone(), array_value(inner)));
        let v = array_value(outer);
        let (d, pts) = leaves(&v, 2).expect("finite");
        assert_eq!(d, int(0));
        assert_eq!(pts, vec![(vec![c0, int(0)], int(5))]);
    }
}
