//! chcsolve: a solver for constrained Horn clauses (CHCs) over linear integer and linear real
//! arithmetic (and clauses that mix `Int` and `Real`), with arrays of them (`Array` sorts with
//! `select`, `store` and constant arrays; each engine says whether it takes them, by
//! [`engine::Engine::supports`]).
//!
//! # Guarantees
//!
//! Every [`Verdict::Sat`] model and every [`Verdict::Unsat`] counterexample has been checked
//! twice. First against the parsed clauses by the [`validate`] module (a model clause by
//! clause in a fresh z3 process, a counterexample replayed by exact evaluation), which
//! shares no code with the engines but does share the front-end. Then, when the input's
//! text is known ([`solve_str`], [`solve_each`] with the text, [`solve_judged`] as the
//! [`interactive`] mode calls it), by the [`judge`], which
//! shares nothing with the solver: it reads the original text with its own s-expression
//! reader and hands the printed answer ([`Outcome::witness`]) to a z3 process of its own
//! (and cvc5 with [`Validate::Twice`]). A system built in code ([`solve_system`]) has no
//! text: the validator alone checks it. An answer that fails a check is never returned;
//! when the judge cannot decide in time the run ends with [`Verdict::Unknown`] ("could not
//! validate"). The engines drive external SMT solvers (z3,
//! yices, cvc5, SMTInterpol, found as [`smt::find_solver`] says); every process is killed
//! before `solve_*` returns.
//!
//! # Solve from a string or a file
//!
//! ```
//! use chcsolve::{solve_str, Options, Verdict};
//! let text = "(set-logic HORN)
//!     (declare-fun Inv (Int) Bool)
//!     (assert (forall ((x Int)) (=> (= x 0) (Inv x))))
//!     (assert (forall ((x Int) (y Int)) (=> (and (Inv x) (< x 10) (= y (+ x 1))) (Inv y))))
//!     (assert (forall ((x Int)) (=> (and (Inv x) (> x 10)) false)))
//!     (check-sat)";
//! let out = solve_str(text, &Options::default()).expect("well-formed input");
//! assert_eq!(out.verdict.word(), "sat");
//! // a file: solve_str(&std::fs::read_to_string(path)?, &opts)
//! ```
//!
//! # Read the model, per predicate
//!
//! A [`Model`] maps each predicate ([`chc::PredId`], an index into
//! `out.system.preds`) to a formula over its parameters `x0 .. x{n-1}`
//! ([`chc::PredDecl::params`]). [`witness::model_to_smtlib`] prints it as SMT-LIB
//! `define-fun`s; [`logic::eval_bool`] evaluates it on values.
//!
//! ```
//! # use chcsolve::{solve_str, Options, Verdict};
//! # let text = "(set-logic HORN) (declare-fun Inv (Int) Bool)
//! #   (assert (forall ((x Int)) (=> (= x 0) (Inv x))))
//! #   (assert (forall ((x Int) (y Int)) (=> (and (Inv x) (< x 10) (= y (+ x 1))) (Inv y))))
//! #   (assert (forall ((x Int)) (=> (and (Inv x) (> x 10)) false))) (check-sat)";
//! let out = solve_str(text, &Options::default()).unwrap();
//! let Verdict::Sat(model) = &out.verdict else { panic!("expected sat") };
//! for (pred, formula) in model {
//!     let decl = out.system.pred(*pred);
//!     println!("{}({:?}) = {formula}", decl.name, decl.params());
//! }
//! println!("{}", chcsolve::witness::model_to_smtlib(&out.system, model));
//! ```
//!
//! # Walk a counterexample
//!
//! A [`Cex`] is a list of [`CexStep`]s, premises first and the query last: each step is an
//! original clause ([`chc::ClauseId`]), values for its variables, and the indices of the
//! earlier steps that derived its body applications (one per body predicate; a linear
//! counterexample is a chain, a non-linear one a tree).
//!
//! ```
//! use chcsolve::{solve_str, Options, Verdict};
//! let text = "(set-logic HORN) (declare-fun Inv (Int) Bool)
//!     (assert (forall ((x Int)) (=> (= x 0) (Inv x))))
//!     (assert (forall ((x Int) (y Int)) (=> (and (Inv x) (= y (+ x 1))) (Inv y))))
//!     (assert (forall ((x Int)) (=> (and (Inv x) (= x 3)) false))) (check-sat)";
//! // every step concrete, even when ABMC found it through accelerated loops
//! let opts = Options { expand: true, ..Options::default() };
//! let out = solve_str(text, &opts).unwrap();
//! let Verdict::Unsat(cex) = &out.verdict else { panic!("expected unsat") };
//! assert!(out.system.clauses[cex.last().unwrap().clause.idx()].is_query());
//! for (i, step) in cex.iter().enumerate() {
//!     let clause = &out.system.clauses[step.clause.idx()];
//!     println!("{i}: clause at line {} from steps {:?}", clause.line, step.premises);
//!     for (var, value) in &step.vals {
//!         println!("   {} = {value}", var.name);
//!     }
//! }
//! ```
//!
//! Without [`Options::expand`], a counterexample that ABMC found through accelerated loops
//! comes as [`Verdict::UnsatAccelerated`]: a chain of steps and segments, each segment a
//! cycle of clauses run `n` times between two argument vectors, certified by the validator
//! without expanding it ([`validate::check_accel_cex`]).
//!
//! # Pick engines, cores and a time limit
//!
//! [`Options::engines`] names engines to run (each on its own thread) instead of the
//! measured default schedule of [`schedule`]; [`Options::jobs`] sets the cores that
//! schedule is chosen for; [`Options::timeout`] bounds the whole run (the answer is then
//! `Unknown(Reason::Timeout)`, see [`Reason`]); [`Options::solver`] picks the SMT solver the
//! engines use; [`Options::engine_options`] holds every engine's settings
//! ([`engine::EngineOptions`], each engine built from it by [`engine::EngineKind::make`]).
//!
//! ```
//! use chcsolve::{engine::EngineKind, solve_str, Options};
//! use std::time::Duration;
//! let opts = Options {
//!     engines: vec![EngineKind::Pdr, EngineKind::Bmc],
//!     timeout: Some(Duration::from_secs(10)),
//!     ..Options::default()
//! };
//! let text = "(set-logic HORN) (declare-fun P (Int) Bool)
//!     (assert (forall ((x Int)) (=> (= x 1) (P x))))
//!     (assert (forall ((x Int)) (=> (and (P x) (< x 0)) false))) (check-sat)";
//! assert_eq!(solve_str(text, &opts).unwrap().verdict.word(), "sat");
//! ```
//!
//! # Build a problem in code
//!
//! A [`chc::ChcSystem`] is predicates and clauses `body /\ constraint => head` over
//! terms built with [`logic`]'s `mk_*` functions; [`solve_system`] solves it without text.
//!
//! ```
//! use chcsolve::chc::{ChcSystem, Clause, PredApp, PredDecl, PredId};
//! use chcsolve::logic::*;
//! use chcsolve::{solve_system, Options};
//! let x = mk_var("x", Sort::Int);
//! let y = mk_var("y", Sort::Int);
//! let inv = PredId(0);
//! let app = |t: &Term| PredApp { pred: inv, args: vec![t.clone()] };
//! let sys = ChcSystem {
//!     preds: vec![PredDecl { name: "Inv".into(), sorts: vec![Sort::Int] }],
//!     clauses: vec![
//!         // x = 0 => Inv(x)
//!         Clause { body: vec![], constraint: mk_eq(x.clone(), mk_int(0)), head: Some(app(&x)), line: 0 },
//!         // Inv(x) /\ y = x + 2 => Inv(y)
//!         Clause {
//!             body: vec![app(&x)],
//!             constraint: mk_eq(y.clone(), mk_add(vec![x.clone(), mk_int(2)])),
//!             head: Some(app(&y)),
//!             line: 0,
//!         },
//!         // Inv(x) /\ x = 7 => false
//!         Clause { body: vec![app(&x)], constraint: mk_eq(x.clone(), mk_int(7)), head: None, line: 0 },
//!     ],
//!     records: None,
//!     bitvecs: None,
//!     adt: None,
//! };
//! let out = solve_system(sys, &Options::default()).unwrap();
//! assert_eq!(out.verdict.word(), "sat"); // x stays even
//! ```
//!
//! The runnable programs in `examples/` (run in CI) do the same from the command line.

pub mod absint;
pub mod answer;
pub mod chc;
pub mod engine;
pub mod frontend;
pub mod interactive;
pub mod interp;
pub mod judge;
pub mod logic;
pub mod mem;
pub mod portfolio;
pub mod qe;
pub mod schedule;
pub mod smt;
pub mod solve;
#[doc(hidden)]
pub mod testing;
pub mod ts;
pub mod validate;
pub mod witness;

pub use chc::{Cex, CexStep, Model};
pub use solve::{
    solve_each, solve_judged, solve_str, solve_system, EngineRun, Options, Outcome, Progress,
    Reason, SolveError, Source, Stats, Validate, Verdict,
};
