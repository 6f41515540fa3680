//! The judge's own s-expression reader: atoms and lists with their byte spans, nothing more.
//!
//! It knows SMT-LIB's lexical rules (comments, string literals, `|quoted|` symbols) so that it
//! can find where each top-level command starts and ends; it gives no meaning to any atom.
//! Atoms keep their text exactly as written, so a list printed back ([`Sexp::write`]) is
//! read by the judge's solver as the original was.

use std::fmt::Write;

/// An atom (its text as written) or a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

/// Where a top-level s-expression is in the text.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// Byte range in the text.
    pub start: usize,
    pub end: usize,
    /// 1-based line of its first byte.
    pub line: usize,
}

impl Sexp {
    /// The atom's text, if an atom.
    pub fn atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a) => Some(a),
            Sexp::List(_) => None,
        }
    }

    /// The list's items, if a list.
    pub fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(l) => Some(l),
            Sexp::Atom(_) => None,
        }
    }

    /// The head atom of a list (`assert` for `(assert ...)`).
    pub fn head(&self) -> Option<&str> {
        self.list()?.first()?.atom()
    }

    /// Prints it back (atoms as written, single spaces between items).
    pub fn write(&self, out: &mut String) {
        match self {
            Sexp::Atom(a) => out.push_str(a),
            Sexp::List(items) => {
                out.push('(');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    x.write(out);
                }
                out.push(')');
            }
        }
    }

    /// True when some atom of it satisfies `f`.
    pub fn any_atom(&self, f: &impl Fn(&str) -> bool) -> bool {
        match self {
            Sexp::Atom(a) => f(a),
            Sexp::List(l) => l.iter().any(|x| x.any_atom(f)),
        }
    }
}

impl std::fmt::Display for Sexp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::new();
        self.write(&mut s);
        f.write_str(&s)
    }
}

/// A symbol without its `|...|` quotes, so that `|Inv|` and `Inv` compare equal.
pub fn unquote(sym: &str) -> &str {
    if sym.len() >= 2 && sym.starts_with('|') && sym.ends_with('|') {
        &sym[1..sym.len() - 1]
    } else {
        sym
    }
}

/// Finds every top-level s-expression of `text` without building them.
pub fn spans(text: &str) -> Result<Vec<Span>, String> {
    let b = text.as_bytes();
    let mut r = Reader { b, i: 0, line: 1 };
    let mut out = vec![];
    loop {
        r.skip_space();
        if r.i >= b.len() {
            return Ok(out);
        }
        let (start, line) = (r.i, r.line);
        r.read(false)?;
        out.push(Span {
            start,
            end: r.i,
            line,
        });
    }
}

/// The first atom of a list (`assert` for `(assert ...)`), without reading the rest.
pub fn head_atom(text: &str) -> Option<String> {
    let mut r = Reader {
        b: text.as_bytes(),
        i: 0,
        line: 1,
    };
    r.skip_space();
    if r.b.get(r.i) != Some(&b'(') {
        return None;
    }
    r.i += 1;
    r.skip_space();
    match r.b.get(r.i) {
        None | Some(b'(' | b')') => None,
        Some(_) => r.atom().ok(),
    }
}

/// Reads one s-expression from `text` (anything after it is an error).
pub fn read_one(text: &str) -> Result<Sexp, String> {
    let mut r = Reader {
        b: text.as_bytes(),
        i: 0,
        line: 1,
    };
    r.skip_space();
    let s = r.read(true)?;
    r.skip_space();
    if r.i < r.b.len() {
        return Err(format!("line {}: text after the s-expression", r.line));
    }
    Ok(s)
}

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
    line: usize,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                b';' => {
                    while self.i < self.b.len() && self.b[self.i] != b'\n' {
                        self.i += 1;
                    }
                    continue;
                }
                _ => return,
            }
            self.i += 1;
        }
    }

    /// One s-expression (built when `build`, else only skipped); iterative, so that deep
    /// nesting cannot overflow the stack.
    fn read(&mut self, build: bool) -> Result<Sexp, String> {
        let mut stack: Vec<(Vec<Sexp>, usize)> = vec![];
        loop {
            self.skip_space();
            if self.i >= self.b.len() {
                let line = stack.last().map_or(self.line, |s| s.1);
                return Err(format!("line {line}: unbalanced parenthesis"));
            }
            let item = match self.b[self.i] {
                b'(' => {
                    stack.push((vec![], self.line));
                    self.i += 1;
                    continue;
                }
                b')' => {
                    self.i += 1;
                    match stack.pop() {
                        Some((items, _)) => Sexp::List(items),
                        None => return Err(format!("line {}: unexpected `)`", self.line)),
                    }
                }
                _ => {
                    let a = self.atom()?;
                    Sexp::Atom(if build { a } else { String::new() })
                }
            };
            if !build && !stack.is_empty() {
                continue;
            }
            match stack.last_mut() {
                Some((items, _)) => items.push(item),
                None => return Ok(item),
            }
        }
    }

    fn atom(&mut self) -> Result<String, String> {
        if self.i >= self.b.len() {
            return Err(format!("line {}: unexpected end of input", self.line));
        }
        let start = self.i;
        let close = match self.b[self.i] {
            c @ (b'"' | b'|') => Some(c),
            _ => None,
        };
        if let Some(c) = close {
            let line = self.line;
            self.i += 1;
            loop {
                if self.i >= self.b.len() {
                    return Err(format!("line {line}: unterminated literal"));
                }
                let x = self.b[self.i];
                self.i += 1;
                if x == b'\n' {
                    self.line += 1;
                }
                if x == c {
                    // `""` inside a string literal is an escaped quote
                    if c == b'"' && self.b.get(self.i) == Some(&b'"') {
                        self.i += 1;
                        continue;
                    }
                    break;
                }
            }
        } else {
            while self.i < self.b.len()
                && !matches!(
                    self.b[self.i],
                    b' ' | b'\t' | b'\r' | b'\n' | b'(' | b')' | b';' | b'"' | b'|'
                )
            {
                self.i += 1;
            }
        }
        String::from_utf8(self.b[start..self.i].to_vec())
            .map_err(|_| format!("line {}: not UTF-8", self.line))
    }
}

/// `(f a b)` from its items' texts.
pub fn app(f: &str, args: &[String]) -> String {
    if args.is_empty() {
        return f.to_string();
    }
    let mut s = String::new();
    let _ = write!(s, "({f}");
    for a in args {
        let _ = write!(s, " {a}");
    }
    s.push(')');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_commands_with_lines_and_quotes() {
        let t = "; c\n(declare-fun |a b| (Int) Bool)\n(assert (P \"x)\"))\n";
        let all = spans(t).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].line, 2);
        assert_eq!(all[1].line, 3);
        let d = read_one(&t[all[0].start..all[0].end]).unwrap();
        assert_eq!(d.list().unwrap()[1].atom(), Some("|a b|"));
        assert_eq!(unquote("|a b|"), "a b");
        assert_eq!(&t[all[1].start..all[1].end], "(assert (P \"x)\"))");
        assert_eq!(head_atom(&t[all[1].start..]).as_deref(), Some("assert"));
        assert_eq!(
            read_one("(f (g x) |y z|)").unwrap().to_string(),
            "(f (g x) |y z|)"
        );
        assert!(spans("(a (b)").is_err());
        assert!(spans("a)").is_err());
        assert!(read_one("(a) b").is_err());
    }
}
