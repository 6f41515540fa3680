//! The top-level commands of an input: where each starts and ends, and its line.

use super::{too_deep, MAX_NESTING};
use crate::frontend::InputError;

/// Splits the input into top-level commands: (start byte, end byte, 1-based line).
pub(crate) fn split_commands(b: &[u8]) -> Result<Vec<(usize, usize, usize)>, InputError> {
    let mut out = vec![];
    let (mut i, mut line, mut depth) = (0usize, 1usize, 0usize);
    let (mut start, mut start_line) = (0usize, 0usize);
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => line += 1,
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'|' => {
                let (open_line, close) = (line, c);
                i += 1;
                loop {
                    if i >= b.len() {
                        let what = if close == b'"' {
                            "string"
                        } else {
                            "quoted symbol"
                        };
                        return Err(InputError::new(
                            open_line,
                            format!("unexpected end of input: unterminated {what}"),
                        ));
                    }
                    if b[i] == b'\n' {
                        line += 1;
                    }
                    if b[i] == close {
                        // "" inside a string is an escaped quote
                        if close == b'"' && i + 1 < b.len() && b[i + 1] == b'"' {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
                if depth == 0 {
                    return Err(InputError::new(line, "unexpected text outside a command"));
                }
            }
            b'(' => {
                if depth == 0 {
                    start = i;
                    start_line = line;
                }
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(too_deep(line));
                }
            }
            b')' => {
                if depth == 0 {
                    return Err(InputError::new(line, "unbalanced `)`"));
                }
                depth -= 1;
                if depth == 0 {
                    out.push((start, i + 1, start_line));
                }
            }
            c if c.is_ascii_whitespace() => {}
            _ if depth == 0 => {
                let end = b[i..]
                    .iter()
                    .position(|c| c.is_ascii_whitespace() || *c == b'(')
                    .map_or(b.len(), |p| i + p);
                let text = String::from_utf8_lossy(&b[i..end.min(i + 30)]).to_string();
                return Err(InputError::new(
                    line,
                    format!("unexpected text `{text}` outside a command"),
                ));
            }
            _ => {}
        }
        i += 1;
    }
    if depth > 0 {
        return Err(InputError::new(
            start_line,
            "unexpected end of input: the command starting here is not closed (truncated file?)",
        ));
    }
    if out.is_empty() {
        return Err(InputError::new(0, "empty input: no commands"));
    }
    Ok(out)
}
