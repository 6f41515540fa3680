//! The default portfolio's schedule: which engines run on which core, and for how long.
//!
//! A schedule is a list of *lanes*, one per core. A lane runs its engines one after another:
//! each for its slice of seconds (the last one to the end of the run), and an engine that
//! gives up early (`unknown`) hands its core to the next one at once. The first validated
//! answer of any lane wins.
//!
//! The table below is chosen by measurement, not by hand: `scripts/schedule` simulates
//! candidate schedules on the per-file times of every engine alone on the LIA-Lin dev set
//! (see docs/engines.md, "Portfolio"), for 2 and 8 cores.

use crate::chc::Features;
use crate::engine::EngineKind::{self, *};
use std::time::Duration;

/// One engine of a lane, with its time slice (`None`: to the end of the run).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    pub engine: EngineKind,
    pub slice: Option<Duration>,
}

/// One lane of a schedule: its engines in order, on one core. A `nice` lane's thread and the
/// solver processes it starts run at [`NICE`]: when the machine has fewer free cores than the
/// run has lanes (two runs at once on two cores, as `scripts/bench --jobs 2` does), the other
/// lanes keep their CPU and the nice lane gets what is left; alone on the machine, every lane
/// has its core and the niceness changes nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub steps: Vec<Step>,
    pub nice: bool,
}

/// The niceness of a `nice` lane (the lowest priority; `nice(1)`'s scale).
pub const NICE: i32 = 19;

impl Lane {
    pub(crate) fn new(steps: &[Step]) -> Lane {
        Lane {
            steps: steps.to_vec(),
            nice: false,
        }
    }

    pub(crate) fn nice(steps: &[Step]) -> Lane {
        Lane {
            nice: true,
            ..Lane::new(steps)
        }
    }
}

const fn run(engine: EngineKind) -> Step {
    Step {
        engine,
        slice: None,
    }
}

/// `engine` for `millis` milliseconds.
const fn slice(engine: EngineKind, millis: u64) -> Step {
    Step {
        engine,
        slice: Some(Duration::from_millis(millis)),
    }
}

/// The measured schedules, by the number of cores they were chosen for
/// (docs/engines.md, "Portfolio"). PDR alone is the strongest engine (574 of 666 LIA-Lin
/// files at 5 s); Spacer (with global guidance) first for 2 s and then TRL beside it add the
/// files PDR misses: Spacer's quick proofs, TRL's disjunctive (multi-phase, parity)
/// invariants, and its hand-over to ABMC for deep counterexamples. With 4 cores Spacer, TRL and ABMC each run
/// alone beside PDR; with 6, every engine that adds a file in the simulation (TPA and split
/// TPA add none). With 8 (CHC-COMP's), k-induction and BMC beside those six: chosen by
/// every fold of `scripts/schedule --cores 8 --folds 5` on each engine alone at one file per
/// run (2026-12-06, every 10th LIA-Lin and every 5th linearized LIA dev file), simulated,
/// not measured (docs/schedules.md). Linearized systems take the same entries from 4 cores.
#[rustfmt::skip]
const SCHEDULES: &[(usize, &[&[Step]])] = &[
    (1, &[&[run(Pdr)]]),
    (2, &[&[run(Pdr)], &[slice(Spacer, 2000), run(Trl)]]),
    (4, &[&[run(Pdr)], &[run(Spacer)], &[run(Trl)], &[run(Abmc)]]),
    (6, &[
        &[run(Pdr)], &[run(Spacer)], &[run(Trl)], &[run(Abmc)], &[run(Pdkind)], &[run(Imc)],
    ]),
    (8, &[
        &[run(Pdr)], &[run(Spacer)], &[run(Trl)], &[run(Abmc)], &[run(Imc)], &[run(Pdkind)],
        &[run(Kind)], &[run(Bmc)],
    ]),
];

/// The schedule for `cores` cores: the one measured for the most cores that fit.
pub fn for_cores(cores: usize) -> Vec<Lane> {
    let cores = cores.max(1);
    let (_, lanes) = SCHEDULES
        .iter()
        .filter(|(n, _)| *n <= cores)
        .max_by_key(|(n, _)| *n)
        .unwrap_or(&SCHEDULES[0]);
    lanes.iter().map(|l| Lane::new(l)).collect()
}

/// Engines the user named: each in its own lane, all to the end of the run.
pub fn each_alone(engines: &[EngineKind]) -> Vec<Lane> {
    engines.iter().map(|&e| Lane::new(&[run(e)])).collect()
}

/// The lanes for a system whose clauses stay non-linear, where only Spacer applies: with
/// global guidance, and on a second core without it (on the LIA files z3 solves and we did
/// not at 5 s, 12 of 47 are solved without it; docs/engines.md, "`spacer`: Spacer on the clause
/// graph"). The second lane is nice: the two overlap so much that on half a core each they solve
/// fewer of the 273 non-linear LIA dev files than Spacer alone on a whole one (234 against 238,
/// each engine's times at 5 s; docs/engines.md, "Nice lanes"), so under load Spacer keeps its core.
/// The same two lanes on 8 cores: no other engine takes non-linear clauses (docs/schedules.md).
pub fn non_linear(cores: usize) -> Vec<Lane> {
    if cores >= 2 {
        vec![Lane::new(&[run(Spacer)]), Lane::nice(&[run(SpacerLocal)])]
    } else {
        vec![Lane::new(&[run(Spacer)])]
    }
}

/// The lanes for a system whose clauses were non-linear and became linear in preprocessing
/// (the inlined procedure summaries of CHC-COMP's LIA track): PDR beside Spacer. From
/// 4d52a56 (2026-11-27) to 2026-12-07 Spacer's lane began with k-induction for 0.5 s, then
/// 0.25 s (chosen by `scripts/schedule --folds 5` on those 374 LIA files, each engine alone
/// at 5 s: 368 against 367, the shallow counterexample of kind2's `microwave33`). At one
/// file per run it delayed every file Spacer answers: on the 374 files `pdr | spacer` solves
/// 367 against 368 and takes 41.7 s against 45.4 s on the files both solve
/// (docs/benchmarks.md, "seventh session"), so the probe went. `pdr | spacer` itself had
/// replaced [`for_cores`]'s `pdr | spacer:2,trl` in 011f975 (2026-11-24; TRL adds nothing there,
/// 201 alone; Spacer needs 2 to 5 s on the DRAGON and metros files).
pub fn linearized(cores: usize) -> Vec<Lane> {
    if (2..4).contains(&cores) {
        vec![Lane::new(&[run(Pdr)]), Lane::new(&[run(Spacer)])]
    } else {
        for_cores(cores)
    }
}

/// The lanes for a linear system with `Real` variables (docs/real-arithmetic.md): on 2 or 3
/// cores PDR beside ABMC for 0.5 s (deep counterexamples along rational increments, which
/// nothing else reaches), k-induction for 2.5 s (its k-inductive invariants are answers
/// without quantifier elimination: the oral-messages protocols at k = 4 in under 2 s), then
/// Spacer. On one core PDR alone; with 4 cores ABMC before k-induction in the third lane.
///
/// On 8 cores (CHC-COMP's), every engine that answered a file of the sample in a lane of its
/// own, [`REALS_8`]: each engine alone at 5 s, one file per run, on every 3rd LRA-Lin dev
/// file (2026-12-06), `scripts/schedule --cores 8 --folds 5`: 29 of 43 like the 4-core entry,
/// where the search's own choices (k-induction after 1 s of PDR) reach 27 out of fold;
/// simulated, not measured (docs/schedules.md).
pub fn reals(cores: usize) -> Vec<Lane> {
    match cores {
        8.. => each_alone(&REALS_8),
        0 | 1 => vec![Lane::new(&[run(Pdr)])],
        2 | 3 => vec![
            Lane::new(&[run(Pdr)]),
            Lane::new(&[slice(Abmc, 500), slice(Kind, 2500), run(Spacer)]),
        ],
        _ => vec![
            Lane::new(&[run(Pdr)]),
            Lane::new(&[run(Spacer)]),
            Lane::new(&[slice(Abmc, 500), run(Kind)]),
            Lane::new(&[run(Imc)]),
        ],
    }
}

/// The 8-core schedule of [`reals`]: one engine per lane (split TPA, whose 2 files of the
/// sample others answer too, left out).
const REALS_8: [EngineKind; 8] = [Pdr, Spacer, Kind, Abmc, Imc, Trl, Pdkind, Cegar];

/// The lanes for a linear system with arrays, where BMC, k-induction, PDR and Spacer run
/// (the other engines step aside): PDR beside Spacer, as for the reals (measured on the
/// LIA-Lin-Arrays dev files, docs/arrays.md), Spacer after a 2 s slice of BMC (the
/// shallow counterexamples of SeaHorn's memory encodings, which PDR and Spacer reach late:
/// docs/arrays.md); with 4 cores k-induction and BMC beside them, each in a lane of its own:
/// every engine that takes arrays, so also the 8-core entry (every fold of `scripts/schedule
/// --cores 8 --folds 5` chose it on the 71 LIA-Lin-Arrays dev files, each engine alone at
/// 5 s, one file per run, 2026-12-06; simulated, docs/schedules.md).
pub fn arrays(cores: usize) -> Vec<Lane> {
    match cores {
        2 | 3 => vec![
            Lane::new(&[run(Pdr)]),
            Lane::new(&[slice(Bmc, 2000), run(Spacer)]),
        ],
        _ => pdr_spacer(cores, [Kind, Bmc]),
    }
}

/// The lanes for a system with bit-vectors whose input clauses are linear: the LIA schedule
/// ([`for_cores`]) with the native lane `bv-kind` (BMC and k-induction over the original
/// bit-vector assertions, docs/bitvectors.md) for 2 s at the head of the second lane
/// (Spacer's). Chosen on the first half of the families of
/// CHC-COMP 2025's BV dev set (every 3rd file: Consistency, IntDualyzer, SLayerCF, dillig),
/// where the native lane's answers come within 2 s (dillig/04.c: 1.4 s alone, z3 0.1 s) and
/// Spacer's (all within 2.2 s there) still fit after it; TRL wins nothing there;
/// reported on the other half (docs/bitvectors.md, "Measured"). Re-chosen at one file per
/// run (2026-12-06, each engine alone at 5 s on every 3rd BV dev file, `scripts/schedule
/// --folds 5`): the search's out-of-fold total on 2 cores is 35 of 94 against 38 for this
/// schedule, so it stays.
///
/// On 8 cores (CHC-COMP's), every engine in a lane of its own, [`BITVECS_8`]: simulated, not
/// measured (this machine has 2 cores): 42 of 94 out of fold, chosen by every fold, against
/// 41 for the 6-core entry below with `bv-kind:2` before Spacer (docs/bitvectors.md,
/// "Schedules at one file per run").
pub fn bitvecs(cores: usize) -> Vec<Lane> {
    if cores >= 8 {
        return each_alone(&BITVECS_8);
    }
    let mut lanes = for_cores(cores);
    if let Some(lane) = lanes.get_mut(1) {
        lane.steps.insert(0, slice(NativeBv, 2000));
    }
    lanes
}

/// The 8-core schedule of [`bitvecs`]: one engine per lane.
const BITVECS_8: [EngineKind; 8] = [NativeBv, Pdr, Spacer, Trl, Imc, Bmc, Kind, Abmc];

/// PDR alone on one core, PDR beside Spacer on 2 or 3, and the two `more` engines beside
/// them from 4.
fn pdr_spacer(cores: usize, more: [EngineKind; 2]) -> Vec<Lane> {
    match cores {
        0 | 1 => vec![Lane::new(&[run(Pdr)])],
        2 | 3 => vec![Lane::new(&[run(Pdr)]), Lane::new(&[run(Spacer)])],
        _ => [Pdr, Spacer, more[0], more[1]]
            .iter()
            .map(|&e| Lane::new(&[run(e)]))
            .collect(),
    }
}

/// The measured schedule for a system with features `f` on `cores` cores: [`non_linear`]
/// when clauses stay non-linear after preprocessing, else [`arrays`], [`linearized`],
/// [`reals`] or [`for_cores`], in that order; steps whose engine does not take `f`
/// ([`EngineKind::supports`]) are left out.
pub fn default_for(f: &Features, cores: usize) -> Vec<Lane> {
    let lanes = if !f.linear {
        non_linear(cores)
    } else if f.arrays {
        // linear, or linear after preprocessing (SeaHorn's non-linear encodings)
        arrays(cores)
    } else if f.bitvecs && f.linear_input {
        bitvecs(cores)
    } else if !f.linear_input {
        linearized(cores)
    } else if f.reals {
        reals(cores)
    } else {
        for_cores(cores)
    };
    lanes
        .into_iter()
        .filter_map(|mut l| {
            l.steps.retain(|s| s.engine.supports(f).is_ok());
            if let Some(last) = l.steps.last_mut() {
                last.slice = None;
            }
            (!l.steps.is_empty()).then_some(l)
        })
        .collect()
}

/// The lanes of a run: the engines the user named (`--engine`) that take `f`, each alone;
/// else the `given` schedule (`--schedule`, on linear systems only); else [`default_for`].
/// Also the lines that tell the user which named engines do not take `f`
/// (`--engine: tpa does not take arrays; running the default schedule`).
pub fn choose(
    f: &Features,
    cores: usize,
    named: &[EngineKind],
    given: Option<&[Lane]>,
) -> (Vec<Lane>, Vec<String>) {
    let (taken, refused): (Vec<EngineKind>, Vec<EngineKind>) =
        named.iter().partition(|e| e.supports(f).is_ok());
    let then = if taken.is_empty() {
        "running the default schedule"
    } else {
        "running the other named engines"
    };
    let lines = refused
        .iter()
        .filter_map(|e| e.supports(f).err().map(|what| (e, what)))
        .map(|(e, what)| format!("--engine: {} does not take {what}; {then}", e.name()))
        .collect();
    let lanes = match given {
        _ if !taken.is_empty() => each_alone(&taken),
        Some(lanes) if named.is_empty() && f.linear => lanes.to_vec(),
        _ => default_for(f, cores),
    };
    (lanes, lines)
}

/// The cores to schedule for: `jobs` when given, else what the machine offers.
pub fn cores(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
    .max(1)
}

/// Reads a schedule written as [`describe`] prints it (`pdr | imc:1,spacer:2,trl`: lanes
/// separated by `|`, engines of a lane by `,`, an optional `:SECONDS` slice), the notation of
/// `scripts/schedule --show`; a lane that starts with `nice ` is a nice lane ([`Lane`]). Only
/// the last engine of a lane may run without a slice.
pub fn parse(s: &str) -> Result<Vec<Lane>, String> {
    use crate::engine::Named;
    let mut lanes = vec![];
    for lane in s.split('|') {
        let (nice, engines) = match lane.trim_start().strip_prefix("nice ") {
            Some(rest) => (true, rest),
            None => (false, lane),
        };
        let mut steps = vec![];
        for step in engines.split(',') {
            let step = step.trim();
            let (name, slice) = match step.split_once(':') {
                Some((n, secs)) => {
                    let secs: f64 = secs
                        .trim()
                        .parse()
                        .ok()
                        .filter(|x: &f64| x.is_finite() && *x > 0.0)
                        .ok_or_else(|| {
                            format!("`{step}`: the slice is not a positive number of seconds")
                        })?;
                    (n.trim(), Some(Duration::from_secs_f64(secs)))
                }
                None => (step, None),
            };
            let engine = EngineKind::parse_name(name)?;
            steps.push(Step { engine, slice });
        }
        if steps[..steps.len() - 1].iter().any(|s| s.slice.is_none()) {
            return Err(format!(
                "`{}`: only the last engine of a lane may run without a slice",
                lane.trim()
            ));
        }
        lanes.push(Lane { steps, nice });
    }
    Ok(lanes)
}

/// Prints a schedule as `pdr:2,tpa | abmc` (the notation of `scripts/schedule --show`).
pub fn describe(lanes: &[Lane]) -> String {
    lanes
        .iter()
        .map(|l| {
            let steps = l
                .steps
                .iter()
                .map(|s| match s.slice {
                    Some(d) => format!("{}:{}", s.engine.name(), d.as_secs_f64()),
                    None => s.engine.name().to_string(),
                })
                .collect::<Vec<_>>()
                .join(",");
            if l.nice {
                format!("nice {steps}")
            } else {
                steps
            }
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_count_gets_a_schedule_with_at_most_that_many_lanes() {
        for n in 1..=16 {
            let s = for_cores(n);
            assert!(!s.is_empty() && s.len() <= n, "{n} cores: {}", describe(&s));
            for lane in &s {
                let steps = &lane.steps;
                assert!(!steps.is_empty());
                // only the last engine of a lane may run to the end
                assert!(steps[..steps.len() - 1].iter().all(|s| s.slice.is_some()));
            }
        }
        assert_eq!(for_cores(0), for_cores(1));
        for n in 1..=16 {
            assert!(linearized(n).len() <= n.max(1));
        }
    }

    #[test]
    fn a_schedule_reads_back_what_describe_prints() {
        for n in [1, 2, 4, 6, 8] {
            let s = for_cores(n);
            assert_eq!(parse(&describe(&s)), Ok(s));
        }
        let s = parse("pdr | imc:0.5,spacer:2,trl").unwrap();
        assert_eq!(s[1].steps[0].slice, Some(Duration::from_millis(500)));
        assert!(!s[0].nice && !s[1].nice);
        let s = non_linear(2);
        assert_eq!(describe(&s), "spacer | nice spacer-local");
        assert_eq!(parse(&describe(&s)), Ok(s));
        assert!(parse("pdr | nice").is_err() && parse("nice, pdr").is_err());
        assert!(
            parse("pdr,trl").is_err(),
            "pdr runs to the end, trl never starts"
        );
        assert!(parse("pdr:x").is_err() && parse("pdr:-1").is_err() && parse("nope").is_err());
    }

    #[test]
    fn the_schedule_follows_the_features_and_asks_the_engines() {
        let lia = Features {
            linear: true,
            linear_input: true,
            ints: true,
            ..Features::default()
        };
        assert_eq!(default_for(&lia, 2), for_cores(2));
        let arr = Features {
            arrays: true,
            ..lia
        };
        assert_eq!(default_for(&arr, 2), arrays(2));
        let nl = Features {
            linear: false,
            linear_input: false,
            ..lia
        };
        assert_eq!(default_for(&nl, 2), non_linear(2));
        let lin = Features {
            linear_input: false,
            ..lia
        };
        assert_eq!(default_for(&lin, 2), linearized(2));
        let real = Features { reals: true, ..lia };
        assert_eq!(default_for(&real, 4), reals(4));
        let bv = Features {
            bitvecs: true,
            ..lia
        };
        assert_eq!(default_for(&bv, 1), for_cores(1));
        assert_eq!(default_for(&lin, 8), for_cores(8));
        assert_eq!(default_for(&nl, 8), non_linear(2));
        // the bit-vector entries, and the 8-core entries (docs/schedules.md)
        for (f, cores, lanes) in [
            (&bv, 2, "pdr | bv-kind:2,spacer:2,trl"),
            (&bv, 4, "pdr | bv-kind:2,spacer | trl | abmc"),
            (
                &bv,
                8,
                "bv-kind | pdr | spacer | trl | imc | bmc | kind | abmc",
            ),
            (
                &lia,
                8,
                "pdr | spacer | trl | abmc | imc | pdkind | kind | bmc",
            ),
            (
                &real,
                8,
                "pdr | spacer | kind | abmc | imc | trl | pdkind | cegar",
            ),
            (&arr, 8, "pdr | spacer | kind | bmc"),
        ] {
            assert_eq!(describe(&default_for(f, cores)), lanes, "{cores} cores");
        }
        // the native lane steps aside when the input's clauses are not linear
        let bv_lin = Features {
            linear_input: false,
            ..bv
        };
        assert_eq!(default_for(&bv_lin, 2), linearized(2));
        // every engine of a default schedule takes the system it is chosen for
        for f in [lia, arr, nl, lin, real, bv, bv_lin] {
            for n in 1..=8 {
                for l in default_for(&f, n) {
                    assert!(l.steps.iter().all(|s| s.engine.supports(&f).is_ok()));
                }
            }
        }
        // a named engine that does not take the system: a line, and the default
        let (lanes, lines) = choose(&arr, 2, &[Tpa], None);
        assert_eq!(lanes, arrays(2));
        assert_eq!(
            lines,
            ["--engine: tpa does not take arrays; running the default schedule"]
        );
        let (lanes, lines) = choose(&arr, 2, &[Tpa, Pdr], None);
        assert_eq!(lanes, each_alone(&[Pdr]));
        assert_eq!(lines.len(), 1);
        let (lanes, lines) = choose(&nl, 2, &[Pdr, Spacer], None);
        assert_eq!(lanes, each_alone(&[Spacer]));
        assert!(lines[0].contains("pdr does not take non-linear clauses"));
        let given = parse("imc | tpa").unwrap();
        assert_eq!(choose(&lia, 2, &[], Some(&given)).0, given);
        assert_eq!(choose(&nl, 2, &[], Some(&given)).0, non_linear(2));
    }

    #[test]
    fn the_table_is_sorted_and_starts_at_one_core() {
        assert_eq!(SCHEDULES[0].0, 1);
        assert!(SCHEDULES.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
