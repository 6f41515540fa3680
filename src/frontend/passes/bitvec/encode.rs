//! The integer terms of bit-vector operations: each builds, from the integer terms of its
//! operands (values in `[0, 2^w)`), the integer term of its result (again in `[0, 2^w)`),
//! exactly as SMT-LIB's QF_BV defines it, with linear arithmetic, `ite`, and `div`/`mod` by
//! constants only. An operand used more than once is bound by a `let` to a fresh name
//! (never a name of the input: they start with `!bv`), so that terms do not grow
//! exponentially with nesting.

use super::super::records::sexp::Sx;
use crate::logic::bitvec::pow2;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// The widest shift by a term written as one case per amount: the solvers decide the
/// cases (each a product or quotient by a constant) faster than the barrel shifter's nested
/// stages, which need the amount's bits. Solidity's `shift_right_uint32.sol_7`: unsat in
/// 3.1 s with the cases against 7.4 s with the barrel; on the 256-bit words of the
/// ADT-LIA-Arrays dev set's 65 shift files, 40 answered with the cases against 36 with the
/// barrel (2026-11-29, `scripts/bench` at 5 s, one file at a time). Wider words take the
/// barrel shifter.
pub const CASES_UP_TO: u32 = 256;

/// Builds the terms of one input, numbering the fresh names it binds.
#[derive(Default)]
pub struct Enc {
    next: usize,
}

pub fn num(n: &BigInt) -> Sx {
    if n.is_negative() {
        Sx::app("-", vec![Sx::a((-n).to_string())])
    } else {
        Sx::a(n.to_string())
    }
}

fn n(v: u64) -> Sx {
    Sx::a(v.to_string())
}

/// The value of a numeral term, if it is one.
pub fn as_num(t: &Sx) -> Option<BigInt> {
    let a = t.atom()?;
    a.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| a.parse().ok())
        .flatten()
}

fn app2(h: &str, a: Sx, b: Sx) -> Sx {
    Sx::app(h, vec![a, b])
}

fn ite(c: Sx, a: Sx, b: Sx) -> Sx {
    Sx::app("ite", vec![c, a, b])
}

impl Enc {
    /// A fresh name, not one of the input's (`!bvN`).
    pub fn fresh(&mut self) -> String {
        self.next += 1;
        format!("!bv{}", self.next)
    }

    /// `k(x)` with `x` standing for `t`: `t` itself when it is an atom, else a fresh name
    /// bound to it by a `let` around the result.
    pub fn share(&mut self, t: Sx, k: impl FnOnce(&mut Enc, Sx) -> Sx) -> Sx {
        if t.atom().is_some() {
            return k(self, t);
        }
        let v = self.fresh();
        let body = k(self, Sx::a(&v));
        Sx::List(vec![
            Sx::a("let"),
            Sx::List(vec![Sx::List(vec![Sx::a(v), t])]),
            body,
        ])
    }

    /// `(a + b) mod 2^w` for `a, b` in `[0, 2^w)`.
    pub fn add(&mut self, w: u32, a: Sx, b: Sx) -> Sx {
        let m = num(&pow2(w));
        if as_num(&b).is_some_and(|b| b.is_zero()) {
            return a;
        }
        self.share(app2("+", a, b), |_, s| {
            ite(app2(">=", s.clone(), m.clone()), app2("-", s.clone(), m), s)
        })
    }

    /// `(a - b) mod 2^w`.
    pub fn sub(&mut self, w: u32, a: Sx, b: Sx) -> Sx {
        let m = num(&pow2(w));
        self.share(app2("-", a, b), |_, d| {
            ite(app2(">=", d.clone(), n(0)), d.clone(), app2("+", d, m))
        })
    }

    /// `(-a) mod 2^w`.
    pub fn neg(&mut self, w: u32, a: Sx) -> Sx {
        let m = num(&pow2(w));
        self.share(a, |_, x| {
            ite(app2("=", x.clone(), n(0)), n(0), app2("-", m, x))
        })
    }

    /// `(a * b) mod 2^w`: by a constant, one `mod`; else the sum over the bits of `b` of
    /// `a * 2^i mod 2^w`, taken modulo `2^w`.
    pub fn mul(&mut self, w: u32, a: Sx, b: Sx) -> Sx {
        let m = pow2(w);
        let (c, x) = match (as_num(&a), as_num(&b)) {
            (Some(c), _) => (c, b),
            (_, Some(c)) => (c, a),
            _ => {
                return self.share(a, |e, a| {
                    e.share(b, |e, b| {
                        let terms = (0..w)
                            .map(|i| {
                                let shifted = e.mod_of(app2("*", num(&pow2(i)), a.clone()), &m);
                                ite(app2("=", bit(&b, i), n(1)), shifted, n(0))
                            })
                            .collect();
                        e.mod_of(Sx::app("+", terms), &m)
                    })
                })
            }
        };
        let c = c % &m;
        if c.is_zero() {
            n(0)
        } else if c.is_one() {
            x
        } else if &c * 2 > m {
            // `c = 2^w - d` with `d` smaller: `c * x = -(d * x)` modulo `2^w`. Eldarica writes
            // `a - b` as `(bvadd a (bvmul #xff..ff b))`, whose product by `2^w - 1` is a `mod`
            // with a quotient of up to `2^w` values for the solver to search; `-x` is one `ite`
            // (Consistency `point-location-nr.50` of the BV dev set: Spacer's queries no longer
            // run out of time)
            let d = self.mul(w, num(&(&m - &c)), x);
            self.neg(w, d)
        } else {
            self.mod_of(app2("*", num(&c), x), &m)
        }
    }

    fn mod_of(&mut self, t: Sx, m: &BigInt) -> Sx {
        app2("mod", t, num(m))
    }

    /// `x` as a signed value: `x - 2^w` when `x >= 2^(w-1)`.
    pub fn signed(&mut self, w: u32, x: Sx) -> Sx {
        let (m, h) = (num(&pow2(w)), num(&pow2(w - 1)));
        self.share(x, |_, x| {
            ite(app2(">=", x.clone(), h), app2("-", x.clone(), m), x)
        })
    }

    /// Is `x` negative as a signed value of width `w`?
    pub fn negative(w: u32, x: &Sx) -> Sx {
        app2(">=", x.clone(), num(&pow2(w - 1)))
    }

    /// The absolute value of `x` as a signed value, as an unsigned one (`2^(w-1)` for the
    /// least value, as `bvneg` gives).
    pub fn abs(&mut self, w: u32, x: Sx) -> Sx {
        let m = num(&pow2(w));
        self.share(x, |_, x| {
            ite(Enc::negative(w, &x), app2("-", m, x.clone()), x)
        })
    }

    /// Bits `hi..=lo` of `x` (width `w`).
    pub fn extract(&mut self, w: u32, hi: u32, lo: u32, x: Sx) -> Sx {
        let x = if lo == 0 {
            x
        } else {
            app2("div", x, num(&pow2(lo)))
        };
        if hi + 1 == w {
            x
        } else {
            app2("mod", x, num(&pow2(hi - lo + 1)))
        }
    }

    /// `x & c` for a constant `c`: the sum of the runs of ones of `c`, each the bits of `x`
    /// there, in place.
    pub fn and_const(&mut self, w: u32, x: Sx, c: &BigInt) -> Sx {
        let mut terms = vec![];
        let mut i = 0;
        while i < w {
            if !c.bit(i as u64) {
                i += 1;
                continue;
            }
            let lo = i;
            while i < w && c.bit(i as u64) {
                i += 1;
            }
            let part = self.extract(w, i - 1, lo, x.clone());
            terms.push(if lo == 0 {
                part
            } else {
                app2("*", num(&pow2(lo)), part)
            });
        }
        match terms.len() {
            0 => n(0),
            1 => terms.pop().unwrap(),
            _ => Sx::app("+", terms),
        }
    }

    /// A bitwise operation (`and`, `or`, `xor`) of `a` and `b`.
    pub fn bitwise(&mut self, w: u32, op: &str, a: Sx, b: Sx) -> Sx {
        let (c, x) = match (as_num(&a), as_num(&b)) {
            (Some(c), _) => (Some(c), b.clone()),
            (_, Some(c)) => (Some(c), a.clone()),
            _ => (None, a.clone()),
        };
        if let Some(c) = c {
            return self.share(x, |e, x| {
                let and = e.and_const(w, x.clone(), &c);
                match op {
                    "and" => and,
                    // x | c = x + c - (x & c); x ^ c = x + c - 2 (x & c)
                    "or" => app2("-", app2("+", x, num(&c)), and),
                    _ => app2("-", app2("+", x, num(&c)), app2("*", n(2), and)),
                }
            });
        }
        self.share(x, |e, a| {
            e.share(b, |_, b| {
                let terms = (0..w)
                    .map(|i| {
                        let (ba, bb) = (app2("=", bit(&a, i), n(1)), app2("=", bit(&b, i), n(1)));
                        let cond = match op {
                            "and" => app2("and", ba, bb),
                            "or" => app2("or", ba, bb),
                            _ => app2("xor", ba, bb),
                        };
                        ite(cond, num(&pow2(i)), n(0))
                    })
                    .collect();
                Sx::app("+", terms)
            })
        })
    }

    /// `2^w - 1 - x`.
    pub fn not(&mut self, w: u32, x: Sx) -> Sx {
        app2("-", num(&(pow2(w) - 1)), x)
    }

    /// A shift (`shl`, `lshr`, `ashr`) of `x` by `s`: by a constant, one product or
    /// quotient; by a term of width at most [`CASES_UP_TO`], one case per shift below `w`;
    /// wider, a barrel shifter, linear in `log2 w`: for each bit `i` of `s` with `2^i < w`,
    /// the value so far shifted by the constant `2^i` when the bit is set (shifts compose:
    /// by `a` then by `b` is by `a + b`), and the shift by `w` when `s >= w`.
    pub fn shift(&mut self, w: u32, op: &str, x: Sx, s: Sx) -> Sx {
        if let Some(c) = as_num(&s) {
            return self.shift_by(w, op, x, &c);
        }
        if w <= CASES_UP_TO {
            return self.share(x, |e, x| {
                e.share(s, |e, s| {
                    let mut out = e.shift_by(w, op, x.clone(), &BigInt::from(w));
                    for c in (0..w).rev() {
                        let t = e.shift_by(w, op, x.clone(), &BigInt::from(c));
                        out = ite(app2("=", s.clone(), n(c as u64)), t, out);
                    }
                    out
                })
            });
        }
        self.share(x, |e, x| {
            e.share(s, |e, s| {
                let big = e.shift_by(w, op, x.clone(), &BigInt::from(w));
                let mut stages = vec![];
                let mut i = 0;
                while i < 32 && (1u64 << i) < w as u64 {
                    stages.push(i);
                    i += 1;
                }
                let shifted = e.stages(w, op, x, &s, &stages);
                ite(app2(">=", s, n(w as u64)), big, shifted)
            })
        })
    }

    /// The barrel shifter's stages `stages[0..]` applied to `x` (each one a shared value).
    fn stages(&mut self, w: u32, op: &str, x: Sx, s: &Sx, stages: &[u32]) -> Sx {
        let Some((&i, rest)) = stages.split_first() else {
            return x;
        };
        let by = self.shift_by(w, op, x.clone(), &BigInt::from(1u64 << i));
        let next = ite(app2("=", bit(s, i), n(1)), by, x);
        self.share(next, |e, y| e.stages(w, op, y, s, rest))
    }

    fn shift_by(&mut self, w: u32, op: &str, x: Sx, c: &BigInt) -> Sx {
        let big = *c >= BigInt::from(w);
        let c: u32 = if big { w } else { c.try_into().unwrap_or(w) };
        match op {
            "shl" if big => n(0),
            "shl" => self.mul(w, x, num(&pow2(c))),
            "lshr" if big => n(0),
            "lshr" => self.extract(w, w - 1, c, x),
            _ => {
                if big {
                    let ones = num(&(pow2(w) - 1));
                    return self.share(x, |_, x| ite(Enc::negative(w, &x), ones, n(0)));
                }
                if c == 0 {
                    return x;
                }
                let sx = self.signed(w, x);
                app2("mod", app2("div", sx, num(&pow2(c))), num(&pow2(w)))
            }
        }
    }

    /// `x` rotated left by `k` bits.
    pub fn rotate_left(&mut self, w: u32, k: u32, x: Sx) -> Sx {
        let k = k % w;
        if k == 0 {
            return x;
        }
        self.share(x, |e, x| {
            let low = e.mul(w, x.clone(), num(&pow2(k)));
            let high = e.extract(w, w - 1, w - k, x);
            app2("+", low, high)
        })
    }

    /// `x` (width `w`) extended by `k` copies of its sign bit.
    pub fn sign_extend(&mut self, w: u32, k: u32, x: Sx) -> Sx {
        let fill = num(&((pow2(k) - 1) * pow2(w)));
        self.share(x, |_, x| {
            app2("+", x.clone(), ite(Enc::negative(w, &x), fill, n(0)))
        })
    }
}

/// Bit `i` of `x`: `(x div 2^i) mod 2`.
pub fn bit(x: &Sx, i: u32) -> Sx {
    let shifted = if i == 0 {
        x.clone()
    } else {
        app2("div", x.clone(), num(&pow2(i)))
    };
    app2("mod", shifted, n(2))
}

/// The product `q * y` over the integers for `q` in `[0, 2^w)`: the sum over the bits of
/// `q` of `y * 2^i` (linear).
pub fn product(w: u32, q: &Sx, y: &Sx) -> Sx {
    let terms = (0..w)
        .map(|i| {
            ite(
                app2("=", bit(q, i), n(1)),
                app2("*", num(&pow2(i)), y.clone()),
                n(0),
            )
        })
        .collect();
    Sx::app("+", terms)
}

pub fn ite_of(c: Sx, a: Sx, b: Sx) -> Sx {
    ite(c, a, b)
}

pub fn app(h: &str, a: Sx, b: Sx) -> Sx {
    app2(h, a, b)
}
