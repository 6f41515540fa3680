//! How the run accepts an engine's answer: made quantifier-free (models), checked by the
//! validator against the parsed clauses, then by the judge against the original text
//! ([`crate::judge`]); only then is it the run's verdict.

use super::*;

/// The most time the checks of a bit-vector model made exact ([`exact`]) get before the
/// engine's own model is checked: a judge accepts those in 0.1 s on Solidity's shift tests,
/// and needed 2.5 s on `fixed_bytes_access_3.sol_12`, whose engine model it accepts in 0.1 s.
const EXACT_FIRST: Duration = Duration::from_secs(1);

/// The most time the search for unsatisfiable interpretations of a model gets ([`prune`]):
/// z3 answers each of the 64 of `array_struct_array_struct_storage_safe.sol_13` in a few
/// milliseconds.
const PRUNE_MAX: Duration = Duration::from_millis(500);

/// How the checks of a model ended.
enum Checked {
    Accepted(Verdict),
    /// Rejected by the validator or the judge: a bug (of the engine, or of the exact
    /// interpretation), and no answer from this model.
    Failed,
    /// Not decided in time: what the run answers if nothing else comes.
    Undecided(Option<Verdict>),
}

impl Run<'_> {
    /// The model with every quantifier eliminated ([`crate::qe`]).
    pub(super) fn quantifier_free(&mut self, mut model: Model) -> Result<Model, String> {
        if !model.values().any(crate::logic::has_quantifier) {
            return Ok(model);
        }
        self.stats.models_quantified += 1;
        let mut qe = crate::qe::Qe::new(self.smt.clone(), Some(self.z3.clone()), self.deadline);
        let mut r = Ok(());
        for f in model.values_mut() {
            match qe.eliminate(f) {
                Ok(g) => *f = g,
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        log::info!("quantifier elimination: {:?}", qe.stats);
        if qe.stats.fallbacks > 0 {
            self.stats.models_qe_fallback += 1;
        }
        if r.is_err() {
            self.stats.models_qe_failed += 1;
        }
        r.map(|()| model)
    }

    pub(super) fn accept_model(&mut self, model: Model, engine: &'static str) -> Option<Verdict> {
        let model = match self.quantifier_free(model) {
            Ok(m) => m,
            Err(e) => {
                log::warn!(
                    "{engine}: the model could not be made quantifier-free, so not printed: {e}"
                );
                return None;
            }
        };
        let mut model = if self.orig.adt.is_some() {
            self.without_divisibility(model)
        } else {
            model
        };
        // interpretations that contradict themselves, as inlining can write them back,
        // cost the checkers their size in every clause that applies them ([`prune`])
        let budget = self
            .check_budget()
            .map_or(PRUNE_MAX, |b| (b / 8).min(PRUNE_MAX));
        // yices when the engines use it and the model is plain arithmetic (no datatype or
        // bit-vector terms it could not read), else z3
        let plain = self.orig.adt.is_none() && self.orig.bitvecs.is_none();
        let pruner = match self.smt.kind {
            crate::smt::SolverKind::Yices if plain => &self.smt,
            _ => &self.z3,
        };
        let pruned = prune::unsatisfiable_as_false(&mut model, pruner, budget);
        if pruned > 0 {
            log::info!("{engine}: {pruned} unsatisfiable interpretations written false");
        }
        if self.orig.bitvecs.is_some() {
            // with bit-vectors, first the predicates outside cycles exactly as their clauses
            // define them: an engine's bounds on a word operation's result can be out of the
            // checkers' reach where the operation itself is not; that model gets at most
            // EXACT_FIRST, then the engine's own is checked (docs/bitvectors.md)
            if let Some(exact) = exact::strengthened(self.orig, &model) {
                self.check_cap = Some(EXACT_FIRST);
                let r = self.check_model(exact, engine);
                self.check_cap = None;
                match r {
                    Checked::Accepted(v) => return Some(v),
                    Checked::Failed => return None,
                    Checked::Undecided(_) => {
                        log::info!("{engine}: the exact model was not decided in time; the engine's own next");
                    }
                }
            }
        }
        match self.check_model(model, engine) {
            Checked::Accepted(v) => Some(v),
            Checked::Failed => None,
            Checked::Undecided(v) => v,
        }
    }

    /// Checks `model` by the validator and the judge at the same time (the answer waits for
    /// the slower, not for their sum).
    fn check_model(&mut self, model: Model, engine: &'static str) -> Checked {
        self.stats.validations += 1;
        let text = crate::witness::model_to_smtlib(self.orig, &model);
        let (orig, z3, budget) = (self.orig, self.z3.clone(), self.check_budget());
        let first = self.quick_validator();
        let (validated, judged) = std::thread::scope(|s| {
            let v = s.spawn(|| {
                validate::check_model_quick_first(orig, &model, first.as_ref(), &z3, budget)
            });
            let j = self.judge(crate::judge::Witness::Model(&text), "sat", engine);
            let v = v.join().unwrap_or_else(|_| {
                Err(validate::ModelError::Undecided(
                    "the validator's thread panicked".into(),
                ))
            });
            (v, j)
        });
        match validated {
            Ok(()) => {
                log::info!("{engine}: model validated");
                match judged {
                    Err(None) => return Checked::Failed,
                    Err(v) => return Checked::Undecided(v),
                    Ok(()) => {}
                }
                self.stats.winner = Some(engine);
                Checked::Accepted(Verdict::Sat(model))
            }
            Err(e @ validate::ModelError::Rejected(_)) => {
                self.stats.validation_failures += 1;
                log::error!("{engine}: model REJECTED by the validator: {e}");
                Checked::Failed
            }
            Err(e @ validate::ModelError::Undecided(_)) => {
                self.stats.validations_undecided += 1;
                log::warn!("{engine}: model not validated, so not printed: {e}");
                Checked::Undecided(None)
            }
        }
    }

    /// The solver that validates a model, and completes a counterexample's values, first:
    /// the engines' yices when the input is plain arithmetic (no datatypes, bit-vectors or
    /// arrays; a model reaches the validator without quantifiers).
    /// It starts in about 1 ms where z3 takes 14 before its first answer (on the dev
    /// machine), and the judge's z3 checks every model against the input's text anyway.
    fn quick_validator(&self) -> Option<crate::smt::SolverConfig> {
        // `smt.arrays`: the input's features (a predicate argument or clause variable of an
        // array sort), set when the run's solvers were configured
        let plain = self.orig.adt.is_none() && self.orig.bitvecs.is_none() && !self.smt.arrays;
        (plain && self.smt.kind == crate::smt::SolverKind::Yices).then(|| self.smt.clone())
    }

    /// A k-inductive answer: `property`, checked by the k-induction conditions on the
    /// original clauses by the validator and the judge, is the verdict (`Ok`: a verdict, or
    /// `None` when the judge rejected it). `Err(())` when it must be checked as a model
    /// instead, its inductive strengthening (the caller's [`Run::accept_model`]): it does not
    /// pass the validator (an engine proves it on the preprocessed system, whose steps may
    /// differ), has quantifiers, the judge cannot decide it, or the input has datatypes.
    pub(super) fn k_conditions(
        &mut self,
        k: usize,
        property: Model,
        engine: &'static str,
    ) -> Result<Option<Verdict>, ()> {
        if self.orig.adt.is_some() {
            // the k-induction conditions are not judged over the input's datatypes
            return Err(());
        }
        let t = Instant::now();
        self.stats.validations += 1;
        let checked =
            validate::check_k_inductive(self.orig, k, &property, &self.z3, self.check_budget());
        if let Err(e) = checked {
            log::info!(
                "{engine}: its {k}-inductive invariant is not accepted on the original clauses ({e}): its inductive strengthening is checked instead"
            );
            return Err(());
        }
        log::info!(
            "{engine}: {k}-inductive invariant validated in {:.3}s",
            t.elapsed().as_secs_f64()
        );
        let text = crate::witness::kinductive_to_text(self.orig, k, &property);
        match self.judge(crate::judge::Witness::KInductive(&text), "sat", engine) {
            Ok(()) => {}
            // rejected: a bug, recorded by the judge; look for another answer
            Err(None) => return Ok(None),
            // undecided (an assertion of a shape the judge does not unroll, out of time):
            // the model may still be judged
            Err(Some(_)) => {
                log::info!("{engine}: the judge did not decide its {k}-inductive invariant: its inductive strengthening is checked instead");
                return Err(());
            }
        }
        self.stats.validation = Some(format!(
            "{k}-inductive invariant checked on the original clauses"
        ));
        self.stats.winner = Some(engine);
        Ok(Some(Verdict::SatKInductive {
            k,
            invariant: property,
        }))
    }

    /// A k-inductive invariant written over the input's text by a native lane: the verdict
    /// once the judge accepts it (the validator reads the parsed clauses, not that text).
    pub(super) fn accept_input_kinductive(
        &mut self,
        k: usize,
        witness: &str,
        invariant: Model,
        engine: &'static str,
    ) -> Option<Verdict> {
        self.stats.validations += 1;
        if self.judge.is_none() {
            log::warn!("{engine}: no input text to judge its {k}-inductive invariant against");
            return None;
        }
        match self.judge(crate::judge::Witness::KInductive(witness), "sat", engine) {
            Ok(()) => {}
            Err(None) => return None,
            Err(Some(_)) => {
                log::info!("{engine}: the judge did not decide its {k}-inductive invariant");
                return None;
            }
        }
        self.stats.validation = Some(format!(
            "{k}-inductive invariant checked on the original text"
        ));
        self.stats.winner = Some(engine);
        Some(Verdict::SatKInductive { k, invariant })
    }

    /// A model of the size abstraction of recursive datatypes without its conjuncts that
    /// have `mod` or `div`, when it is still a model (checked by the validator): z3, as
    /// the judge, decides the checks of models that read the size functions through `mod`
    /// badly (a tree's `size mod 2 = 1`, implied by the rest, runs it out of time), and a
    /// weaker model is as good an answer.
    fn without_divisibility(&mut self, model: Model) -> Model {
        fn has_div(t: &Term) -> bool {
            let mut stack = vec![t];
            while let Some(x) = stack.pop() {
                if matches!(x.get(), TermNode::Div(..) | TermNode::Mod(..)) {
                    return true;
                }
                x.get().push_children_rev(&mut stack);
            }
            false
        }
        if !model.values().any(has_div) {
            return model;
        }
        let weaker: Model = model
            .iter()
            .map(|(p, t)| {
                let keep = conjuncts(t).into_iter().filter(|c| !has_div(c)).collect();
                (*p, mk_and(keep))
            })
            .collect();
        match validate::check_model(self.orig, &weaker, &self.z3, self.check_budget()) {
            Ok(()) => weaker,
            Err(_) => model,
        }
    }

    /// A counterexample of the size abstraction of recursive datatypes
    /// ([`crate::logic::adt`]): it may not be one of the input, so it proves nothing.
    fn abstract_cex(&mut self, engine: &'static str) -> Option<Verdict> {
        log::info!(
            "{engine}: a counterexample of the size abstraction, which proves nothing about the input's datatypes"
        );
        None
    }

    fn unmapped(&mut self, engine: &'static str) -> Option<Verdict> {
        log::error!("{engine}: its trace does not map to clauses (a bug)");
        self.stats.engine_bugs += 1;
        None
    }

    /// A counterexample with accelerated segments: certified without expanding it, else
    /// (when it does not map back, its check fails or is undecided, or `--expand`)
    /// expanded into concrete steps within the time left and replayed.
    pub(super) fn accept_accel(
        &mut self,
        p: &AccelAnswer,
        psys: &ChcSystem,
        backs: &[Box<dyn BackTranslate>],
        engine: &'static str,
    ) -> Option<Verdict> {
        if self.orig.adt.is_some() {
            return self.abstract_cex(engine);
        }
        let t = Instant::now();
        let why = if self.expand {
            "--expand".to_string()
        } else if self.orig.records.is_some() {
            // a segment's formula is over the laid-out parts, not the input's datatypes
            "the input has datatypes".to_string()
        } else if self.orig.bitvecs.is_some() {
            // a segment's formula is over integers, not the input's bit-vectors
            "the input has bit-vectors".to_string()
        } else {
            match p
                .segments(psys)
                .and_then(|c| accel_cex_back(backs, self.orig, c))
            {
                None => "a segment does not map to the original clauses".into(),
                Some(acex) => {
                    let mapped = t.elapsed().as_secs_f64();
                    self.stats.validations += 1;
                    let r =
                        validate::complete_accel_cex(self.orig, acex, &self.z3).and_then(|acex| {
                            let rep = validate::check_accel_cex(
                                self.orig,
                                &acex,
                                &self.z3,
                                self.remaining(),
                            )?;
                            Ok((acex, rep))
                        });
                    match r {
                        Ok((acex, rep)) => {
                            let text = crate::witness::accel_cex_to_text(self.orig, &acex);
                            let w = crate::judge::Witness::Accelerated(&text);
                            // like the validator's, a certificate the judge rejects or cannot
                            // decide gives way to the full expansion
                            match self.judge(w, "unsat", engine) {
                                Ok(()) => {}
                                Err(None) => {
                                    return self.expand_accel(
                                        p,
                                        backs,
                                        engine,
                                        "the judge rejected its certificate".into(),
                                    )
                                }
                                Err(Some(v)) => {
                                    let why = match v {
                                        Verdict::Unknown(e) => format!("the judge: {e}"),
                                        _ => "the judge did not accept its certificate".into(),
                                    };
                                    return self.expand_accel(p, backs, engine, why);
                                }
                            }
                            log::info!(
                                "{engine}: counterexample certified (mapped back in {mapped:.3}s, checked in {:.3}s)",
                                t.elapsed().as_secs_f64() - mapped
                            );
                            self.stats.validation = Some(format!(
                                "certified {} accelerated segments (n up to {}, {} proved by z3), replayed {} steps, {} clause applications in all",
                                rep.segments, rep.max_count, rep.proofs, rep.steps, rep.length
                            ));
                            self.stats.winner = Some(engine);
                            return Some(Verdict::UnsatAccelerated(acex));
                        }
                        Err(e @ validate::ModelError::Rejected(_)) => {
                            self.stats.validation_failures += 1;
                            log::error!("{engine}: certificate REJECTED by the validator: {e}");
                            format!("certificate rejected: {e}")
                        }
                        Err(e @ validate::ModelError::Undecided(_)) => {
                            self.stats.validations_undecided += 1;
                            log::warn!("{engine}: certificate not validated: {e}");
                            format!("certificate {e}")
                        }
                    }
                }
            }
        };
        self.expand_accel(p, backs, engine, why)
    }

    /// The counterexample `p` expanded into concrete steps within the time left, replayed
    /// and judged; `why` it is expanded goes into the validation line.
    fn expand_accel(
        &mut self,
        p: &AccelAnswer,
        backs: &[Box<dyn BackTranslate>],
        engine: &'static str,
        why: String,
    ) -> Option<Verdict> {
        log::info!("{engine}: expanding its counterexample ({why})");
        let t = Instant::now();
        let (cex, steps) = match p.expand(self.deadline) {
            Ok(expanded) => expanded,
            Err(crate::engine::ExpandError::Failed(e)) => {
                log::warn!("{engine}: could not expand its counterexample: {e}");
                return None;
            }
            Err(crate::engine::ExpandError::Unmapped) => return self.unmapped(engine),
        };
        let t_adapter = t.elapsed().as_secs_f64();
        let cex = cex_back(backs, cex);
        let t_back = t.elapsed().as_secs_f64();
        let v = self.accept_cex(cex, engine);
        log::info!(
            "{engine}: expanded {steps} steps and mapped to clauses in {t_adapter:.3}s, back-translation {:.3}s, validation {:.3}s",
            t_back - t_adapter,
            t.elapsed().as_secs_f64() - t_back
        );
        if v.is_some() {
            if let Some(s) = &mut self.stats.validation {
                *s = format!("{s} (full expansion: {why})");
            }
        }
        v
    }

    pub(super) fn accept_cex(&mut self, cex: Cex, engine: &'static str) -> Option<Verdict> {
        if self.orig.adt.is_some() {
            return self.abstract_cex(engine);
        }
        self.stats.validations += 1;
        let quick = self.quick_validator();
        let completed =
            validate::complete_cex_quick_first(self.orig, cex, quick.as_ref(), &self.z3);
        let checked = completed.and_then(|cex| {
            validate::check_cex(self.orig, &cex)
                .map(|()| cex)
                .map_err(validate::ModelError::Rejected)
        });
        match checked {
            Ok(cex) => {
                let text = crate::witness::cex_to_golem(self.orig, &cex);
                let w = crate::judge::Witness::Derivation(&text);
                if let Err(v) = self.judge(w, "unsat", engine) {
                    return v;
                }
                log::info!("{engine}: counterexample of {} steps replayed", cex.len());
                self.stats.validation = Some(format!("replayed {} steps", cex.len()));
                self.stats.winner = Some(engine);
                Some(Verdict::Unsat(cex))
            }
            Err(e @ validate::ModelError::Rejected(_)) => {
                self.stats.validation_failures += 1;
                log::error!("{engine}: counterexample REJECTED by the validator: {e}");
                None
            }
            Err(e @ validate::ModelError::Undecided(_)) => {
                self.stats.validations_undecided += 1;
                log::warn!("{engine}: counterexample not validated, so not printed: {e}");
                None
            }
        }
    }

    /// Judges the printed answer `text` ([`crate::judge`]) unless there is no input text.
    /// `Err(None)`: rejected (a bug, written to the replay folder), look for another answer;
    /// `Err(Some(unknown))`: the judge could not decide, the run ends with "could not
    /// validate".
    pub(super) fn judge(
        &mut self,
        w: crate::judge::Witness<'_>,
        word: &str,
        engine: &'static str,
    ) -> Result<(), Option<Verdict>> {
        let Some(j) = &self.judge else {
            return Ok(());
        };
        let t = Instant::now();
        // like a model check, three quarters of the time left while other lanes run: an answer the judge
        // cannot decide in that time leaves the rest to theirs ([`Run::portfolio`])
        let deadline = self.check_budget().map(|b| Instant::now() + b);
        let r = j.judge(w, deadline);
        self.stats.judgments += 1;
        self.stats.judge_seconds += t.elapsed().as_secs_f64();
        log::info!(
            "{engine}: judged in {:.3}s: {r:?}",
            t.elapsed().as_secs_f64()
        );
        match r {
            crate::judge::Judgment::Accepted => {
                self.witness = Some(w.text().to_string());
                Ok(())
            }
            crate::judge::Judgment::Rejected(e) => {
                self.stats.judge_rejections += 1;
                self.stats.validation_failures += 1;
                let at = j.write_replay(w, word, &e);
                log::error!("{engine}: answer REJECTED by the judge (a bug): {e}; {at}");
                Err(None)
            }
            crate::judge::Judgment::Undecided(e) => {
                self.stats.judge_undecided += 1;
                log::warn!("{engine}: the judge could not decide its answer: {e}");
                log::debug!("undecided witness:\n{}", w.text());
                Err(Some(Verdict::Unknown(Reason::NotValidated(e.to_string()))))
            }
        }
    }
}
