use crate::chc::{Model, PredId};
use crate::frontend::parse_str;
use crate::judge::{judge, JudgeSolver, Judgment, Witness};
use crate::logic::*;
use std::time::{Duration, Instant};

const LIST: &str = "(set-logic HORN)
(declare-datatypes ((Lst 0)) (((nil) (cons (head Int) (tail Lst)))))
(declare-fun len (Lst Int) Bool)
(assert (forall ((l Lst)) (=> (= l nil) (len l 0))))
(assert (forall ((l Lst) (t Lst) (h Int) (n Int))
  (=> (and (= l (cons h t)) (len t n)) (len l (+ n 1)))))
(assert (forall ((l Lst) (n Int)) (=> (and (len l n) (< n 0)) false)))
(check-sat)
";

/// A tree and a forest, declared together (mutually recursive), in z3's older form too.
const FOREST: &str = "(set-logic HORN)
(declare-datatypes ((Tree 0) (Forest 0))
  (((node (label Int) (kids Forest)))
   ((none) (more (first Tree) (rest Forest)))))
(declare-fun trees (Forest Int) Bool)
(assert (forall ((f Forest)) (=> (= f none) (trees f 0))))
(assert (forall ((f Forest) (g Forest) (t Tree) (n Int))
  (=> (and (trees g n) (= f (more t g))) (trees f (+ n 1)))))
(assert (forall ((f Forest) (n Int)) (=> (and (trees f n) (is-more f) (< n 1)) false)))
(check-sat)
";

const PEANO_OLD_FORM: &str = "(set-logic HORN)
(declare-datatypes () ((Nat Z (S (p Nat)))))
(declare-fun even (Nat) Bool)
(assert (even Z))
(assert (forall ((x Nat)) (=> (even x) (even (S (S x))))))
(assert (forall ((x Nat)) (=> (and (even x) (= x (S Z))) false)))
(check-sat)
";

fn abstract_text(input: &str) -> String {
    let sys = parse_str(input).unwrap();
    let adt = sys
        .adt
        .as_ref()
        .expect("recursive datatypes are abstracted");
    let mut out = String::new();
    for c in &adt.clauses {
        out.push_str(&c.0);
        out.push('\n');
    }
    out
}

#[test]
fn recursive_datatypes_are_read_and_abstracted_by_sizes() {
    for input in [LIST, FOREST, PEANO_OLD_FORM] {
        let sys = parse_str(input).unwrap();
        let adt = sys.adt.as_ref().unwrap();
        assert!(sys.records.is_none());
        assert_eq!(adt.preds.len(), sys.preds.len());
        // every datatype argument is an integer (its size)
        assert!(sys
            .preds
            .iter()
            .all(|p| p.sorts.iter().all(|&s| s == Sort::Int)));
        assert!(!abstract_text(input).is_empty());
    }
    let sys = parse_str(FOREST).unwrap();
    let adt = sys.adt.as_ref().unwrap();
    assert_eq!(adt.min_size(0), 2, "a tree is a node of a forest");
    assert_eq!(adt.min_size(1), 1);
    assert_eq!(
        adt.size_definitions(),
        "(define-funs-rec ((|size!Tree| ((x Tree)) Int) (|size!Forest| ((x Forest)) Int)) \
         ((+ 1 (|size!Forest| (kids x))) \
          (ite ((_ is none) x) 1 (+ 1 (|size!Tree| (first x)) (|size!Forest| (rest x))))))"
    );
}

#[test]
fn constructs_outside_the_abstraction_are_error_lines() {
    let bad = [
        (
            "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
(declare-fun p (L) Bool)
(assert (forall ((x L)) (=> (match x ((nil true) ((cons h t) false))) (p x))))
(check-sat)",
            3,
        ),
        (
            "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
(declare-fun p ((Array Int L)) Bool)
(check-sat)",
            2,
        ),
        (
            "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
(declare-fun p (L) Bool)
(assert (forall ((x L)) (=> (exists ((y L)) (= x (cons 1 y))) (p x))))
(check-sat)",
            3,
        ),
    ];
    for (input, line) in bad {
        let e = parse_str(input).expect_err("an error");
        assert_eq!(e.line, line, "{e}");
    }
}

/// Small linear atoms over the parameters `xs`: bounds, differences and sums.
fn atoms(xs: &[Term]) -> Vec<Term> {
    let mut out = vec![];
    for x in xs {
        for c in 0..3 {
            out.push(mk_ge(x.clone(), mk_int(c)));
        }
    }
    for x in xs {
        for y in xs {
            for c in -1..=1 {
                out.push(mk_eq(x.clone(), mk_add(vec![y.clone(), mk_int(c)])));
            }
            for z in xs {
                out.push(mk_eq(
                    mk_add(vec![x.clone(), y.clone()]),
                    mk_add(vec![z.clone(), mk_int(1)]),
                ));
            }
        }
    }
    out
}

/// The catamorphism is sound: every model of the size abstraction that the validator
/// accepts on the abstract clauses, composed with the size functions, is a model of the
/// input (the judge, with z3, on the original text). The models: the one the pipeline finds
/// for the abstract clauses (judged without the input's text), it without one of its
/// conjuncts, with one more small linear atom, and random conjunctions of such atoms,
/// `true` and `false`.
#[test]
fn abstract_models_composed_with_sizes_are_models_of_the_input() {
    let z3 = crate::testing::z3();
    let path = z3.path.clone();
    let mut inputs: Vec<String> = [
        "list-length-sat",
        "append-length-sat",
        "tree-size-sat",
        "peano-add-sat",
    ]
    .iter()
    .map(|f| {
        std::fs::read_to_string(format!(
            "{}/bench-chc/adt/{f}.smt2",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    })
    .collect();
    inputs.extend([LIST, FOREST, PEANO_OLD_FORM].map(str::to_string));
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n.max(1)
    };
    let (mut validated, mut judged) = (0, 0);
    for input in &inputs {
        let sys = parse_str(input).unwrap();
        let pool: Vec<Vec<Term>> = sys
            .preds
            .iter()
            .map(|p| {
                let xs: Vec<Term> = p.params().iter().map(mk_var_of).collect();
                atoms(&xs)
            })
            .collect();
        let opts = crate::Options {
            timeout: Some(Duration::from_secs(20)),
            ..crate::Options::default()
        };
        let found = match crate::solve_system(sys.clone(), &opts).map(|o| o.verdict) {
            Ok(crate::Verdict::Sat(m)) => Some(m),
            _ => None,
        };
        let mut models = vec![];
        if let Some(m) = found {
            models.push(m.clone());
            for (p, t) in &m {
                let cs = conjuncts(t);
                for k in 0..cs.len() {
                    let mut weaker = m.clone();
                    let keep = cs.iter().enumerate().filter(|&(i, _)| i != k);
                    weaker.insert(*p, mk_and(keep.map(|(_, c)| c.clone()).collect()));
                    models.push(weaker);
                }
                for _ in 0..5 {
                    let mut stronger = m.clone();
                    let pool = &pool[p.idx()];
                    stronger.insert(*p, mk_and2(t.clone(), pool[next(pool.len())].clone()));
                    models.push(stronger);
                }
            }
        }
        for round in 0..20 {
            let mut m = Model::default();
            for (i, pool) in pool.iter().enumerate() {
                let t = match round {
                    0 => mk_true(),
                    1 => mk_false(),
                    _ => mk_and(
                        (0..1 + next(3))
                            .map(|_| pool[next(pool.len())].clone())
                            .collect(),
                    ),
                };
                m.insert(PredId(i as u32), t);
            }
            models.push(m);
        }
        for m in models {
            if crate::validate::check_model(&sys, &m, &z3, Some(Duration::from_secs(10))).is_err() {
                continue;
            }
            validated += 1;
            let text = crate::witness::model_to_smtlib(&sys, &m);
            let deadline = Instant::now() + Duration::from_secs(20);
            let j = judge(
                input,
                0,
                Witness::Model(&text),
                &[JudgeSolver::Z3(path.clone())],
                Some(deadline),
            );
            assert!(
                !matches!(j, Judgment::Rejected(_)),
                "a model of the abstraction is not one of the input: {j:?}\n{input}\n{text}"
            );
            judged += usize::from(j == Judgment::Accepted);
        }
    }
    assert!(
        validated >= 20,
        "only {validated} abstract models validated"
    );
    assert!(
        judged * 10 >= validated * 8,
        "{judged} of {validated} judged"
    );
}
