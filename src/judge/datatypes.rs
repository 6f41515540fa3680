//! The input's datatype declarations as the judge needs them: the constructors and
//! selectors they declare, and the declarations in an order the judge's solver reads.
//!
//! SMT-LIB wants a sort declared before a field names it, but Solidity's SMTChecker writes
//! files where a field names a datatype a later `declare-datatypes` declares (z3 itself
//! refuses them). The judge then sends the declarations in dependency order instead: each
//! group of datatypes that reach one another (a strongly connected component of the "a
//! field names" graph) as one `declare-datatypes`, after the groups it names.

use super::input::Item;
use super::sexp::{head_atom, read_one, unquote, Sexp};
use rustc_hash::FxHashMap;

/// The constructors and selectors a `declare-datatypes` (SMT-LIB 2.6 or z3's older `(()
/// ((N ctor ..)))`) or `declare-datatype` command declares, without quotes.
pub fn constructors(items: &[Sexp]) -> (Vec<String>, Vec<String>) {
    let (mut out, mut sels) = (vec![], vec![]);
    for d in declared(items) {
        for c in d.ctors {
            let name = match &c {
                Sexp::Atom(a) => Some(a.as_str()),
                Sexp::List(l) => l.first().and_then(Sexp::atom),
            };
            out.extend(name.map(|n| unquote(n).to_string()));
            for f in c.list().unwrap_or_default().iter().skip(1) {
                let sel = f.list().and_then(|l| l.first()).and_then(Sexp::atom);
                sels.extend(sel.map(|n| unquote(n).to_string()));
            }
        }
    }
    (out, sels)
}

/// One declared datatype: its name as written, its arity (`0`, or the number of
/// parameters) and its constructor declarations.
struct Declared {
    name: String,
    arity: String,
    /// `par` and its parameters, for a parametric datatype.
    par: Option<Sexp>,
    ctors: Vec<Sexp>,
}

impl Declared {
    /// Its definition in SMT-LIB 2.6's form: `(ctor ..)`, or `(par (T ..) (ctor ..))`.
    fn definition(&self) -> Sexp {
        let ctors = Sexp::List(self.ctors.clone());
        match &self.par {
            Some(params) => Sexp::List(vec![Sexp::Atom("par".into()), params.clone(), ctors]),
            None => ctors,
        }
    }
}

/// The datatypes a declaration command (its items) declares, in its order.
fn declared(items: &[Sexp]) -> Vec<Declared> {
    let one = |name: &str, arity: String, def: &Sexp| {
        let cs = def.list().unwrap_or_default();
        let (par, ctors) = match cs {
            [Sexp::Atom(p), params, Sexp::List(ctors)] if p == "par" => {
                (Some(params.clone()), ctors.clone())
            }
            _ => (None, cs.to_vec()),
        };
        Declared {
            name: name.to_string(),
            arity,
            par,
            ctors,
        }
    };
    let arity_of = |def: &Sexp| match def.list() {
        Some([Sexp::Atom(p), Sexp::List(params), _]) if p == "par" => params.len().to_string(),
        _ => "0".to_string(),
    };
    match items {
        [h, Sexp::Atom(n), d] if h.atom() == Some("declare-datatype") => {
            vec![one(n, arity_of(d), d)]
        }
        // z3's older form: (declare-datatypes () ((N ctor ..) ..)), a nullary constructor
        // possibly a bare atom
        [_, Sexp::List(ps), Sexp::List(ds)] if ps.is_empty() => ds
            .iter()
            .filter_map(|d| match d.list() {
                Some([Sexp::Atom(n), cs @ ..]) => Some(Declared {
                    name: n.clone(),
                    arity: "0".into(),
                    par: None,
                    ctors: cs
                        .iter()
                        .map(|c| match c {
                            Sexp::Atom(_) => Sexp::List(vec![c.clone()]),
                            l => l.clone(),
                        })
                        .collect(),
                }),
                _ => None,
            })
            .collect(),
        [_, Sexp::List(ns), Sexp::List(ds)] => ns
            .iter()
            .zip(ds)
            .filter_map(|(n, d)| match n.list() {
                Some([Sexp::Atom(n), Sexp::Atom(k)]) => Some(one(n, k.clone(), d)),
                _ => None,
            })
            .collect(),
        _ => vec![],
    }
}

/// The size functions of the input's datatypes, as the judge builds them from the
/// declarations among `items`: one `define-funs-rec` of `|size!N|` for every datatype `N`,
/// by the constructor (an `ite` over its testers, the last constructor in the `else`), `1`
/// plus the sizes of the fields whose sort is a declared datatype; and each function's
/// name with its datatype. A model over recursive datatypes may call them (its own
/// `define-funs-rec` must be exactly this one, so that the judge knows what they are).
/// `None` without datatypes.
pub fn size_functions(items: &[Item]) -> Option<(Sexp, Vec<(String, String)>)> {
    let mut all = vec![];
    for t in items.iter().filter_map(is_declaration) {
        let cmd = read_one(t).ok()?;
        all.extend(declared(cmd.list().unwrap_or_default()));
    }
    if all.is_empty() || all.iter().any(|d| d.par.is_some()) {
        return None;
    }
    let name_of = |n: &str| format!("|size!{}|", unquote(n));
    let declared_name = |s: &Sexp| -> Option<String> {
        s.atom()
            .filter(|a| all.iter().any(|d| unquote(&d.name) == unquote(a)))
            .map(str::to_string)
    };
    let (a, l) = (|s: &str| Sexp::Atom(s.to_string()), Sexp::List);
    let mut decls = vec![];
    let mut bodies = vec![];
    let mut funs = vec![];
    for d in &all {
        let f = name_of(&d.name);
        funs.push((f.clone(), d.name.clone()));
        decls.push(l(vec![
            a(&f),
            l(vec![l(vec![a("x"), a(&d.name)])]),
            a("Int"),
        ]));
        let term = |c: &Sexp| {
            let fields = c.list().unwrap_or_default().iter().skip(1);
            let mut parts = vec![];
            for fd in fields {
                if let Some([Sexp::Atom(sel), sort]) = fd.list() {
                    if let Some(n) = declared_name(sort) {
                        parts.push(l(vec![a(&name_of(&n)), l(vec![a(sel), a("x")])]));
                    }
                }
            }
            if parts.is_empty() {
                a("1")
            } else {
                let mut sum = vec![a("+"), a("1")];
                sum.extend(parts);
                l(sum)
            }
        };
        let ctor_name = |c: &Sexp| match c {
            Sexp::Atom(n) => Some(n.clone()),
            Sexp::List(v) => v.first().and_then(Sexp::atom).map(str::to_string),
        };
        let (last, rest) = d.ctors.split_last()?;
        let mut body = term(last);
        for c in rest.iter().rev() {
            let tester = l(vec![a("_"), a("is"), a(&ctor_name(c)?)]);
            body = l(vec![a("ite"), l(vec![tester, a("x")]), term(c), body]);
        }
        bodies.push(body);
    }
    Some((l(vec![a("define-funs-rec"), l(decls), l(bodies)]), funs))
}

fn is_declaration(item: &Item) -> Option<&str> {
    match item {
        Item::Keep(t) => matches!(
            head_atom(t).as_deref(),
            Some("declare-datatypes" | "declare-datatype")
        )
        .then_some(t.as_str()),
        Item::Pred(_) => None,
    }
}

/// Puts the datatype declarations among `items` in dependency order when some field names
/// a datatype declared by a later command: all of them go where the first one was, each
/// strongly connected group as one `declare-datatypes`, after the groups its fields name.
/// Declarations already in order are left as written.
pub fn order(items: &mut Vec<Item>) -> Result<(), String> {
    let at: Vec<usize> = (0..items.len())
        .filter(|&i| is_declaration(&items[i]).is_some())
        .collect();
    if at.is_empty() {
        return Ok(());
    }
    // per command, its datatypes
    let mut cmds: Vec<Vec<Declared>> = vec![];
    for &i in &at {
        let cmd = read_one(is_declaration(&items[i]).unwrap_or_default())?;
        cmds.push(declared(cmd.list().unwrap_or_default()));
    }
    let all: Vec<&Declared> = cmds.iter().flatten().collect();
    let index: FxHashMap<&str, usize> = all
        .iter()
        .enumerate()
        .map(|(i, d)| (unquote(&d.name), i))
        .collect();
    // the datatypes each one's fields name
    let uses: Vec<Vec<usize>> = all
        .iter()
        .map(|d| {
            let mut out = vec![];
            for c in &d.ctors {
                collect(c, &index, &mut out);
            }
            out
        })
        .collect();
    // in order already: each names only datatypes of its own or an earlier command
    let mut command_of = vec![];
    for (k, c) in cmds.iter().enumerate() {
        command_of.extend(std::iter::repeat_n(k, c.len()));
    }
    let in_order = (0..all.len()).all(|d| uses[d].iter().all(|&u| command_of[u] <= command_of[d]));
    if in_order {
        return Ok(());
    }
    let mut text = String::new();
    for group in components(&uses) {
        let names: Vec<Sexp> = group
            .iter()
            .map(|&d| {
                Sexp::List(vec![
                    Sexp::Atom(all[d].name.clone()),
                    Sexp::Atom(all[d].arity.clone()),
                ])
            })
            .collect();
        let defs: Vec<Sexp> = group.iter().map(|&d| all[d].definition()).collect();
        let cmd = Sexp::List(vec![
            Sexp::Atom("declare-datatypes".into()),
            Sexp::List(names),
            Sexp::List(defs),
        ]);
        if !text.is_empty() {
            text.push('\n');
        }
        cmd.write(&mut text);
    }
    items[at[0]] = Item::Keep(text);
    for &i in at[1..].iter().rev() {
        items.remove(i);
    }
    Ok(())
}

/// The datatypes (by index) whose names occur in `e`.
fn collect(e: &Sexp, index: &FxHashMap<&str, usize>, out: &mut Vec<usize>) {
    match e {
        Sexp::Atom(a) => {
            if let Some(&d) = index.get(unquote(a)) {
                if !out.contains(&d) {
                    out.push(d);
                }
            }
        }
        Sexp::List(l) => l.iter().for_each(|x| collect(x, index, out)),
    }
}

/// The strongly connected components of the graph `uses` (Tarjan's algorithm), each after
/// the components it reaches; the members of a component in index order.
fn components(uses: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct Tarjan<'a> {
        uses: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for k in 0..self.uses[v].len() {
                let w = self.uses[v][k];
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut group = vec![];
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    group.push(w);
                    if w == v {
                        break;
                    }
                }
                group.sort_unstable();
                self.out.push(group);
            }
        }
    }
    let n = uses.len();
    let mut t = Tarjan {
        uses,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: vec![],
        next: 0,
        out: vec![],
    };
    for v in 0..n {
        if t.index[v].is_none() {
            t.visit(v);
        }
    }
    t.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keep(t: &str) -> Item {
        Item::Keep(t.to_string())
    }

    fn texts(items: &[Item]) -> Vec<String> {
        items
            .iter()
            .map(|i| match i {
                Item::Keep(t) => t.clone(),
                Item::Pred(p) => format!("pred {p}"),
            })
            .collect()
    }

    #[test]
    fn declarations_in_order_are_left_as_written() {
        let mut items = vec![
            keep("(declare-datatypes ((A 0)) (((a (x Int)))))"),
            keep("(declare-datatypes ((B 0) (C 0)) (((b (y A) (z C))) ((c))))"),
            Item::Pred(0),
        ];
        let before = texts(&items);
        order(&mut items).unwrap();
        assert_eq!(texts(&items), before);
    }

    #[test]
    fn a_datatype_named_before_its_declaration_moves_ahead() {
        let mut items = vec![
            keep("(set-logic HORN)"),
            keep("(declare-datatypes ((|S| 0) (T 0)) (((|S| (f (Array Int U)))) ((t (g |S|)))))"),
            keep("(declare-datatypes () ((U (u (h Int)) none)))"),
            Item::Pred(0),
            keep("(declare-datatype V (par (X) ((v (k X)))))"),
        ];
        order(&mut items).unwrap();
        assert_eq!(
            texts(&items),
            vec![
                "(set-logic HORN)".to_string(),
                "(declare-datatypes ((U 0)) (((u (h Int)) (none))))\n\
                 (declare-datatypes ((|S| 0)) (((|S| (f (Array Int U))))))\n\
                 (declare-datatypes ((T 0)) (((t (g |S|)))))\n\
                 (declare-datatypes ((V 1)) ((par (X) ((v (k X))))))"
                    .to_string(),
                "pred 0".to_string(),
            ]
        );
    }

    #[test]
    fn datatypes_that_name_each_other_stay_one_group() {
        let mut items = vec![
            keep("(declare-datatypes ((A 0)) (((a (x B)) (nil))))"),
            keep("(declare-datatypes ((B 0)) (((b (y A)))))"),
        ];
        order(&mut items).unwrap();
        assert_eq!(
            texts(&items),
            vec!["(declare-datatypes ((A 0) (B 0)) (((a (x B)) (nil)) ((b (y A)))))"]
        );
    }
}
