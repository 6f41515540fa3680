//! k-induction's answer made a quantifier-free model, when the run wants one (`--print-witness`,
//! `(get-model)`, the library's model): the k-inductive property strengthened into an
//! inductive invariant by interpolation ([`crate::engine::kinductive::to_inductive`], the
//! construction of Golem's `kind` witness). The other lanes are paused meanwhile (their
//! solvers stopped, as with `--pause-to-check on`), so that the `cores` backend runs a
//! helper process on each core they leave (at most [`MAX_WORKERS`] processes in all).
//!
//! It runs here, after the answer, under the run's deadline: inside the engine it ran in
//! k-induction's time slice, which ended it. On Sally's `oral_messages` files (LRA-Lin)
//! k-induction succeeds at k = 4 in 0.1-0.4 s and the interpolants take 1-4 s; when no
//! interpolant comes, the engine's quantified strengthening goes to quantifier elimination
//! as before.

use super::*;
use crate::engine::KToOne;
use crate::interp::{Backend, InterpConfig, Interpolator};
use crate::smt::KillSwitch;

/// The backends, in order: the core-generalized projections first (the only ones that answer
/// on `oral_messages`, where the transition relation's `ite`s make the exact projection and
/// the cube pairs of the Farkas backend run past their bounds), then the others that answer
/// k-to-1 queries on LIA-Lin (docs/interpolation.md, "Core-generalized projections").
const ORDER: [Backend; 4] = [
    Backend::Cores,
    Backend::Farkas,
    Backend::Own,
    Backend::Yices,
];

/// Most processes for the `cores` backend: two were measured, on a machine of two cores
/// (docs/interpolation.md); more processes find more of the same disjuncts at once.
const MAX_WORKERS: usize = 2;

impl Run<'_> {
    /// k-induction's answer: its k-inductive property checked as such when no model is
    /// wanted ([`Run::k_conditions`]), else, or when those checks do not decide it, a model
    /// made of it ([`Run::k_model`]). `Err` gives that model back when the conditions were
    /// not decided and `defer` is set: the caller checks it later ([`Run::portfolio`]:
    /// another lane's answer may be cheaper to check).
    pub(super) fn accept_k_answer(
        &mut self,
        answer: Answer,
        (psys, backs): (&ChcSystem, &[Box<dyn BackTranslate>]),
        (need_model, defer): (bool, bool),
        engine: &'static str,
    ) -> Result<Option<Verdict>, super::defer::KModel> {
        let Answer::SafeKInductive {
            k,
            property,
            model,
            later,
        } = answer
        else {
            log::error!("{engine}: not a k-inductive answer (a bug)");
            return Ok(None);
        };
        if !need_model {
            match self.k_conditions(k, model_back(backs, property), engine) {
                Ok(v) => return Ok(v),
                Err(()) if defer => return Err((model, later)),
                Err(()) => {}
            }
        }
        Ok(self.k_model(model, later, (psys, backs), need_model, engine))
    }

    /// A k-inductive answer checked as a model: the k-to-1 construction's when a model is
    /// wanted and it succeeds, else the engine's inductive strengthening (made
    /// quantifier-free by [`Run::accept_model`]).
    pub(super) fn k_model(
        &mut self,
        model: Model,
        later: Option<KToOne>,
        (psys, backs): (&ChcSystem, &[Box<dyn BackTranslate>]),
        need_model: bool,
        engine: &'static str,
    ) -> Option<Verdict> {
        let model = match later.filter(|_| need_model) {
            Some(l) => self.k_to_one(&l, psys, engine).unwrap_or(model),
            None => model,
        };
        self.accept_model(model_back(backs, model), engine)
    }

    /// The inductive, quantifier-free model of `l`, within three quarters of the time left
    /// (the rest checks it: the judge takes at most 0.23 s on the `oral_messages` models, and
    /// answers that other lanes give meanwhile wait); `None` when no interpolant comes in
    /// time.
    pub(super) fn k_to_one(
        &mut self,
        l: &KToOne,
        psys: &ChcSystem,
        engine: &'static str,
    ) -> Option<Model> {
        let budget = self.remaining().map(|r| r * 3 / 4);
        let kill = KillSwitch::new();
        // the run's deadline reaches the interpolants' solvers through their kill switch
        let timer = budget.map(|b| kill.kill_after(b, "k-to-1 interpolation"));
        let mut icfg = InterpConfig::for_engine(
            &ORDER,
            &SolverConfig {
                kill: kill.clone(),
                ..self.smt.clone()
            },
        );
        if let Some(b) = budget {
            icfg.timeout = b;
        }
        // the other lanes wait meanwhile: their cores are free for the `cores` backend's
        // helpers (one per core, at most MAX_WORKERS)
        icfg.workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_WORKERS));
        let start = Instant::now();
        let r = l.model(psys, &mut Interpolator::new(icfg), &kill);
        drop(timer);
        match r {
            Ok(m) => {
                self.stats.models_k_to_one += 1;
                log::info!(
                    "{engine}: the {}-inductive property made inductive by interpolation in {:.2}s",
                    l.k(),
                    start.elapsed().as_secs_f64()
                );
                Some(m)
            }
            Err(e) => {
                self.stats.models_k_to_one_failed += 1;
                log::info!("{engine}: no interpolated model ({e}); the quantified one instead");
                None
            }
        }
    }
}
