//! A compact syntax tree built by an smt2parser visitor: interned symbols and sorts, terms in per-command `u32` arenas.
//!
//! smt2parser's LR parser moves every value it builds through its stack, and its
//! concrete syntax tree allocates a `String` per symbol and a `Vec` per node that
//! live until the command is done. Here every visitor value is a `u32` (or a
//! small enum): symbols are interned once for the whole input, sorts are
//! hash-consed, and terms, constants and children lists go into flat arenas that
//! are cleared after each command. Rare constructs (attributes, `match`,
//! s-expressions, commands we reject) keep their concrete form.
//!
//! Any node can be turned back into smt2parser's concrete syntax, so error
//! messages print exactly what `concrete::*`'s `Display` prints. The visitor
//! traits themselves are implemented in `visitor.rs`.

use rustc_hash::FxHashMap;
use smt2parser::concrete::{self, Constant, Error, Keyword, SExpr};
use smt2parser::visitors::{
    AttributeValue, ConstructorDec, DatatypeDec, FunctionDec, Identifier, Index,
};

/// An interned symbol.
pub(super) type Sym = u32;
/// A term in the current command's arena.
pub(super) type TermId = u32;
/// A hash-consed sort (valid for the whole input).
pub(super) type SortId = u32;
/// A constant in the current command's arena.
pub(super) type ConstId = u32;
/// An s-expression (only in attributes and `set-info`, so kept concrete).
pub(super) type SExprBox = Box<SExpr>;
/// An attribute value over the compact syntax.
pub(super) type AttrValue = AttributeValue<ConstId, Sym, SExprBox>;

const COMPLEX: u32 = 1 << 31;

/// A qualified identifier: a plain symbol, or an index into the command's
/// table of indexed or `as`-sorted identifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct QId(pub u32);

/// A term node; children live in [`Syntax::kids`] and [`Syntax::pairs`].
#[derive(Clone, Copy, Debug)]
pub(super) enum Node {
    Const(ConstId),
    Id(QId),
    /// `(head kids[start..start+len])`.
    App {
        head: QId,
        start: u32,
        len: u32,
    },
    /// `(let ((sym term) ...) body)` with the bindings at `pairs[start..start+len]`.
    Let {
        start: u32,
        len: u32,
        body: TermId,
    },
    /// `(forall ((sym sort) ...) body)` with the variables at `pairs[start..start+len]`.
    Forall {
        start: u32,
        len: u32,
        body: TermId,
    },
    Exists {
        start: u32,
        len: u32,
        body: TermId,
    },
    /// Index into [`Syntax::rare`].
    Match(u32),
    Attributes {
        term: TermId,
        rare: u32,
    },
}

/// Terms too rare to deserve a compact form.
#[derive(Debug)]
pub(super) enum Rare {
    Match {
        term: TermId,
        cases: Vec<(Vec<Sym>, TermId)>,
    },
    Attributes(Vec<(Keyword, AttrValue)>),
}

/// A parsed command: the ones a CHC problem is made of in compact form, the rest concrete.
#[derive(Debug)]
pub(super) enum Cmd {
    Assert(TermId),
    CheckSat,
    DeclareFun {
        symbol: Sym,
        params: Vec<SortId>,
        sort: SortId,
    },
    SetLogic(Sym),
    Exit,
    GetModel,
    Other(Box<concrete::Command>),
}

/// One command's arenas (see [`Syntax`]), when a command is kept for later.
pub(super) struct Arenas {
    pub nodes: Vec<Node>,
    pub kids: Vec<TermId>,
    pub pairs: Vec<(Sym, u32)>,
    pub consts: Vec<Constant>,
    pub qids: Vec<(Identifier<Sym>, Option<SortId>)>,
    pub rare: Vec<Rare>,
}

/// The visitor and the arenas it fills.
#[derive(Default)]
pub(super) struct Syntax {
    names: Vec<Box<str>>,
    /// Names of one or two bytes (70% of the symbols in large inputs), by [`tiny_index`];
    /// `u32::MAX` when not interned yet.
    tiny_syms: Vec<Sym>,
    /// Other names of at most 15 bytes, keyed inline by [`short_key`] (no pointer to follow).
    short_syms: FxHashMap<u128, Sym>,
    long_syms: FxHashMap<Box<str>, Sym>,
    sorts: Vec<(Identifier<Sym>, Vec<SortId>)>,
    sort_map: FxHashMap<(Identifier<Sym>, Vec<SortId>), SortId>,
    /// Simple sorts by symbol, `u32::MAX` when not yet made.
    simple_sorts: Vec<SortId>,
    // Per-command arenas.
    pub nodes: Vec<Node>,
    pub kids: Vec<TermId>,
    pub pairs: Vec<(Sym, u32)>,
    pub consts: Vec<Constant>,
    pub qids: Vec<(Identifier<Sym>, Option<SortId>)>,
    pub rare: Vec<Rare>,
}

impl Syntax {
    /// A visitor whose first symbols are `builtins`, in order (so their ids are their indices).
    pub fn new(builtins: &[&str]) -> Syntax {
        let mut s = Syntax::default();
        for b in builtins {
            s.intern(b.to_string());
        }
        s
    }

    /// The current command's arenas, moved out at their size (the arenas keep their
    /// capacity for the next command).
    pub fn take_arenas(&mut self) -> Arenas {
        let a = Arenas {
            nodes: self.nodes.clone(),
            kids: self.kids.clone(),
            pairs: self.pairs.clone(),
            consts: self.consts.clone(),
            qids: self.qids.clone(),
            rare: std::mem::take(&mut self.rare),
        };
        self.clear_command();
        a
    }

    /// Makes `a` the current command's arenas.
    pub fn put_arenas(&mut self, a: Arenas) {
        self.nodes = a.nodes;
        self.kids = a.kids;
        self.pairs = a.pairs;
        self.consts = a.consts;
        self.qids = a.qids;
        self.rare = a.rare;
    }

    /// The sorts, in the order of their ids.
    pub fn sorts(&self) -> &[(Identifier<Sym>, Vec<SortId>)] {
        &self.sorts
    }

    /// Is `q` an index into [`Syntax::qids`] rather than a plain symbol?
    pub fn is_complex(q: QId) -> bool {
        q.0 & COMPLEX != 0
    }

    /// Forgets the current command's terms (symbols and sorts stay).
    pub fn clear_command(&mut self) {
        self.nodes.clear();
        self.kids.clear();
        self.pairs.clear();
        self.consts.clear();
        self.qids.clear();
        self.rare.clear();
    }

    pub fn intern(&mut self, s: String) -> Sym {
        if let Some(i) = tiny_index(&s) {
            if self.tiny_syms.is_empty() {
                self.tiny_syms = vec![u32::MAX; 256 + (1 << 16)];
            }
            if self.tiny_syms[i] == u32::MAX {
                self.tiny_syms[i] = self.names.len() as Sym;
                self.names.push(s.into_boxed_str());
            }
            return self.tiny_syms[i];
        }
        let key = short_key(&s);
        let found = match key {
            Some(k) => self.short_syms.get(&k),
            None => self.long_syms.get(s.as_str()),
        };
        if let Some(&id) = found {
            return id;
        }
        let id = self.names.len() as Sym;
        assert!(id < COMPLEX, "too many symbols");
        let b: Box<str> = s.into_boxed_str();
        match key {
            Some(k) => {
                self.short_syms.insert(k, id);
            }
            None => {
                self.long_syms.insert(b.clone(), id);
            }
        }
        self.names.push(b);
        id
    }

    pub fn num_syms(&self) -> usize {
        self.names.len()
    }

    pub fn name(&self, s: Sym) -> &str {
        &self.names[s as usize]
    }

    pub fn node(&self, t: TermId) -> Node {
        self.nodes[t as usize]
    }

    pub fn kids(&self, start: u32, len: u32) -> &[TermId] {
        &self.kids[start as usize..(start + len) as usize]
    }

    pub fn pairs(&self, start: u32, len: u32) -> &[(Sym, u32)] {
        &self.pairs[start as usize..(start + len) as usize]
    }

    pub fn constant(&self, c: ConstId) -> &Constant {
        &self.consts[c as usize]
    }

    /// The sort as a simple symbol, if it is one.
    pub fn simple_sort(&self, s: SortId) -> Option<Sym> {
        match &self.sorts[s as usize] {
            (Identifier::Simple { symbol }, params) if params.is_empty() => Some(*symbol),
            _ => None,
        }
    }

    /// The index and element sorts of `(Array I E)`.
    pub fn array_sort_parts(&self, s: SortId) -> Option<(SortId, SortId)> {
        match &self.sorts[s as usize] {
            (Identifier::Simple { symbol }, params)
                if *symbol == super::op::ARRAY && params.len() == 2 =>
            {
                Some((params[0], params[1]))
            }
            _ => None,
        }
    }

    /// The sort of a qualified identifier `(as f S)`, if it has one.
    pub fn qsort(&self, q: QId) -> Option<SortId> {
        if q.0 & COMPLEX == 0 {
            return None;
        }
        self.qids[(q.0 & !COMPLEX) as usize].1
    }

    /// The symbol of a qualified identifier (ignoring indices and sort).
    pub fn qsym(&self, q: QId) -> Sym {
        if q.0 & COMPLEX == 0 {
            return q.0;
        }
        match &self.qids[(q.0 & !COMPLEX) as usize].0 {
            Identifier::Simple { symbol } | Identifier::Indexed { symbol, .. } => *symbol,
        }
    }

    pub fn push_node(&mut self, n: Node) -> TermId {
        let id = self.nodes.len() as TermId;
        self.nodes.push(n);
        id
    }

    pub fn push_pairs(&mut self, ps: impl IntoIterator<Item = (Sym, u32)>) -> (u32, u32) {
        let start = self.pairs.len();
        self.pairs.extend(ps);
        (start as u32, (self.pairs.len() - start) as u32)
    }

    pub fn mk_sort(&mut self, identifier: Identifier<Sym>, params: Vec<SortId>) -> SortId {
        if let (Identifier::Simple { symbol }, true) = (&identifier, params.is_empty()) {
            let i = *symbol as usize;
            if let Some(&s) = self.simple_sorts.get(i) {
                if s != u32::MAX {
                    return s;
                }
            }
        }
        let key = (identifier, params);
        if let Some(&s) = self.sort_map.get(&key) {
            return s;
        }
        let id = self.sorts.len() as SortId;
        if let (Identifier::Simple { symbol }, true) = (&key.0, key.1.is_empty()) {
            let i = *symbol as usize;
            if self.simple_sorts.len() <= i {
                self.simple_sorts.resize(i + 1, u32::MAX);
            }
            self.simple_sorts[i] = id;
        }
        self.sorts.push(key.clone());
        self.sort_map.insert(key, id);
        id
    }

    pub fn complex_qid(&mut self, id: Identifier<Sym>, sort: Option<SortId>) -> QId {
        self.qids.push((id, sort));
        QId(COMPLEX | (self.qids.len() - 1) as u32)
    }

    // ------------------------------------------------------------ back to concrete syntax

    pub fn c_symbol(&self, s: Sym) -> concrete::Symbol {
        concrete::Symbol(self.name(s).to_string())
    }

    pub fn c_ident(&self, id: &Identifier<Sym>) -> Identifier {
        match id {
            Identifier::Simple { symbol } => Identifier::Simple {
                symbol: self.c_symbol(*symbol),
            },
            Identifier::Indexed { symbol, indices } => Identifier::Indexed {
                symbol: self.c_symbol(*symbol),
                indices: indices
                    .iter()
                    .map(|i| match i {
                        Index::Numeral(n) => Index::Numeral(n.clone()),
                        Index::Symbol(s) => Index::Symbol(self.c_symbol(*s)),
                    })
                    .collect(),
            },
        }
    }

    pub fn c_sort(&self, s: SortId) -> concrete::Sort {
        let (id, params) = &self.sorts[s as usize];
        if params.is_empty() {
            concrete::Sort::Simple {
                identifier: self.c_ident(id),
            }
        } else {
            concrete::Sort::Parameterized {
                identifier: self.c_ident(id),
                parameters: params.iter().map(|p| self.c_sort(*p)).collect(),
            }
        }
    }

    fn c_qual(&self, q: QId) -> concrete::QualIdentifier {
        if q.0 & COMPLEX == 0 {
            return concrete::QualIdentifier::Simple {
                identifier: Identifier::Simple {
                    symbol: self.c_symbol(q.0),
                },
            };
        }
        let (id, sort) = &self.qids[(q.0 & !COMPLEX) as usize];
        match sort {
            None => concrete::QualIdentifier::Simple {
                identifier: self.c_ident(id),
            },
            Some(s) => concrete::QualIdentifier::Sorted {
                identifier: self.c_ident(id),
                sort: self.c_sort(*s),
            },
        }
    }

    pub fn c_attr(&self, v: &AttrValue) -> AttributeValue {
        match v {
            AttributeValue::None => AttributeValue::None,
            AttributeValue::Constant(c) => AttributeValue::Constant(self.constant(*c).clone()),
            AttributeValue::Symbol(s) => AttributeValue::Symbol(self.c_symbol(*s)),
            AttributeValue::SExpr(xs) => {
                AttributeValue::SExpr(xs.iter().map(|x| (**x).clone()).collect())
            }
        }
    }

    fn c_sorted_vars(&self, start: u32, len: u32) -> Vec<(concrete::Symbol, concrete::Sort)> {
        self.pairs(start, len)
            .iter()
            .map(|&(v, s)| (self.c_symbol(v), self.c_sort(s)))
            .collect()
    }

    /// The term in smt2parser's concrete syntax (for messages).
    pub fn c_term(&self, t: TermId) -> concrete::Term {
        use concrete::Term as C;
        match self.node(t) {
            Node::Const(c) => C::Constant(self.constant(c).clone()),
            Node::Id(q) => C::QualIdentifier(self.c_qual(q)),
            Node::App { head, start, len } => C::Application {
                qual_identifier: self.c_qual(head),
                arguments: self
                    .kids(start, len)
                    .iter()
                    .map(|a| self.c_term(*a))
                    .collect(),
            },
            Node::Let { start, len, body } => C::Let {
                var_bindings: self
                    .pairs(start, len)
                    .iter()
                    .map(|&(v, x)| (self.c_symbol(v), self.c_term(x)))
                    .collect(),
                term: Box::new(self.c_term(body)),
            },
            Node::Forall { start, len, body } => C::Forall {
                vars: self.c_sorted_vars(start, len),
                term: Box::new(self.c_term(body)),
            },
            Node::Exists { start, len, body } => C::Exists {
                vars: self.c_sorted_vars(start, len),
                term: Box::new(self.c_term(body)),
            },
            Node::Match(r) => match &self.rare[r as usize] {
                Rare::Match { term, cases } => C::Match {
                    term: Box::new(self.c_term(*term)),
                    cases: cases
                        .iter()
                        .map(|(p, x)| {
                            (
                                p.iter().map(|s| self.c_symbol(*s)).collect(),
                                self.c_term(*x),
                            )
                        })
                        .collect(),
                },
                Rare::Attributes(_) => unreachable!("match node without match data"),
            },
            Node::Attributes { term, rare } => match &self.rare[rare as usize] {
                Rare::Attributes(attrs) => C::Attributes {
                    term: Box::new(self.c_term(term)),
                    attributes: attrs
                        .iter()
                        .map(|(k, v)| (k.clone(), self.c_attr(v)))
                        .collect(),
                },
                Rare::Match { .. } => unreachable!("attribute node without attributes"),
            },
        }
    }

    pub fn c_fun_dec(&self, d: &FunctionDec<Sym, SortId>) -> FunctionDec {
        FunctionDec {
            name: self.c_symbol(d.name),
            parameters: d
                .parameters
                .iter()
                .map(|&(v, s)| (self.c_symbol(v), self.c_sort(s)))
                .collect(),
            result: self.c_sort(d.result),
        }
    }

    pub fn c_datatype(&self, d: &DatatypeDec<Sym, SortId>) -> DatatypeDec {
        DatatypeDec {
            parameters: d.parameters.iter().map(|s| self.c_symbol(*s)).collect(),
            constructors: d
                .constructors
                .iter()
                .map(|c| ConstructorDec {
                    symbol: self.c_symbol(c.symbol),
                    selectors: c
                        .selectors
                        .iter()
                        .map(|&(v, s)| (self.c_symbol(v), self.c_sort(s)))
                        .collect(),
                })
                .collect(),
        }
    }

    /// The command in smt2parser's concrete syntax (for messages).
    pub fn c_command(&self, cmd: &Cmd) -> concrete::Command {
        use concrete::Command as C;
        match cmd {
            Cmd::Assert(t) => C::Assert {
                term: self.c_term(*t),
            },
            Cmd::CheckSat => C::CheckSat,
            Cmd::DeclareFun {
                symbol,
                params,
                sort,
            } => C::DeclareFun {
                symbol: self.c_symbol(*symbol),
                parameters: params.iter().map(|s| self.c_sort(*s)).collect(),
                sort: self.c_sort(*sort),
            },
            Cmd::SetLogic(s) => C::SetLogic {
                symbol: self.c_symbol(*s),
            },
            Cmd::Exit => C::Exit,
            Cmd::GetModel => C::GetModel,
            Cmd::Other(c) => (**c).clone(),
        }
    }

    pub fn other(&self, c: concrete::Command) -> Result<Cmd, Error> {
        Ok(Cmd::Other(Box::new(c)))
    }
}

/// The slot of a one- or two-byte name in [`Syntax::tiny_syms`].
fn tiny_index(s: &str) -> Option<usize> {
    match *s.as_bytes() {
        [a] => Some(a as usize),
        [a, b] => Some(256 + (a as usize | (b as usize) << 8)),
        _ => None,
    }
}

/// A name of at most 15 bytes as one integer: its bytes, then its length in the top byte.
fn short_key(s: &str) -> Option<u128> {
    let b = s.as_bytes();
    if b.len() > 15 {
        return None;
    }
    let mut buf = [0u8; 16];
    buf[..b.len()].copy_from_slice(b);
    buf[15] = b.len() as u8;
    Some(u128::from_le_bytes(buf))
}
