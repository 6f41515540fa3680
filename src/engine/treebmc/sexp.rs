//! A small reader of the solver's `get-value` answers: atoms (with `|quoted|` symbols and
//! `"strings"` kept as written) and lists, printed back with single spaces.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum S {
    Atom(String),
    List(Vec<S>),
}

impl fmt::Display for S {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            S::Atom(a) => f.write_str(a),
            S::List(l) => {
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

/// `s` with every `(let ((x v) ..) body)` replaced by `body` with the values in place (z3
/// shares repeated subterms of a value with `let`).
pub fn unlet(s: &S) -> S {
    fn go(s: &S, env: &mut Vec<(String, S)>) -> S {
        match s {
            S::Atom(a) => env
                .iter()
                .rev()
                .find(|(x, _)| x == a)
                .map_or_else(|| s.clone(), |(_, v)| v.clone()),
            S::List(l) => match l.as_slice() {
                [S::Atom(h), S::List(bs), body] if h == "let" => {
                    let mut vals = vec![];
                    for b in bs {
                        match b {
                            S::List(p) if p.len() == 2 => {
                                if let S::Atom(x) = &p[0] {
                                    vals.push((x.clone(), go(&p[1], env)));
                                }
                            }
                            _ => return S::List(l.iter().map(|x| go(x, env)).collect()),
                        }
                    }
                    let n = env.len();
                    env.extend(vals);
                    let out = go(body, env);
                    env.truncate(n);
                    out
                }
                _ => S::List(l.iter().map(|x| go(x, env)).collect()),
            },
        }
    }
    go(s, &mut vec![])
}

/// Reads one s-expression (what follows it is ignored).
pub fn read(text: &str) -> Result<S, String> {
    let b = text.as_bytes();
    let mut stack: Vec<Vec<S>> = vec![vec![]];
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'(' => {
                stack.push(vec![]);
                i += 1;
            }
            b')' => {
                let l = stack.pop().ok_or("unbalanced")?;
                let top = stack.last_mut().ok_or("unbalanced")?;
                top.push(S::List(l));
                i += 1;
            }
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            c if c.is_ascii_whitespace() => i += 1,
            b'|' | b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != c {
                    i += 1;
                }
                if i == b.len() {
                    return Err("unterminated symbol or string".into());
                }
                i += 1;
                let top = stack.last_mut().ok_or("unbalanced")?;
                top.push(S::Atom(text[start..i].to_string()));
            }
            _ => {
                let start = i;
                while i < b.len()
                    && !b[i].is_ascii_whitespace()
                    && !matches!(b[i], b'(' | b')' | b'|' | b'"' | b';')
                {
                    i += 1;
                }
                let top = stack.last_mut().ok_or("unbalanced")?;
                top.push(S::Atom(text[start..i].to_string()));
            }
        }
        if stack.len() == 1 && !stack[0].is_empty() {
            return Ok(stack[0].remove(0));
        }
    }
    Err("no complete s-expression".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_values() {
        let s = read("((|t!1!0| (cons (- 1) nil)) (x \"a b\"))").unwrap();
        assert_eq!(s.to_string(), "((|t!1!0| (cons (- 1) nil)) (x \"a b\"))");
        assert_eq!(read("sat").unwrap(), S::Atom("sat".into()));
        assert!(read("((a)").is_err());
        let v = read("(let ((a!1 (S (S Z)))) (let ((a!2 (c a!1 a!1))) (m a!2 Z)))").unwrap();
        assert_eq!(unlet(&v).to_string(), "(m (c (S (S Z)) (S (S Z))) Z)");
    }
}
