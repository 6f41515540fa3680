//! What the passes that rewrite the input's text before parsing share (records, recursive
//! datatypes and bit-vectors): reading an assertion's formula, the walk over the commands that replaces some of them and keeps every
//! other byte and every line where it was, and the scopes of `let` names while a term is
//! rewritten.

use super::super::InputError;
use rustc_hash::FxHashMap;

/// The name of the command at `start` (its first atom).
pub fn head(input: &str, start: usize) -> &str {
    let rest = input[start + 1..].trim_start();
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The input with some commands replaced.
pub struct Rewritten {
    /// The text: each replaced command is followed by as many newlines as it spanned, so
    /// every later line keeps its number.
    pub text: String,
    /// Where each of the given query `assert`s starts in [`Rewritten::text`].
    pub queries: Vec<usize>,
}

/// Copies `input`, replacing each command (`(start, end, line)`, as the parser's scanner cut
/// them) for which `rewrite(command text, line, name)` gives a text; `queries` are the starts
/// of `assert`s that are fixedpoint queries, followed into the new text.
pub fn rewrite(
    input: &str,
    commands: &[(usize, usize, usize)],
    queries: &[usize],
    mut rewrite: impl FnMut(&str, usize, &str) -> Result<Option<String>, InputError>,
) -> Result<Rewritten, InputError> {
    let mut text = String::with_capacity(input.len() * 2);
    let mut new_queries = vec![];
    let mut copied = 0;
    for &(start, end, line) in commands {
        text.push_str(&input[copied..start]);
        copied = end;
        let command = &input[start..end];
        let rewritten = rewrite(command, line, head(input, start))?;
        if queries.contains(&start) {
            new_queries.push(text.len());
        }
        match rewritten {
            Some(r) => {
                text.push_str(&r);
                text.extend(std::iter::repeat_n('\n', command.matches('\n').count()));
            }
            None => text.push_str(command),
        }
    }
    text.push_str(&input[copied..]);
    Ok(Rewritten {
        text,
        queries: new_queries,
    })
}

/// Ends the scopes of `names` (bound by a `let` or a quantifier): each name's innermost
/// binding goes, and a name without any left leaves `env`.
pub fn unbind<T>(env: &mut FxHashMap<String, Vec<T>>, names: &[String]) {
    for n in names {
        if let Some(v) = env.get_mut(n) {
            v.pop();
            if v.is_empty() {
                env.remove(n);
            }
        }
    }
}

/// The formula of the command `(assert f)`, read.
pub fn assertion(command: &str) -> Result<super::records::sexp::Sx, String> {
    let cmd = super::records::sexp::read(command)?;
    match cmd.list().unwrap_or_default() {
        [_, f] => Ok(f.clone()),
        _ => Err("malformed assert".into()),
    }
}
