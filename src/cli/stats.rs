//! `--stats` and `--stats-json`: the run's figures on standard error, as text or JSON, and
//! the figures of a run that a limit ended.

use chcsolve::engine::{Counter, Stop};
use chcsolve::solve::stop_kind;
use chcsolve::{Outcome, Progress, Reason, Verdict};

/// `--stats` / `--stats-json` when the time or memory limit ended the run: the stage it was in and
/// the figures recorded so far.
pub fn print_progress(p: &Progress, seconds: f64, json: bool) {
    let (stage, figures) = p.snapshot();
    if json {
        let mut m = serde_json::Map::new();
        m.insert("total-seconds".into(), seconds.into());
        m.insert("stopped-in".into(), stage.into());
        for (k, v) in figures {
            m.insert(k.into(), json_value(&v));
        }
        errln!("{}", serde_json::Value::Object(m));
    } else {
        errln!("; total-seconds: {seconds:.3}");
        let what = if chcsolve::mem::over_limit() {
            "memory"
        } else {
            "time"
        };
        errln!("; stopped-in: {stage} (the {what} limit ended the run)");
        for (k, v) in figures {
            errln!("; {k}: {v}");
        }
    }
}

/// A number when `v` reads as one, else a string.
fn json_value(v: &str) -> serde_json::Value {
    if let Ok(n) = v.parse::<i64>() {
        return serde_json::json!(n);
    }
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() => serde_json::json!(x),
        _ => serde_json::json!(v),
    }
}

/// An engine's counter as JSON: a number or a string, by its type.
fn counter_json(c: &Counter) -> serde_json::Value {
    match c {
        Counter::Count(n) => serde_json::json!(n),
        Counter::Seconds(s) => serde_json::json!(s),
        Counter::Text(t) => serde_json::json!(t),
    }
}

/// An engine's stop as JSON: its kind and what it says.
fn stop_json(s: &Stop) -> serde_json::Value {
    serde_json::json!({ "kind": stop_kind(s), "detail": s.to_string() })
}

/// The reason of an unknown answer as JSON: its kind, its line, and per engine its stop.
fn reason_json(r: &Reason) -> serde_json::Value {
    let engines: Vec<_> = match r {
        Reason::EnginesStopped(stops) => stops
            .iter()
            .map(|(e, s)| serde_json::json!({ "engine": e, "stop": stop_json(s) }))
            .collect(),
        _ => vec![],
    };
    serde_json::json!({ "kind": r.kind(), "detail": r.to_string(), "engines": engines })
}

/// CPU seconds of this process (its threads, not the solver processes), user plus system.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage writes the struct it is given and nothing else
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return 0.0;
    }
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    s(u.ru_utime) + s(u.ru_stime)
}

/// The term factory's lock, for the whole process ([`chcsolve::logic::factory_lock_stats`]),
/// with the process's CPU seconds to weigh the wait against.
fn factory_json() -> serde_json::Value {
    let f = chcsolve::logic::factory_lock_stats();
    serde_json::json!({
        "locks": f.acquisitions,
        "contended": f.contended,
        "wait-seconds": f.wait.as_secs_f64(),
        "sweeps": f.sweeps,
        "sweep-seconds": f.sweep_time.as_secs_f64(),
        "wait-in-sweep-seconds": f.sweep_wait.as_secs_f64(),
        "cpu-seconds": cpu_seconds(),
    })
}

/// The figures of `--stats` as one JSON object.
pub fn stats_json(o: &Outcome) -> serde_json::Value {
    let s = &o.stats;
    let interp: Vec<_> = s
        .interpolation
        .iter()
        .map(|(b, st)| {
            serde_json::json!({
                "backend": format!("{b}"),
                "asked": st.asked,
                "interpolants": st.interpolants,
                "sat": st.sat,
                "unknown": st.unknown,
                "check-failures": st.check_failures,
                "seconds": st.time.as_secs_f64(),
                "size": st.size,
            })
        })
        .collect();
    let engines: Vec<_> = s
        .engines
        .iter()
        .map(|r| {
            let c: serde_json::Map<String, serde_json::Value> = r
                .stats
                .counters
                .iter()
                .map(|(k, v)| (k.to_string(), counter_json(v)))
                .collect();
            serde_json::json!({
                "engine": r.name,
                "seconds": r.seconds,
                "counters": c,
                "smt-queries": r.stats.smt.queries,
                "smt-seconds": r.stats.smt.solver_time.as_secs_f64(),
                "stop": r.stop.as_ref().map(stop_json),
            })
        })
        .collect();
    let reason = match &o.verdict {
        Verdict::Unknown(why) => reason_json(why),
        _ => serde_json::Value::Null,
    };
    serde_json::json!({
        "answer": o.verdict.word(),
        "reason-unknown": reason,
        "engine-bugs": s.engine_bugs,
        "total-seconds": s.total_seconds,
        "parse-seconds": s.parse_seconds,
        "preprocess-seconds": s.preprocess_seconds,
        "predicates": s.predicates,
        "clauses": s.clauses,
        "clauses-after-preprocessing": s.clauses_after_preprocessing,
        "features": s.features,
        "winner": s.winner,
        "validations": s.validations,
        "validation-failures": s.validation_failures,
        "validations-undecided": s.validations_undecided,
        "validation": s.validation,
        "models-quantified": s.models_quantified,
        "models-qe-fallback": s.models_qe_fallback,
        "models-qe-failed": s.models_qe_failed,
        "models-k-to-1": s.models_k_to_one,
        "models-k-to-1-failed": s.models_k_to_one_failed,
        "judges": s.judges,
        "judgments": s.judgments,
        "judge-seconds": s.judge_seconds,
        "judge-rejections": s.judge_rejections,
        "judge-undecided": s.judge_undecided,
        "absint": {
            "outcome": s.absint.outcome,
            "seconds": s.absint.seconds,
            "candidates": s.absint.candidates,
            "kept": s.absint.kept,
            "queries": s.absint.queries,
        },
        "interpolation": interp,
        "term-factory": factory_json(),
        "engines": engines,
    })
}

pub fn print_stats(o: &Outcome) {
    let s = &o.stats;
    errln!("; total-seconds: {:.3}", s.total_seconds);
    errln!("; parse-seconds: {:.3}", s.parse_seconds);
    errln!("; preprocess-seconds: {:.3}", s.preprocess_seconds);
    errln!("; predicates: {}", s.predicates);
    errln!(
        "; clauses: {} (after preprocessing: {})",
        s.clauses,
        s.clauses_after_preprocessing
    );
    errln!("; features: {}", s.features);
    errln!("; winner: {}", s.winner.unwrap_or("none"));
    errln!(
        "; absint: {} in {:.3}s ({} of {} candidates kept, {} solver queries)",
        s.absint.outcome,
        s.absint.seconds,
        s.absint.kept,
        s.absint.candidates,
        s.absint.queries
    );
    errln!(
        "; validations: {} (failed: {})",
        s.validations,
        s.validation_failures
    );
    errln!("; validations undecided: {}", s.validations_undecided);
    errln!("; engine bugs: {}", s.engine_bugs);
    if let Some(v) = &s.validation {
        errln!("; validation: {v}");
    }
    errln!(
        "; judged: {} by {} in {:.3}s (rejected: {}, undecided: {})",
        s.judgments,
        s.judges,
        s.judge_seconds,
        s.judge_rejections,
        s.judge_undecided
    );
    errln!(
        "; models quantified: {} (qe fallback: {}, qe failed: {})",
        s.models_quantified,
        s.models_qe_fallback,
        s.models_qe_failed
    );
    if s.models_k_to_one + s.models_k_to_one_failed > 0 {
        errln!(
            "; k-inductive models made inductive: {} (no interpolant: {})",
            s.models_k_to_one,
            s.models_k_to_one_failed
        );
    }
    for (b, st) in &s.interpolation {
        errln!(
            "; interpolation {b}: asked {}, interpolants {}, sat {}, unknown {}, check-failures {}, seconds {:.3}, size {}",
            st.asked,
            st.interpolants,
            st.sat,
            st.unknown,
            st.check_failures,
            st.time.as_secs_f64(),
            st.size
        );
    }
    let f = chcsolve::logic::factory_lock_stats();
    errln!(
        "; term-factory: locks {}, contended {} ({:.3}%), wait-seconds {:.3} (in sweeps {:.3}), sweeps {}, sweep-seconds {:.3}, cpu-seconds {:.3}",
        f.acquisitions,
        f.contended,
        100.0 * f.contended as f64 / f.acquisitions.max(1) as f64,
        f.wait.as_secs_f64(),
        f.sweep_wait.as_secs_f64(),
        f.sweeps,
        f.sweep_time.as_secs_f64(),
        cpu_seconds()
    );
    for r in &s.engines {
        let c: Vec<String> = (r.stats.counters.iter())
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let stop = r
            .stop
            .as_ref()
            .map_or(String::new(), |s| format!(", stopped: {s}"));
        errln!(
            "; engine {}: {:.3}s, {}, smt-queries {}, smt-seconds {:.3}{stop}",
            r.name,
            r.seconds,
            c.join(", "),
            r.stats.smt.queries,
            r.stats.smt.solver_time.as_secs_f64()
        );
    }
}
