//! The mutator: s-expression tokens and the byte- and term-level mutations.

use super::util::*;
use super::*;
use std::collections::HashSet;

// ------------------------------------------------------------------ s-expression tokens

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Tok {
    Open,
    Close,
    Num,
    Sym,
    Quoted,
}

/// Tokens (kind, start, end) of an input, comments skipped, never failing.
pub(crate) fn tokens(b: &[u8]) -> Vec<(Tok, usize, usize)> {
    let mut v = vec![];
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'(' => {
                v.push((Tok::Open, i, i + 1));
                i += 1
            }
            b')' => {
                v.push((Tok::Close, i, i + 1));
                i += 1
            }
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1
                }
            }
            b'|' | b'"' => {
                let s = i;
                i += 1;
                while i < b.len() && b[i] != c {
                    i += 1
                }
                i = (i + 1).min(b.len());
                v.push((Tok::Quoted, s, i));
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let s = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && !b"()|\";".contains(&b[i]) {
                    i += 1
                }
                let kind = if b[s..i].iter().all(u8::is_ascii_digit) {
                    Tok::Num
                } else {
                    Tok::Sym
                };
                v.push((kind, s, i));
            }
        }
    }
    v
}

/// Byte spans of subterms: atoms and balanced lists.
pub(crate) fn subterms(toks: &[(Tok, usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let mut stack = vec![];
    for &(k, s, e) in toks {
        match k {
            Tok::Open => stack.push(s),
            Tok::Close => {
                if let Some(s0) = stack.pop() {
                    out.push((s0, e))
                }
            }
            _ => out.push((s, e)),
        }
    }
    out
}

pub(crate) const COMMANDS: [&str; 24] = [
    "(check-sat)",
    "(exit)",
    "(get-model)",
    "(set-logic HORN)",
    "(set-logic QF_LIA)",
    "(declare-fun P (Int) Bool)",
    "(declare-fun Q (Int Bool) Bool)",
    "(declare-fun c () Int)",
    "(declare-const k Int)",
    "(define-fun f ((x Int)) Int x)",
    "(declare-rel R (Int))",
    "(declare-var x Int)",
    "(rule (R 0))",
    "(rule (=> (R x) (R (+ x 1))))",
    "(query R)",
    "(query (R x) :print-certificate true)",
    "(assert false)",
    "(assert (forall ((x Int)) (=> (P x) false)))",
    "(push 1)",
    "(pop 1)",
    "(get-info :reason-unknown)",
    "(set-info :status sat)",
    "(set-option :produce-models true)",
    "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))",
];

pub(crate) const WORDS: [&str; 48] = [
    "and",
    "or",
    "not",
    "=>",
    "xor",
    "=",
    "distinct",
    "ite",
    "<=",
    "<",
    ">=",
    ">",
    "+",
    "-",
    "*",
    "div",
    "mod",
    "abs",
    "true",
    "false",
    "Int",
    "Bool",
    "Real",
    "forall",
    "exists",
    "let",
    "!",
    ":named",
    ":pattern",
    "_",
    "as",
    "assert",
    "check-sat",
    "declare-fun",
    "declare-rel",
    "rule",
    "query",
    "exit",
    "set-logic",
    "HORN",
    "define-fun",
    "declare-var",
    "|x|",
    "||",
    "\"s\"",
    "1.5",
    "#x1F",
    "#b101",
];

pub(crate) const NUMERALS: [&str; 14] = [
    "0",
    "1",
    "-1",
    "(- 1)",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "-9223372036854775808",
    "(- 9223372036854775808)",
    "100000000000000000000000000000000000000",
    "007",
    "(- 0)",
];

pub(crate) struct Mutator {
    pub(crate) rng: Rng,
    /// Symbols seen in the corpus.
    pub(crate) dict: Vec<Vec<u8>>,
    pub(crate) dict_seen: HashSet<Vec<u8>>,
}

impl Mutator {
    pub(crate) fn learn(&mut self, b: &[u8]) {
        for (k, s, e) in tokens(b) {
            if matches!(k, Tok::Sym | Tok::Quoted) && e - s < 40 && self.dict.len() < 5000 {
                let w = b[s..e].to_vec();
                if self.dict_seen.insert(w.clone()) {
                    self.dict.push(w);
                }
            }
        }
    }

    pub(crate) fn word(&mut self) -> Vec<u8> {
        if !self.dict.is_empty() && self.rng.chance(2) {
            self.rng.pick(&self.dict).clone()
        } else {
            self.rng.pick(&WORDS).as_bytes().to_vec()
        }
    }

    pub(crate) fn numeral(&mut self, old: &[u8]) -> Vec<u8> {
        let r = self.rng.below(6);
        match r {
            0 | 1 => {
                // old ± 1 (on the decimal text)
                let s = String::from_utf8_lossy(old).to_string();
                match s.parse::<i128>() {
                    Ok(n) => {
                        let d = if r == 0 { 1 } else { -1 };
                        let m = n.saturating_add(d);
                        if m < 0 {
                            format!("(- {})", -m).into_bytes()
                        } else {
                            m.to_string().into_bytes()
                        }
                    }
                    Err(_) => b"1".to_vec(),
                }
            }
            2 => {
                let n = [20, 40, 100, 1000, 20000][self.rng.below(5)];
                let mut v = vec![b'9'; n];
                v[0] = b'1';
                v
            }
            _ => self.rng.pick(&NUMERALS).as_bytes().to_vec(),
        }
    }

    pub(crate) fn subterm_from<'a>(&mut self, b: &'a [u8]) -> &'a [u8] {
        let st = subterms(&tokens(b));
        if st.is_empty() {
            return b"x";
        }
        let (s, e) = *self.rng.pick(&st);
        &b[s..e]
    }

    /// One mutation of `b` (`other`: another corpus entry, for splicing).
    pub(crate) fn mutate_once(&mut self, b: &mut Vec<u8>, other: &[u8]) {
        let toks = tokens(b);
        let st = subterms(&toks);
        let n = b.len();
        let choice = self.rng.below(20);
        match choice {
            0 if n > 0 => {
                let i = self.rng.below(n);
                b[i] = if self.rng.chance(2) {
                    self.rng.next() as u8
                } else {
                    *self.rng.pick(b"()|\";: \n-0123456789x!")
                };
            }
            1 => {
                let i = self.rng.below(n + 1);
                b.insert(i, *self.rng.pick(b"()|\";: \n-0123456789x!\\#\x00\xff"));
            }
            2 if n > 0 => {
                let i = self.rng.below(n);
                let l = 1 + self.rng.below(16.min(n - i));
                b.drain(i..i + l);
            }
            3 if n > 0 => {
                let i = self.rng.below(n);
                let l = 1 + self.rng.below(64.min(n - i));
                let chunk = b[i..i + l].to_vec();
                let j = self.rng.below(n + 1);
                b.splice(j..j, chunk);
            }
            4 if st.len() >= 2 => {
                // swap two disjoint subterms
                let (a, c) = (*self.rng.pick(&st), *self.rng.pick(&st));
                let (x, y) = if a.0 < c.0 { (a, c) } else { (c, a) };
                if x.1 <= y.0 {
                    let (xs, ys) = (b[x.0..x.1].to_vec(), b[y.0..y.1].to_vec());
                    b.splice(y.0..y.1, xs);
                    b.splice(x.0..x.1, ys);
                }
            }
            5 if !st.is_empty() => {
                // duplicate a subterm next to another one
                let (s, e) = *self.rng.pick(&st);
                let mut chunk = vec![b' '];
                chunk.extend_from_slice(&b[s..e]);
                let (_, at) = *self.rng.pick(&st);
                b.splice(at..at, chunk);
            }
            6 if !st.is_empty() => {
                let (s, e) = *self.rng.pick(&st);
                b.drain(s..e);
            }
            7 if !st.is_empty() => {
                // replace a subterm by one of another input
                let (s, e) = *self.rng.pick(&st);
                let new = if self.rng.chance(2) {
                    self.subterm_from(other).to_vec()
                } else {
                    self.word()
                };
                b.splice(s..e, new);
            }
            8 | 9 => {
                let nums: Vec<_> = toks.iter().filter(|t| t.0 == Tok::Num).collect();
                if !nums.is_empty() {
                    let &&(_, s, e) = self.rng.pick(&nums);
                    let new = self.numeral(&b[s..e]);
                    b.splice(s..e, new);
                }
            }
            10 => {
                let syms: Vec<_> = toks
                    .iter()
                    .filter(|t| t.0 != Tok::Open && t.0 != Tok::Close)
                    .collect();
                if !syms.is_empty() {
                    let &&(_, s, e) = self.rng.pick(&syms);
                    let new = self.word();
                    b.splice(s..e, new);
                }
            }
            11 => {
                // a command at a top-level boundary (or anywhere)
                let cmd = self.rng.pick(&COMMANDS).as_bytes().to_vec();
                let at = if let Some(&(_, e)) = (!st.is_empty()).then(|| self.rng.pick(&st)) {
                    e
                } else {
                    n
                };
                b.splice(at..at, cmd);
            }
            12 => {
                // unbalance: drop or add a parenthesis
                let parens: Vec<_> = toks
                    .iter()
                    .filter(|t| matches!(t.0, Tok::Open | Tok::Close))
                    .collect();
                if !parens.is_empty() && self.rng.chance(2) {
                    let &&(_, s, _) = self.rng.pick(&parens);
                    b.remove(s);
                } else {
                    let i = self.rng.below(n + 1);
                    b.insert(i, if self.rng.chance(2) { b'(' } else { b')' });
                }
            }
            13 if !st.is_empty() => {
                // deep nesting around a subterm
                let (s, e) = *self.rng.pick(&st);
                let depth = [10, 100, 1000, 5000, 20000][self.rng.below(5)];
                const WRAPS: [&str; 7] =
                    ["(not ", "(and ", "(+ 0 ", "(- ", "(", "(! ", "(=> true "];
                let wrap = self.rng.pick(&WRAPS).as_bytes();
                let mut new = Vec::with_capacity((e - s) + depth * (wrap.len() + 1));
                for _ in 0..depth {
                    new.extend_from_slice(wrap);
                }
                new.extend_from_slice(&b[s..e]);
                new.resize(new.len() + depth, b')');
                b.splice(s..e, new);
            }
            14 if !st.is_empty() => {
                // a long argument list
                let (s, e) = *self.rng.pick(&st);
                let k = [3, 50, 2000][self.rng.below(3)];
                let op = self.rng.pick(&["and", "or", "+", "=", "distinct", "<="]);
                let mut new = format!("({op}").into_bytes();
                for _ in 0..k {
                    new.push(b' ');
                    new.extend_from_slice(&b[s..e]);
                }
                new.push(b')');
                b.splice(s..e, new);
            }
            15 if !st.is_empty() => {
                // binders and annotations around a subterm
                let (s, e) = *self.rng.pick(&st);
                let t = String::from_utf8_lossy(&b[s..e]).to_string();
                let v = String::from_utf8_lossy(&self.word()).to_string();
                let new = match self.rng.below(6) {
                    0 => format!("(exists (({v} Int)) {t})"),
                    1 => format!("(forall (({v} Int)) {t})"),
                    2 => format!("(let (({v} {t})) {v})"),
                    3 => format!("(! {t} :named {v})"),
                    4 => format!("(let (({v} 1) ({v} 2)) {t})"),
                    _ => format!("(forall () {t})"),
                };
                b.splice(s..e, new.into_bytes());
            }
            16 => {
                // splice: a prefix of this input and a suffix of the other
                if !other.is_empty() {
                    let i = self.rng.below(n + 1);
                    let j = self.rng.below(other.len());
                    b.truncate(i);
                    b.extend_from_slice(&other[j..]);
                }
            }
            17 => {
                // a command name right after an opening parenthesis
                let opens: Vec<_> = toks.iter().filter(|t| t.0 == Tok::Open).collect();
                if !opens.is_empty() {
                    let &&(_, _, e) = self.rng.pick(&opens);
                    let w = self.rng.pick(&WORDS[31..42]);
                    b.splice(e..e, format!("{w} ").into_bytes());
                }
            }
            18 if n > 0 => {
                // truncate
                let i = self.rng.below(n);
                b.truncate(i);
            }
            _ => {
                let i = self.rng.below(n + 1);
                let w = self.word();
                b.splice(i..i, w);
            }
        }
    }

    pub(crate) fn mutant(&mut self, base: &[u8], other: &[u8]) -> Vec<u8> {
        let mut b = base.to_vec();
        let k = 1 + self.rng.below(4);
        for _ in 0..k {
            self.mutate_once(&mut b, other);
            if b.len() > MAX_LEN {
                b.truncate(MAX_LEN);
            }
        }
        b
    }
}
