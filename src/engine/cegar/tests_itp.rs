//! Tian et al.'s safety and error interpolants ([`Interpolations`]) on planted problems whose
//! answers are known by construction; every witness is checked by the validator (see
//! [`super::tests::run_counting`]).

use super::tests::{check_config, run_counting, EXPL_SOLVES, PRED_SOLVES, PROBLEMS};
use super::*;

/// Safe. From the start, P counts to 20 and hands over to R, whose query needs `x > 20`; on
/// a branch of its own, Q adds 2 from 0, and its query needs `y < 0`. Q's branch is proven
/// safe (closed by covering) after its one refinement, while P's chain still needs many;
/// with full pruning every refinement rebuilds the ARG, and Q's node is then cut.
const BRANCH_SAT: &str = "(set-logic HORN)
(declare-fun P (Int) Bool)
(declare-fun Q (Int) Bool)
(declare-fun R (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((y Int)) (=> (= y 0) (Q y))))
(assert (forall ((x Int)) (=> (and (P x) (< x 20)) (P (+ x 1)))))
(assert (forall ((x Int)) (=> (and (P x) (>= x 20)) (R x))))
(assert (forall ((x Int)) (=> (and (R x) (> x 20)) false)))
(assert (forall ((y Int)) (=> (Q y) (Q (+ y 2)))))
(assert (forall ((y Int)) (=> (and (Q y) (< y 0)) false)))
(check-sat)";

/// Unsafe: P counts from 0 without bound, moves to Q at `x >= 3` with `y = 0`, Q counts y
/// to 6, and the query needs `x = 7`. The first spurious paths end in the query with a
/// feasible suffix through Q; once a path reaches P with `x = 7`, the suffix is joined to it
/// and checked, instead of the abstraction unrolling Q again.
const JUMP_UNSAT: &str = "(set-logic HORN)
(declare-fun P (Int) Bool)
(declare-fun Q (Int Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int)) (=> (P x) (P (+ x 1)))))
(assert (forall ((x Int)) (=> (and (P x) (>= x 3)) (Q x 0))))
(assert (forall ((x Int) (y Int)) (=> (and (Q x y) (< y 6)) (Q x (+ y 1)))))
(assert (forall ((x Int) (y Int)) (=> (and (Q x y) (>= y 6) (= x 7)) false)))
(check-sat)";

fn with(itp: Interpolations, base: Config) -> Config {
    Config { itp, ..base }
}

#[test]
fn safety_interpolants_cut_a_subtree_proven_safe() {
    let full = Config {
        prune: Prune::Full,
        ..Config::default()
    };
    let (plain, c) = run_counting("branch-sat", BRANCH_SAT, &full, 60);
    assert_eq!(plain, "sat");
    assert_eq!((c.safety_itps, c.cuts), (0, 0), "plain learns nothing");
    for itp in [Interpolations::Safety, Interpolations::SafetyError] {
        let (word, c) = run_counting("branch-sat", BRANCH_SAT, &with(itp, full.clone()), 60);
        // the model holds S(Q): without it, Q's cut node would leave Q(0) unexplained
        assert_eq!(word, "sat", "{itp:?}");
        assert!(c.safety_itps >= 1, "{itp:?}: no safety interpolant: {c:?}");
        assert!(c.cuts >= 1, "{itp:?}: Q's subtree was never cut: {c:?}");
    }
    // lazy pruning keeps Q's subtree (P's refinements prune below P): still right
    let lazy = with(Interpolations::Safety, Config::default());
    assert_eq!(run_counting("branch-sat", BRANCH_SAT, &lazy, 60).0, "sat");
}

#[test]
fn error_interpolants_jump_to_a_counterexample() {
    let (plain, c) = run_counting("jump-unsat", JUMP_UNSAT, &Config::default(), 60);
    assert_eq!(plain, "unsat");
    assert_eq!((c.error_itps, c.jumps), (0, 0), "plain learns nothing");
    for base in [
        Config::default(),
        Config {
            prune: Prune::Full,
            ..Config::default()
        },
    ] {
        for itp in [Interpolations::Error, Interpolations::SafetyError] {
            let c = with(itp, base.clone());
            let (word, n) = run_counting("jump-unsat", JUMP_UNSAT, &c, 60);
            // the counterexample of the jump is a chain of clause applications, replayed
            assert_eq!(word, "unsat", "{c:?}");
            assert!(n.error_itps >= 1, "{c:?}: no error interpolant: {n:?}");
            assert!(
                n.jumps == 1,
                "{c:?}: the answer did not come from a jump: {n:?}"
            );
        }
    }
}

fn cfg_expl() -> Config {
    Config {
        domain: DomainKind::Expl,
        ..Config::default()
    }
}

#[test]
fn seed_001_interpolations_answer_every_planted_problem() {
    for itp in [
        Interpolations::Safety,
        Interpolations::Error,
        Interpolations::SafetyError,
    ] {
        check_config(&with(itp, Config::default()), PRED_SOLVES);
        check_config(&with(itp, cfg_expl()), EXPL_SOLVES);
    }
    let all = with(Interpolations::SafetyError, Config::default());
    for c in [
        Config {
            prune: Prune::Full,
            ..all.clone()
        },
        Config {
            search: Search::Dfs,
            ..all.clone()
        },
        Config {
            refinement: Refinement::MultiSeq,
            ..all.clone()
        },
        Config {
            domain: DomainKind::PredSplit,
            ..all.clone()
        },
    ] {
        check_config(&c, PRED_SOLVES);
    }
    // the planted problems of this file too, under every switch
    for itp in [Interpolations::Safety, Interpolations::SafetyError] {
        let c = with(itp, cfg_expl());
        let w = run_counting("branch-sat", BRANCH_SAT, &c, 10).0;
        assert!(w == "sat" || w == "unknown", "{w}");
    }
    assert!(PROBLEMS.len() >= 9);
}

/// Solves `text` with safety interpolants and full pruning, then checks with z3 that the
/// safety interpolants are closed under every edge and exclude the error location; true
/// when some interpolant is not `false`.
fn check_closed_under_every_edge(name: &str, text: &str) -> bool {
    let sys = crate::frontend::parse_str(text).unwrap();
    let cfg = Config {
        prune: Prune::Full,
        itp: Interpolations::Safety,
        ..Config::default()
    };
    let mut cegar = Cegar::new(cfg);
    let answer = cegar.solve(&sys, &super::tests::engine_smt());
    assert!(!matches!(answer, Answer::Unknown(_)), "{name}: {answer:?}");
    let cfa = Cfa::new(&sys).unwrap();
    let sets = &cegar.safe_sets;
    assert_eq!(sets.len(), cfa.locs(), "{name}");
    assert_eq!(sets[Loc::ERROR.idx()].as_bool(), Some(false), "{name}");
    let mut smt = Smt::new(&super::tests::z3(), "test").unwrap();
    for e in &cfa.edges {
        let next = cfa.to_next(e.to, &sets[e.to.idx()]);
        let leaves = [sets[e.from.idx()].clone(), e.op.clone(), mk_not(next)];
        assert!(
            !domain::sat(&mut smt, &leaves).unwrap(),
            "{name}: S({:?}) = {} leaves along clause {:?} to S({:?}) = {}",
            e.from,
            sets[e.from.idx()],
            e.clause,
            e.to,
            sets[e.to.idx()]
        );
    }
    sets.iter().any(|s| s.as_bool() != Some(false))
}

#[test]
fn safety_interpolants_are_closed_under_every_edge() {
    let mut learned = 0;
    learned += check_closed_under_every_edge("branch-sat", BRANCH_SAT) as usize;
    learned += check_closed_under_every_edge("jump-unsat", JUMP_UNSAT) as usize;
    for (name, text, _) in PROBLEMS {
        learned += check_closed_under_every_edge(name, text) as usize;
    }
    assert!(
        learned >= 2,
        "only {learned} problems learned a safety interpolant"
    );
}

#[test]
fn the_closed_part_of_the_arg_is_what_never_reaches_an_open_node() {
    // root -> a -> b (b covered by a); root -> c -> e (e at the error location);
    // root -> d (never expanded); a -> f, cut
    let mut arg: Arg<()> = Arg::new(());
    let root = arg::NodeId(0);
    let e0 = cfa::EdgeId(0);
    let p = Loc::of(crate::chc::PredId(0));
    let a = arg.add(p, (), Some((root, e0)));
    let b = arg.add(p, (), Some((a, e0)));
    let f = arg.add(p, (), Some((a, e0)));
    let c = arg.add(p, (), Some((root, e0)));
    let e = arg.add(Loc::ERROR, (), Some((c, e0)));
    let d = arg.add(p, (), Some((root, e0)));
    for n in [root, a, c] {
        arg.test_expand(n);
    }
    arg.test_cover(b, a);
    arg.test_cut(f);
    let closed = arg.closed();
    let is = |n: arg::NodeId| closed[n.idx()];
    assert!(is(a) && is(b) && is(f), "a's subtree is closed");
    assert!(!is(c) && !is(e), "c reaches the error location");
    assert!(!is(d) && !is(root), "d is open, so is the root");
    // a node covered by an open node is open, and so is what depends on it: a new child g
    // of a, covered by c, opens g, a, and b (covered by a)
    let g = arg.add(p, (), Some((a, e0)));
    arg.test_cover(g, c);
    let closed = arg.closed();
    assert!(!closed[g.idx()] && !closed[a.idx()] && !closed[b.idx()]);
    assert!(closed[f.idx()], "a cut node stays closed");
}
