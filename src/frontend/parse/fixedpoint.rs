//! The z3 fixedpoint format, as SeaHorn, JayHorn and muZ users write it, rewritten into
//! CHC-COMP commands before parsing.
//!
//! | fixedpoint | CHC-COMP |
//! | --- | --- |
//! | `(declare-rel P (Int Bool))` | `(declare-fun P (Int Bool) Bool)` |
//! | `(declare-var x Int)` | nothing: `x` is bound by the `forall` of each rule that uses it |
//! | `(rule F name)` | `(assert (forall ((x Int) ...) F))` over the declared variables in `F` |
//! | `(query P)`, `(query (P (Int Bool) Bool))` | `(assert (forall ((query!0 Int) ...) (=> (P query!0 ...) false)))` |
//! | `(query F)` (a formula over relations and declared variables) | `(assert (forall (...) (=> F false)))` |
//!
//! Each command is rewritten in place with the same line breaks, so the parser's lines are
//! the input's lines. Where each query's `assert` starts is returned, so that the parser
//! makes one problem per query.

use super::InputError;
use rustc_hash::FxHashMap;

/// The commands only the fixedpoint format has.
const FIXEDPOINT_COMMANDS: [&str; 4] = ["declare-rel", "declare-var", "rule", "query"];

/// The rewritten input and the start byte of each query's `assert` in it.
pub(super) struct Translation {
    pub text: String,
    pub queries: Vec<usize>,
}

/// The name of a command `(name ...)` at `start` (its first token only: commands can be long).
fn command_name(b: &[u8], start: usize, end: usize) -> &str {
    let s = (start + 1..end)
        .find(|&i| !b[i].is_ascii_whitespace())
        .unwrap_or(end);
    let e = (s..end)
        .find(|&i| b[i].is_ascii_whitespace() || matches!(b[i], b'(' | b')' | b';'))
        .unwrap_or(end);
    std::str::from_utf8(&b[s..e]).unwrap_or("")
}

/// True when some command is one only the fixedpoint format has.
pub(super) fn is_fixedpoint(input: &str, commands: &[(usize, usize, usize)]) -> bool {
    let b = input.as_bytes();
    commands
        .iter()
        .any(|&(s, e, _)| FIXEDPOINT_COMMANDS.contains(&command_name(b, s, e)))
}

/// The byte ranges of the elements of the list `b[start..end]` (which starts with `(` and
/// ends with its `)`): symbols, literals and balanced lists, skipping comments.
fn items(b: &[u8], start: usize, end: usize) -> Vec<(usize, usize)> {
    items_with(b, start, end, None)
}

/// [`items`], jumping over every list that `ends` knows the end of (see [`list_ends`]).
fn items_with(
    b: &[u8],
    start: usize,
    end: usize,
    ends: Option<&rustc_hash::FxHashMap<usize, usize>>,
) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let mut i = start + 1;
    let stop = end.saturating_sub(1);
    while i < stop {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b';' {
            while i < stop && b[i] != b'\n' {
                i += 1;
            }
        } else {
            let s = i;
            i = match ends.and_then(|m| m.get(&i)) {
                Some(&e) => e,
                None => skip_item(b, i, stop),
            };
            out.push((s, i));
        }
    }
    out
}

/// What [`skip_item`] returns for every `(` in `b[start..stop]`, in one pass: walking down
/// nested lists with [`items`] alone rescans each level's text, quadratic in the depth
/// (a rule nested 20,000 `=>` deep took 17 s; found by `scripts/fuzz`).
fn list_ends(b: &[u8], start: usize, stop: usize) -> rustc_hash::FxHashMap<usize, usize> {
    let mut ends = rustc_hash::FxHashMap::default();
    let mut open = vec![];
    let mut i = start;
    while i < stop {
        match b[i] {
            b'(' => open.push(i),
            b')' => {
                if let Some(o) = open.pop() {
                    ends.insert(o, i + 1);
                }
            }
            q @ (b'"' | b'|') => {
                i += 1;
                while i < stop && b[i] != q {
                    i += 1;
                }
            }
            b';' => {
                while i < stop && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    for o in open {
        ends.insert(o, stop);
    }
    ends
}

/// The end of the element starting at `i`.
fn skip_item(b: &[u8], mut i: usize, stop: usize) -> usize {
    let mut depth = 0usize;
    while i < stop {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            q @ (b'"' | b'|') => {
                i += 1;
                while i < stop && b[i] != q {
                    i += 1;
                }
                if depth == 0 {
                    return (i + 1).min(stop);
                }
            }
            b';' => {
                while i < stop && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            c if depth == 0 && (c.is_ascii_whitespace()) => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

/// A symbol's name without the bars of a quoted symbol (`|x|` and `x` are the same symbol).
fn key(sym: &str) -> &str {
    sym.strip_prefix('|')
        .and_then(|s| s.strip_suffix('|'))
        .unwrap_or(sym)
}

/// Every symbol occurring in `b[start..end]`, by [`key`], in order of first occurrence.
fn symbols(b: &[u8], start: usize, end: usize) -> Vec<&str> {
    fn add<'a>(out: &mut Vec<&'a str>, s: &'a [u8]) {
        if let Ok(s) = std::str::from_utf8(s) {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    let mut out: Vec<&str> = vec![];
    let mut i = start;
    let mut push = |s| add(&mut out, s);
    while i < end {
        match b[i] {
            b'(' | b')' => i += 1,
            c if c.is_ascii_whitespace() => i += 1,
            b';' => {
                while i < end && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < end && b[i] != b'"' {
                    i += 1;
                }
                i += 1;
            }
            b'|' => {
                let s = i + 1;
                i = s;
                while i < end && b[i] != b'|' {
                    i += 1;
                }
                push(&b[s..i.min(end)]);
                i += 1;
            }
            _ => {
                let s = i;
                while i < end
                    && !b[i].is_ascii_whitespace()
                    && !matches!(b[i], b'(' | b')' | b'|' | b'"' | b';')
                {
                    i += 1;
                }
                push(&b[s..i]);
            }
        }
    }
    out
}

/// `s` with every character but line breaks turned into a space.
fn blank(s: &str) -> String {
    s.chars()
        .map(|c| if c == '\n' || c == '\r' { c } else { ' ' })
        .collect()
}

struct Translator<'a> {
    input: &'a str,
    /// Declared variables by key: (the name as written, its sort).
    vars: FxHashMap<&'a str, (&'a str, &'a str)>,
    /// Relations by key: (the name as written, its argument sorts).
    rels: FxHashMap<&'a str, (&'a str, Vec<&'a str>)>,
    out: String,
    queries: Vec<usize>,
    /// The names of the datatypes declared so far (by key).
    datatypes: rustc_hash::FxHashSet<&'a str>,
}

/// Rewrites a fixedpoint file (`commands` as [`super::split_commands`] found them).
pub(super) fn translate(
    input: &str,
    commands: &[(usize, usize, usize)],
) -> Result<Translation, InputError> {
    let mut t = Translator {
        input,
        vars: FxHashMap::default(),
        rels: FxHashMap::default(),
        out: String::with_capacity(input.len() + input.len() / 4),
        queries: vec![],
        datatypes: Default::default(),
    };
    let mut copied = 0;
    for &(start, end, line) in commands {
        t.out.push_str(&input[copied..start]);
        t.command(start, end, line)?;
        copied = end;
    }
    t.out.push_str(&input[copied..]);
    Ok(Translation {
        text: t.out,
        queries: t.queries,
    })
}

impl<'a> Translator<'a> {
    fn text(&self, (s, e): (usize, usize)) -> &'a str {
        &self.input[s..e]
    }

    /// The `forall` binders of the declared variables occurring in `range`.
    fn binders(&self, range: (usize, usize)) -> String {
        symbols(self.input.as_bytes(), range.0, range.1)
            .into_iter()
            .filter_map(|s| self.vars.get(s))
            .map(|(name, sort)| format!("({name} {sort})"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `(assert (forall (binders) body))`, or `(assert body)` without binders.
    fn assert(&mut self, binders: &str, body: &str) {
        if binders.is_empty() {
            self.out.push_str(&format!("(assert {body})"));
        } else {
            self.out
                .push_str(&format!("(assert (forall ({binders}) {body}))"));
        }
    }

    fn command(&mut self, start: usize, end: usize, line: usize) -> Result<(), InputError> {
        let b = self.input.as_bytes();
        let items = items(b, start, end);
        let name = items.first().map_or("", |&r| self.text(r));
        let err = |msg: String| InputError::new(line, msg);
        // the text after the last item used, blanked, then the closing parenthesis
        let rest = |used: (usize, usize)| format!("{})", blank(&self.input[used.1..end - 1]));
        match name {
            "declare-var" => {
                let [_, v, sort] = items[..] else {
                    return Err(err("expected (declare-var name sort)".into()));
                };
                let sort_text = self.text(sort);
                // an array sort is checked by the parser of the translation
                let array = sort_text.starts_with('(') && sort_text[1..].trim_start().starts_with("Array");
                // a declared datatype is checked by the records pass
                let datatype = self.datatypes.contains(key(sort_text));
                // and a bit-vector by the bit-vector pass
                let bitvec = crate::logic::bitvec::sort_width(sort_text).is_some();
                if !matches!(sort_text, "Int" | "Bool" | "Real") && !array && !datatype && !bitvec {
                    return Err(err(format!(
                        "declare-var `{}`: unsupported sort `{sort_text}`: only Int, Real, Bool, bit-vectors, non-recursive datatypes and arrays of them are supported",
                        self.text(v)
                    )));
                }
                self.vars
                    .insert(key(self.text(v)), (self.text(v), sort_text));
                self.out.push_str(&blank(&self.input[start..end]));
            }
            "declare-rel" => {
                let [cmd, rel, sorts, ..] = items[..] else {
                    return Err(err("expected (declare-rel name (sort ...))".into()));
                };
                if !self.text(sorts).starts_with('(') {
                    return Err(err(format!(
                        "declare-rel `{}`: expected a list of argument sorts",
                        self.text(rel)
                    )));
                }
                let sort_list = items_text(self.input, sorts);
                self.rels
                    .insert(key(self.text(rel)), (self.text(rel), sort_list));
                self.out.push_str(&format!(
                    "(declare-fun{} Bool{}",
                    &self.input[cmd.1..sorts.1],
                    rest(sorts)
                ));
            }
            "declare-fun" => {
                // a relation declared as in CHC-COMP: known to queries too
                if let [_, rel, sorts, range] = items[..] {
                    if self.text(range) == "Bool" && self.text(sorts).starts_with('(') {
                        let sort_list = items_text(self.input, sorts);
                        self.rels
                            .insert(key(self.text(rel)), (self.text(rel), sort_list));
                    }
                }
                self.out.push_str(&self.input[start..end]);
            }
            "rule" => {
                let (cmd, formula) = match items[..] {
                    [cmd, f] | [cmd, f, _] => (cmd, f),
                    _ => return Err(err("expected (rule formula) or (rule formula name)".into())),
                };
                if head_is_false(self.input, formula) {
                    return Err(err(
                        "a rule with head false is not a fixedpoint rule (z3 rejects it): derive an error relation instead and query it".into(),
                    ));
                }
                let binders = self.binders(formula);
                let body = &self.input[cmd.1..formula.1];
                self.assert(&binders, body);
                self.out.push_str(&blank(&self.input[formula.1..end]));
            }
            "query" => {
                let Some(&target) = items.get(1) else {
                    return Err(err("expected (query relation)".into()));
                };
                self.queries.push(self.out.len());
                let text = self.text(target);
                let rel = if text.starts_with('(') {
                    // `(P (Int Bool) Bool)` names the relation P by its signature
                    match items_of(self.input, target)[..] {
                        [p, sorts, range]
                            if self.text(sorts).starts_with('(')
                                && self.text(range) == "Bool"
                                && self.rels.contains_key(key(self.text(p))) =>
                        {
                            Some(p)
                        }
                        _ => None,
                    }
                } else {
                    Some(target)
                };
                match rel {
                    None => {
                        // a formula: its text keeps its line breaks
                        let binders = self.binders(target);
                        let body = format!("(=> {} false)", &self.input[items[0].1..target.1]);
                        self.assert(&binders, &body);
                        self.out.push_str(&blank(&self.input[target.1..end]));
                    }
                    Some(p) => {
                        let Some((name, sorts)) = self.rels.get(key(self.text(p))) else {
                            return Err(err(format!(
                                "query on `{}`, which is not a declared relation",
                                self.text(p)
                            )));
                        };
                        let vars: Vec<String> =
                            (0..sorts.len()).map(|i| format!("query!{i}")).collect();
                        let binders: Vec<String> = vars
                            .iter()
                            .zip(sorts)
                            .map(|(v, s)| format!("({v} {s})"))
                            .collect();
                        let app = if vars.is_empty() {
                            name.to_string()
                        } else {
                            format!("({name} {})", vars.join(" "))
                        };
                        let body = format!("(=> {app} false)");
                        self.assert(&binders.join(" "), &body);
                        // newlines of the query and its options (`:print-answer true`, ...)
                        self.out.push_str(&blank(&self.input[start..end]));
                    }
                }
            }
            "assert" | "check-sat" => {
                return Err(err(format!(
                    "`{name}` in a z3 fixedpoint file (one with declare-rel, rule or query): state clauses with rule and ask with query"
                )))
            }
            "declare-datatypes" | "declare-datatype" => {
                // the names: `((N 0) ..)`, z3's `() ((N ctor ..) ..)` or `N`
                let names = match name {
                    "declare-datatype" => items.get(1).copied().into_iter().collect(),
                    _ if items.get(1).is_some_and(|&r| self.text(r).trim() == "()") => items
                        .get(2)
                        .map(|&r| items_of(self.input, r))
                        .unwrap_or_default(),
                    _ => items.get(1).map(|&r| items_of(self.input, r)).unwrap_or_default(),
                };
                for n in names {
                    let first = if self.text(n).starts_with('(') {
                        items_of(self.input, n).first().copied()
                    } else {
                        Some(n)
                    };
                    if let Some(f) = first {
                        self.datatypes.insert(key(self.text(f)));
                    }
                }
                self.out.push_str(&self.input[start..end]);
            }
            _ => self.out.push_str(&self.input[start..end]),
        }
        Ok(())
    }
}

/// The elements of the list at `range`.
fn items_of(input: &str, range: (usize, usize)) -> Vec<(usize, usize)> {
    items(input.as_bytes(), range.0, range.1)
}

/// The elements of the list at `range`, as text.
fn items_text(input: &str, range: (usize, usize)) -> Vec<&str> {
    items_of(input, range)
        .into_iter()
        .map(|(s, e)| &input[s..e])
        .collect()
}

/// True for a rule `(=> ... false)`, also under `forall`.
fn head_is_false(input: &str, formula: (usize, usize)) -> bool {
    let ends = list_ends(input.as_bytes(), formula.0, formula.1);
    let mut f = formula;
    loop {
        let text = &input[f.0..f.1];
        if text == "false" {
            return true;
        }
        if !text.starts_with('(') {
            return false;
        }
        let its = items_with(input.as_bytes(), f.0, f.1, Some(&ends));
        match its.first().map(|&(s, e)| &input[s..e]) {
            Some("forall") if its.len() == 3 => f = its[2],
            Some("=>") if its.len() >= 3 => f = *its.last().unwrap(),
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_and_symbols() {
        let s = "(rule (=> (and (P x |y z|) \"s)\") (Q x)) r1)";
        let its = items_text(s, (0, s.len()));
        assert_eq!(
            its,
            vec!["rule", "(=> (and (P x |y z|) \"s)\") (Q x))", "r1"]
        );
        let syms = symbols(s.as_bytes(), 0, s.len());
        assert_eq!(syms, vec!["rule", "=>", "and", "P", "x", "y z", "Q", "r1"]);
    }

    #[test]
    fn lines_are_kept() {
        let s = "(declare-rel P (Int))\n(declare-var\n x Int)\n(rule\n (=> (= x 0)\n (P x)) name)\n(query P\n :print-answer true)\n";
        let b = s.as_bytes();
        let cmds: Vec<(usize, usize, usize)> = {
            let mut v = vec![];
            let mut i = 0;
            while let Some(p) = s[i..].find('(') {
                let st = i + p;
                let e = skip_item(b, st, b.len());
                v.push((st, e, 1 + s[..st].matches('\n').count()));
                i = e;
            }
            v
        };
        let t = translate(s, &cmds).unwrap();
        assert_eq!(t.text.matches('\n').count(), s.matches('\n').count());
        assert!(t.text.contains("(declare-fun P (Int) Bool)"));
        assert!(t
            .text
            .contains("(assert (forall ((x Int)) \n (=> (= x 0)\n (P x)))"));
        assert!(t.text.contains("(=> (P query!0) false)"));
        assert_eq!(t.queries.len(), 1);
        assert!(t.text[t.queries[0]..].starts_with("(assert"));
    }
}
