//! Measures what small solver queries cost, per solver: starting the process, a plain
//! `check-sat`, and a round of `push`, `assert`, `check-sat-assuming`, `get-value` or the
//! unsat core, `pop` (the engines' pattern). A measurement, not a test: it prints times.
//!
//! ```sh
//! cargo run --release --example query_cost -- [--rounds N]   (default 1000)
//! ```
//! Solvers are found as by `chcsolve` (`CHCSOLVE_Z3`, `solvers/bin`, ...); a missing one is
//! reported and left out.

use chcsolve::logic::*;
use chcsolve::smt::{find_solver, SatResult, Smt, SolverConfig, SolverKind};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: u32 = match args.as_slice() {
        [] => 1000,
        [flag, n] if flag == "--rounds" => n.parse().expect("--rounds N: a number"),
        _ => {
            eprintln!("usage: query_cost [--rounds N]");
            std::process::exit(2);
        }
    };
    for kind in [
        SolverKind::Z3,
        SolverKind::Yices,
        SolverKind::Cvc5,
        SolverKind::SmtInterpol,
    ] {
        match find_solver(kind, None) {
            Ok(p) => measure(&SolverConfig::new(kind, p), rounds),
            Err(e) => println!("{kind}: not measured ({e})"),
        }
    }
}

fn measure(cfg: &SolverConfig, n: u32) {
    let var = |name: &str, sort| Var {
        name: name.into(),
        sort,
    };
    let (x, a) = (var("x", Sort::Int), var("a", Sort::Bool));
    let start = Instant::now();
    let mut s = Smt::new(cfg, "query-cost").expect("solver starts");
    let spawn = start.elapsed();
    s.assert(&mk_ge(mk_var_of(&x), mk_int(0))).unwrap();
    let start = Instant::now();
    for _ in 0..n {
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    }
    let plain = start.elapsed() / n;
    s.assert(&mk_implies(mk_var_of(&a), mk_lt(mk_var_of(&x), mk_int(0))))
        .unwrap();
    let start = Instant::now();
    for i in 0..n {
        s.push().unwrap();
        s.assert(&mk_le(mk_var_of(&x), mk_int(i as i64))).unwrap();
        let lit = if i % 2 == 0 {
            mk_var_of(&a)
        } else {
            mk_not(mk_var_of(&a))
        };
        if s.check_sat_assuming(&[lit]).unwrap() == SatResult::Sat {
            s.get_values(std::slice::from_ref(&x)).unwrap();
        } else {
            s.unsat_assumptions().unwrap();
        }
        s.pop().unwrap();
    }
    let mixed = start.elapsed() / n;
    println!(
        "{}: spawn {spawn:?}; check-sat {plain:?}/query; \
         push+assert+check-sat-assuming+get-value|core+pop {mixed:?}/round",
        cfg.kind
    );
}
