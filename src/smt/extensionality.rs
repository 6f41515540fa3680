//! When a z3 session over arrays may leave out the extensionality axiom, and how a model
//! found without it is checked ([`crate::logic::array_use`]; docs/arrays.md, "Extensionality
//! in z3's sessions"). [`super::solver::Smt`] keeps one [`Extensionality`] and sends the
//! option and the checks.

use crate::logic::{array_use, eval_bool, free_vars, ArrayUse, Assignment, Term, Var};
use rustc_hash::FxHashSet;

/// A session keeps extensionality off for at most this many checked models: each costs
/// reading the values of the variables of its assertions over arrays, which adds up where
/// z3 answers many small queries fast with the axiom (`slice_default_start.sol_2` of
/// LIA-Arrays, 2,885 queries: 1.6 s to 3.4 s without this bound), while the queries the
/// axiom slows down come in a Solidity file's first dozen
/// (`array_struct_array_struct_storage_safe`).
const WEAK_SATS: usize = 128;

/// What a session's assertions need: only z3 sessions over arrays (`active`) track it.
pub(super) struct Extensionality {
    active: bool,
    /// Live assertions that need the axiom.
    blockers: usize,
    /// Live assertions over arrays that do not: a model found without the axiom must
    /// satisfy them (the others mention no array, and z3's model satisfies them as we read
    /// them).
    live: Vec<Term>,
    /// `blockers` and the length of `live` at each open `push`.
    marks: Vec<(usize, usize)>,
    /// Text we do not read was asserted, or a check was asked whose model we do not check:
    /// the axiom stays on.
    raw: bool,
    /// Models found without the axiom and checked.
    checked: usize,
    /// Whether the solver has the axiom on (z3's default).
    pub on: bool,
}

impl Extensionality {
    pub fn new(active: bool) -> Extensionality {
        Extensionality {
            active,
            blockers: 0,
            live: vec![],
            marks: vec![],
            raw: false,
            checked: 0,
            on: true,
        }
    }

    pub fn assert(&mut self, t: &Term) {
        if self.active {
            match array_use(t) {
                ArrayUse::NoArrays => {}
                ArrayUse::Weak => self.live.push(t.clone()),
                ArrayUse::Extensional => self.blockers += 1,
            }
        }
    }

    pub fn push(&mut self) {
        self.marks.push((self.blockers, self.live.len()));
    }

    pub fn pop(&mut self) {
        let (blockers, live) = self.marks.pop().unwrap_or_default();
        self.blockers = blockers;
        self.live.truncate(live);
    }

    /// Raw text was sent (an assertion or a check): the axiom stays on from here.
    pub fn raw(&mut self) {
        self.raw = true;
    }

    /// The setting the next check needs, when it differs from the solver's.
    pub fn change(&self) -> Option<bool> {
        let want = !self.active || self.blockers > 0 || self.raw || self.checked >= WEAK_SATS;
        (self.active && want != self.on).then_some(want)
    }

    /// A `sat` without the axiom: the variables whose values [`Self::holds`] reads.
    pub fn model_vars(&mut self) -> Vec<Var> {
        self.checked += 1;
        let mut seen = FxHashSet::default();
        let mut vars = vec![];
        for t in &self.live {
            vars.extend(free_vars(t).into_iter().filter(|v| seen.insert(v.clone())));
        }
        vars
    }

    /// Whether `model` satisfies every live assertion over arrays.
    pub fn holds(&self, model: &Assignment) -> bool {
        self.live.iter().all(|t| eval_bool(t, model) == Ok(true))
    }
}
