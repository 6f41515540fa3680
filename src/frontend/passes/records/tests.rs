//! The records pass: its errors, and a property test (random formulas over records, a
//! datatype with several constructors, arrays of records and arrays indexed by records are
//! satisfiable exactly when their rewriting is, as z3 decides both).

use super::eliminate;
use crate::frontend::parse::split_commands;
use crate::smt::{find_solver, SolverKind};

fn run(text: &str) -> Result<String, String> {
    let cmds = split_commands(text.as_bytes()).map_err(|e| e.to_string())?;
    eliminate(text, &cmds, &[])
        .map(|e| e.text)
        .map_err(|e| e.to_string())
}

#[test]
fn recursive_datatypes_are_refused_with_their_line() {
    let direct = "(set-logic HORN)\n(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))";
    let e = run(direct).unwrap_err();
    assert!(
        e.contains("line 2") && e.contains("recursive datatype `L`"),
        "{e}"
    );
    // mutually, through an array
    let mutual = "(declare-datatypes ((A 0) (B 0)) (((a (fa B))) ((b (fb (Array Int A))))))";
    assert!(run(mutual).unwrap_err().contains("recursive datatype `A`"));
    let par = "(declare-datatypes ((P 1)) ((par (T) ((p (x T))))))";
    assert!(run(par).unwrap_err().contains("parametric"));
}

#[test]
fn a_datatype_may_be_named_before_it_is_declared() {
    // as Solidity's SMTChecker writes them: a field names a later command's datatype
    let text = "(set-logic HORN)
(declare-datatypes ((outer 0) (s 0)) (((outer (arr (Array Int inner)) (len Int))) ((s (o outer)))))
(declare-datatypes ((inner 0)) (((inner (v Int) (w Bool)))))
(declare-fun P (s) Bool)
(assert (forall ((x s)) (=> (= (len (o x)) 0) (P x))))
(check-sat)";
    let out = run(text).unwrap();
    assert!(
        out.contains("(declare-fun P ((Array Int Int) (Array Int Bool) Int) Bool)"),
        "{out}"
    );
    // recursion through a later command is still refused, with the line of its declaration
    let mutual = "(set-logic HORN)\n(declare-datatypes ((A 0)) (((a (fa B)))))\n(declare-datatypes ((B 0)) (((b (fb (Array Int A))) (nb))))";
    let e = run(mutual).unwrap_err();
    assert!(
        e.contains("line 2") && e.contains("recursive datatype `A`"),
        "{e}"
    );
    // a sort no command declares
    let e = run("(set-logic HORN)\n(declare-datatypes ((A 0)) (((a (fa C)))))").unwrap_err();
    assert!(
        e.contains("line 2") && e.contains("unsupported sort `C`"),
        "{e}"
    );
}

#[test]
fn records_become_their_fields_with_the_same_lines() {
    let text = "(set-logic HORN)
(declare-datatypes ((pt 0) (e 0)) (((pt (px Int) (py Int))) ((e))))
(declare-fun P (pt e Int) Bool)
(assert (forall ((a pt) (z e) (w e))
  (=> (and (= z w) (= a (pt 1 2))) (P a z (px a)))))
(check-sat)";
    let out = run(text).unwrap();
    assert_eq!(out.lines().count(), text.lines().count());
    assert!(out.contains("(declare-fun P (Int Int Int) Bool)"), "{out}");
    // the zero-field values are gone and their equality is `true`
    assert!(
        out.contains(
            "(assert (forall ((a!px Int) (a!py Int)) (=> (and true (and (= a!px 1) (= a!py 2))) (P a!px a!py a!px))))"
        ),
        "{out}"
    );
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

const DECLS: &str = "(declare-datatypes ((pt 0)) (((pt (px Int) (py Int)))))
(declare-datatypes ((wrap 0)) (((wrap (w pt) (flag Bool)))))
(declare-datatypes ((obj 0)) (((A (ga Int)) (B (gb pt)) (C))))
(declare-datatypes ((unit 0)) (((unit))))";

/// The sorts of the generated terms.
#[derive(Clone, Copy, PartialEq)]
enum S {
    Int,
    Bool,
    Pt,
    Wrap,
    Obj,
    Unit,
    /// `(Array Int pt)`
    Arr,
    /// `(Array pt Int)`, indexed by a record
    Keyed,
}

const SORTS: [(S, &str); 8] = [
    (S::Int, "Int"),
    (S::Bool, "Bool"),
    (S::Pt, "pt"),
    (S::Wrap, "wrap"),
    (S::Obj, "obj"),
    (S::Unit, "unit"),
    (S::Arr, "(Array Int pt)"),
    (S::Keyed, "(Array pt Int)"),
];

fn var(r: &mut Rng, s: S) -> String {
    let i = SORTS.iter().position(|(x, _)| *x == s).unwrap();
    format!("v{i}_{}", r.below(2))
}

/// A random term of sort `s`. Selectors of `obj`'s constructors are guarded by their tester
/// (SMT-LIB leaves a selector of another constructor unspecified).
fn term(r: &mut Rng, s: S, d: usize) -> String {
    let leaf = d == 0 || r.below(3) == 0;
    let d = d.saturating_sub(1);
    match s {
        S::Int if leaf => match r.below(2) {
            0 => r.below(4).to_string(),
            _ => var(r, s),
        },
        S::Int => match r.below(6) {
            0 => format!("(+ {} {})", term(r, S::Int, d), term(r, S::Int, d)),
            1 => format!("(px {})", term(r, S::Pt, d)),
            2 => format!("(py {})", term(r, S::Pt, d)),
            3 => {
                let o = term(r, S::Obj, d);
                format!("(ite ((_ is A) {o}) (ga {o}) 0)")
            }
            4 => format!("(select {} {})", term(r, S::Keyed, d), term(r, S::Pt, d)),
            _ => format!(
                "(ite {} {} {})",
                term(r, S::Bool, d),
                term(r, S::Int, d),
                term(r, S::Int, d)
            ),
        },
        S::Bool => atom(r, d),
        S::Pt if leaf => var(r, s),
        S::Pt => match r.below(6) {
            // a read of what was just written: the stored record's every field matters
            5 => {
                let i = term(r, S::Int, 0);
                format!(
                    "(select (store {} {i} {}) {i})",
                    term(r, S::Arr, d),
                    term(r, S::Pt, d)
                )
            }
            0 => format!("(pt {} {})", term(r, S::Int, d), term(r, S::Int, d)),
            1 => format!("(w {})", term(r, S::Wrap, d)),
            2 => format!("(select {} {})", term(r, S::Arr, d), term(r, S::Int, d)),
            3 => {
                let o = term(r, S::Obj, d);
                format!("(ite (is-B {o}) (gb {o}) (pt 0 1))")
            }
            _ => format!(
                "(ite {} {} {})",
                term(r, S::Bool, d),
                term(r, S::Pt, d),
                term(r, S::Pt, d)
            ),
        },
        S::Wrap if leaf => var(r, s),
        S::Wrap => format!("(wrap {} {})", term(r, S::Pt, d), term(r, S::Bool, d)),
        S::Obj if leaf => match r.below(2) {
            0 => "C".into(),
            _ => var(r, s),
        },
        S::Obj => match r.below(3) {
            0 => format!("(A {})", term(r, S::Int, d)),
            1 => format!("(B {})", term(r, S::Pt, d)),
            _ => format!(
                "(ite {} {} {})",
                term(r, S::Bool, d),
                term(r, S::Obj, d),
                term(r, S::Obj, d)
            ),
        },
        S::Unit => match r.below(2) {
            0 => "unit".into(),
            _ => var(r, s),
        },
        S::Arr if leaf => var(r, s),
        S::Arr => match r.below(2) {
            0 => format!(
                "(store {} {} {})",
                term(r, S::Arr, d),
                term(r, S::Int, d),
                term(r, S::Pt, d)
            ),
            _ => format!("((as const (Array Int pt)) {})", term(r, S::Pt, d)),
        },
        S::Keyed if leaf => var(r, s),
        S::Keyed => match r.below(2) {
            0 => format!(
                "(store {} {} {})",
                term(r, S::Keyed, d),
                term(r, S::Pt, d),
                term(r, S::Int, d)
            ),
            _ => format!("((as const (Array pt Int)) {})", term(r, S::Int, d)),
        },
    }
}

fn atom(r: &mut Rng, d: usize) -> String {
    match r.below(6) {
        0 | 1 => {
            let s = SORTS[r.below(SORTS.len())].0;
            let op = if r.below(4) == 0 { "distinct" } else { "=" };
            format!("({op} {} {})", term(r, s, d), term(r, s, d))
        }
        2 => format!("(< {} {})", term(r, S::Int, d), term(r, S::Int, d)),
        3 => {
            let c = ["A", "B", "C"][r.below(3)];
            format!("((_ is {c}) {})", term(r, S::Obj, d))
        }
        4 => format!("(flag {})", term(r, S::Wrap, d)),
        _ => format!("(not {})", atom(r, d.saturating_sub(1))),
    }
}

/// A conjunction or disjunction of atoms.
fn formula(r: &mut Rng) -> String {
    let n = 1 + r.below(4);
    let atoms: Vec<String> = (0..n).map(|_| atom(r, 3)).collect();
    let op = if r.below(3) == 0 { "or" } else { "and" };
    format!("({op} {})", atoms.join(" "))
}

/// z3's answer on `script`: `sat`, `unsat` or something else.
fn z3(path: &std::path::Path, script: &str) -> String {
    crate::testing::z3_output(path, script, 10)
}

#[test]
fn rewritten_formulas_are_satisfiable_exactly_when_the_originals_are() {
    let z3_path = match find_solver(SolverKind::Z3, None) {
        Ok(p) => p,
        Err(e) => return crate::testing::skip(&e),
    };
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let binders: Vec<String> = SORTS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, s))| (0..2).map(move |k| format!("(v{i}_{k} {s})")))
        .collect();
    let consts: String = SORTS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, s))| (0..2).map(move |k| format!("(declare-const v{i}_{k} {s})\n")))
        .collect();
    let (mut compared, mut sat) = (0, 0);
    for case in 0..150 {
        let phi = formula(&mut r);
        let text = format!(
            "(set-logic HORN)\n{DECLS}\n(assert (forall ({}) (not {phi})))\n(check-sat)\n",
            binders.join(" ")
        );
        let out = run(&text).unwrap_or_else(|e| panic!("case {case}: {e}\n{phi}"));
        let rewritten = out
            .lines()
            .find_map(|l| l.strip_prefix("(assert "))
            .and_then(|l| l.strip_suffix(')'))
            .expect("the rewritten assertion");
        let original = z3(
            &z3_path,
            &format!("{DECLS}\n{consts}(assert {phi})\n(check-sat)\n"),
        );
        let flat = z3(
            &z3_path,
            &format!("(assert (not {rewritten}))\n(check-sat)\n"),
        );
        if !matches!(original.as_str(), "sat" | "unsat")
            || !matches!(flat.as_str(), "sat" | "unsat")
        {
            continue; // undecided within the limit
        }
        assert_eq!(
            original, flat,
            "case {case}: z3 says {original} on\n{phi}\nand {flat} on its rewriting\n{rewritten}"
        );
        compared += 1;
        sat += usize::from(original == "sat");
    }
    // the generated formulas are neither all sat nor all unsat, and few are undecided
    assert!(compared >= 120, "only {compared} of 150 cases decided");
    assert!(sat > 20 && compared - sat > 20, "{sat} sat of {compared}");
}
