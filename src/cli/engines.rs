//! The engine flags (`--engine`, `--spacer-*`, `--pdr-*`, `--cegar-*`) and their mapping onto the
//! library's one [`EngineOptions`] value. clap stays here: the engine layer offers its
//! choices through [`Named`], and this module turns them into parsers.

use chcsolve::engine::cegar::{
    Config as CegarConfig, DomainKind, Granularity, Interpolations, Prune, Refinement, Search,
    Split,
};
use chcsolve::engine::{EngineKind, EngineOptions, Named};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// A parser for the values of a [`Named`] setting, each with its line of help.
fn named<T: Named + Send + Sync + Clone>() -> impl TypedValueParser<Value = T> {
    let values = T::ALL.iter().map(|v| match v.help() {
        "" => PossibleValue::new(v.name()),
        help => PossibleValue::new(v.name()).help(help),
    });
    PossibleValuesParser::new(values).map(|s| T::parse_name(&s).expect("a possible value"))
}

/// The lanes of `--schedule`, read once by [`chcsolve::schedule::parse`] (a newtype: clap
/// would take a bare `Vec` for repeated values).
#[derive(Clone, Debug)]
pub struct Lanes(pub Vec<chcsolve::schedule::Lane>);

fn schedule(s: &str) -> Result<Lanes, String> {
    chcsolve::schedule::parse(s).map(Lanes)
}

/// `on` or `off`, for the switches of `--absint`, `--spacer-global`, `--spacer-abstraction`,
/// `--spacer-second-lemma`, `--spacer-weaken`, `--spacer-joint`, `--pdr-ctg` and `--pdr-interp`.
pub fn on_off(s: &str) -> Result<bool, String> {
    match s {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("expected `on` or `off`, not `{s}`")),
    }
}

#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Run only this engine instead of the default portfolio (the measured schedule of
    /// engines per core, see docs/engines.md, "Portfolio"). Repeat to run several in parallel.
    #[arg(long, value_parser = named::<EngineKind>())]
    pub engine: Vec<EngineKind>,

    /// Run this schedule instead of the measured one on linear systems: lanes separated by
    /// `|`, engines of a lane by `,`, each with an optional `:SECONDS` slice (the last of a
    /// lane runs to the end), e.g. `pdr | imc:1,spacer:2,trl`; a lane written `nice ...`
    /// runs at the lowest CPU priority (it yields to the others under load).
    #[arg(long, value_name = "LANES", value_parser = schedule)]
    pub schedule: Option<Lanes>,

    /// Spacer's global guidance (lemma clusters; subsume, concretize and conjecture):
    /// `on` or `off`.
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    spacer_global: Option<bool>,

    /// Spacer inside the proof-based abstraction and counterexample-based refinement loop of
    /// Komuravelli et al. (CAV 2013): `on` or `off`.
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    spacer_abstraction: Option<bool>,

    /// Spacer's second lemma, from the blocked cube without the first lemma's literals or
    /// from sums of its bounds, when the first stops below the frontier: `on` or `off`.
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    spacer_second_lemma: Option<bool>,

    /// Spacer with global guidance raises each bound of a generalized lemma's cube while it
    /// stays blocked (`x >= 9000` becomes `x >= 1`; PDR's bound weakening): `on` or `off`
    /// (default: on systems with arrays only; `spacer-local` never does).
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    spacer_weaken: Option<bool>,

    /// Spacer's joint queries: one query over all the clauses defining a predicate, not one
    /// per clause: `on` or `off`.
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    spacer_joint: Option<bool>,

    /// Spacer takes the invariants of `--absint` as lemmas of its first level: `on` or `off`
    /// (default: on when the input's clauses are linear, else off).
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    spacer_seeds: Option<bool>,

    /// PDR takes the invariants of `--absint` as lemmas of its first frame: `on` or `off`
    /// (default: on when the input's clauses are linear, else off).
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pdr_seeds: Option<bool>,
    /// PDR's counterexamples to generalization (Hassan, Bradley & Somenzi, FMCAD 2013):
    /// literal dropping first blocks the predecessor states that keep a literal, at most 3
    /// per literal, nested once: `on` or `off` (default off).
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pdr_ctg: Option<bool>,

    /// PDR's interpolation-based strengthening (the CTIGAR idea): when a new lemma stops
    /// below the frontier, the checked conjuncts of an interpolant between the frame's
    /// successors and the generalized cube become lemmas, at most 32 queries per run: `on` or
    /// `off` (default off).
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pdr_interp: Option<bool>,

    /// CEGAR's abstract domain (`--engine cegar`; default pred-cart).
    #[arg(long, value_name = "DOMAIN", value_parser = named::<DomainKind>())]
    cegar_domain: Option<DomainKind>,

    /// CEGAR's refinement (default seq-itp; unsat-core and expl-itp need the expl domain).
    #[arg(long, value_name = "REFINEMENT", value_parser = named::<Refinement>())]
    cegar_refinement: Option<Refinement>,

    /// CEGAR's search order: bfs (default), dfs, err (error-location distance), or
    /// err:WE:WD (weights of the error distance and the ARG depth).
    #[arg(long, value_name = "ORDER", value_parser = |s: &str| s.parse::<Search>())]
    cegar_search: Option<Search>,

    /// How CEGAR splits interpolants into predicates (default whole).
    #[arg(long, value_name = "SPLIT", value_parser = named::<Split>())]
    cegar_split: Option<Split>,

    /// CEGAR's precision granularity (default local).
    #[arg(long, value_name = "GRANULARITY", value_parser = named::<Granularity>())]
    cegar_precision: Option<Granularity>,

    /// CEGAR's pruning after a refinement (default lazy).
    #[arg(long, value_name = "PRUNE", value_parser = named::<Prune>())]
    cegar_prune: Option<Prune>,

    /// The expl domain's successor enumeration bound k (default 1; 0: no bound).
    #[arg(long, value_name = "K")]
    cegar_max_enum: Option<usize>,

    /// multi-seq only: the abstraction stops after this many counterexamples (default 16;
    /// 0: explores everything).
    #[arg(long, value_name = "N")]
    cegar_max_cex: Option<usize>,

    /// CEGAR's interpolants besides the refinement's (Tian et al., ASE 2017): plain (default),
    /// safety (universal safety interpolants cut subtrees proven safe), error (existential error
    /// interpolants jump to a counterexample), or safety-error.
    #[arg(long, value_name = "ITP", value_parser = named::<Interpolations>())]
    cegar_itp: Option<Interpolations>,
}

impl EngineArgs {
    /// The engines' settings: the defaults, with what the flags say; combinations that do
    /// not exist are errors.
    pub fn options(&self) -> Result<EngineOptions, String> {
        let mut o = EngineOptions::default();
        let s = &mut o.spacer;
        s.global = self.spacer_global.unwrap_or(s.global);
        s.abstraction = self.spacer_abstraction.unwrap_or(s.abstraction);
        s.second_lemma = self.spacer_second_lemma.unwrap_or(s.second_lemma);
        s.joint = self.spacer_joint.unwrap_or(s.joint);
        s.weaken = self.spacer_weaken.or(s.weaken);
        s.use_seeds = self.spacer_seeds.or(s.use_seeds);
        o.pdr.use_seeds = self.pdr_seeds.or(o.pdr.use_seeds);
        o.pdr.ctg = self.pdr_ctg.unwrap_or(o.pdr.ctg);
        o.pdr.interp = self.pdr_interp.unwrap_or(o.pdr.interp);
        o.cegar = self.cegar()?;
        Ok(o)
    }

    /// The CEGAR settings of the `--cegar-*` options.
    fn cegar(&self) -> Result<CegarConfig, String> {
        let d = CegarConfig::default();
        let c = CegarConfig {
            domain: self.cegar_domain.unwrap_or(d.domain),
            refinement: self.cegar_refinement.unwrap_or(d.refinement),
            search: self.cegar_search.unwrap_or(d.search),
            split: self.cegar_split.unwrap_or(d.split),
            precision: self.cegar_precision.unwrap_or(d.precision),
            prune: self.cegar_prune.unwrap_or(d.prune),
            max_enum: self.cegar_max_enum.unwrap_or(d.max_enum),
            max_cex: self.cegar_max_cex.unwrap_or(d.max_cex),
            itp: self.cegar_itp.unwrap_or(d.itp),
            ..d
        };
        if self.cegar_max_cex.is_some() && c.refinement != Refinement::MultiSeq {
            return Err("--cegar-max-cex applies to the multi-seq refinement only".into());
        }
        if self.cegar_max_enum.is_some() && c.domain != DomainKind::Expl {
            return Err("--cegar-max-enum applies to the expl domain only".into());
        }
        if self.cegar_split.is_some() && c.domain == DomainKind::Expl {
            return Err("--cegar-split applies to the predicate domains only".into());
        }
        c.check()?;
        Ok(c)
    }
}
