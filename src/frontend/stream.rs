//! Reads top-level commands from a stream one at a time, each as soon as its closing
//! parenthesis arrives, for the interactive mode ([`crate::interactive`]).
//!
//! The reader tracks only what decides where a command ends: the parenthesis depth,
//! strings (`"..."`, with `""` inside), quoted symbols (`|...|`) and `;` comments. It never
//! reads past a command's closing parenthesis before handing the command out, so a tool
//! that writes one command and waits for its answer is answered. The command's text is then
//! parsed by the usual parser.

use super::InputError;
use std::io::BufRead;

/// A complete top-level command `( ... )` and the 1-based line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawCommand {
    pub text: String,
    pub line: usize,
}

/// Where the scanner is inside the current command.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Code,
    String,
    Quoted,
    Comment,
}

/// Splits a byte stream into top-level commands as they arrive.
pub struct CommandReader<R> {
    input: R,
    scan: Scanner,
}

/// The scanner's state between bytes.
struct Scanner {
    /// The current line (1-based).
    line: usize,
    state: State,
    depth: usize,
    /// The current command's bytes, and its first line.
    buf: Vec<u8>,
    start_line: usize,
    /// Text outside any command: its first bytes and line, reported at its end.
    stray: Option<(Vec<u8>, usize)>,
    /// A `"` inside a string that may be the first half of an escaped `""`.
    quote_pending: bool,
}

impl<R: BufRead> CommandReader<R> {
    pub fn new(input: R) -> Self {
        CommandReader {
            input,
            scan: Scanner {
                line: 1,
                state: State::Code,
                depth: 0,
                buf: vec![],
                start_line: 0,
                stray: None,
                quote_pending: false,
            },
        }
    }

    /// The next command; `None` at the end of the input. An error (stray text, an unbalanced
    /// `)`, a command the input ends inside, non-UTF-8 text, a read error) is reported once
    /// and reading goes on after it.
    pub fn next_command(&mut self) -> Option<Result<RawCommand, InputError>> {
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Some(Err(InputError::new(
                        self.scan.line,
                        format!("cannot read the input: {e}"),
                    )))
                }
            };
            if chunk.is_empty() {
                return self.scan.at_end();
            }
            // The bytes of `chunk` up to and including the one that ends an item.
            let mut used = 0;
            let mut item = None;
            for &c in chunk {
                used += 1;
                if let Some(r) = self.scan.step(c) {
                    item = Some(r);
                    break;
                }
            }
            self.input.consume(used);
            if item.is_some() {
                return item;
            }
        }
    }
}

impl Scanner {
    /// Takes one byte; returns an item when `c` ends one.
    fn step(&mut self, c: u8) -> Option<Result<RawCommand, InputError>> {
        if self.depth > 0 {
            self.buf.push(c);
        }
        if c == b'\n' {
            self.line += 1;
        }
        match self.state {
            State::Comment => {
                if c == b'\n' {
                    self.state = State::Code;
                }
                None
            }
            State::Quoted => {
                if c == b'|' {
                    self.state = State::Code;
                }
                None
            }
            State::String => {
                if self.quote_pending {
                    self.quote_pending = false;
                    if c != b'"' {
                        // the string ended at the previous quote: read `c` as code
                        self.state = State::Code;
                        return self.code(c);
                    }
                } else if c == b'"' {
                    self.quote_pending = true;
                }
                None
            }
            State::Code => self.code(c),
        }
    }

    /// A byte outside strings, quoted symbols and comments.
    fn code(&mut self, c: u8) -> Option<Result<RawCommand, InputError>> {
        if self.depth == 0 && !c.is_ascii_whitespace() && c != b'(' && c != b';' {
            if c == b')' {
                return Some(Err(InputError::new(self.line, "unbalanced `)`")));
            }
            let line = self.line;
            let stray = self.stray.get_or_insert_with(|| (vec![], line));
            if stray.0.len() < 30 {
                stray.0.push(c);
            }
            return None;
        }
        if let Some((text, line)) = self.stray.take() {
            // the stray text ended here; a `(` that ends it starts a command all the same
            if c == b'(' {
                self.open();
            }
            return Some(Err(InputError::new(
                line,
                format!(
                    "unexpected text `{}` outside a command",
                    String::from_utf8_lossy(&text)
                ),
            )));
        }
        match c {
            b';' => self.state = State::Comment,
            b'|' => self.state = State::Quoted,
            b'"' => self.state = State::String,
            b'(' => {
                if self.depth == 0 {
                    self.open();
                } else {
                    self.depth += 1;
                }
            }
            b')' => {
                self.depth -= 1;
                if self.depth == 0 {
                    let text = std::mem::take(&mut self.buf);
                    return Some(match String::from_utf8(text) {
                        Ok(text) => Ok(RawCommand {
                            text,
                            line: self.start_line,
                        }),
                        Err(_) => Err(InputError::new(
                            self.start_line,
                            "the command is not UTF-8 text",
                        )),
                    });
                }
            }
            _ => {}
        }
        None
    }

    /// A command starts with the `(` just read.
    fn open(&mut self) {
        self.depth = 1;
        self.buf.clear();
        self.buf.push(b'(');
        self.start_line = self.line;
    }

    /// The end of the input: a command left open, or stray text, is an error; then `None`.
    fn at_end(&mut self) -> Option<Result<RawCommand, InputError>> {
        if let Some((text, line)) = self.stray.take() {
            return Some(Err(InputError::new(
                line,
                format!(
                    "unexpected text `{}` outside a command",
                    String::from_utf8_lossy(&text)
                ),
            )));
        }
        if self.depth > 0 {
            self.depth = 0;
            self.buf.clear();
            return Some(Err(InputError::new(
                self.start_line,
                "unexpected end of input: the command starting here is not closed",
            )));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<Result<(String, usize), String>> {
        let mut r = CommandReader::new(text.as_bytes());
        std::iter::from_fn(|| r.next_command())
            .map(|c| c.map(|c| (c.text, c.line)).map_err(|e| e.to_string()))
            .collect()
    }

    #[test]
    fn splits_commands_with_strings_quoted_symbols_and_comments() {
        let text = "(set-info :source \"a ) \"\" (\") ; ) comment (\n(declare-fun |P )| (Int) Bool)\n\n(check-sat)";
        assert_eq!(
            all(text),
            vec![
                Ok(("(set-info :source \"a ) \"\" (\")".into(), 1)),
                Ok(("(declare-fun |P )| (Int) Bool)".into(), 2)),
                Ok(("(check-sat)".into(), 4)),
            ]
        );
    }

    #[test]
    fn a_string_ending_a_command_closes_it() {
        assert_eq!(all("(echo \"x\")"), vec![Ok(("(echo \"x\")".into(), 1))]);
    }

    #[test]
    fn errors_are_reported_and_reading_goes_on() {
        let got = all("(exit)\nabc (check-sat)\n)\n(push 1");
        assert_eq!(got.len(), 5, "{got:?}");
        assert_eq!(got[0], Ok(("(exit)".into(), 1)));
        assert!(got[1]
            .as_ref()
            .unwrap_err()
            .contains("line 2: unexpected text `abc`"));
        assert_eq!(got[2], Ok(("(check-sat)".into(), 2)));
        assert!(got[3].as_ref().unwrap_err().contains("line 3: unbalanced"));
        assert!(got[4]
            .as_ref()
            .unwrap_err()
            .contains("line 4: unexpected end of input"));
    }

    /// A command is handed out when its `)` arrives, without waiting for more input.
    #[test]
    fn does_not_read_past_a_command() {
        struct OneByOne<'a>(&'a [u8], usize);
        impl std::io::Read for OneByOne<'_> {
            fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
                unreachable!("{b:?}")
            }
        }
        impl std::io::BufRead for OneByOne<'_> {
            fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
                // past the first command's end, reading would block: fail instead
                assert!(self.1 < 11, "read past the first command");
                Ok(&self.0[self.1..self.1 + 1])
            }
            fn consume(&mut self, n: usize) {
                self.1 += n;
            }
        }
        let mut r = CommandReader::new(OneByOne(b"(check-sat)(exit)", 0));
        assert_eq!(r.next_command().unwrap().unwrap().text, "(check-sat)");
    }
}
