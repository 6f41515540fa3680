//! Parsing a large input on several threads.
//!
//! The commands found by the scanner are cut into contiguous groups, claimed in order: by
//! worker threads, which parse a group with smt2parser into a [`Syntax`] with a symbol
//! table of its own, and by the calling thread, which parses the first group and every
//! group no worker has claimed when it gets there, and converts all commands in input
//! order. While a worker still parses the group the calling thread has reached, the
//! calling thread parses the next unclaimed group the way a worker does, instead of
//! waiting. A worker's commands are converted after [`Translation`] has rewritten their
//! symbols and sorts into the calling thread's table: every term is still made on one
//! thread and in input order, so the result (term ids included) is the same as a
//! sequential parse. A worker slowed down by a loaded machine holds the calling thread up
//! for one group at most. Lines in messages are the input's: each group's parser counts
//! from the group's first line.

use super::syntax::{Arenas, Cmd, Node, QId, Rare, SortId, Sym, Syntax};
use super::BUILTINS;
use smt2parser::visitors::{AttributeValue, Identifier, Index};
use smt2parser::CommandStream;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::mpsc::Sender;

/// Inputs smaller than this are parsed on the calling thread alone.
pub(super) const PARALLEL_FROM: usize = 1 << 20;

/// How many groups the workers may have claimed beyond the one being converted (parsed
/// groups wait in memory).
const AHEAD: usize = 4;

/// The groups of commands, and who parses which.
pub(super) struct Groups<'a> {
    input: &'a str,
    /// (start byte, end byte, line) of each command.
    commands: &'a [(usize, usize, usize)],
    pub groups: Vec<Range<usize>>,
    pub workers: usize,
    /// The next group to claim.
    next: AtomicUsize,
    /// The group the calling thread is at.
    at: AtomicUsize,
    stop: AtomicBool,
}

impl<'a> Groups<'a> {
    /// Cuts the commands into groups of about equal size: one on a small input or machine.
    /// The groups are small, so that the calling thread starts converting at once and the
    /// threads share the parsing evenly (the calling thread parses a group whenever it
    /// would otherwise wait).
    // the groups start as one range, split later: a list of one range is meant
    #[allow(clippy::single_range_in_vec_init)]
    pub fn plan(input: &'a str, commands: &'a [(usize, usize, usize)]) -> Groups<'a> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        let mut g = Groups {
            input,
            commands,
            groups: vec![0..commands.len()],
            workers: 0,
            next: AtomicUsize::new(1),
            at: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        };
        if threads < 2 || input.len() < PARALLEL_FROM || commands.len() < 64 {
            return g;
        }
        let workers = threads - 1;
        let pieces = 24 * threads;
        let cuts = (1..pieces).map(|i| i as f64 / pieces as f64);
        let mut groups = vec![];
        let mut start = 0;
        for cut in cuts {
            let cut = cut * input.len() as f64;
            let mut end = start;
            while end < commands.len() && (commands[end].1 as f64) <= cut {
                end += 1;
            }
            if end > start {
                groups.push(start..end);
            }
            start = end;
        }
        if start < commands.len() {
            groups.push(start..commands.len());
        }
        g.groups = groups;
        g.workers = workers;
        g
    }

    /// Group `i`'s text, the line it starts on, and its commands.
    pub fn text(&self, i: usize) -> (&'a str, usize, &'a [(usize, usize, usize)]) {
        let g = self.groups[i].clone();
        let cmds = &self.commands[g];
        if i == 0 {
            // from the start of the input, as a one-thread parse reads it
            return (&self.input[..cmds[cmds.len() - 1].1], 1, cmds);
        }
        let (from, to) = (cmds[0].0, cmds[cmds.len() - 1].1);
        (&self.input[from..to], cmds[0].2, cmds)
    }

    /// The calling thread is at group `i`: true when it parses it itself (no worker has).
    pub fn arrive(&self, i: usize) -> bool {
        self.at.store(i, SeqCst);
        i == 0 || self.next.compare_exchange(i, i + 1, SeqCst, SeqCst).is_ok()
    }

    /// Claims the next group no thread has claimed: for a worker, or for the calling thread
    /// while a worker still parses the group it is at.
    pub fn claim(&self) -> Option<usize> {
        let i = self.next.load(SeqCst);
        (i < self.groups.len() && self.next.compare_exchange(i, i + 1, SeqCst, SeqCst).is_ok())
            .then_some(i)
    }

    /// Parses group `i` on its own symbol table, as a worker does.
    pub fn parse(&self, i: usize) -> Chunk {
        let (text, line, cmds) = self.text(i);
        parse_chunk(text, line, cmds.len(), &self.stop)
    }

    /// Tells the workers to stop.
    pub fn stop(&self) {
        self.stop.store(true, SeqCst);
    }

    /// A worker: claims groups in order and sends each parsed group with its index (or the
    /// panic that parsing it raised, for the calling thread to carry on).
    pub fn work(&self, tx: Sender<(usize, std::thread::Result<Chunk>)>) {
        while !self.stop.load(SeqCst) {
            let i = self.next.load(SeqCst);
            if i >= self.groups.len() {
                return;
            }
            if i > self.at.load(SeqCst) + AHEAD {
                std::thread::sleep(std::time::Duration::from_micros(200));
                continue;
            }
            let Some(i) = self.claim() else {
                continue;
            };
            let chunk = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.parse(i)));
            let failed = chunk.is_err();
            if tx.send((i, chunk)).is_err() || failed {
                return;
            }
        }
    }
}

/// One command of a group, as smt2parser gave it: the command and its arenas, or the
/// syntax error (with the input's line), or `None` when smt2parser saw no more commands.
pub(super) type Parsed = Option<Result<(Cmd, Arenas), smt2parser::Error>>;

/// A group parsed on its own thread: its commands (up to the first error) and its symbols.
pub(super) struct Chunk {
    pub syn: Syntax,
    pub cmds: Vec<Parsed>,
}

/// The error of a parser that started on the input's line `first_line`, with the input's line.
pub(super) fn shift(mut e: smt2parser::Error, first_line: usize) -> smt2parser::Error {
    let (smt2parser::Error::SyntaxError(p, _) | smt2parser::Error::ParsingError(p, _)) = &mut e;
    p.line += first_line - 1;
    e
}

/// Parses the `count` commands of `text`, whose first line is the input's line `first_line`.
/// Stops at the first error, or when `stop` is set (the calling thread found an error).
fn parse_chunk(text: &str, first_line: usize, count: usize, stop: &AtomicBool) -> Chunk {
    // the unit tests' way to make a parsing thread panic
    #[cfg(test)]
    if text.contains("|chcsolve-test-panic|") {
        panic!("injected for a test");
    }
    let mut stream = CommandStream::new(text.as_bytes(), Syntax::new(&BUILTINS), None);
    let mut cmds = Vec::with_capacity(count);
    while cmds.len() < count && !stop.load(SeqCst) {
        let parsed = match stream.next() {
            Some(Ok(cmd)) => Some(Ok((cmd, stream.visitor_mut().take_arenas()))),
            Some(Err(e)) => Some(Err(shift(e, first_line))),
            None => None,
        };
        let done = !matches!(parsed, Some(Ok(_)));
        cmds.push(parsed);
        if done {
            break;
        }
    }
    Chunk {
        syn: stream.into_visitor(),
        cmds,
    }
}

/// The symbols and sorts of a chunk's table, as symbols and sorts of the calling thread's.
pub(super) struct Translation {
    syms: Vec<Sym>,
    sorts: Vec<SortId>,
}

impl Translation {
    /// Interns every symbol and sort of `from` in `to`.
    pub fn new(to: &mut Syntax, from: &Syntax) -> Translation {
        let syms: Vec<Sym> = (0..from.num_syms() as Sym)
            .map(|s| to.intern(from.name(s).to_string()))
            .collect();
        let mut t = Translation {
            syms,
            sorts: vec![],
        };
        // a sort's parameters are made before it, so they are translated already
        for (id, params) in from.sorts() {
            let id = t.ident(id);
            let params = params.iter().map(|p| t.sorts[*p as usize]).collect();
            let s = to.mk_sort(id, params);
            t.sorts.push(s);
        }
        t
    }

    fn sym(&self, s: Sym) -> Sym {
        self.syms[s as usize]
    }

    fn sort(&self, s: SortId) -> SortId {
        self.sorts[s as usize]
    }

    fn ident(&self, id: &Identifier<Sym>) -> Identifier<Sym> {
        match id {
            Identifier::Simple { symbol } => Identifier::Simple {
                symbol: self.sym(*symbol),
            },
            Identifier::Indexed { symbol, indices } => Identifier::Indexed {
                symbol: self.sym(*symbol),
                indices: indices
                    .iter()
                    .map(|i| match i {
                        Index::Numeral(n) => Index::Numeral(n.clone()),
                        Index::Symbol(s) => Index::Symbol(self.sym(*s)),
                    })
                    .collect(),
            },
        }
    }

    fn qid(&self, q: QId) -> QId {
        if Syntax::is_complex(q) {
            q // an index into `qids`, translated there
        } else {
            QId(self.sym(q.0))
        }
    }

    /// Rewrites a command and its arenas in place.
    pub fn command(&self, cmd: Cmd, a: &mut Arenas) -> Cmd {
        for n in a.nodes.iter_mut() {
            match n {
                Node::Id(q) => *q = self.qid(*q),
                Node::App { head, .. } => *head = self.qid(*head),
                Node::Let { start, len, .. } => {
                    for p in &mut a.pairs[*start as usize..(*start + *len) as usize] {
                        p.0 = self.sym(p.0);
                    }
                }
                Node::Forall { start, len, .. } | Node::Exists { start, len, .. } => {
                    for p in &mut a.pairs[*start as usize..(*start + *len) as usize] {
                        *p = (self.sym(p.0), self.sort(p.1));
                    }
                }
                Node::Const(_) | Node::Match(_) | Node::Attributes { .. } => {}
            }
        }
        for (id, sort) in a.qids.iter_mut() {
            *id = self.ident(id);
            *sort = sort.map(|s| self.sort(s));
        }
        for r in a.rare.iter_mut() {
            match r {
                Rare::Match { cases, .. } => {
                    for (syms, _) in cases.iter_mut() {
                        for s in syms.iter_mut() {
                            *s = self.sym(*s);
                        }
                    }
                }
                Rare::Attributes(attrs) => {
                    for (_, v) in attrs.iter_mut() {
                        if let AttributeValue::Symbol(s) = v {
                            *s = self.sym(*s);
                        }
                    }
                }
            }
        }
        match cmd {
            Cmd::DeclareFun {
                symbol,
                params,
                sort,
            } => Cmd::DeclareFun {
                symbol: self.sym(symbol),
                params: params.iter().map(|p| self.sort(*p)).collect(),
                sort: self.sort(sort),
            },
            Cmd::SetLogic(s) => Cmd::SetLogic(self.sym(s)),
            Cmd::Assert(_) | Cmd::CheckSat | Cmd::Exit | Cmd::GetModel | Cmd::Other(_) => cmd,
        }
    }
}
