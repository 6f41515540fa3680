//! The smt2parser visitor traits for [`Syntax`]: every parsed value becomes a `u32` into its arenas.

use super::syntax::{
    AttrValue, Cmd, ConstId, Node, QId, Rare, SExprBox, SortId, Sym, Syntax, TermId,
};
use smt2parser::concrete::{self, Constant, Error, Keyword, SExpr};
use smt2parser::visitors::{
    CommandVisitor, ConstantVisitor, DatatypeDec, FunctionDec, Identifier, KeywordVisitor,
    QualIdentifierVisitor, SExprVisitor, Smt2Visitor, SortVisitor, SymbolKind, SymbolVisitor,
    TermVisitor,
};
use smt2parser::{Binary, Decimal, Hexadecimal, Numeral, Position};

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
        Ok(Box::new(SExpr::Application(
            values.into_iter().map(|b| *b).collect(),
        )))
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
    fn visit_parameterized_sort(
        &mut self,
        identifier: Identifier<Sym>,
        parameters: Vec<SortId>,
    ) -> R<SortId> {
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
        Ok(self.push_node(Node::Let {
            start,
            len,
            body: term,
        }))
    }
    fn visit_forall(&mut self, vars: Vec<(Sym, SortId)>, term: TermId) -> R<TermId> {
        let (start, len) = self.push_pairs(vars);
        Ok(self.push_node(Node::Forall {
            start,
            len,
            body: term,
        }))
    }
    fn visit_exists(&mut self, vars: Vec<(Sym, SortId)>, term: TermId) -> R<TermId> {
        let (start, len) = self.push_pairs(vars);
        Ok(self.push_node(Node::Exists {
            start,
            len,
            body: term,
        }))
    }
    fn visit_match(&mut self, term: TermId, cases: Vec<(Vec<Sym>, TermId)>) -> R<TermId> {
        self.rare.push(Rare::Match { term, cases });
        let r = (self.rare.len() - 1) as u32;
        Ok(self.push_node(Node::Match(r)))
    }
    fn visit_attributes(
        &mut self,
        term: TermId,
        attributes: Vec<(Keyword, AttrValue)>,
    ) -> R<TermId> {
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
        let literals = literals
            .into_iter()
            .map(|(s, b)| (self.c_symbol(s), b))
            .collect();
        self.other(concrete::Command::CheckSatAssuming { literals })
    }
    fn visit_declare_const(&mut self, symbol: Sym, sort: SortId) -> R<Cmd> {
        self.other(concrete::Command::DeclareConst {
            symbol: self.c_symbol(symbol),
            sort: self.c_sort(sort),
        })
    }
    fn visit_declare_datatype(
        &mut self,
        symbol: Sym,
        datatype: DatatypeDec<Sym, SortId>,
    ) -> R<Cmd> {
        self.other(concrete::Command::DeclareDatatype {
            symbol: self.c_symbol(symbol),
            datatype: self.c_datatype(&datatype),
        })
    }
    fn visit_declare_datatypes(
        &mut self,
        datatypes: Vec<(Sym, Numeral, DatatypeDec<Sym, SortId>)>,
    ) -> R<Cmd> {
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
