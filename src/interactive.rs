//! The interactive mode (`chcsolve -`, `chcsolve --interactive`): a session that acts on
//! each command as soon as it is read, for tools that keep one solver process and talk to
//! it over a pipe.
//!
//! A [`Session`] keeps the commands that state the problem (declarations, `assert`s,
//! `rule`s) as text. Each is parsed when it arrives, against the declarations before it, so
//! a bad one is answered with its error at once and left out. A `check-sat` or `query`
//! parses the commands stated so far with the usual parser ([`crate::frontend::parse_script`])
//! and solves the problem with [`crate::solve_judged`], the path of every other answer: the
//! answer is validated, then judged ([`crate::judge`]) against the text of the commands in
//! force (those stated and not popped since the last reset, each at its input line). So:
//!
//! - CHC-COMP input: `(check-sat)` answers; `(get-model)` and `(get-info :reason-unknown)`
//!   refer to the last answer; `(push n)`/`(pop n)` open and close scopes of clauses and
//!   declarations; `(reset)` forgets everything; `(exit)` ends the session.
//! - z3's fixedpoint input: each `(query ...)` answers; rules and relations may follow.
//! - `(set-option :timeout MS)` (z3's option, in milliseconds) limits each later check;
//!   `(set-option :print-success true)` prints `success` after each command that prints
//!   nothing else. Other options are accepted and ignored.
//! - A bad command prints one line `(error "line N: ...")` and the session goes on.

use crate::answer::command_output;
use crate::frontend::stream::RawCommand;
use crate::frontend::{parse_script, Command, Format, InputError};
use crate::{solve_judged, Options, Outcome, Source};
use rustc_hash::FxHashMap;
use std::time::Duration;

/// What a command asks the caller to print.
#[derive(Debug)]
pub enum Reply {
    /// Nothing.
    Silent,
    /// These lines (`get-model`, `get-info`, `success`).
    Text(String),
    /// The answer of a check, [`Session::last`], in the reading of this format.
    Answer(Format),
    /// The command's error, one line `(error "...")`.
    Error(String),
    /// `(exit)`: the session ends.
    Exit,
}

/// A command that states the problem, kept as text with its input line.
struct Stated {
    text: String,
    line: usize,
    kind: Kind,
}

/// What a stated command is, for choosing the ones a new command is parsed against.
#[derive(Clone, PartialEq, Eq)]
enum Kind {
    /// An `assert` or a `rule`: no later command depends on it.
    Clause,
    /// A declaration (`declare-fun`, `declare-rel`, `declare-var`) of this symbol.
    Declares(String),
    /// `set-logic`, `set-info`: every command is parsed with them.
    Other,
}

/// The state of an interactive session.
pub struct Session {
    opts: Options,
    /// The limit of each check (`set-option :timeout`); `opts.timeout` after a reset.
    timeout: Option<Duration>,
    print_success: bool,
    stated: Vec<Stated>,
    /// `stated.len()` at each open `push`, innermost last.
    scopes: Vec<usize>,
    last: Option<Outcome>,
    /// The index in `stated` of each declaration of a symbol, of each [`Kind::Other`]
    /// command, and of the first fixedpoint declaration (which sets the format).
    declared: FxHashMap<String, Vec<usize>>,
    others: Vec<usize>,
    first_fixedpoint: Option<usize>,
}

/// The command's name: its first token.
pub fn command_name(text: &str) -> &str {
    let t = text.strip_prefix('(').unwrap_or(text).trim_start();
    let end = t
        .find(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ';')
        .unwrap_or(t.len());
    &t[..end]
}

/// Does the command print an answer (`check-sat`, `query`)?
pub fn answers(text: &str) -> bool {
    matches!(command_name(text), "check-sat" | "query")
}

/// The symbols of a command (quoted ones without their bars; strings and comments skipped):
/// a superset of the declared symbols it uses.
fn symbols(text: &str) -> Vec<&str> {
    let (b, mut out, mut i) = (text.as_bytes(), vec![], 0);
    while i < b.len() {
        match b[i] {
            b'|' | b'"' => {
                let close = b[i];
                let start = i + 1;
                i = start;
                while i < b.len() && b[i] != close {
                    i += 1;
                }
                if close == b'|' {
                    out.push(&text[start..i]);
                }
                i += 1;
            }
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            c if c.is_ascii_whitespace() || c == b'(' || c == b')' => i += 1,
            _ => {
                let start = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && !b"()|\";".contains(&b[i]) {
                    i += 1;
                }
                out.push(&text[start..i]);
            }
        }
    }
    out
}

/// The command's tokens after its name (only for commands whose arguments are atoms).
fn atoms(text: &str) -> Vec<&str> {
    let t = text.trim();
    let t = t.strip_prefix('(').unwrap_or(t);
    let t = t.strip_suffix(')').unwrap_or(t);
    t.split_whitespace().skip(1).collect()
}

/// The commands as one text, and where each starts in it: (line in the text, input line).
fn joined<'a>(cmds: impl Iterator<Item = (&'a str, usize)>) -> (String, Vec<(usize, usize)>) {
    let (mut text, mut lines, mut at) = (String::new(), vec![], 1);
    for (t, line) in cmds {
        lines.push((at, line));
        text.push_str(t);
        text.push('\n');
        at += t.matches('\n').count() + 1;
    }
    (text, lines)
}

/// The commands as one text, each at its input line (on the line of the one before when the
/// lines do not increase), so that the lines of the text are the input's.
fn at_input_lines<'a>(cmds: impl Iterator<Item = (&'a str, usize)>) -> String {
    let (mut text, mut at) = (String::new(), 1);
    for (t, line) in cmds {
        if line > at {
            text.extend(std::iter::repeat_n('\n', line - at));
            at = line;
        } else if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(t);
        at += t.matches('\n').count();
    }
    text.push('\n');
    text
}

/// The input line of line `l` of a [`joined`] text.
fn input_line(lines: &[(usize, usize)], l: usize) -> usize {
    match lines.iter().rev().find(|(at, _)| *at <= l) {
        Some((at, line)) => line + (l - at),
        None => l,
    }
}

impl Session {
    /// A session solving with `opts` (its `timeout` limits each check).
    pub fn new(opts: Options) -> Session {
        Session {
            timeout: opts.timeout,
            opts,
            print_success: false,
            stated: vec![],
            scopes: vec![],
            last: None,
            declared: FxHashMap::default(),
            others: vec![],
            first_fixedpoint: None,
        }
    }

    /// Adds a stated command to `stated` and to the indices.
    fn state(&mut self, s: Stated) {
        let i = self.stated.len();
        match &s.kind {
            Kind::Clause => {}
            Kind::Other => self.others.push(i),
            Kind::Declares(name) => {
                self.declared.entry(name.clone()).or_default().push(i);
                if self.first_fixedpoint.is_none()
                    && matches!(command_name(&s.text), "declare-rel" | "declare-var")
                {
                    self.first_fixedpoint = Some(i);
                }
            }
        }
        self.stated.push(s);
    }

    /// Keeps the first `n` stated commands (`pop`, `reset`).
    fn truncate(&mut self, n: usize) {
        let kept: Vec<Stated> = self.stated.drain(..).take(n).collect();
        self.declared.clear();
        self.others.clear();
        self.first_fixedpoint = None;
        for s in kept {
            self.state(s);
        }
    }

    /// The stated commands a new command is parsed against: the declarations of the symbols
    /// it mentions, the first fixedpoint declaration and `set-logic`/`set-info`, in order.
    /// Not all of them: with thousands of predicates, parsing every command against every
    /// declaration would be quadratic.
    fn context(&self, text: &str) -> Vec<usize> {
        let mut ids: Vec<usize> = symbols(text)
            .into_iter()
            .filter_map(|s| self.declared.get(s))
            .flatten()
            .chain(&self.others)
            .chain(&self.first_fixedpoint)
            .copied()
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The outcome of the last check, when there was one since the last reset.
    pub fn last(&self) -> Option<&Outcome> {
        self.last.as_ref()
    }

    /// Acts on one command.
    pub fn act(&mut self, cmd: &RawCommand) -> Reply {
        let r = self.act_inner(cmd);
        match r {
            Reply::Silent if self.print_success => Reply::Text("success".into()),
            r => r,
        }
    }

    fn act_inner(&mut self, cmd: &RawCommand) -> Reply {
        let line = cmd.line;
        let err = |msg: String| Reply::Error(InputError::new(line, msg).to_string());
        match command_name(&cmd.text) {
            "exit" => Reply::Exit,
            "reset" => {
                self.truncate(0);
                self.scopes.clear();
                self.last = None;
                self.timeout = self.opts.timeout;
                self.print_success = false;
                Reply::Silent
            }
            name @ ("push" | "pop") => {
                let n = match atoms(&cmd.text).as_slice() {
                    [] => 1,
                    [n] => match n.parse::<usize>() {
                        Ok(n) => n,
                        Err(_) => return err(format!("{name}: expected a number, not `{n}`")),
                    },
                    _ => return err(format!("{name}: expected one number")),
                };
                if name == "push" {
                    self.scopes
                        .extend(std::iter::repeat_n(self.stated.len(), n));
                } else {
                    if n > self.scopes.len() {
                        return err(format!(
                            "pop {n}: only {} scopes are open",
                            self.scopes.len()
                        ));
                    }
                    let keep = self.scopes[self.scopes.len() - n];
                    self.scopes.truncate(self.scopes.len() - n);
                    self.truncate(keep);
                }
                Reply::Silent
            }
            "set-option" => self.set_option(&cmd.text, line),
            "get-model" => {
                let c = Command::GetModel { line };
                Reply::Text(command_output(&c, self.last_answer()))
            }
            "get-info" => match atoms(&cmd.text).as_slice() {
                [flag] if flag.starts_with(':') => {
                    let c = Command::GetInfo {
                        flag: flag[1..].to_string(),
                        line,
                    };
                    Reply::Text(command_output(&c, self.last_answer()))
                }
                _ => err("get-info: expected one keyword, as in (get-info :reason-unknown)".into()),
            },
            "check-sat" | "query" => self.check(cmd),
            name => {
                let kind = match name {
                    "assert" | "rule" => Kind::Clause,
                    "declare-fun" | "declare-rel" | "declare-var" | "declare-const" => {
                        match symbols(&cmd.text).get(1) {
                            Some(s) => Kind::Declares(s.to_string()),
                            None => Kind::Other,
                        }
                    }
                    _ => Kind::Other,
                };
                // against the declarations it uses: clauses do not depend on each other
                let context = self.context(&cmd.text);
                let all = context
                    .iter()
                    .map(|&i| (self.stated[i].text.as_str(), self.stated[i].line));
                let (text, lines) = joined(all.chain([(cmd.text.as_str(), line)]));
                if let Err(e) = parse_script(&text) {
                    let e = InputError::new(input_line(&lines, e.line), e.msg);
                    return Reply::Error(e.to_string());
                }
                self.state(Stated {
                    text: cmd.text.clone(),
                    line,
                    kind,
                });
                Reply::Silent
            }
        }
    }

    fn last_answer(&self) -> Option<(&crate::chc::ChcSystem, &crate::Verdict)> {
        self.last.as_ref().map(|o| (&o.system, &o.verdict))
    }

    /// `(set-option :timeout MS)`, `(set-option :print-success B)`; others are ignored.
    fn set_option(&mut self, text: &str, line: usize) -> Reply {
        let err = |msg: String| Reply::Error(InputError::new(line, msg).to_string());
        match atoms(text).as_slice() {
            [":timeout", ms] => match ms.parse::<u64>() {
                // z3's reading: 0 is no limit
                Ok(0) => self.timeout = None,
                Ok(ms) => self.timeout = Some(Duration::from_millis(ms)),
                Err(_) => return err(format!(":timeout: expected milliseconds, not `{ms}`")),
            },
            [":print-success", b] => match *b {
                "true" => self.print_success = true,
                "false" => self.print_success = false,
                _ => return err(format!(":print-success: expected true or false, not `{b}`")),
            },
            [opt, ..] if opt.starts_with(':') => {}
            _ => return err("set-option: expected a keyword and a value".into()),
        }
        Reply::Silent
    }

    /// `check-sat` or `query`: the problem stated so far, solved and judged against its text.
    fn check(&mut self, cmd: &RawCommand) -> Reply {
        let all = self.stated.iter().map(|s| (s.text.as_str(), s.line));
        let text = at_input_lines(all.chain([(cmd.text.as_str(), cmd.line)]));
        let mut script = match parse_script(&text) {
            Ok(s) => s,
            Err(e) => return Reply::Error(e.to_string()),
        };
        // the check is the last command: its problem is the last one, the text's first
        let Some(sys) = script.systems.pop() else {
            return Reply::Error(InputError::new(cmd.line, "nothing to check").to_string());
        };
        let source = Source {
            text: text.into(),
            index: 0,
        };
        let opts = Options {
            timeout: self.timeout,
            ..self.opts.clone()
        };
        match solve_judged(sys, Some(source), &opts) {
            Ok(o) => {
                self.last = Some(o);
                Reply::Answer(script.format)
            }
            Err(e) => Reply::Error(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_a_joined_text_map_back_to_the_input() {
        let (text, lines) = joined([("(a\n b)", 3), ("(c)", 9), ("(d)", 9)].into_iter());
        assert_eq!(text, "(a\n b)\n(c)\n(d)\n");
        assert_eq!(lines, vec![(1, 3), (3, 9), (4, 9)]);
        assert_eq!(input_line(&lines, 2), 4);
        assert_eq!(input_line(&lines, 3), 9);
        assert_eq!(input_line(&lines, 4), 9);
    }

    #[test]
    fn a_text_at_the_input_lines() {
        let t = at_input_lines([("(a\n b)", 3), ("(c)", 4), ("(d)", 4), ("(e)", 6)].into_iter());
        assert_eq!(t, "\n\n(a\n b) (c) (d)\n\n(e)\n");
    }

    /// Each answer is judged against the commands in force: the model of the second check
    /// violates the query popped before it, which the judge must not see.
    #[test]
    fn answers_are_judged_against_the_commands_in_force() {
        let mut s = Session::new(Options {
            timeout: Some(Duration::from_secs(30)),
            ..Options::default()
        });
        let script = [
            "(set-logic HORN)",
            "(declare-fun P (Int) Bool)",
            "(assert (forall ((x Int)) (=> (= x 0) (P x))))",
            "(assert (forall ((x Int)) (=> (and (P x) (< x 10)) (P (+ x 1)))))",
            "(push 1)",
            "(assert (forall ((x Int)) (=> (and (P x) (= x 10)) false)))",
            "(check-sat)",
            "(pop 1)",
            "(assert (forall ((x Int)) (=> (and (P x) (> x 10)) false)))",
            "(check-sat)",
        ];
        let mut answers = vec![];
        for (i, c) in script.iter().enumerate() {
            let cmd = RawCommand {
                text: c.to_string(),
                line: i + 1,
            };
            if let Reply::Answer(_) = s.act(&cmd) {
                let o = s.last().expect("an outcome");
                let st = &o.stats;
                answers.push((
                    o.verdict.word(),
                    st.judgments,
                    st.judge_rejections,
                    st.judges,
                ));
                assert!(o.witness.is_some(), "the judged witness is kept");
            }
        }
        assert_eq!(answers, vec![("unsat", 1, 0, "z3"), ("sat", 1, 0, "z3")]);
    }

    #[test]
    fn command_names_and_atoms() {
        assert_eq!(command_name("( check-sat)"), "check-sat");
        assert_eq!(command_name("(assert(P 1))"), "assert");
        assert_eq!(atoms("(set-option :timeout 100 )"), vec![":timeout", "100"]);
        assert!(answers("(query P :print-answer true)"));
        assert_eq!(
            symbols("(assert (|P x| \"a b\" y)) ; z\n(w)"),
            vec!["assert", "P x", "y", "w"]
        );
    }
}
