//! Tests of the real projection: random conjunctions of real and mixed literals with a
//! planted model (the model must satisfy the result, and z3 must find
//! `result /\ not exists xs. phi` unsatisfiable), and the cases of Loos–Weispfenning one by
//! one.

use super::test_support as support;
use super::*;
use crate::logic::eval::eval_real;
use crate::testing::bounded_z3;
use crate::testing::rng::{Rng as _, SplitMix as Rng};
use support::holds;

impl Rng {
    /// A small rational: `n/d` with `d` in 1..3, so that bounds often tie in the model.
    fn rat(&mut self, lo: i64, hi: i64) -> Rat {
        let d = self.range(1, 3);
        Rat::new(BigInt::from(self.range(lo * d, hi * d)), BigInt::from(d))
    }
}

fn var(name: &str, sort: Sort) -> Var {
    Var {
        name: name.into(),
        sort,
    }
}

struct Problem {
    reals: Vec<Var>,
    ints: Vec<Var>,
    bools: Vec<Var>,
    model: Assignment,
    phi: Vec<Term>,
    elim: Vec<Var>,
    /// Whether terms may use integers, `to_int`, `is_int`, `div` and `ite`.
    mixed: bool,
}

impl Problem {
    fn pick(&self, rng: &mut Rng, vs: &[Var]) -> Term {
        mk_var_of(&vs[rng.below(vs.len() as u64) as usize])
    }

    /// A real atom: mostly a real variable; in mixed problems also an integer variable,
    /// `to_int`, `div` or an `ite`.
    fn atom(&self, rng: &mut Rng, depth: u32) -> Term {
        let n = match (self.mixed, depth) {
            (false, _) => 6,
            (true, 0) => 16,
            (true, 1) => 12,
            (true, _) => 11,
        };
        match rng.below(n) {
            0..=5 => self.pick(rng, &self.reals),
            6..=10 => self.pick(rng, &self.ints),
            11 => mk_to_int(self.lin(rng, depth + 1)),
            12 => mk_div(self.pick(rng, &self.ints), BigInt::from(2)),
            _ => mk_ite(
                self.literal_atom(rng, depth + 1),
                self.lin(rng, depth + 1),
                self.lin(rng, depth + 1),
            ),
        }
    }

    /// A real expression: a small rational plus one to three atoms.
    fn lin(&self, rng: &mut Rng, depth: u32) -> Term {
        let mut parts = vec![mk_real(rng.rat(-3, 3))];
        for _ in 0..rng.range(1, 3) {
            let c = [-2, -1, -1, 1, 1, 2, 3][rng.below(7) as usize];
            let c = if rng.chance(20) {
                Rat::new(BigInt::from(c), BigInt::from(2))
            } else {
                rat(c)
            };
            parts.push(mk_mul_rat(&c, self.atom(rng, depth)));
        }
        mk_add(parts)
    }

    fn literal_atom(&self, rng: &mut Rng, depth: u32) -> Term {
        let n = if depth < 1 { 11 } else { 8 };
        match rng.below(n) {
            0 | 1 => mk_le(self.lin(rng, depth), self.lin(rng, depth)),
            2 | 3 => mk_lt(self.lin(rng, depth), self.lin(rng, depth)),
            4 => {
                // an equality that the model satisfies
                let t = self.lin(rng, depth);
                let v = eval_real(&t, &self.model).unwrap();
                mk_eq(t, mk_real(v))
            }
            5 => mk_eq(self.lin(rng, depth), mk_real(rng.rat(-2, 2))),
            6 if self.mixed && rng.chance(50) => mk_is_int(self.lin(rng, depth)),
            6 | 7 => self.pick(rng, &self.bools),
            8 => mk_or(vec![
                self.literal_atom(rng, depth + 1),
                self.literal_atom(rng, depth + 1),
            ]),
            9 => mk_eq(
                self.literal_atom(rng, depth + 1),
                self.literal_atom(rng, depth + 1),
            ),
            _ => mk_le(self.lin(rng, depth), self.lin(rng, depth)),
        }
    }

    fn generate(rng: &mut Rng, mixed: bool) -> Problem {
        let reals: Vec<Var> = (0..4).map(|i| var(&format!("r{i}"), Sort::Real)).collect();
        let ints: Vec<Var> = (0..2).map(|i| var(&format!("x{i}"), Sort::Int)).collect();
        let bools: Vec<Var> = (0..2).map(|i| var(&format!("b{i}"), Sort::Bool)).collect();
        let mut model = Assignment::default();
        for v in &reals {
            model.insert(v.clone(), Value::Real(rng.rat(-3, 3)));
        }
        support::random_ints_and_bools(rng, &mut model, &ints, &bools, 3);
        let mut p = Problem {
            reals,
            ints,
            bools,
            model,
            phi: vec![],
            elim: vec![],
            mixed,
        };
        for _ in 0..rng.range(2, 7) {
            let a = p.literal_atom(rng, 0);
            let l = if eval_bool(&a, &p.model).unwrap() {
                a
            } else {
                mk_not(a)
            };
            p.phi.push(l);
        }
        let mut all: Vec<Var> = p.reals.clone();
        if mixed {
            all.extend(p.ints.iter().cloned());
        }
        all.extend(p.bools.iter().cloned());
        while p.elim.is_empty() {
            p.elim = all.iter().filter(|_| rng.chance(50)).cloned().collect();
        }
        p
    }

    fn kept(&self) -> Vec<Var> {
        let all = self.reals.iter().chain(&self.ints).chain(&self.bools);
        all.filter(|v| !self.elim.contains(v)).cloned().collect()
    }

    fn case(&self) -> support::Case<'_> {
        support::Case::new(&self.phi, &self.elim, &self.model, self.kept())
    }
}

fn run_random(seed: u64, mixed: bool, n: usize) {
    let mut rng = Rng(seed);
    let mut smt = bounded_z3(if mixed { "mbp-mixed" } else { "mbp-real" }, 500);
    let mut unknown = 0;
    let mut substituted = 0;
    for _ in 0..n {
        let p = Problem::generate(&mut rng, mixed);
        let r = project(&p.phi, &p.model, &p.elim)
            .unwrap_or_else(|e| panic!("{e}\n{}", support::show(&p.case(), &[])));
        support::check_kept_and_holds(&p.case(), &r.lits);
        // the real side never substitutes; the integer side may, above MAX_LCM, on the
        // integer constraints that many fresh `to_int` variables make
        assert!(
            mixed || r.model_substitutions == 0,
            "{}",
            support::show(&p.case(), &r.lits)
        );
        substituted += usize::from(r.model_substitutions > 0);
        if let Some(smt) = smt.as_mut() {
            unknown += usize::from(!support::check_by_solver(smt, &p.case(), &r.lits, true));
        }
    }
    eprintln!("{unknown} of {n} quantified checks unknown (sampled instead)");
    eprintln!("{substituted} of {n} projections substituted a model value");
    assert!(
        substituted * 20 < n,
        "too many model substitutions: {substituted} of {n}"
    );
    // z3 decides most quantified checks over the reals, fewer of the mixed ones (its qe
    // tactic often gives up on `to_int`, `is_int` and `div` under a quantifier)
    let most = if mixed {
        unknown * 4 < n * 3
    } else {
        unknown * 10 < n
    };
    assert!(most, "too many unknowns: {unknown} of {n}");
}

#[test]
fn real_projection_of_random_conjunctions() {
    run_random(11, false, 400);
}

#[test]
fn mixed_projection_of_random_conjunctions() {
    run_random(12, true, 200);
}

// ---------------------------------------------------------------- the cases one by one

fn rv(name: &str) -> Term {
    mk_var(name, Sort::Real)
}

fn real_model(vals: &[(&str, Rat)]) -> Assignment {
    vals.iter()
        .map(|(n, v)| (var(n, Sort::Real), Value::Real(v.clone())))
        .collect()
}

fn q(n: i64, d: i64) -> Rat {
    Rat::new(BigInt::from(n), BigInt::from(d))
}

/// The points of a grid of quarters in [-3, 3] for `vars`.
fn grid(vars: &[&str]) -> Vec<Assignment> {
    let mut out = vec![Assignment::default()];
    for v in vars {
        out = out
            .into_iter()
            .flat_map(|a| {
                (-12..=12).map(move |n| {
                    let mut a = a.clone();
                    a.insert(var(v, Sort::Real), Value::Real(q(n, 4)));
                    a
                })
            })
            .collect();
    }
    out
}

/// The result agrees with `expected` at every point of the grid over `kept`.
fn agrees(r: &Projection, kept: &[&str], expected: impl Fn(&Assignment) -> bool) {
    for a in grid(kept) {
        let shown: Vec<String> = a.iter().map(|(v, x)| format!("{}={x}", v.name)).collect();
        let res: Vec<String> = r.lits.iter().map(|t| SmtTerm(t).to_string()).collect();
        assert_eq!(
            holds(&r.lits, &a),
            expected(&a),
            "at {shown:?}, result {res:?}"
        );
    }
}

fn val(a: &Assignment, v: &str) -> Rat {
    eval_real(&rv(v), a).unwrap()
}

#[test]
fn strict_lower_bound_is_the_epsilon_case() {
    // exists x. y < x /\ w <= x /\ x <= z, with M(y) = M(w): the strict bound y is chosen,
    // and both y < z and w <= y must come out (w <= z alone would admit y = z)
    let (x, y, w, z) = (rv("x"), rv("y"), rv("w"), rv("z"));
    let phi = vec![
        mk_lt(y.clone(), x.clone()),
        mk_le(w.clone(), x.clone()),
        mk_le(x.clone(), z.clone()),
        mk_le(x.clone(), mk_add(vec![z.clone(), mk_real(rat(1))])),
    ];
    let m = real_model(&[("x", rat(1)), ("y", rat(0)), ("w", rat(0)), ("z", rat(1))]);
    let r = project(&phi, &m, &[var("x", Sort::Real)]).unwrap();
    assert!(holds(&r.lits, &m));
    agrees(&r, &["y", "w", "z"], |a| {
        val(a, "w") <= val(a, "y") && val(a, "y") < val(a, "z")
    });
    // the same with the non-strict bound greater in the model: w is chosen
    let m = real_model(&[("x", rat(1)), ("y", rat(0)), ("w", q(1, 2)), ("z", rat(1))]);
    let r = project(&phi, &m, &[var("x", Sort::Real)]).unwrap();
    agrees(&r, &["y", "w", "z"], |a| {
        val(a, "y") < val(a, "w") && val(a, "w") <= val(a, "z")
    });
}

#[test]
fn upper_side_resolution_when_it_has_fewer_bounds() {
    // exists x. y <= x /\ w < x /\ x < z: one upper bound, so z is the chosen one
    let (x, y, w, z) = (rv("x"), rv("y"), rv("w"), rv("z"));
    let phi = vec![
        mk_le(y.clone(), x.clone()),
        mk_lt(w.clone(), x.clone()),
        mk_lt(x.clone(), z.clone()),
    ];
    let m = real_model(&[("x", q(1, 2)), ("y", rat(0)), ("w", rat(0)), ("z", rat(1))]);
    let r = project(&phi, &m, &[var("x", Sort::Real)]).unwrap();
    agrees(&r, &["y", "w", "z"], |a| {
        val(a, "y") < val(a, "z") && val(a, "w") < val(a, "z")
    });
}

#[test]
fn unbounded_variable_is_the_infinity_case() {
    // exists x. y <= x /\ z < 2x: no upper bound, true
    let (x, y, z) = (rv("x"), rv("y"), rv("z"));
    let phi = vec![
        mk_le(y.clone(), x.clone()),
        mk_lt(z, mk_mul_rat(&rat(2), x.clone())),
        mk_le(y, mk_real(rat(5))),
    ];
    let m = real_model(&[("x", rat(3)), ("y", rat(0)), ("z", rat(1))]);
    let r = project(&phi, &m, &[var("x", Sort::Real)]).unwrap();
    agrees(&r, &["y", "z"], |a| val(a, "y") <= rat(5));
}

#[test]
fn equality_is_substituted() {
    // exists x. 2x = y /\ x <= z /\ x != w: y/2 <= z and y/2 on the model's side of w
    let (x, y, z, w) = (rv("x"), rv("y"), rv("z"), rv("w"));
    let phi = vec![
        mk_eq(mk_mul_rat(&rat(2), x.clone()), y.clone()),
        mk_le(x.clone(), z.clone()),
        mk_not(mk_eq(x.clone(), w.clone())),
    ];
    let m = real_model(&[("x", rat(1)), ("y", rat(2)), ("z", rat(1)), ("w", rat(3))]);
    let r = project(&phi, &m, &[var("x", Sort::Real)]).unwrap();
    agrees(&r, &["y", "z", "w"], |a| {
        let h = val(a, "y") / rat(2);
        h <= val(a, "z") && h < val(a, "w")
    });
}

#[test]
fn integer_under_to_real_is_projected_exactly() {
    // exists n: Int. y <= n < z is ceil(y) < ceil(z): an integer in [y, z)
    let (y, z) = (rv("y"), rv("z"));
    let n = var("n", Sort::Int);
    let phi = vec![
        mk_le(y.clone(), mk_var_of(&n)),
        mk_lt(mk_var_of(&n), z.clone()),
    ];
    let mut m = real_model(&[("y", q(1, 2)), ("z", q(3, 2))]);
    m.insert(n.clone(), Value::Int(BigInt::from(1)));
    let r = project(&phi, &m, &[n]).unwrap();
    assert_eq!(r.model_substitutions, 0);
    agrees(&r, &["y", "z"], |a| val(a, "y").ceil() < val(a, "z").ceil());
}

#[test]
fn to_int_and_is_int_of_an_eliminated_real() {
    // exists x. to_int(x) = 2 /\ x < y is y > 2
    let (x, y) = (rv("x"), rv("y"));
    let phi = vec![
        mk_eq(mk_to_int(x.clone()), mk_int(2)),
        mk_lt(x.clone(), y.clone()),
    ];
    let m = real_model(&[("x", q(5, 2)), ("y", rat(3))]);
    let r = project(&phi, &m, &[var("x", Sort::Real)]).unwrap();
    assert_eq!(r.model_substitutions, 0);
    agrees(&r, &["y"], |a| val(a, "y") > rat(2));
    // exists x. is_int(x) /\ y < x < y + 1 is not (is_int y); and the negation of is_int
    // with y <= x <= y: is_int(y) is false
    let phi = vec![
        mk_is_int(x.clone()),
        mk_lt(y.clone(), x.clone()),
        mk_lt(x.clone(), mk_add(vec![y.clone(), mk_real(rat(1))])),
    ];
    let m = real_model(&[("x", rat(1)), ("y", q(1, 2))]);
    let r = project(&phi, &m, &[var("x", Sort::Real)]).unwrap();
    agrees(&r, &["y"], |a| !val(a, "y").is_integer());
    let phi = vec![mk_not(mk_is_int(x.clone())), mk_eq(x.clone(), y.clone())];
    let m = real_model(&[("x", q(1, 2)), ("y", q(1, 2))]);
    let r = project(&phi, &m, &[var("x", Sort::Real)]).unwrap();
    agrees(&r, &["y"], |a| !val(a, "y").is_integer());
}
