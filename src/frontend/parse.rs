//! Reads CHC-COMP files (SMT-LIB2 with `set-logic HORN`) and z3 fixedpoint files through
//! smt2parser into a [`Script`] of [`ChcSystem`]s.
//!
//! The input is first split into top-level commands by a small scanner, which gives
//! each command its line and catches stray text and unbalanced parentheses. Each
//! command is then parsed by smt2parser into a compact syntax tree (`syntax.rs`,
//! built by the visitor in `visitor.rs`) and converted to our terms (`convert.rs`),
//! clause by clause, so peak memory stays near the size of the largest command. A large
//! input is parsed by smt2parser on several threads, in groups of commands (`chunks.rs`);
//! the conversion stays on one thread, in input order.
//! Command names used as ordinary symbols (a predicate `exit`) are quoted first
//! (`names.rs`), since smt2parser's lexer reserves them everywhere. A z3 fixedpoint file
//! (`declare-rel`, `rule`, `query`) is first rewritten into CHC-COMP commands with the same
//! lines (`fixedpoint.rs`). Assertions in general Horn forms (`exists` around a body,
//! disjunctions, nested implications) are normalized by `normalize.rs`.

mod chunks;
mod convert;
mod fixedpoint;
mod names;
mod normalize;
mod split;
mod syntax;
mod visitor;

use super::script::{Command as ScriptCommand, Format, Script};
use super::InputError;
use crate::chc::{ChcSystem, Clause, PredApp, PredDecl, PredId};
use crate::logic::*;
use smt2parser::concrete::Command;
use smt2parser::CommandStream;
pub(crate) use split::split_commands;
use std::ops::Range;
use syntax::{Cmd, Node, SortId, Sym, Syntax, TermId};

/// Symbols with a meaning of their own, interned first so that their ids are their indices.
const BUILTINS: [&str; 32] = [
    "and", "or", "not", "=>", "xor", "=", "distinct", "ite", "<=", "<", ">=", ">", "+", "-", "*",
    "div", "mod", "abs", "true", "false", "Int", "Bool", "HORN", "Real", "/", "to_real", "to_int",
    "is_int", "Array", "select", "store", "const",
];

/// The ids of [`BUILTINS`].
mod op {
    use super::Sym;
    pub const AND: Sym = 0;
    pub const OR: Sym = 1;
    pub const NOT: Sym = 2;
    pub const IMPLIES: Sym = 3;
    pub const XOR: Sym = 4;
    pub const EQ: Sym = 5;
    pub const DISTINCT: Sym = 6;
    pub const ITE: Sym = 7;
    pub const LE: Sym = 8;
    pub const LT: Sym = 9;
    pub const GE: Sym = 10;
    pub const GT: Sym = 11;
    pub const ADD: Sym = 12;
    pub const SUB: Sym = 13;
    pub const MUL: Sym = 14;
    pub const DIV: Sym = 15;
    pub const MOD: Sym = 16;
    pub const ABS: Sym = 17;
    pub const TRUE: Sym = 18;
    pub const FALSE: Sym = 19;
    pub const INT: Sym = 20;
    pub const BOOL: Sym = 21;
    pub const HORN: Sym = 22;
    pub const REAL: Sym = 23;
    pub const RDIV: Sym = 24;
    pub const TO_REAL: Sym = 25;
    pub const TO_INT: Sym = 26;
    pub const IS_INT: Sym = 27;
    pub const ARRAY: Sym = 28;
    pub const SELECT: Sym = 29;
    pub const STORE: Sym = 30;
    pub const CONST: Sym = 31;
}

/// Parses a problem with one `check-sat` (or none), or a fixedpoint file with one query.
pub fn parse_str(input: &str) -> Result<ChcSystem, InputError> {
    let mut script = parse_script(input)?;
    match script.systems.len() {
        1 => Ok(script.systems.pop().unwrap()),
        0 => Err(InputError::new(0, "no query")),
        n => Err(InputError::new(
            0,
            format!("{n} queries: read them with parse_script"),
        )),
    }
}

/// Parses a whole input in either format: the systems to solve and the commands around them.
/// Bad input is an error, also when it makes the parser panic (never an unknown answer).
/// Runs on a thread with a big stack ([`crate::mem::on_big_stack`]), so that a caller's small
/// stack never limits the depth of what it reads; terms nested deeper than [`MAX_NESTING`]
/// are an error.
pub fn parse_script(input: &str) -> Result<Script, InputError> {
    crate::mem::on_big_stack(|| {
        std::panic::catch_unwind(|| parse_all(input))
            .unwrap_or_else(|panic| Err(parser_failed(0, &panic)))
    })
}

/// The deepest nesting of parentheses chcsolve reads (CHC-COMP 2025's files nest at most
/// 169 deep). Every later stage recurses on terms, so a bound here bounds them all.
pub const MAX_NESTING: usize = 10_000;

/// The error for a command nested deeper than [`MAX_NESTING`], on `line`.
pub(crate) fn too_deep(line: usize) -> InputError {
    InputError::new(
        line,
        format!("terms nested deeper than {MAX_NESTING} parentheses are not supported"),
    )
}

fn parse_all(input: &str) -> Result<Script, InputError> {
    // Both scan the whole input: on a large one, side by side. The commands of the input are
    // those of the quoted text when nothing needed quoting (the common case).
    let (quoted, split) = if input.len() >= chunks::PARALLEL_FROM {
        std::thread::scope(|scope| {
            let split = scope.spawn(|| split_commands(input.as_bytes()));
            let quoted = names::quote_command_names(input);
            let split = split
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            (quoted, Some(split))
        })
    } else {
        (names::quote_command_names(input), None)
    };
    let mut commands = match (&quoted, split) {
        (std::borrow::Cow::Borrowed(_), Some(split)) => split?,
        _ => split_commands(quoted.as_bytes())?,
    };
    let (format, translated, queries) = if fixedpoint::is_fixedpoint(&quoted, &commands) {
        let t = fixedpoint::translate(&quoted, &commands)?;
        commands = split_commands(t.text.as_bytes())?;
        (Format::Fixedpoint, Some(t.text), t.queries)
    } else {
        (Format::ChcComp, None, vec![])
    };
    // bit-vectors, then datatypes: eliminated on the commands' text, before parsing
    let (translated, queries, bitvecs) = {
        let text: &str = translated.as_deref().unwrap_or(&quoted);
        if super::passes::bitvec::has_bitvectors(text) {
            let e = super::passes::bitvec::eliminate(text, &commands, &queries)?;
            commands = split_commands(e.text.as_bytes())?;
            (
                Some(e.text),
                e.queries,
                Some(std::sync::Arc::new(e.bitvecs)),
            )
        } else {
            (translated, queries, None)
        }
    };
    let (translated, queries, records, adt) = {
        let text: &str = translated.as_deref().unwrap_or(&quoted);
        let datatypes = super::passes::records::has_datatypes(text, &commands);
        if datatypes && super::passes::adt::has_recursive(text, &commands)? {
            // recursive datatypes: abstracted by sizes (an over-approximation, not a layout)
            let e = super::passes::adt::abstract_sizes(text, &commands, &queries)?;
            commands = split_commands(e.text.as_bytes())?;
            (
                Some(e.text),
                e.queries,
                None,
                Some(std::sync::Arc::new(e.adt)),
            )
        } else if datatypes {
            let e = super::passes::records::eliminate(text, &commands, &queries)?;
            commands = split_commands(e.text.as_bytes())?;
            (
                Some(e.text),
                e.queries,
                Some(std::sync::Arc::new(e.records)),
                None,
            )
        } else {
            (translated, queries, None, None)
        }
    };
    let input: &str = translated.as_deref().unwrap_or(&quoted);
    let mut p = Parser {
        input,
        syn: Syntax::new(&BUILTINS),
        sys: ChcSystem::default(),
        pred_of: vec![],
        env: vec![],
        vars: vec![],
        ints: Default::default(),
        memo: Default::default(),
        tt: mk_true(),
        ff: mk_false(),
        check_sat: false,
        cmd_start: 0,
        cmd_end: 0,
        line: 0,
        queries: queries.into_iter().peekable(),
        steps: vec![],
    };
    // large inputs: groups of commands parsed on other threads meanwhile (see `chunks.rs`)
    let groups = chunks::Groups::plan(input, &commands);
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..groups.workers {
            let (tx, groups) = (tx.clone(), &groups);
            scope.spawn(move || groups.work(tx));
        }
        drop(tx);
        // a panic while parsing is bad input too: an error line, never an unknown answer
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| p.run(&groups, &rx)))
            .unwrap_or_else(|panic| Err(parser_failed(p.line.max(1), &panic)));
        groups.stop();
        r
    })?;
    let mut script = p.finish(format);
    for sys in &mut script.systems {
        sys.records = records.clone();
        sys.adt = adt.clone();
        sys.bitvecs = bitvecs.clone();
    }
    Ok(script)
}

/// The error for a parser that panicked on the commands from line `line` on (0: somewhere).
fn parser_failed(line: usize, panic: &Box<dyn std::any::Any + Send>) -> InputError {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    InputError::new(
        line,
        format!("cannot read the commands from here on (the parser failed: {what})"),
    )
}

/// Where a term sits in a clause body: conjunctive top level, where predicate
/// applications may stand, or anywhere else.
enum Mode<'a> {
    Body(&'a mut Vec<PredApp>),
    Inner,
}

/// No predicate: the entry of [`Parser::pred_of`] for other symbols.
const NO_PRED: u32 = u32::MAX;

struct Parser<'a> {
    input: &'a str,
    /// The current command's syntax, and the symbol table.
    syn: Syntax,
    sys: ChcSystem,
    /// The predicate of each symbol, or [`NO_PRED`].
    pred_of: Vec<u32>,
    /// Bound values of each symbol (quantified variables and `let`s), innermost last.
    env: Vec<Vec<Term>>,
    /// The variable term of each symbol, by sort, made on first use.
    vars: Vec<[Option<Term>; 3]>,
    /// Small integer literals, made on first use.
    ints: rustc_hash::FxHashMap<u64, Term>,
    /// Results of connectives and relations by operator and argument uids: the
    /// same atoms recur across clauses (e.g. 331,600 two-argument `=` but 4,213
    /// distinct results in chc-LIA-Lin_159), and building them is the costly part.
    memo: rustc_hash::FxHashMap<(Sym, u64, u64, u64), Term>,
    tt: Term,
    ff: Term,
    check_sat: bool,
    cmd_start: usize,
    cmd_end: usize,
    line: usize,
    /// Start bytes of the `assert`s that are fixedpoint queries, in order.
    queries: std::iter::Peekable<std::vec::IntoIter<usize>>,
    /// The script so far.
    steps: Vec<Step>,
}

/// A command of the script, its problems not yet cut out of the clauses.
enum Step {
    /// Solve the first `rules` clauses of the system and, for a fixedpoint query, `query`.
    Solve {
        rules: usize,
        query: Vec<Clause>,
        line: usize,
    },
    Print(ScriptCommand),
}

/// `t`'s text, cut at 60 characters.
pub(crate) fn short(t: &impl std::fmt::Display) -> String {
    let s = t.to_string();
    if s.len() > 60 {
        let mut cut = 57;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}...", &s[..cut])
    } else {
        s
    }
}

impl Parser<'_> {
    /// Parses and converts the commands, group by group: here, streaming, when no worker
    /// has the group, else as its worker delivers it.
    fn run(
        &mut self,
        groups: &chunks::Groups<'_>,
        rx: &std::sync::mpsc::Receiver<(usize, std::thread::Result<chunks::Chunk>)>,
    ) -> Result<(), InputError> {
        let mut delivered: Vec<Option<chunks::Chunk>> =
            (0..groups.groups.len()).map(|_| None).collect();
        for i in 0..groups.groups.len() {
            let (text, first_line, cmds) = groups.text(i);
            if groups.arrive(i) {
                self.parse_here(text, first_line, cmds)?;
                continue;
            }
            while delivered[i].is_none() {
                let received = match rx.try_recv() {
                    Ok(r) => r,
                    Err(_) => match groups.claim() {
                        // a worker parses group i: parse a later one meanwhile
                        Some(j) => {
                            delivered[j] = Some(groups.parse(j));
                            continue;
                        }
                        None => rx.recv().expect("the parsing threads ended early"),
                    },
                };
                let (j, chunk) = received;
                let chunk = chunk.map_err(|panic| parser_failed(groups.text(j).1, &panic))?;
                delivered[j] = Some(chunk);
            }
            let chunk = delivered[i].take().expect("delivered");
            let tr = chunks::Translation::new(&mut self.syn, &chunk.syn);
            let mut parsed = chunk.cmds.into_iter();
            for &(start, end, line) in cmds {
                (self.cmd_start, self.cmd_end, self.line) = (start, end, line);
                let (cmd, mut arenas) = match parsed.next().flatten() {
                    Some(Ok(x)) => x,
                    Some(Err(e)) => return Err(self.syntax_error(e)),
                    None => return Err(InputError::new(line, "unexpected end of input")),
                };
                let cmd = tr.command(cmd, &mut arenas);
                self.syn.put_arenas(arenas);
                let r = self.command(cmd);
                self.syn.clear_command();
                r?;
            }
        }
        Ok(())
    }

    /// Parses the commands `cmds` of `text` (which starts on line `first_line`) with the
    /// symbol table of `self.syn`, converting each as it comes.
    fn parse_here(
        &mut self,
        text: &str,
        first_line: usize,
        cmds: &[(usize, usize, usize)],
    ) -> Result<(), InputError> {
        // the unit tests' way to make parsing panic, here as on a parsing thread (which of
        // the two parses a group depends on the timing)
        #[cfg(test)]
        if text.contains("|chcsolve-test-panic|") {
            panic!("injected for a test");
        }
        // the symbol table moves to the stream (on an error it stays there: the parse is over)
        let mut stream = CommandStream::new(text.as_bytes(), std::mem::take(&mut self.syn), None);
        for &(start, end, line) in cmds {
            (self.cmd_start, self.cmd_end, self.line) = (start, end, line);
            let cmd = match stream.next() {
                Some(Ok(cmd)) => cmd,
                Some(Err(e)) => return Err(self.syntax_error(chunks::shift(e, first_line))),
                None => return Err(InputError::new(line, "unexpected end of input")),
            };
            // The parser's arenas move to `self` for the conversion, then back, emptied.
            std::mem::swap(&mut self.syn, stream.visitor_mut());
            let r = self.command(cmd);
            self.syn.clear_command();
            std::mem::swap(&mut self.syn, stream.visitor_mut());
            r?;
        }
        self.syn = stream.into_visitor();
        Ok(())
    }

    fn syntax_error(&self, e: smt2parser::Error) -> InputError {
        let (pos, msg) = match e {
            smt2parser::Error::SyntaxError(p, m) | smt2parser::Error::ParsingError(p, m) => (p, m),
        };
        InputError::new(pos.line, format!("syntax error: {msg}"))
    }

    /// An error about `what`, located at the first occurrence of `token` in the command.
    /// Only for error paths: it scans the command's text.
    fn err_at(&self, token: &str, what: impl Into<String>) -> InputError {
        let text = &self.input[self.cmd_start..self.cmd_end];
        let line = text
            .find(token)
            .map(|p| self.line + text[..p].matches('\n').count())
            .unwrap_or(self.line);
        InputError::new(line, what)
    }

    fn err(&self, what: impl Into<String>) -> InputError {
        InputError::new(self.line, what)
    }

    fn name(&self, s: Sym) -> &str {
        self.syn.name(s)
    }

    fn sort(&self, s: SortId) -> Result<Sort, InputError> {
        match self.syn.simple_sort(s) {
            Some(op::INT) => Ok(Sort::Int),
            Some(op::BOOL) => Ok(Sort::Bool),
            Some(op::REAL) => Ok(Sort::Real),
            None if self.syn.array_sort_parts(s).is_some() => {
                let (i, e) = self.syn.array_sort_parts(s).unwrap();
                try_array_sort(self.sort(i)?, self.sort(e)?)
                    .map_err(|why| self.err_at(&self.syn.c_sort(s).to_string(), why))
            }
            _ => {
                let c = self.syn.c_sort(s);
                Err(self.err_at(
                    &c.to_string(),
                    format!(
                        "unsupported sort `{}`: only Int, Real, Bool, bit-vectors, non-recursive datatypes and arrays of them are supported",
                        short(&c)
                    ),
                ))
            }
        }
    }

    fn pred(&self, s: Sym) -> Option<PredId> {
        match self.pred_of.get(s as usize) {
            Some(&p) if p != NO_PRED => Some(PredId(p)),
            _ => None,
        }
    }

    fn is_bound(&self, s: Sym) -> bool {
        self.env.get(s as usize).is_some_and(|v| !v.is_empty())
    }

    fn bound(&self, s: Sym) -> Option<&Term> {
        self.env.get(s as usize).and_then(|v| v.last())
    }

    fn bind(&mut self, s: Sym, t: Term) {
        let i = s as usize;
        if self.env.len() <= i {
            self.env
                .resize_with(self.syn.num_syms().max(i + 1), Vec::new);
        }
        self.env[i].push(t);
    }

    fn unbind(&mut self, s: Sym) {
        if let Some(v) = self.env.get_mut(s as usize) {
            v.pop();
        }
    }

    /// The variable named `s` of sort `sort`.
    fn var(&mut self, s: Sym, sort: Sort) -> Term {
        let i = s as usize;
        if self.vars.len() <= i {
            self.vars
                .resize(self.syn.num_syms().max(i + 1), [None, None, None]);
        }
        let k = match sort {
            Sort::Int => 0,
            Sort::Bool => 1,
            Sort::Real => 2,
            Sort::Array(_) => return mk_var(self.syn.name(s), sort), // rare: not cached
        };
        if let Some(t) = &self.vars[i][k] {
            return t.clone();
        }
        let t = mk_var(self.syn.name(s), sort);
        self.vars[i][k] = Some(t.clone());
        t
    }

    fn command(&mut self, cmd: Cmd) -> Result<(), InputError> {
        if self.check_sat {
            let allowed = match &cmd {
                Cmd::Exit | Cmd::GetModel => true,
                Cmd::Other(c) => matches!(**c, Command::GetInfo { .. }),
                _ => false,
            };
            if !allowed {
                let what = if matches!(cmd, Cmd::CheckSat) {
                    "a second check-sat is not supported".to_string()
                } else {
                    format!(
                        "`{}` after check-sat: incremental problems are not supported",
                        short(&self.syn.c_command(&cmd))
                    )
                };
                return Err(self.err(what));
            }
        }
        match cmd {
            Cmd::SetLogic(s) => {
                if s != op::HORN {
                    return Err(self.err(format!(
                        "unsupported logic `{}`: expected (set-logic HORN)",
                        self.name(s)
                    )));
                }
            }
            Cmd::Exit => {}
            Cmd::GetModel => self
                .steps
                .push(Step::Print(ScriptCommand::GetModel { line: self.line })),
            Cmd::CheckSat => {
                self.check_sat = true;
                self.steps.push(Step::Solve {
                    rules: self.sys.clauses.len(),
                    query: vec![],
                    line: self.line,
                });
            }
            Cmd::DeclareFun {
                symbol,
                params,
                sort,
            } => {
                if self.sort(sort)? != Sort::Bool {
                    return Err(self.err(format!(
                        "declare-fun `{}`: uninterpreted functions other than predicates (result sort Bool) are not supported",
                        self.name(symbol)
                    )));
                }
                if self.pred(symbol).is_some() {
                    return Err(
                        self.err(format!("predicate `{}` declared twice", self.name(symbol)))
                    );
                }
                let sorts = params
                    .iter()
                    .map(|s| self.sort(*s))
                    .collect::<Result<Vec<_>, _>>()?;
                let id = self.sys.preds.len() as u32;
                let i = symbol as usize;
                if self.pred_of.len() <= i {
                    self.pred_of.resize(self.syn.num_syms().max(i + 1), NO_PRED);
                }
                self.pred_of[i] = id;
                self.sys.preds.push(PredDecl {
                    name: self.name(symbol).to_string(),
                    sorts,
                });
            }
            Cmd::Assert(term) => {
                let cs = self.clauses(term)?;
                if self.queries.next_if_eq(&self.cmd_start).is_some() {
                    self.steps.push(Step::Solve {
                        rules: self.sys.clauses.len(),
                        query: cs,
                        line: self.line,
                    });
                } else {
                    self.sys.clauses.extend(cs);
                }
            }
            Cmd::Other(c) => match *c {
                Command::SetInfo { .. } | Command::SetOption { .. } => {}
                Command::GetInfo { flag } => self.steps.push(Step::Print(ScriptCommand::GetInfo {
                    flag: flag.0,
                    line: self.line,
                })),
                other => {
                    return Err(self.err(format!("unsupported command `{}`", short(&other))));
                }
            },
        }
        Ok(())
    }

    /// The clauses of `(assert t)`: the usual shape read directly, other Horn forms normalized.
    fn clauses(&mut self, t: TermId) -> Result<Vec<Clause>, InputError> {
        match self.clause(t) {
            Ok(c) => Ok(vec![c]),
            Err(_) => self.general_clauses(t),
        }
    }

    /// The script: each problem cut out of the clauses (a CHC-COMP file without
    /// `check-sat` is still one problem).
    fn finish(mut self, format: Format) -> Script {
        if format == Format::ChcComp && !self.check_sat {
            self.steps.push(Step::Solve {
                rules: self.sys.clauses.len(),
                query: vec![],
                line: self.line,
            });
        }
        let mut left = self
            .steps
            .iter()
            .filter(|s| matches!(s, Step::Solve { .. }))
            .count();
        let (mut commands, mut systems) = (vec![], vec![]);
        for step in self.steps {
            match step {
                Step::Print(c) => commands.push(c),
                Step::Solve { rules, query, line } => {
                    left -= 1;
                    let mut sys = if left == 0 {
                        // the last problem takes the clauses instead of a copy
                        self.sys.clauses.truncate(rules);
                        std::mem::take(&mut self.sys)
                    } else {
                        ChcSystem {
                            preds: self.sys.preds.clone(),
                            clauses: self.sys.clauses[..rules].to_vec(),
                            records: None,
                            bitvecs: None,
                            adt: None,
                        }
                    };
                    sys.clauses.extend(query);
                    systems.push(sys);
                    commands.push(ScriptCommand::Solve { line });
                }
            }
        }
        Script {
            format,
            commands,
            systems,
        }
    }

    /// `(assert t)` in the usual shape: peels `forall`s and `let`s down to `body => head`.
    fn clause(&mut self, t: TermId) -> Result<Clause, InputError> {
        let mut bound: Vec<Sym> = vec![];
        let mut t = t;
        let result = loop {
            match self.syn.node(t) {
                Node::Forall { start, len, body } => {
                    for i in start..start + len {
                        let (sym, sort) = self.syn.pairs[i as usize];
                        let s = match self.sort(sort) {
                            Ok(s) => s,
                            Err(e) => return self.unbind_all(&bound, Err(e)),
                        };
                        let v = self.var(sym, s);
                        self.bind(sym, v);
                        bound.push(sym);
                    }
                    t = body;
                }
                Node::Let { start, len, body } => {
                    let mut vals = Vec::with_capacity(len as usize);
                    for i in start..start + len {
                        let x = self.syn.pairs[i as usize].1;
                        match self.term(x, &mut Mode::Inner) {
                            Ok(v) => vals.push(v),
                            Err(e) => return self.unbind_all(&bound, Err(e)),
                        }
                    }
                    for (i, v) in (start..start + len).zip(vals) {
                        let sym = self.syn.pairs[i as usize].0;
                        self.bind(sym, v);
                        bound.push(sym);
                    }
                    t = body;
                }
                Node::App { head, start, len }
                    if self.syn.qsym(head) == op::IMPLIES && !self.is_bound(op::IMPLIES) =>
                {
                    let last = start + len - 1;
                    break self.implication(start..last, Some(self.syn.kids[last as usize]));
                }
                Node::App { head, start, len } if self.syn.qsym(head) == op::NOT && len == 1 => {
                    break self.implication(start..start + 1, None);
                }
                _ => break self.implication(0..0, Some(t)),
            }
        };
        self.unbind_all(&bound, result)
    }

    /// Undoes the bindings of `bound`, innermost first, and passes `r` on.
    fn unbind_all<T>(&mut self, bound: &[Sym], r: T) -> T {
        for s in bound.iter().rev() {
            self.unbind(*s);
        }
        r
    }

    /// `hyps => head`, the hypotheses given as a range of [`Syntax::kids`]; no head means `false`.
    fn implication(
        &mut self,
        hyps: Range<u32>,
        head: Option<TermId>,
    ) -> Result<Clause, InputError> {
        let mut body = vec![];
        let mut conj = vec![];
        for i in hyps {
            let h = self.syn.kids[i as usize];
            let t = self.term(h, &mut Mode::Body(&mut body))?;
            self.expect(&t, Sort::Bool, h)?;
            conj.push(t);
        }
        let Some(head) = head else {
            return Ok(Clause {
                body,
                constraint: mk_and(conj),
                head: None,
                line: self.line,
            });
        };
        let mut heads = vec![];
        let h = self.term(head, &mut Mode::Body(&mut heads))?;
        self.expect(&h, Sort::Bool, head)?;
        let head_app = match heads.len() {
            0 => {
                // A constraint head `phi` is the query `body /\ not phi => false`.
                conj.push(mk_not(h));
                None
            }
            1 if h.as_bool() == Some(true) => heads.pop(),
            _ => {
                return Err(self.err(format!(
                    "unsupported clause head `{}`: expected one predicate application or false",
                    short(&self.syn.c_term(head))
                )))
            }
        };
        Ok(Clause {
            body,
            constraint: mk_and(conj),
            head: head_app,
            line: self.line,
        })
    }

    fn expect(&self, t: &Term, sort: Sort, src: TermId) -> Result<(), InputError> {
        // an `Int` term stands where a `Real` is expected (the mixed Int/Real logics, as z3
        // reads them): the caller takes it as a real (`to_real`)
        if t.sort() != sort && !(t.sort() == Sort::Int && sort == Sort::Real) {
            return Err(self.err_at(
                &self.first_token(src),
                format!(
                    "sort mismatch: `{}` is {} where {} is expected",
                    short(&self.syn.c_term(src)),
                    t.sort(),
                    sort
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
