//! The s-expressions the records pass reads and writes: atoms kept as written (`|quoted|`
//! symbols with their bars, strings with their quotes), lists.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sx {
    Atom(String),
    List(Vec<Sx>),
}

impl Sx {
    pub fn atom(&self) -> Option<&str> {
        match self {
            Sx::Atom(a) => Some(a),
            Sx::List(_) => None,
        }
    }

    pub fn list(&self) -> Option<&[Sx]> {
        match self {
            Sx::List(l) => Some(l),
            Sx::Atom(_) => None,
        }
    }

    pub fn a(s: impl Into<String>) -> Sx {
        Sx::Atom(s.into())
    }

    /// `(head args..)`, or `head` alone without arguments.
    pub fn app(head: &str, args: Vec<Sx>) -> Sx {
        if args.is_empty() {
            return Sx::a(head);
        }
        let mut l = Vec::with_capacity(args.len() + 1);
        l.push(Sx::a(head));
        l.extend(args);
        Sx::List(l)
    }

    /// The conjunction of `cs`: `true`, the one conjunct, or `(and ..)`.
    pub fn and(mut cs: Vec<Sx>) -> Sx {
        match cs.len() {
            0 => Sx::a("true"),
            1 => cs.pop().unwrap(),
            _ => Sx::app("and", cs),
        }
    }
}

impl fmt::Display for Sx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sx::Atom(a) => f.write_str(a),
            Sx::List(l) => {
                f.write_str("(")?;
                for (i, x) in l.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Reads the one s-expression of `text` (a command as the input's scanner cut it out).
pub fn read(text: &str) -> Result<Sx, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut stack: Vec<Vec<Sx>> = vec![vec![]];
    while i < b.len() {
        match b[i] {
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => {
                stack.push(vec![]);
                i += 1;
            }
            b')' => {
                let l = stack
                    .pop()
                    .filter(|_| !stack.is_empty())
                    .ok_or("unbalanced `)`")?;
                stack.last_mut().unwrap().push(Sx::List(l));
                i += 1;
            }
            c if c.is_ascii_whitespace() => i += 1,
            c @ (b'|' | b'"') => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != c {
                    i += 1;
                }
                i += 1;
                let end = i.min(b.len());
                stack.last_mut().unwrap().push(Sx::a(&text[start..end]));
            }
            _ => {
                let start = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && !b"()|\";".contains(&b[i]) {
                    i += 1;
                }
                stack.last_mut().unwrap().push(Sx::a(&text[start..i]));
            }
        }
    }
    match (stack.len(), stack.pop()) {
        (1, Some(mut top)) if top.len() == 1 => Ok(top.pop().unwrap()),
        _ => Err("not one s-expression".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_prints_as_written() {
        let s = read("(assert (forall ((|x y| Int)) ; c\n (P |x y| \"s\")))").unwrap();
        assert_eq!(
            s.to_string(),
            "(assert (forall ((|x y| Int)) (P |x y| \"s\")))"
        );
        assert!(read("(a))").is_err());
        assert!(read("(a").is_err());
    }
}
