//! SMT-LIB command names used as ordinary symbols.
//!
//! In SMT-LIB a command name such as `exit` or `push` is a reserved word only where a
//! command starts; elsewhere it is an ordinary symbol, and CHC-COMP 2025's LIA track has a
//! predicate `exit` applied unquoted as `(exit A C D)`. smt2parser's lexer turns these words
//! into command tokens wherever they occur, so before parsing, [`quote_command_names`]
//! writes every such word that is not in command position as the quoted symbol `|exit|`,
//! which SMT-LIB defines to be the same symbol. Lines do not change, so error messages
//! still name the input's lines.

use std::borrow::Cow;

/// The command names smt2parser's lexer reserves (its `KEYWORDS` from `assert` on; the
/// term-level words `_ ! as let exists forall match par` are real syntax and stay).
pub(super) const COMMAND_NAMES: [&str; 30] = [
    "assert",
    "check-sat",
    "check-sat-assuming",
    "declare-const",
    "declare-datatype",
    "declare-datatypes",
    "declare-fun",
    "declare-sort",
    "define-fun",
    "define-fun-rec",
    "define-funs-rec",
    "define-sort",
    "echo",
    "exit",
    "get-assertions",
    "get-assignment",
    "get-info",
    "get-model",
    "get-option",
    "get-proof",
    "get-unsat-assumptions",
    "get-unsat-core",
    "get-value",
    "pop",
    "push",
    "reset",
    "reset-assertions",
    "set-info",
    "set-logic",
    "set-option",
];

/// True for a byte that ends a simple symbol.
fn is_delimiter(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b'(' | b')' | b'"' | b'|' | b';')
}

/// `input` with every command name outside command position quoted; borrowed when there
/// is none (the common case costs one scan and no copy). Strings, quoted symbols and
/// comments are copied as they are; unbalanced input is left for the parser to report.
pub fn quote_command_names(input: &str) -> Cow<'_, str> {
    let b = input.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0; // bytes of `input` already in `out`
    let (mut i, mut depth) = (0usize, 0usize);
    // true right after a `(` at depth 0: the next symbol is a command name
    let mut command_position = false;
    while i < b.len() {
        match b[i] {
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            c @ (b'"' | b'|') => {
                i += 1;
                while i < b.len() {
                    if b[i] == c {
                        if c == b'"' && i + 1 < b.len() && b[i + 1] == b'"' {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
                i += 1;
                command_position = false;
            }
            b'(' => {
                command_position = depth == 0;
                depth += 1;
                i += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                command_position = false;
                i += 1;
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let start = i;
                while i < b.len() && !is_delimiter(b[i]) {
                    i += 1;
                }
                let word = &input[start..i];
                // every command name starts with one of these letters and has 3 to 21 bytes
                let maybe = matches!(
                    b[start],
                    b'a' | b'c' | b'd' | b'e' | b'g' | b'p' | b'r' | b's'
                ) && (3..=21).contains(&word.len());
                if maybe && !command_position && depth > 0 && COMMAND_NAMES.contains(&word) {
                    let o = out.get_or_insert_with(|| String::with_capacity(input.len() + 16));
                    o.push_str(&input[copied..start]);
                    o.push('|');
                    o.push_str(word);
                    o.push('|');
                    copied = i;
                }
                command_position = false;
            }
        }
    }
    match out {
        None => Cow::Borrowed(input),
        Some(mut o) => {
            o.push_str(&input[copied..]);
            Cow::Owned(o)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefilter_admits_every_command_name() {
        for n in COMMAND_NAMES {
            assert!(
                b"acdegprs".contains(&n.as_bytes()[0]) && (3..=21).contains(&n.len()),
                "{n}"
            );
        }
    }

    #[test]
    fn only_names_outside_command_position_are_quoted() {
        let s = "(declare-fun exit (Int) Bool)\n(assert (forall ((push Int)) (=> (exit push) false)))\n(check-sat)(exit)";
        assert_eq!(
            quote_command_names(s),
            "(declare-fun |exit| (Int) Bool)\n(assert (forall ((|push| Int)) (=> (|exit| |push|) false)))\n(check-sat)(exit)"
        );
    }

    #[test]
    fn strings_comments_and_quoted_symbols_stay() {
        let s = "; exit\n(set-info :source \"pop \"\" exit\")\n(declare-fun |exit| () Bool)(declare-fun exited () Bool)";
        assert!(matches!(quote_command_names(s), Cow::Borrowed(_)));
    }
}
