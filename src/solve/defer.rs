//! A k-inductive answer whose k-induction conditions the validator or the judge could not
//! decide must be checked as a model: its inductive strengthening, often with quantifiers
//! to eliminate first. While other lanes run, that answer waits a little, as long as its
//! engine took to find it (at least [`MIN_GRACE`], at most [`MAX_GRACE`]): an answer that
//! comes meanwhile is usually cheaper to check. On the LIA files that preprocessing makes
//! linear (the clauses of the input stay non-linear, so the judge cannot unroll them),
//! k-induction's probe answers first with a 2-inductive invariant, and PDR a few
//! milliseconds later with a model: kind2's `DRAGON_all_e2_6104_e3_2607` took 0.29 s along
//! the quantifier elimination and 0.06 s with PDR's model (2026-12-07). The wait at most
//! doubles the time to the answer when no other lane answers.

use super::*;
use crate::engine::KToOne;

const MIN_GRACE: Duration = Duration::from_millis(20);
const MAX_GRACE: Duration = Duration::from_millis(500);

/// What waits of the k-inductive answer (its inductive strengthening and the k-to-1
/// construction), with its engine and until when.
#[derive(Default)]
pub(super) struct Deferred(Option<(KModel, &'static str, Instant)>);

/// A k-inductive answer's model and its k-to-1 construction ([`Run::k_model`]).
pub(super) type KModel = (Model, Option<KToOne>);

impl Deferred {
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// Keeps `answer`, found by `engine` in `seconds`.
    pub(super) fn set(&mut self, answer: KModel, engine: &'static str, seconds: f64) {
        let grace = Duration::from_secs_f64(seconds.max(0.0)).clamp(MIN_GRACE, MAX_GRACE);
        log::info!(
            "{engine}: its answer waits {:.3}s for another lane's",
            grace.as_secs_f64()
        );
        self.0 = Some((answer, engine, Instant::now() + grace));
    }

    /// How long to wait for the next report: until `wait`, or sooner when the kept answer's
    /// time is up.
    pub(super) fn wait(&self, wait: Option<Instant>) -> Option<Instant> {
        match &self.0 {
            Some((_, _, until)) => Some(wait.map_or(*until, |w| w.min(*until))),
            None => wait,
        }
    }
}

impl Run<'_> {
    /// Checks the kept answer as a model once its time is up or no lane runs (`running`);
    /// its verdict when decided (an undecided one goes to `undecided`, as in
    /// [`Run::portfolio`]).
    pub(super) fn check_deferred(
        &mut self,
        deferred: &mut Deferred,
        running: usize,
        (psys, backs, undecided): (&ChcSystem, &[Box<dyn BackTranslate>], &mut Option<Verdict>),
    ) -> Option<Verdict> {
        let due =
            matches!(&deferred.0, Some((_, _, until)) if running == 0 || Instant::now() >= *until);
        if !due {
            return None;
        }
        let ((model, later), engine, _) = deferred.0.take()?;
        log::info!("{engine}: no other lane answered meanwhile: its model is checked");
        self.others_running = running > 0;
        match self.k_model(model, later, (psys, backs), false, engine)? {
            v @ Verdict::Unknown(Reason::NotValidated(_)) => {
                undecided.get_or_insert(v);
                None
            }
            v => Some(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(seconds: f64) -> (Deferred, Instant, Instant) {
        let mut d = Deferred::default();
        let before = Instant::now();
        d.set((Model::default(), None), "kind", seconds);
        (d, before, Instant::now())
    }

    fn until(d: &Deferred) -> Instant {
        d.0.as_ref().expect("kept").2
    }

    /// The answer waits as long as its engine took, within the bounds.
    #[test]
    fn the_wait_is_the_engines_time_within_bounds() {
        for (seconds, grace) in [
            (0.001, MIN_GRACE),
            (0.1, Duration::from_millis(100)),
            (3.0, MAX_GRACE),
        ] {
            let (d, before, after) = kept(seconds);
            assert!(!d.is_empty());
            assert!(
                until(&d) >= before + grace && until(&d) <= after + grace,
                "{seconds}"
            );
        }
    }

    /// The next report is awaited until the kept answer is due, or sooner.
    #[test]
    fn the_kept_answer_shortens_the_wait() {
        let (d, _, _) = kept(0.1);
        let due = until(&d);
        assert_eq!(d.wait(None), Some(due));
        assert_eq!(d.wait(Some(due + Duration::from_secs(1))), Some(due));
        let sooner = Instant::now();
        assert_eq!(d.wait(Some(sooner)), Some(sooner));
        assert_eq!(Deferred::default().wait(Some(sooner)), Some(sooner));
        assert_eq!(Deferred::default().wait(None), None);
    }
}
