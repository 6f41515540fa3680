use super::*;
use num_bigint::BigInt;

fn iv(name: &str) -> Var {
    Var {
        name: name.into(),
        sort: Sort::Int,
    }
}

fn bv(name: &str) -> Var {
    Var {
        name: name.into(),
        sort: Sort::Bool,
    }
}

fn t(v: &Var) -> Term {
    mk_var_of(v)
}

fn int(k: i64) -> Term {
    mk_int(k)
}

fn add(a: Term, k: i64) -> Term {
    mk_add(vec![a, mk_int(k)])
}

/// Every assignment of `vars` with integers in `lo..=hi` (Booleans: both values)
/// satisfying `f`, found by assigning one variable at a time and pruning on `false`.
fn models(f: &Term, vars: &[Var], lo: i64, hi: i64) -> Vec<Vec<Value>> {
    fn go(
        f: &Term,
        vars: &[Var],
        lo: i64,
        hi: i64,
        cur: &mut Vec<Value>,
        out: &mut Vec<Vec<Value>>,
    ) {
        if f.as_bool() == Some(false) {
            return;
        }
        let Some(v) = vars.first() else {
            let b = eval_bool(f, &Assignment::default()).expect("ground formula");
            if b {
                out.push(cur.clone());
            }
            return;
        };
        let vt = mk_var_of(v);
        // A conjunct `c*v + k = 0`, `v` or `not v` fixes the value (saves enumerating).
        let fixed = conjuncts(f).iter().find_map(|c| match c.get() {
            TermNode::EqZ(l) if l.terms.len() == 1 && l.terms[0].0 == vt => {
                let c = &l.terms[0].1;
                let r = -&l.k;
                Some(if (&r % c).is_zero() {
                    vec![Value::Int(r / c)]
                } else {
                    vec![]
                })
            }
            TermNode::Var(w) if w == v => Some(vec![Value::Bool(true)]),
            TermNode::Not(w) if *w == vt => Some(vec![Value::Bool(false)]),
            _ => None,
        });
        let vals: Vec<Value> = match (fixed, v.sort) {
            (Some(vals), _) => vals,
            (None, Sort::Bool) => vec![Value::Bool(false), Value::Bool(true)],
            (None, Sort::Int) => (lo..=hi).map(|k| Value::Int(k.into())).collect(),
            (None, Sort::Real | Sort::Array(_)) => unreachable!("integer systems only"),
        };
        for val in vals {
            let mut map = FxHashMap::default();
            map.insert(v.clone(), val.to_term());
            let g = subst(f, &map);
            cur.push(val);
            go(&g, &vars[1..], lo, hi, cur, out);
            cur.pop();
        }
    }
    let mut out = vec![];
    go(f, vars, lo, hi, &mut vec![], &mut out);
    out
}

fn bind(vars: &[Var], vals: &[Value]) -> FxHashMap<Var, Term> {
    vars.iter()
        .cloned()
        .zip(vals.iter().map(Value::to_term))
        .collect()
}

/// A transition system for the enumeration checks.
struct Sys {
    pre: Vec<Var>,
    post: Vec<Var>,
    temps: Vec<Var>,
}

/// Boxes: pre-states in `-pre_r..=pre_r`, post and intermediate states in
/// `-post_r..=post_r`, temporaries in `-post_r-5..=post_r+5`.
const KMAX: i64 = 5;

impl Sys {
    fn new(names: &[(&str, Sort)], temps: &[&str]) -> Sys {
        let mk = |n: &str, s: Sort| Var {
            name: n.into(),
            sort: s,
        };
        Sys {
            pre: names.iter().map(|(n, s)| mk(n, *s)).collect(),
            post: names
                .iter()
                .map(|(n, s)| mk(&format!("{n}'"), *s))
                .collect(),
            temps: temps.iter().map(|n| iv(n)).collect(),
        }
    }

    /// The successors of `s` within the post box.
    fn successors(&self, tr: &Term, s: &[Value], r: i64) -> Vec<Vec<Value>> {
        let f = subst(tr, &bind(&self.pre, s));
        let mut vars = self.post.clone();
        // a temporary that no longer occurs can take any value
        let fv = free_vars(&f);
        vars.extend(self.temps.iter().filter(|v| fv.contains(v)).cloned());
        let mut out: Vec<Vec<Value>> = models(&f, &vars, -r - 5, r + 5)
            .into_iter()
            .map(|mut m| {
                m.truncate(self.post.len());
                m
            })
            .filter(|m| {
                m.iter().all(|v| match v {
                    Value::Int(k) => k.abs() <= BigInt::from(r),
                    Value::Bool(_) | Value::Real(_) | Value::Array(_) => true,
                })
            })
            .collect();
        out.sort_by_key(|m| format!("{m:?}"));
        out.dedup();
        out
    }

    /// Checks `accelerate` against the k-fold composition, k = 1..=KMAX, on the
    /// boxes; returns `None` when it does not accelerate, else whether it is exact.
    fn check(&self, t: &[Term], pre_r: i64, post_r: i64) -> Option<bool> {
        let n = iv("n");
        let acc = accelerate(t, &self.pre, &self.post, &n)?;
        let allowed: FxHashSet<Var> = self
            .pre
            .iter()
            .chain(&self.post)
            .cloned()
            .chain([n.clone()])
            .collect();
        for l in &acc.lits {
            for v in free_vars(l) {
                assert!(allowed.contains(&v), "{v:?} in {l:?}");
            }
        }
        assert!(acc.lits.contains(&mk_ge(t_(&n), int(1))));
        let tr = mk_and(t.to_vec());
        let acc_f = mk_and(acc.lits.clone());
        let mut succ: FxHashMap<Vec<Value>, Vec<Vec<Value>>> = FxHashMap::default();
        let pres = models(&mk_true(), &self.pre, -pre_r, pre_r);
        for s0 in &pres {
            let mut reach: FxHashSet<Vec<Value>> = [s0.clone()].into_iter().collect();
            for k in 1..=KMAX {
                let mut next = FxHashSet::default();
                for s in &reach {
                    let ss = succ
                        .entry(s.clone())
                        .or_insert_with(|| self.successors(&tr, s, post_r));
                    next.extend(ss.iter().cloned());
                }
                reach = next;
                let mut map = bind(&self.pre, s0);
                map.insert(n.clone(), int(k));
                let f = subst(&acc_f, &map);
                let got: FxHashSet<Vec<Value>> = models(&f, &self.post, -post_r, post_r)
                    .into_iter()
                    .collect();
                if acc.exact {
                    assert_eq!(
                        got, reach,
                        "t = {t:?}\nlits = {:?}\nfrom {s0:?}, n = {k}",
                        acc.lits
                    );
                } else {
                    assert!(
                        got.is_subset(&reach),
                        "t = {t:?}\nlits = {:?}\nfrom {s0:?}, n = {k}",
                        acc.lits
                    );
                }
            }
        }
        Some(acc.exact)
    }
}

fn t_(v: &Var) -> Term {
    t(v)
}

fn xy() -> Sys {
    Sys::new(&[("x", Sort::Int), ("y", Sort::Int)], &[])
}

fn sorted(mut v: Vec<Term>) -> Vec<Term> {
    v.sort_by_key(|t| t.uid());
    v
}

#[test]
fn increment_under_bound_is_exact() {
    let (x, x1, n) = (iv("x"), iv("x'"), iv("n"));
    let tr = vec![mk_lt(t(&x), int(1000)), mk_eq(t(&x1), add(t(&x), 1))];
    let acc = accelerate(&tr, std::slice::from_ref(&x), std::slice::from_ref(&x1), &n).unwrap();
    assert!(acc.exact);
    let expected = vec![
        mk_ge(t(&n), int(1)),
        mk_lt(mk_add(vec![t(&x), t(&n), int(-1)]), int(1000)),
        mk_eq(t(&x1), mk_add(vec![t(&x), t(&n)])),
    ];
    assert_eq!(sorted(acc.lits), sorted(expected));
}

#[test]
fn nested_loop_shape_is_exact() {
    let n = iv("n");
    let names = ["j", "c", "i", "loc"];
    let pre: Vec<Var> = names.iter().map(|s| iv(s)).collect();
    let post: Vec<Var> = names.iter().map(|s| iv(&format!("{s}'"))).collect();
    let (j, c, i, loc) = (t(&pre[0]), t(&pre[1]), t(&pre[2]), t(&pre[3]));
    let (j1, c1, i1, loc1) = (t(&post[0]), t(&post[1]), t(&post[2]), t(&post[3]));
    let tr = vec![
        mk_lt(j.clone(), int(4)),
        mk_eq(j1.clone(), add(j.clone(), 1)),
        mk_eq(c1.clone(), add(c.clone(), 1)),
        mk_eq(i1.clone(), i.clone()),
        mk_eq(loc1.clone(), loc.clone()),
    ];
    let acc = accelerate(&tr, &pre, &post, &n).unwrap();
    assert!(acc.exact);
    let nt = t(&n);
    let expected = vec![
        mk_ge(nt.clone(), int(1)),
        mk_lt(mk_add(vec![j.clone(), nt.clone(), int(-1)]), int(4)),
        mk_eq(j1, mk_add(vec![j, nt.clone()])),
        mk_eq(c1, mk_add(vec![c, nt])),
        mk_eq(i1, i),
        mk_eq(loc1, loc),
    ];
    assert_eq!(sorted(acc.lits), sorted(expected));
}

#[test]
fn chain_copy_of_incremented_variable() {
    // y' = x, x' = x + 1, x < 2: y^(n) = x + n - 1
    let (x, y, x1, y1, n) = (iv("x"), iv("y"), iv("x'"), iv("y'"), iv("n"));
    let tr = vec![
        mk_lt(t(&x), int(2)),
        mk_eq(t(&y1), t(&x)),
        mk_eq(t(&x1), add(t(&x), 1)),
    ];
    let acc = accelerate(&tr, &[x.clone(), y.clone()], &[x1.clone(), y1.clone()], &n).unwrap();
    assert!(acc.exact);
    let nt = t(&n);
    assert!(acc
        .lits
        .contains(&mk_eq(t(&y1), mk_add(vec![t(&x), nt.clone(), int(-1)]))));
    assert!(acc.lits.contains(&mk_eq(t(&x1), mk_add(vec![t(&x), nt]))));
    assert_eq!(xy().check(&tr, 3, 16), Some(true));
}

#[test]
fn rejects_nonlinear_and_periodic() {
    let n = iv("n");
    let (x, y, x1, y1) = (iv("x"), iv("y"), iv("x'"), iv("y'"));
    let pre = [x.clone(), y.clone()];
    let post = [x1.clone(), y1.clone()];
    // y' = y + x, x' = x + 1: y is quadratic in n
    let tr = vec![
        mk_eq(t(&y1), mk_add(vec![t(&y), t(&x)])),
        mk_eq(t(&x1), add(t(&x), 1)),
    ];
    assert!(accelerate(&tr, &pre, &post, &n).is_none());
    // y' = y + x, x' = x: n * x
    let tr = vec![
        mk_eq(t(&y1), mk_add(vec![t(&y), t(&x)])),
        mk_eq(t(&x1), t(&x)),
    ];
    assert!(accelerate(&tr, &pre, &post, &n).is_none());
    // x' = 2x: exponential
    let tr = vec![
        mk_eq(t(&x1), mk_mul_const(&2.into(), t(&x))),
        mk_eq(t(&y1), t(&y)),
    ];
    assert!(accelerate(&tr, &pre, &post, &n).is_none());
    // swap: periodic
    let tr = vec![mk_eq(t(&x1), t(&y)), mk_eq(t(&y1), t(&x))];
    assert!(accelerate(&tr, &pre, &post, &n).is_none());
    // b' = not b: periodic
    let (b, b1) = (bv("b"), bv("b'"));
    let tr = vec![mk_eq(t(&b1), mk_not(t(&b)))];
    assert!(accelerate(&tr, std::slice::from_ref(&b), std::slice::from_ref(&b1), &n).is_none());
    // x' <= x + 1 only: x' is constrained but not determined
    let tr = vec![mk_le(t(&x1), add(t(&x), 1)), mk_eq(t(&y1), t(&y))];
    assert!(accelerate(&tr, &pre, &post, &n).is_none());
    // x mod 2 = 0 with x changing
    let tr = vec![
        mk_eq(mk_mod(t(&x), 2.into()), int(0)),
        mk_eq(t(&x1), add(t(&x), 1)),
        mk_eq(t(&y1), t(&y)),
    ];
    assert!(accelerate(&tr, &pre, &post, &n).is_none());
}

#[test]
fn hand_written_transitions_agree_with_composition() {
    let s = xy();
    let (x, y, x1, y1) = (t(&s.pre[0]), t(&s.pre[1]), t(&s.post[0]), t(&s.post[1]));
    let cases: Vec<(Vec<Term>, Option<bool>)> = vec![
        // post-state guard: x' <= 4
        (
            vec![
                mk_le(x1.clone(), int(4)),
                mk_eq(x1.clone(), add(x.clone(), 1)),
            ],
            Some(true),
        ),
        // decrementing with a lower bound and an unchanged bound variable
        (
            vec![
                mk_gt(x.clone(), y.clone()),
                mk_eq(x1.clone(), add(x.clone(), -2)),
                mk_eq(y1.clone(), y.clone()),
            ],
            Some(true),
        ),
        // set to a constant, then a guard on it
        (
            vec![
                mk_eq(x1.clone(), int(3)),
                mk_le(x.clone(), y.clone()),
                mk_eq(y1.clone(), add(y.clone(), 1)),
            ],
            Some(true),
        ),
        // equality guard along the iterations (holds at most once when moving)
        (
            vec![
                mk_eq(x.clone(), int(0)),
                mk_eq(x1.clone(), add(x.clone(), 1)),
                mk_eq(y1.clone(), y.clone()),
            ],
            Some(true),
        ),
        // x' = y + 1 with y incremented: affine from iteration 1
        (
            vec![
                mk_eq(x1.clone(), add(y.clone(), 1)),
                mk_eq(y1.clone(), add(y.clone(), 2)),
                mk_le(x.clone(), int(6)),
            ],
            Some(true),
        ),
        // free post variable y', y unused
        (
            vec![
                mk_lt(x.clone(), int(2)),
                mk_eq(x1.clone(), add(x.clone(), 1)),
            ],
            Some(true),
        ),
        // disequality with slope 1: exact
        (
            vec![
                mk_not(mk_eq(x.clone(), int(2))),
                mk_eq(x1.clone(), add(x.clone(), 1)),
                mk_eq(y1.clone(), y.clone()),
            ],
            Some(true),
        ),
        // disequality with slope 2: under-approximation
        (
            vec![
                mk_not(mk_eq(x.clone(), y.clone())),
                mk_eq(x1.clone(), add(x.clone(), 2)),
                mk_eq(y1.clone(), y.clone()),
            ],
            Some(false),
        ),
        // a guard relating post variables: x' + y' <= 6
        (
            vec![
                mk_le(mk_add(vec![x1.clone(), y1.clone()]), int(6)),
                mk_eq(x1.clone(), add(x.clone(), 1)),
                mk_eq(y1.clone(), add(y.clone(), -1)),
            ],
            Some(true),
        ),
        // updates given as a system: x' - y' = 1, y' = y + 1
        (
            vec![
                mk_eq(mk_sub(x1.clone(), y1.clone()), int(1)),
                mk_eq(y1.clone(), add(y.clone(), 1)),
            ],
            Some(true),
        ),
        // div atom over an unchanged variable in an update and a guard
        (
            vec![
                mk_eq(x1.clone(), mk_add(vec![x.clone(), int(1)])),
                mk_le(x.clone(), mk_div(y.clone(), 2.into())),
                mk_eq(y1.clone(), y.clone()),
            ],
            Some(true),
        ),
        // unsatisfiable transition
        (
            vec![
                mk_eq(x1.clone(), int(1)),
                mk_eq(x1.clone(), int(2)),
                mk_eq(y1.clone(), y.clone()),
            ],
            Some(true),
        ),
    ];
    for (tr, want) in cases {
        assert_eq!(s.check(&tr, 3, 16), want, "{tr:?}");
    }
}

#[test]
fn chains_starting_late_agree_with_composition() {
    // z' = y, y' = 5, x' = x + z: z fixed from iteration 2, x affine from 2
    let s = Sys::new(&[("x", Sort::Int), ("y", Sort::Int), ("z", Sort::Int)], &[]);
    let (x, y, z) = (t(&s.pre[0]), t(&s.pre[1]), t(&s.pre[2]));
    let (x1, y1, z1) = (t(&s.post[0]), t(&s.post[1]), t(&s.post[2]));
    let tr = vec![
        mk_eq(z1.clone(), y.clone()),
        mk_eq(y1.clone(), int(2)),
        mk_eq(x1.clone(), mk_add(vec![x.clone(), z.clone()])),
        mk_le(x.clone(), int(4)),
    ];
    assert_eq!(s.check(&tr, 2, 14), Some(true));
    // Booleans: b' = true, c' = b, guard c -> only the first two iterations matter
    let s = Sys::new(
        &[("x", Sort::Int), ("b", Sort::Bool), ("c", Sort::Bool)],
        &[],
    );
    let (x, b, c) = (t(&s.pre[0]), t(&s.pre[1]), t(&s.pre[2]));
    let (x1, b1, c1) = (t(&s.post[0]), t(&s.post[1]), t(&s.post[2]));
    let tr = vec![
        c.clone(),
        mk_eq(b1.clone(), mk_true()),
        mk_eq(c1.clone(), b.clone()),
        mk_eq(x1.clone(), add(x.clone(), 1)),
    ];
    assert_eq!(s.check(&tr, 3, 10), Some(true));
    // b' = (x <= 1) with x changing: b's value moves along the iterations
    let tr = vec![
        mk_eq(b1.clone(), mk_le(x.clone(), int(1))),
        c.clone(),
        mk_eq(c1.clone(), b.clone()),
        mk_eq(x1.clone(), add(x.clone(), 1)),
    ];
    assert_eq!(s.check(&tr, 3, 10), Some(true));
    // b unchanged, guard (b = x <= 1)
    let tr = vec![
        mk_eq(b.clone(), mk_le(x.clone(), int(1))),
        mk_eq(b1.clone(), b.clone()),
        mk_eq(c1, c.clone()),
        mk_eq(x1.clone(), add(x.clone(), 1)),
    ];
    assert_eq!(s.check(&tr, 3, 10), None);
    let tr = vec![
        b.clone(),
        mk_eq(b1.clone(), b.clone()),
        mk_eq(x1.clone(), add(x.clone(), -1)),
    ];
    assert_eq!(s.check(&tr, 3, 10), Some(true));
}

#[test]
fn temporaries_are_eliminated_exactly() {
    let s = Sys::new(&[("x", Sort::Int), ("y", Sort::Int)], &["t"]);
    let (x, y, x1, y1) = (t(&s.pre[0]), t(&s.pre[1]), t(&s.post[0]), t(&s.post[1]));
    let tmp = t(&s.temps[0]);
    // defined temporary: t = x + 1, x' = t, t <= 4
    let tr = vec![
        mk_eq(tmp.clone(), add(x.clone(), 1)),
        mk_eq(x1.clone(), tmp.clone()),
        mk_le(tmp.clone(), int(4)),
        mk_eq(y1.clone(), y.clone()),
    ];
    assert_eq!(s.check(&tr, 2, 9), Some(true));
    // one-sided temporary: t >= x, t >= y
    let tr = vec![
        mk_ge(tmp.clone(), x.clone()),
        mk_ge(tmp.clone(), y.clone()),
        mk_eq(x1.clone(), add(x.clone(), 1)),
        mk_eq(y1.clone(), y.clone()),
    ];
    let n = iv("n");
    assert!(accelerate(&tr, &s.pre, &s.post, &n).unwrap().exact);
    // two-sided temporary that is not defined: x <= 2t <= y
    let tr = vec![
        mk_le(x.clone(), mk_mul_const(&2.into(), tmp.clone())),
        mk_le(mk_mul_const(&2.into(), tmp.clone()), y.clone()),
        mk_eq(x1.clone(), add(x.clone(), 1)),
        mk_eq(y1.clone(), y.clone()),
    ];
    assert!(accelerate(&tr, &s.pre, &s.post, &n).is_none());
    // non-deterministic increment x' = x + t, t >= 0
    let tr = vec![
        mk_eq(x1.clone(), mk_add(vec![x.clone(), tmp.clone()])),
        mk_ge(tmp.clone(), int(0)),
        mk_eq(y1.clone(), y.clone()),
    ];
    assert!(accelerate(&tr, &s.pre, &s.post, &n).is_none());
}

/// A tiny deterministic PRNG (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, k: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % k
    }
    fn small(&mut self, r: i64) -> i64 {
        self.below((2 * r + 1) as u64) as i64 - r
    }
}

#[test]
fn random_transitions_agree_with_composition() {
    let s = Sys::new(
        &[("x", Sort::Int), ("y", Sort::Int), ("b", Sort::Bool)],
        &["t"],
    );
    let ints = [0usize, 1];
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let (mut some, mut exact) = (0, 0);
    for _ in 0..60 {
        let mut tr = vec![];
        for &i in &ints {
            let (xi, xi1) = (t(&s.pre[i]), t(&s.post[i]));
            let other = t(&s.pre[1 - i]);
            let rhs = match rng.below(8) {
                0 => Some(xi.clone()),
                1 | 2 => Some(add(xi.clone(), rng.small(2))),
                3 => Some(int(rng.small(4))),
                4 => Some(add(other, rng.small(1))),
                5 => None,
                6 => Some(mk_add(vec![xi.clone(), other])),
                _ => Some(mk_mul_const(&(-1).into(), xi.clone())),
            };
            if let Some(rhs) = rhs {
                if rng.below(4) == 0 {
                    let tmp = t(&s.temps[0]);
                    tr.push(mk_eq(tmp.clone(), rhs));
                    tr.push(mk_eq(xi1, tmp));
                } else {
                    tr.push(mk_eq(xi1, rhs));
                }
            }
        }
        let (b, b1) = (t(&s.pre[2]), t(&s.post[2]));
        match rng.below(4) {
            0 => tr.push(mk_eq(b1.clone(), b.clone())),
            1 => tr.push(mk_eq(b1.clone(), mk_bool(rng.below(2) == 0))),
            2 => tr.push(mk_eq(b1.clone(), mk_le(t(&s.pre[0]), int(0)))),
            _ => {}
        }
        for _ in 0..rng.below(3) {
            let mut l = Lin::constant(rng.small(4).into());
            let vs = [&s.pre[0], &s.pre[1], &s.post[0], &s.post[1]];
            for v in vs {
                let c = rng.small(2);
                if c != 0 && rng.below(2) == 0 {
                    l = l.add(&Lin::of(&t(v)).scale(&c.into()));
                }
            }
            if l.is_constant() {
                l = l.add(&Lin::of(&t(vs[rng.below(4) as usize])));
            }
            let g = match rng.below(6) {
                0 => mk_eqz_lin(l),
                1 => mk_not(mk_eqz_lin(l)),
                2 => b.clone(),
                _ => mk_le_lin(l),
            };
            tr.push(g);
        }
        if let Some(e) = s.check(&tr, 2, 14) {
            some += 1;
            exact += e as usize;
        }
    }
    eprintln!("{some} of 60 accelerated, {exact} exactly");
    assert!(
        some >= 20 && exact >= 15,
        "{some} accelerated, {exact} exact"
    );
}
