//! Property tests: random conjunctions with a planted model. The result must hold in the
//! model and imply `exists xs. phi`, checked by enumeration over a bounded domain (exact,
//! since the domain bounds are part of `phi`) and by z3 when it is found.

use super::test_support as support;
use super::*;
use crate::testing::bounded_z3;
use crate::testing::rng::{Rng as _, SplitMix as Rng};
use support::holds;

/// Domain of the bounded problems: every integer variable lies in `[-DOM, DOM]`.
const DOM: i64 = 3;

struct Problem {
    ints: Vec<Var>,
    bools: Vec<Var>,
    model: Assignment,
    phi: Vec<Term>,
    elim: Vec<Var>,
    /// Nesting depth of `div`, `mod`, `ite` and Boolean connectives.
    depth: u32,
}

fn var(name: &str, sort: Sort) -> Var {
    Var {
        name: name.into(),
        sort,
    }
}

impl Problem {
    fn int_term(&self, rng: &mut Rng, depth: u32) -> Term {
        let pick = if depth < self.depth { rng.below(10) } else { 9 };
        match pick {
            0 => {
                let d = [2, 3, -2][rng.below(3) as usize];
                mk_div(self.lin(rng, depth + 1), BigInt::from(d))
            }
            1 => {
                let d = [2, 3][rng.below(2) as usize];
                mk_mod(self.lin(rng, depth + 1), BigInt::from(d))
            }
            2 => {
                let c = self.atom(rng, depth + 1);
                mk_ite(c, self.lin(rng, depth + 1), self.lin(rng, depth + 1))
            }
            _ => mk_var_of(&self.ints[rng.below(self.ints.len() as u64) as usize]),
        }
    }

    fn lin(&self, rng: &mut Rng, depth: u32) -> Term {
        let mut parts = vec![mk_int(rng.range(-4, 4))];
        for _ in 0..rng.range(1, 3) {
            let c = [-3, -2, -1, 1, 1, 2, 3][rng.below(7) as usize];
            parts.push(mk_mul_const(&BigInt::from(c), self.int_term(rng, depth)));
        }
        mk_add(parts)
    }

    fn atom(&self, rng: &mut Rng, depth: u32) -> Term {
        match rng.below(if depth < self.depth { 8 } else { 6 }) {
            0..=2 => mk_le(self.lin(rng, depth), mk_int(rng.range(-3, 3))),
            3 => {
                // an equality that the model satisfies
                let t = self.lin(rng, depth);
                let v = eval_int(&t, &self.model).unwrap();
                mk_eq(t, mk_int(v))
            }
            4 => mk_eq(self.lin(rng, depth), mk_int(rng.range(-2, 2))),
            5 => mk_var_of(&self.bools[rng.below(self.bools.len() as u64) as usize]),
            6 => mk_or(vec![self.atom(rng, depth + 1), self.atom(rng, depth + 1)]),
            _ => mk_eq(self.atom(rng, depth + 1), self.atom(rng, depth + 1)),
        }
    }

    /// An atom, negated if the model falsifies it.
    fn literal(&self, rng: &mut Rng) -> Term {
        let a = self.atom(rng, 0);
        if eval_bool(&a, &self.model).unwrap() {
            a
        } else {
            mk_not(a)
        }
    }

    fn generate(rng: &mut Rng, n_ints: usize, bounded: bool, depth: u32) -> Problem {
        let ints: Vec<Var> = (0..n_ints)
            .map(|i| var(&format!("x{i}"), Sort::Int))
            .collect();
        let bools: Vec<Var> = (0..2).map(|i| var(&format!("b{i}"), Sort::Bool)).collect();
        let mut model = Assignment::default();
        support::random_ints_and_bools(rng, &mut model, &ints, &bools, DOM);
        let mut p = Problem {
            ints,
            bools,
            model,
            phi: vec![],
            elim: vec![],
            depth,
        };
        for _ in 0..rng.range(2, 6) {
            let l = p.literal(rng);
            p.phi.push(l);
        }
        if bounded {
            for v in &p.ints {
                let m: i64 = eval_int(&mk_var_of(v), &p.model)
                    .unwrap()
                    .try_into()
                    .unwrap();
                let lo = rng.range(-DOM, m);
                let hi = rng.range(m, DOM);
                p.phi.push(mk_ge(mk_var_of(v), mk_int(lo)));
                p.phi.push(mk_le(mk_var_of(v), mk_int(hi)));
            }
        }
        let all: Vec<Var> = p.ints.iter().chain(&p.bools).cloned().collect();
        while p.elim.is_empty() {
            p.elim = all.iter().filter(|_| rng.chance(50)).cloned().collect();
        }
        p
    }

    fn kept(&self) -> Vec<Var> {
        let all = self.ints.iter().chain(&self.bools);
        all.filter(|v| !self.elim.contains(v)).cloned().collect()
    }

    fn case(&self) -> support::Case<'_> {
        support::Case::new(&self.phi, &self.elim, &self.model, self.kept())
    }
}

/// Every assignment of `vars` over the bounded domain.
fn assignments(vars: &[Var]) -> Vec<Assignment> {
    let mut out = vec![Assignment::default()];
    for v in vars {
        let vals: Vec<Value> = match v.sort {
            Sort::Int => (-DOM..=DOM).map(|n| Value::Int(BigInt::from(n))).collect(),
            Sort::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Sort::Real | Sort::Array(_) => unreachable!("integer formulas only"),
        };
        out = out
            .into_iter()
            .flat_map(|a| {
                vals.iter().map(move |x| {
                    let mut a = a.clone();
                    a.insert(v.clone(), x.clone());
                    a
                })
            })
            .collect();
    }
    out
}

fn has_ite(t: &Term) -> bool {
    matches!(t.get(), TermNode::Ite(..)) || t.children().into_iter().any(has_ite)
}

/// The model satisfies the result, which mentions only kept variables and has neither
/// `ite` terms nor disequalities.
fn check_model(p: &Problem, r: &Projection) {
    support::check_kept_and_holds(&p.case(), &r.lits);
    for l in &r.lits {
        let diseq = matches!(l.get(), TermNode::Not(s) if s.as_var().is_none());
        assert!(
            !diseq && !has_ite(l),
            "result literal {} has an ite or is a disequality",
            SmtTerm(l)
        );
    }
    assert_eq!(
        r.model_substitutions,
        0,
        "no fallback on small problems\n{}",
        support::show(&p.case(), &r.lits)
    );
}

/// Bounded problems: `result => exists elim. phi` for every kept assignment in the domain.
fn check_by_enumeration(p: &Problem, r: &Projection) {
    let witnesses = assignments(&p.elim);
    for a in assignments(&p.kept()) {
        if !holds(&r.lits, &a) {
            continue;
        }
        let found = witnesses.iter().any(|w| {
            let mut full = a.clone();
            full.extend(w.iter().map(|(v, x)| (v.clone(), x.clone())));
            holds(&p.phi, &full)
        });
        support::assert_witness(found, "", &a, &p.case(), &r.lits);
    }
}

/// Most quantified checks must be conclusive (the others were sampled).
fn few_unknowns(unknown: usize, of: usize) {
    eprintln!("{unknown} of {of} quantified checks unknown (sampled instead)");
    assert!(
        unknown * 2 < of,
        "too many quantified checks unknown: {unknown} of {of}"
    );
}

#[test]
fn projection_of_random_bounded_conjunctions() {
    let mut rng = Rng(1);
    let mut smt = bounded_z3("mbp-bounded", 300);
    let mut unknown = 0;
    for _ in 0..400 {
        let p = Problem::generate(&mut rng, 3, true, 2);
        let r = project(&p.phi, &p.model, &p.elim).unwrap();
        check_model(&p, &r);
        check_by_enumeration(&p, &r);
        if let Some(smt) = smt.as_mut() {
            unknown += usize::from(!support::check_by_solver(smt, &p.case(), &r.lits, false));
        }
    }
    few_unknowns(unknown, 400);
}

#[test]
fn projection_of_random_unbounded_conjunctions() {
    let mut rng = Rng(2);
    let Some(mut smt) = bounded_z3("mbp-unbounded", 300) else {
        return;
    };
    let mut unknown = 0;
    for _ in 0..400 {
        let p = Problem::generate(&mut rng, 4, false, 2);
        let r = project(&p.phi, &p.model, &p.elim).unwrap();
        check_model(&p, &r);
        unknown += usize::from(!support::check_by_solver(
            &mut smt,
            &p.case(),
            &r.lits,
            false,
        ));
    }
    few_unknowns(unknown, 400);
}

#[test]
fn non_unit_equality_leaves_a_divisibility() {
    // exists y. x = 2*y /\ y <= 5 with x = 4: the result must exclude odd x.
    let (x, y) = (var("x", Sort::Int), var("y", Sort::Int));
    let (xt, yt) = (mk_var_of(&x), mk_var_of(&y));
    let phi = vec![
        mk_eq(xt.clone(), mk_mul_const(&BigInt::from(2), yt.clone())),
        mk_le(yt, mk_int(5)),
    ];
    let mut model = Assignment::default();
    model.insert(x.clone(), Value::Int(BigInt::from(4)));
    model.insert(y.clone(), Value::Int(BigInt::from(2)));
    let r = project(&phi, &model, &[y]).unwrap();
    for n in -20..=20 {
        let mut a = Assignment::default();
        a.insert(x.clone(), Value::Int(BigInt::from(n)));
        assert_eq!(holds(&r.lits, &a), n % 2 == 0 && n <= 10, "x = {n}");
    }
}

#[test]
fn implicant_follows_the_model() {
    let a = var("a", Sort::Bool);
    let b = var("b", Sort::Bool);
    let x = var("x", Sort::Int);
    let le = mk_le(mk_var_of(&x), mk_int(0));
    let phi = mk_or(vec![mk_and(vec![mk_var_of(&a), le.clone()]), mk_var_of(&b)]);
    let mut model = Assignment::default();
    model.insert(a.clone(), Value::Bool(true));
    model.insert(b.clone(), Value::Bool(false));
    model.insert(x.clone(), Value::Int(BigInt::from(-1)));
    assert_eq!(implicant(&phi, &model).unwrap(), vec![mk_var_of(&a), le]);
    model.insert(x, Value::Int(BigInt::from(1)));
    assert!(implicant(&phi, &model).is_err());
}

#[test]
fn boolean_equalities_are_solved_not_fixed() {
    // exists v. v = b is true: the projection must not fix b to its model value
    let (v, w) = (var("v", Sort::Bool), var("w", Sort::Bool));
    let (b, c) = (var("b", Sort::Bool), var("c", Sort::Bool));
    let [vt, wt, bt, ct] = [&v, &w, &b, &c].map(mk_var_of);
    let mut model = Assignment::default();
    for (x, val) in [(&v, true), (&w, false), (&b, true), (&c, true)] {
        model.insert(x.clone(), Value::Bool(val));
    }
    let r = project(
        &[mk_eq(vt.clone(), bt.clone())],
        &model,
        std::slice::from_ref(&v),
    )
    .unwrap();
    assert!(r.lits.is_empty(), "{:?}", r.lits);
    // exists v w. v = b /\ w = not v /\ (w \/ c) is not b \/ c; the model picks c
    let phi = vec![
        mk_eq(vt.clone(), bt),
        mk_eq(wt.clone(), mk_not(vt)),
        mk_or(vec![wt, ct.clone()]),
    ];
    let r = project(&phi, &model, &[v, w]).unwrap();
    assert_eq!(r.lits, vec![ct]);
}

/// Every sort has a projection plug-in, and the fresh integers that the plug-ins introduce
/// (quotients, floors) go to the integer one.
#[test]
fn every_sort_has_a_plugin() {
    let arr = crate::logic::array::array_sort(Sort::Int, Sort::Bool);
    for sort in [Sort::Int, Sort::Bool, Sort::Real, arr] {
        let i = plugin_of(sort).unwrap_or_else(|e| panic!("{e}"));
        assert!(PLUGINS[i].owns(sort));
    }
    assert!(PLUGINS[INT].owns(Sort::Int));
}
