//! Bad input: what is wrong and on which line.

use std::fmt;

/// Bad input: what is wrong and on which line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// 1-based line; 0 when the input as a whole is at fault.
    pub line: usize,
    pub msg: String,
}

impl InputError {
    pub fn new(line: usize, msg: impl Into<String>) -> Self {
        InputError {
            line,
            msg: msg.into(),
        }
    }
}

impl fmt::Display for InputError {
    /// One line: `(error "line N: message")`, quotes doubled as SMT-LIB strings want.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msg = if self.line > 0 {
            format!("line {}: {}", self.line, self.msg)
        } else {
            self.msg.clone()
        };
        let msg = msg.replace('"', "\"\"").replace(['\n', '\r'], " ");
        write!(f, "(error \"{msg}\")")
    }
}

impl std::error::Error for InputError {}
