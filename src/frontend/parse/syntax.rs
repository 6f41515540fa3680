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
//! messages print exactly what `concrete::*`'s `Display` prints.

use rustc_hash::FxHashMap;
use smt2parser::concrete::{self, Constant, Error, Keyword, SExpr};
use smt2parser::visitors::{
    AttributeValue, CommandVisitor, ConstantVisitor, ConstructorDec, DatatypeDec, FunctionDec,
    Identifier, Index, KeywordVisitor, QualIdentifierVisitor, SExprVisitor, Smt2Visitor,
    SortVisitor, SymbolKind, SymbolVisitor, TermVisitor,
};
use smt2parser::{Binary, Decimal, Hexadecimal, Numeral, Position};

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
pub(super) struct QId(u32);

/// A term node; children live in [`Syntax::kids`] and [`Syntax::pairs`].
#[derive(Clone, Copy, Debug)]
pub(super) enum Node {
    Const(ConstId),
    Id(QId),
    /// `(head kids[start..start+len])`.
    App { head: QId, start: u32, len: u32 },
    /// `(let ((sym term) ...) body)` with the bindings at `pairs[start..start+len]`.
    Let { start: u32, len: u32, body: TermId },
    /// `(forall ((sym sort) ...) body)` with the variables at `pairs[start..start+len]`.
    Forall { start: u32, len: u32, body: TermId },
    Exists { start: u32, len: u32, body: TermId },
    /// Index into [`Syntax::rare`].
    Match(u32),
    Attributes { term: TermId, rare: u32 },
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

/// The visitor and the arenas it fills.
#[derive(Default)]
pub(super) struct Syntax {
    names: Vec<Box<str>>,
    sym_map: FxHashMap<Box<str>, Sym>,
    sorts: Vec<(Identifier<Sym>, Vec<SortId>)>,
    sort_map: FxHashMap<(Identifier<Sym>, Vec<SortId>), SortId>,
    /// Simple sorts by symbol, `u32::MAX` when not yet made.
    simple_sorts: Vec<SortId>,
    // Per-command arenas.
    pub nodes: Vec<Node>,
    pub kids: Vec<TermId>,
    pub pairs: Vec<(Sym, u32)>,
    consts: Vec<Constant>,
    qids: Vec<(Identifier<Sym>, Option<SortId>)>,
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

    /// Forgets the current command's terms (symbols and sorts stay).
    pub fn clear_command(&mut self) {
        self.nodes.clear();
        self.kids.clear();
        self.pairs.clear();
        self.consts.clear();
        self.qids.clear();
        self.rare.clear();
    }

    fn intern(&mut self, s: String) -> Sym {
        if let Some(&id) = self.sym_map.get(s.as_str()) {
            return id;
        }
        let id = self.names.len() as Sym;
        assert!(id < COMPLEX, "too many symbols");
        let b: Box<str> = s.into_boxed_str();
        self.names.push(b.clone());
        self.sym_map.insert(b, id);
        id
    }

    pub fn num_syms(&self) -> usize {
        self.names.len()
    }

    pub fn num_sorts(&self) -> usize {
        self.sorts.len()
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

    /// The symbol of a qualified identifier (ignoring indices and sort).
    pub fn qsym(&self, q: QId) -> Sym {
        if q.0 & COMPLEX == 0 {
            return q.0;
        }
        match &self.qids[(q.0 & !COMPLEX) as usize].0 {
            Identifier::Simple { symbol } | Identifier::Indexed { symbol, .. } => *symbol,
        }
    }

    fn push_node(&mut self, n: Node) -> TermId {
        let id = self.nodes.len() as TermId;
        self.nodes.push(n);
        id
    }

    fn push_pairs(&mut self, ps: impl IntoIterator<Item = (Sym, u32)>) -> (u32, u32) {
        let start = self.pairs.len();
        self.pairs.extend(ps);
        (start as u32, (self.pairs.len() - start) as u32)
    }

    fn mk_sort(&mut self, identifier: Identifier<Sym>, params: Vec<SortId>) -> SortId {
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

    fn complex_qid(&mut self, id: Identifier<Sym>, sort: Option<SortId>) -> QId {
        self.qids.push((id, sort));
        QId(COMPLEX | (self.qids.len() - 1) as u32)
    }

    // ------------------------------------------------------------ back to concrete syntax

    pub fn c_symbol(&self, s: Sym) -> concrete::Symbol {
        concrete::Symbol(self.name(s).to_string())
    }

    fn c_ident(&self, id: &Identifier<Sym>) -> Identifier {
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

    fn c_attr(&self, v: &AttrValue) -> AttributeValue {
        match v {
            AttributeValue::None => AttributeValue::None,
            AttributeValue::Constant(c) => AttributeValue::Constant(self.constant(*c).clone()),
            AttributeValue::Symbol(s) => AttributeValue::Symbol(self.c_symbol(*s)),
            AttributeValue::SExpr(xs) => AttributeValue::SExpr(xs.iter().map(|x| (**x).clone()).collect()),
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
                arguments: self.kids(start, len).iter().map(|a| self.c_term(*a)).collect(),
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
                        .map(|(p, x)| (p.iter().map(|s| self.c_symbol(*s)).collect(), self.c_term(*x)))
                        .collect(),
                },
                Rare::Attributes(_) => unreachable!("match node without match data"),
            },
            Node::Attributes { term, rare } => match &self.rare[rare as usize] {
                Rare::Attributes(attrs) => C::Attributes {
                    term: Box::new(self.c_term(term)),
                    attributes: attrs.iter().map(|(k, v)| (k.clone(), self.c_attr(v))).collect(),
                },
                Rare::Match { .. } => unreachable!("attribute node without attributes"),
            },
        }
    }

    fn c_fun_dec(&self, d: &FunctionDec<Sym, SortId>) -> FunctionDec {
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

    fn c_datatype(&self, d: &DatatypeDec<Sym, SortId>) -> DatatypeDec {
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
            Cmd::Assert(t) => C::Assert { term: self.c_term(*t) },
            Cmd::CheckSat => C::CheckSat,
            Cmd::DeclareFun { symbol, params, sort } => C::DeclareFun {
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

    fn other(&self, c: concrete::Command) -> Result<Cmd, Error> {
        Ok(Cmd::Other(Box::new(c)))
    }
}

type R<T> = Result<T, Error>;

impl ConstantVisitor for Syntax {
    type T = ConstId;
    type E = Error;

    fn visit_numeral_constant(&mut self, value: Numeral) -> R<ConstId> {
        self.consts.push(Constant::Numeral(value));
        Ok((self.consts.len() - 1) as ConstId)
    }
    fn visit_decimal_constant(&mut self, value: Decimal) -> R<ConstId> {
        self.consts.push(Constant::Decimal(value));
        Ok((self.consts.len() - 1) as ConstId)
    }
    fn visit_hexadecimal_constant(&mut self, value: Hexadecimal) -> R<ConstId> {
        self.consts.push(Constant::Hexadecimal(value));
        Ok((self.consts.len() - 1) as ConstId)
    }
    fn visit_binary_constant(&mut self, value: Binary) -> R<ConstId> {
        self.consts.push(Constant::Binary(value));
        Ok((self.consts.len() - 1) as ConstId)
    }
    fn visit_string_constant(&mut self, value: String) -> R<ConstId> {
        self.consts.push(Constant::String(value));
        Ok((self.consts.len() - 1) as ConstId)
    }
}

impl SymbolVisitor for Syntax {
    type T = Sym;
    type E = Error;

    fn visit_fresh_symbol(&mut self, value: String, _kind: SymbolKind) -> R<Sym> {
        Ok(self.intern(value))
    }
    fn visit_bound_symbol(&mut self, value: String) -> R<Sym> {
        Ok(self.intern(value))
    }
    fn visit_any_symbol(&mut self, value: String) -> R<Sym> {
        Ok(self.intern(value))
    }
}

impl KeywordVisitor for Syntax {
    type T = Keyword;
    type E = Error;

    fn visit_keyword(&mut self, value: String) -> R<Keyword> {
        Ok(Keyword(value))
    }
}

impl SExprVisitor<ConstId, Sym, Keyword> for Syntax {
    type T = SExprBox;
    type E = Error;

    fn visit_constant_s_expr(&mut self, value: ConstId) -> R<SExprBox> {
        Ok(Box::new(SExpr::Constant(self.constant(value).clone())))
    }
    fn visit_symbol_s_expr(&mut self, value: Sym) -> R<SExprBox> {
        Ok(Box::new(SExpr::Symbol(self.c_symbol(value))))
    }
    fn visit_keyword_s_expr(&mut self, value: Keyword) -> R<SExprBox> {
        Ok(Box::new(SExpr::Keyword(value)))
    }
    fn visit_application_s_expr(&mut self, values: Vec<SExprBox>) -> R<SExprBox> {
        Ok(Box::new(SExpr::Application(values.into_iter().map(|b| *b).collect())))
    }
}

impl QualIdentifierVisitor<Identifier<Sym>, SortId> for Syntax {
    type T = QId;
    type E = Error;

    fn visit_simple_identifier(&mut self, identifier: Identifier<Sym>) -> R<QId> {
        Ok(match identifier {
            Identifier::Simple { symbol } => QId(symbol),
            id => self.complex_qid(id, None),
        })
    }
    fn visit_sorted_identifier(&mut self, identifier: Identifier<Sym>, sort: SortId) -> R<QId> {
        Ok(self.complex_qid(identifier, Some(sort)))
    }
}

impl SortVisitor<Sym> for Syntax {
    type T = SortId;
    type E = Error;

    fn visit_simple_sort(&mut self, identifier: Identifier<Sym>) -> R<SortId> {
        Ok(self.mk_sort(identifier, vec![]))
    }
    fn visit_parameterized_sort(&mut self, identifier: Identifier<Sym>, parameters: Vec<SortId>) -> R<SortId> {
        Ok(self.mk_sort(identifier, parameters))
    }
}

impl TermVisitor<ConstId, QId, Keyword, SExprBox, Sym, SortId> for Syntax {
    type T = TermId;
    type E = Error;

    fn visit_constant(&mut self, constant: ConstId) -> R<TermId> {
        Ok(self.push_node(Node::Const(constant)))
    }
    fn visit_qual_identifier(&mut self, qual_identifier: QId) -> R<TermId> {
        Ok(self.push_node(Node::Id(qual_identifier)))
    }
    fn visit_application(&mut self, qual_identifier: QId, arguments: Vec<TermId>) -> R<TermId> {
        let start = self.kids.len() as u32;
        self.kids.extend_from_slice(&arguments);
        let len = arguments.len() as u32;
        // `arguments` is freed here, right after the parser allocated it, so the
        // allocator reuses its memory at once.
        drop(arguments);
        Ok(self.push_node(Node::App {
            head: qual_identifier,
            start,
            len,
        }))
    }
    fn visit_let(&mut self, var_bindings: Vec<(Sym, TermId)>, term: TermId) -> R<TermId> {
        let (start, len) = self.push_pairs(var_bindings);
        Ok(self.push_node(Node::Let { start, len, body: term }))
    }
    fn visit_forall(&mut self, vars: Vec<(Sym, SortId)>, term: TermId) -> R<TermId> {
        let (start, len) = self.push_pairs(vars);
        Ok(self.push_node(Node::Forall { start, len, body: term }))
    }
    fn visit_exists(&mut self, vars: Vec<(Sym, SortId)>, term: TermId) -> R<TermId> {
        let (start, len) = self.push_pairs(vars);
        Ok(self.push_node(Node::Exists { start, len, body: term }))
    }
    fn visit_match(&mut self, term: TermId, cases: Vec<(Vec<Sym>, TermId)>) -> R<TermId> {
        self.rare.push(Rare::Match { term, cases });
        let r = (self.rare.len() - 1) as u32;
        Ok(self.push_node(Node::Match(r)))
    }
    fn visit_attributes(&mut self, term: TermId, attributes: Vec<(Keyword, AttrValue)>) -> R<TermId> {
        self.rare.push(Rare::Attributes(attributes));
        let rare = (self.rare.len() - 1) as u32;
        Ok(self.push_node(Node::Attributes { term, rare }))
    }
}

impl CommandVisitor<TermId, Sym, SortId, Keyword, ConstId, SExprBox> for Syntax {
    type T = Cmd;
    type E = Error;

    fn visit_assert(&mut self, term: TermId) -> R<Cmd> {
        Ok(Cmd::Assert(term))
    }
    fn visit_check_sat(&mut self) -> R<Cmd> {
        Ok(Cmd::CheckSat)
    }
    fn visit_check_sat_assuming(&mut self, literals: Vec<(Sym, bool)>) -> R<Cmd> {
        let literals = literals.into_iter().map(|(s, b)| (self.c_symbol(s), b)).collect();
        self.other(concrete::Command::CheckSatAssuming { literals })
    }
    fn visit_declare_const(&mut self, symbol: Sym, sort: SortId) -> R<Cmd> {
        self.other(concrete::Command::DeclareConst {
            symbol: self.c_symbol(symbol),
            sort: self.c_sort(sort),
        })
    }
    fn visit_declare_datatype(&mut self, symbol: Sym, datatype: DatatypeDec<Sym, SortId>) -> R<Cmd> {
        self.other(concrete::Command::DeclareDatatype {
            symbol: self.c_symbol(symbol),
            datatype: self.c_datatype(&datatype),
        })
    }
    fn visit_declare_datatypes(&mut self, datatypes: Vec<(Sym, Numeral, DatatypeDec<Sym, SortId>)>) -> R<Cmd> {
        let datatypes = datatypes
            .into_iter()
            .map(|(s, n, d)| (self.c_symbol(s), n, self.c_datatype(&d)))
            .collect();
        self.other(concrete::Command::DeclareDatatypes { datatypes })
    }
    fn visit_declare_fun(&mut self, symbol: Sym, parameters: Vec<SortId>, sort: SortId) -> R<Cmd> {
        Ok(Cmd::DeclareFun {
            symbol,
            params: parameters,
            sort,
        })
    }
    fn visit_declare_sort(&mut self, symbol: Sym, arity: Numeral) -> R<Cmd> {
        self.other(concrete::Command::DeclareSort {
            symbol: self.c_symbol(symbol),
            arity,
        })
    }
    fn visit_define_fun(&mut self, sig: FunctionDec<Sym, SortId>, term: TermId) -> R<Cmd> {
        self.other(concrete::Command::DefineFun {
            sig: self.c_fun_dec(&sig),
            term: self.c_term(term),
        })
    }
    fn visit_define_fun_rec(&mut self, sig: FunctionDec<Sym, SortId>, term: TermId) -> R<Cmd> {
        self.other(concrete::Command::DefineFunRec {
            sig: self.c_fun_dec(&sig),
            term: self.c_term(term),
        })
    }
    fn visit_define_funs_rec(&mut self, funs: Vec<(FunctionDec<Sym, SortId>, TermId)>) -> R<Cmd> {
        let funs = funs
            .iter()
            .map(|(d, t)| (self.c_fun_dec(d), self.c_term(*t)))
            .collect();
        self.other(concrete::Command::DefineFunsRec { funs })
    }
    fn visit_define_sort(&mut self, symbol: Sym, parameters: Vec<Sym>, sort: SortId) -> R<Cmd> {
        self.other(concrete::Command::DefineSort {
            symbol: self.c_symbol(symbol),
            parameters: parameters.iter().map(|s| self.c_symbol(*s)).collect(),
            sort: self.c_sort(sort),
        })
    }
    fn visit_echo(&mut self, message: String) -> R<Cmd> {
        self.other(concrete::Command::Echo { message })
    }
    fn visit_exit(&mut self) -> R<Cmd> {
        Ok(Cmd::Exit)
    }
    fn visit_get_assertions(&mut self) -> R<Cmd> {
        self.other(concrete::Command::GetAssertions)
    }
    fn visit_get_assignment(&mut self) -> R<Cmd> {
        self.other(concrete::Command::GetAssignment)
    }
    fn visit_get_info(&mut self, flag: Keyword) -> R<Cmd> {
        self.other(concrete::Command::GetInfo { flag })
    }
    fn visit_get_model(&mut self) -> R<Cmd> {
        Ok(Cmd::GetModel)
    }
    fn visit_get_option(&mut self, keyword: Keyword) -> R<Cmd> {
        self.other(concrete::Command::GetOption { keyword })
    }
    fn visit_get_proof(&mut self) -> R<Cmd> {
        self.other(concrete::Command::GetProof)
    }
    fn visit_get_unsat_assumptions(&mut self) -> R<Cmd> {
        self.other(concrete::Command::GetUnsatAssumptions)
    }
    fn visit_get_unsat_core(&mut self) -> R<Cmd> {
        self.other(concrete::Command::GetUnsatCore)
    }
    fn visit_get_value(&mut self, terms: Vec<TermId>) -> R<Cmd> {
        let terms = terms.iter().map(|t| self.c_term(*t)).collect();
        self.other(concrete::Command::GetValue { terms })
    }
    fn visit_pop(&mut self, level: Numeral) -> R<Cmd> {
        self.other(concrete::Command::Pop { level })
    }
    fn visit_push(&mut self, level: Numeral) -> R<Cmd> {
        self.other(concrete::Command::Push { level })
    }
    fn visit_reset(&mut self) -> R<Cmd> {
        self.other(concrete::Command::Reset)
    }
    fn visit_reset_assertions(&mut self) -> R<Cmd> {
        self.other(concrete::Command::ResetAssertions)
    }
    fn visit_set_info(&mut self, keyword: Keyword, value: AttrValue) -> R<Cmd> {
        let value = self.c_attr(&value);
        self.other(concrete::Command::SetInfo { keyword, value })
    }
    fn visit_set_logic(&mut self, symbol: Sym) -> R<Cmd> {
        Ok(Cmd::SetLogic(symbol))
    }
    fn visit_set_option(&mut self, keyword: Keyword, value: AttrValue) -> R<Cmd> {
        let value = self.c_attr(&value);
        self.other(concrete::Command::SetOption { keyword, value })
    }
}

impl Smt2Visitor for Syntax {
    type Error = Error;
    type Constant = ConstId;
    type QualIdentifier = QId;
    type Keyword = Keyword;
    type Sort = SortId;
    type SExpr = SExprBox;
    type Symbol = Sym;
    type Term = TermId;
    type Command = Cmd;

    fn syntax_error(&mut self, position: Position, s: String) -> Error {
        Error::SyntaxError(position, s)
    }
    fn parsing_error(&mut self, position: Position, s: String) -> Error {
        Error::ParsingError(position, s)
    }
}
