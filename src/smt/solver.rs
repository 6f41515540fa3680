//! One solver process: [`Smt`].

use super::extensionality::Extensionality;
use super::kill::{is_alive, sigkill, Deadline};
use super::parse::{no_panic, side_parser, term_lit, AnswerParser, Lit, Sexp};
use super::process::{
    command_line, default_value, drain_stderr, limit_address_space, read_pid, sort_name, wait_tail,
    StderrTail, LAUNCHER,
};
use super::{KillSwitch, SatResult, SmtError, SmtStats, SolverConfig, SolverKind};
use crate::logic::{
    free_vars, smt_symbol, Assignment, Rat, SmtTerm, SmtTermCompact, Term, Value, Var,
};
use rsmt2::errors::{Error as RError, ErrorKind as RKind};
use rsmt2::{SmtConf, Solver};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write as _;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Numbers the tee files of this process.
static TEE_COUNTER: AtomicUsize = AtomicUsize::new(0);

/// The names of assumptions asserted as named assertions (SMTInterpol: [`Smt`]'s doc).
const ASSUMED: &str = "chcsolve_assume_";

/// A solver process, driven over pipes through rsmt2.
///
/// Variables are declared on demand: [`Smt::assert`] and [`Smt::check_sat_assuming`] declare
/// the free variables of their terms that are not declared yet, and declarations made after a
/// [`Smt::push`] are forgotten by the matching [`Smt::pop`], as in the solver.
///
/// After any error except a rejected argument, the solver is unusable: its process is killed
/// (its output may be out of sync) and every later call fails with the same error.
///
/// SMTInterpol's `check-sat-assuming` is not used: after one `unsat` under assumptions,
/// SMTInterpol 2.5 answers `unsat` to every later check, satisfiable or not (`(assert (or
/// (not b) c)) (assert (not c)) (check-sat-assuming (b)) (check-sat)`: `unsat`, `unsat`; its
/// maintainers call the command unusable, ultimate-pa/smtinterpol#27, #29, #40). For it,
/// [`Smt::check_sat_assuming`] opens a scope of its own, asserts the literals as named
/// assertions and runs `check-sat`; [`Smt::unsat_assumptions`] reads `get-unsat-core`, and the
/// scope is closed by the next command that changes the solver's state.
pub struct Smt {
    solver: Solver<AnswerParser>,
    pid: i32,
    kind: SolverKind,
    interpolation: bool,
    reals: bool,
    arrays: bool,
    bitvecs: bool,
    label: String,
    kill: KillSwitch,
    killed: bool,
    broken: Option<SmtError>,
    stderr_tail: Arc<Mutex<StderrTail>>,
    declared: FxHashSet<Var>,
    /// Declarations in order, and the length of that log at each `push`.
    decl_log: Vec<Var>,
    scopes: Vec<usize>,
    last_result: Option<SatResult>,
    last_assumptions: Vec<Term>,
    /// SMTInterpol: the scope of the last `check_sat_assuming` is still open (struct doc).
    assume_scope: bool,
    /// z3 over arrays: whether the next check may leave out extensionality.
    ext: Extensionality,
    /// Assertions written with `let`s for their shared subterms ([`Smt::compact`]).
    compact: bool,
    stats: SmtStats,
}

impl Smt {
    /// Starts a solver, registers it in `cfg.kill`, sets it up for its dialect
    /// (`:produce-models`, `:produce-unsat-assumptions`, the logic when needed) and checks that
    /// it answers. `label` names it in logs and tee files.
    pub fn new(cfg: &SolverConfig, label: &str) -> Result<Smt, SmtError> {
        if cfg.kill.is_killed() {
            return Err(SmtError::Killed);
        }
        let (program, args) = command_line(cfg);
        let mut conf = SmtConf::yices_2("sh");
        conf.option("-c").option(LAUNCHER).option(program.clone());
        for a in &args {
            conf.option(a.clone());
        }
        let describe = || format!("{} {}", program, args.join(" "));
        let mut solver = Solver::new(conf, AnswerParser)
            .map_err(|e| SmtError::Spawn(format!("`{}`: {e}", describe())))?;
        let pid =
            read_pid(&mut solver).map_err(|e| SmtError::Spawn(format!("`{}`: {e}", describe())))?;
        if !cfg.kill.register(pid) {
            return Err(SmtError::Killed);
        }
        log::debug!("[{label}] started {} (pid {pid}): {}", cfg.kind, describe());
        let stderr_tail = drain_stderr(pid, label);
        let mut smt = Smt {
            solver,
            pid,
            kind: cfg.kind,
            interpolation: cfg.interpolation,
            reals: cfg.reals,
            arrays: cfg.arrays,
            bitvecs: cfg.bitvecs,
            label: label.to_string(),
            kill: cfg.kill.clone(),
            killed: false,
            broken: None,
            stderr_tail,
            declared: FxHashSet::default(),
            decl_log: vec![],
            scopes: vec![],
            last_result: None,
            last_assumptions: vec![],
            assume_scope: false,
            ext: Extensionality::new(cfg.kind == SolverKind::Z3 && cfg.arrays),
            compact: false,
            stats: SmtStats::default(),
        };
        if let Some(mb) = cfg.memory_limit_mb {
            // inherited through the launcher's `exec`: the solver runs under it from its start
            limit_address_space(pid, mb)
                .map_err(|e| SmtError::Spawn(format!("`{}`: {e}", describe())))?;
        }
        // Lets the launcher start the solver (the shell reads its line byte by byte).
        smt.send("\n")
            .map_err(|e| SmtError::Spawn(format!("`{}`: {e}", describe())))?;
        if let Some(dir) = &cfg.tee_dir {
            smt.start_tee(dir, &describe())?;
        }
        smt.setup().map_err(|e| match e {
            SmtError::Killed => SmtError::Killed,
            e => SmtError::Spawn(format!("`{}`: {e}", describe())),
        })?;
        Ok(smt)
    }

    fn start_tee(&mut self, dir: &std::path::Path, cmd: &str) -> Result<(), SmtError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| SmtError::Spawn(format!("cannot create {}: {e}", dir.display())))?;
        let n = TEE_COUNTER.fetch_add(1, Ordering::Relaxed);
        let name: String = self
            .label
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let path = dir.join(format!("{name}-{n}.smt2"));
        self.solver
            .path_tee(&path)
            .map_err(|e| SmtError::Spawn(format!("cannot tee to {}: {e}", path.display())))?;
        let note = format!("{} solver `{}`, started as: {cmd}", self.kind, self.label);
        let _ = self.solver.comment(&note);
        log::debug!("[{}] tee: {}", self.label, path.display());
        Ok(())
    }

    /// Options, logic and a `get-info` handshake that proves the solver answers.
    fn setup(&mut self) -> Result<(), SmtError> {
        let logic = match self.kind {
            SolverKind::Z3 => None,
            SolverKind::Yices | SolverKind::SmtInterpol if self.bitvecs => Some("QF_UFBV"),
            SolverKind::Yices | SolverKind::SmtInterpol if self.arrays && self.reals => {
                Some("QF_AUFLIRA")
            }
            SolverKind::Yices | SolverKind::SmtInterpol if self.arrays => Some("QF_AUFLIA"),
            SolverKind::Yices | SolverKind::SmtInterpol if self.reals => Some("QF_LIRA"),
            SolverKind::Yices | SolverKind::SmtInterpol => Some("QF_LIA"),
            SolverKind::Cvc5 => Some("ALL"),
        };
        let mut init = String::new();
        if self.kind == SolverKind::SmtInterpol {
            // SmtInterpol echoes `success` by default, which rsmt2 does not read; the echo of
            // this very command is skipped below.
            init.push_str("(set-option :print-success false)\n");
            // assumptions as named assertions (struct doc)
            init.push_str("(set-option :produce-unsat-cores true)\n");
        }
        init.push_str("(set-option :produce-models true)\n");
        if !(self.interpolation && matches!(self.kind, SolverKind::Yices | SolverKind::Cvc5)) {
            // (MCSAT has no unsat cores; cvc5's interpolation refuses them.)
            init.push_str("(set-option :produce-unsat-assumptions true)\n");
        }
        if self.interpolation {
            match self.kind {
                SolverKind::SmtInterpol => {
                    init.push_str("(set-option :produce-interpolants true)\n")
                }
                SolverKind::Yices => {
                    init.push_str("(set-option :produce-unsat-model-interpolants true)\n")
                }
                SolverKind::Z3 | SolverKind::Cvc5 => {}
            }
        }
        if let Some(l) = logic {
            init.push_str(&format!("(set-logic {l})\n"));
        }
        self.send(&init)?;
        self.send("(get-info :name)\n")?;
        // Options a solver does not know make it print `unsupported`: skip such answers.
        for _ in 0..8 {
            let (_, e) = self.read_answer()?;
            match &e {
                Sexp::Atom(a) if a == "unsupported" || a == "success" => continue,
                Sexp::List(v) if v.first().and_then(Sexp::symbol) == Some(":name") => {
                    log::trace!("[{}] < {:?}", self.label, e);
                    return Ok(());
                }
                _ => return Err(self.broken(SmtError::Solver(format!("handshake: {e:?}")))),
            }
        }
        Err(self.broken(SmtError::Solver("handshake: no answer to get-info".into())))
    }

    // ------------------------------------------------------------ commands

    /// Declares `v` as a constant (`declare-fun name () Sort`); a no-op when already declared.
    pub fn declare(&mut self, v: &Var) -> Result<(), SmtError> {
        self.settle()?;
        if self.declared.contains(v) {
            return Ok(());
        }
        if v.name.contains(['|', '\\']) {
            // Not printable in SMT-LIB: the solver would wait for the end of the symbol.
            return Err(SmtError::Solver(format!("unprintable symbol `{}`", v.name)));
        }
        let sym = smt_symbol(&v.name);
        let sort = sort_name(v.sort);
        log::trace!("[{}] > (declare-fun {sym} () {sort})", self.label);
        self.queue(format_args!("(declare-fun {sym} () {sort})\n"))?;
        self.declared.insert(v.clone());
        self.decl_log.push(v.clone());
        Ok(())
    }

    fn declare_free_vars(&mut self, t: &Term) -> Result<(), SmtError> {
        for v in free_vars(t) {
            if !self.declared.contains(&v) {
                self.declare(&v)?;
            }
        }
        Ok(())
    }

    /// Asserts a Boolean term, declaring its undeclared free variables first.
    pub fn assert(&mut self, t: &Term) -> Result<(), SmtError> {
        self.settle()?;
        self.declare_free_vars(t)?;
        if log::log_enabled!(log::Level::Trace) {
            log::trace!("[{}] > (assert {})", self.label, SmtTerm(t));
        }
        self.ext.assert(t);
        if self.compact {
            return self.queue(format_args!("(assert {})\n", SmtTermCompact(t)));
        }
        self.queue(format_args!("(assert {})\n", SmtTerm(t)))
    }

    /// From now on, assertions name every subterm they repeat by a `let`
    /// ([`SmtTermCompact`]): for checks, whose text can be far larger as a tree; not for
    /// engines, whose solvers' search changes with the text.
    pub fn compact(&mut self) {
        self.compact = true;
    }

    /// Opens a scope (`push 1`).
    pub fn push(&mut self) -> Result<(), SmtError> {
        self.settle()?;
        log::trace!("[{}] > (push 1)", self.label);
        self.queue(format_args!("(push 1)\n"))?;
        self.scopes.push(self.decl_log.len());
        self.ext.push();
        Ok(())
    }

    /// Closes the innermost scope (`pop 1`), forgetting its assertions and declarations.
    /// Rejected (without killing the solver) when no scope is open.
    pub fn pop(&mut self) -> Result<(), SmtError> {
        self.settle()?;
        let Some(mark) = self.scopes.pop() else {
            return Err(SmtError::Solver("pop without a matching push".into()));
        };
        log::trace!("[{}] > (pop 1)", self.label);
        self.queue(format_args!("(pop 1)\n"))?;
        self.ext.pop();
        for v in self.decl_log.drain(mark..) {
            self.declared.remove(&v);
        }
        Ok(())
    }

    /// Number of open scopes.
    pub fn depth(&self) -> usize {
        self.scopes.len()
    }

    /// Checks the satisfiability of the assertions.
    pub fn check_sat(&mut self) -> Result<SatResult, SmtError> {
        self.check_command("(check-sat)")
    }

    /// Checks the satisfiability of the assertions with z3's `(check-sat-using TACTIC)`:
    /// for one-off checks in a scope (the validator's), where z3's incremental solver
    /// skips the preprocessing its tactics do (see [`crate::validate::check_model`]). Only
    /// for z3.
    pub fn check_sat_using(&mut self, tactic: &str) -> Result<SatResult, SmtError> {
        if self.kind != SolverKind::Z3 {
            return self.check_sat();
        }
        self.check_command(&format!("(check-sat-using {tactic})"))
    }

    /// Sends `cmd`, a `check-sat` of some form, and reads its answer.
    fn check_command(&mut self, cmd: &str) -> Result<SatResult, SmtError> {
        self.settle()?;
        log::trace!("[{}] > {cmd}", self.label);
        self.last_assumptions.clear();
        self.run_check(&format!("{cmd}\n"))
    }

    /// Sends a check command and reads its answer; over arrays in z3, without
    /// extensionality when [`Extensionality`] allows, and then a `sat` counts only when the
    /// model satisfies the live assertions over arrays as our evaluator reads them (z3's
    /// array values need not agree with its own assertions off the indices it read):
    /// otherwise the check is asked again with extensionality.
    fn run_check(&mut self, text: &str) -> Result<SatResult, SmtError> {
        self.tune_arrays()?;
        let weak = !self.ext.on;
        let start = Instant::now();
        self.send_unlogged(text)?;
        let res = no_panic(|| side_parser(&mut self.solver).check_sat());
        let r = self.finish_check(start, res)?;
        if !weak || r != SatResult::Sat {
            return Ok(r);
        }
        let vars = self.ext.model_vars();
        let vals = self.get_values(&vars)?;
        if self.ext.holds(&vars.into_iter().zip(vals).collect()) {
            return Ok(r);
        }
        log::debug!(
            "[{}] a model without extensionality fails: checking again",
            self.label
        );
        self.queue(format_args!("(set-option :smt.array.extensional true)\n"))?;
        self.ext.on = true;
        let start = Instant::now();
        self.send_unlogged(text)?;
        let res = no_panic(|| side_parser(&mut self.solver).check_sat());
        self.finish_check(start, res)
    }

    /// Checks the satisfiability of the assertions together with `lits`, which are Boolean
    /// variables or their negations (`mk_not(var)`); anything else is rejected (without
    /// killing the solver).
    pub fn check_sat_assuming(&mut self, lits: &[Term]) -> Result<SatResult, SmtError> {
        self.settle()?;
        if let Some(bad) = lits.iter().find(|l| term_lit(l).is_none()) {
            return Err(SmtError::Solver(format!(
                "check-sat-assuming: `{}` is not a Boolean variable or its negation",
                SmtTerm(bad)
            )));
        }
        if lits.is_empty() {
            return self.check_sat();
        }
        for l in lits {
            self.declare_free_vars(l)?;
        }
        if log::log_enabled!(log::Level::Trace) {
            let ls: Vec<String> = lits.iter().map(|l| SmtTerm(l).to_string()).collect();
            log::trace!("[{}] > (check-sat-assuming ({}))", self.label, ls.join(" "));
        }
        self.last_assumptions = lits.to_vec();
        if self.kind == SolverKind::SmtInterpol {
            let mut text = String::from("(push 1)\n");
            for (k, l) in lits.iter().enumerate() {
                text.push_str(&format!(
                    "(assert (! {} :named {ASSUMED}{k}))\n",
                    SmtTerm(l)
                ));
            }
            text.push_str("(check-sat)\n");
            self.assume_scope = true;
            let start = Instant::now();
            self.send(&text)?;
            let res = no_panic(|| side_parser(&mut self.solver).check_sat());
            return self.finish_check(start, res);
        }
        let mut text = String::from("(check-sat-assuming (");
        for (k, l) in lits.iter().enumerate() {
            let sep = if k == 0 { "" } else { " " };
            let _ = write!(text, "{sep}{}", SmtTerm(l));
        }
        text.push_str("))\n");
        self.run_check(&text)
    }

    fn finish_check(
        &mut self,
        start: Instant,
        res: rsmt2::SmtRes<Option<bool>>,
    ) -> Result<SatResult, SmtError> {
        self.stats.queries += 1;
        self.stats.solver_time += start.elapsed();
        let r = match res {
            Ok(Some(true)) => SatResult::Sat,
            Ok(Some(false)) => SatResult::Unsat,
            Ok(None) => SatResult::Unknown,
            Err(e) if matches!(e.kind(), RKind::Timeout) => SatResult::Unknown,
            Err(e) => {
                self.last_result = None;
                return Err(self.fail(e));
            }
        };
        log::trace!("[{}] < {r} ({:?})", self.label, start.elapsed());
        self.last_result = Some(r);
        Ok(r)
    }

    /// After `Unsat` from [`Smt::check_sat_assuming`]: the assumption literals in the solver's
    /// unsat core, as the same terms that were passed (empty after a plain `check_sat`).
    pub fn unsat_assumptions(&mut self) -> Result<Vec<Term>, SmtError> {
        self.ready()?;
        if self.last_result != Some(SatResult::Unsat) {
            return Err(SmtError::Solver(
                "get-unsat-assumptions: the last check was not unsat".into(),
            ));
        }
        if self.last_assumptions.is_empty() {
            return Ok(vec![]);
        }
        let named = self.assume_scope;
        self.send(if named {
            "(get-unsat-core)\n"
        } else {
            "(get-unsat-assumptions)\n"
        })?;
        let res = no_panic(|| side_parser(&mut self.solver).get_unsat_core::<Lit, _>(AnswerParser));
        let mut lits = self.check(res)?;
        if named {
            // `{ASSUMED}k` names the k-th assumption
            for l in lits.iter_mut() {
                let k =
                    l.0.strip_prefix(ASSUMED)
                        .and_then(|k| k.parse::<usize>().ok());
                match k
                    .and_then(|k| self.last_assumptions.get(k))
                    .and_then(term_lit)
                {
                    Some(lit) => *l = lit,
                    None => {
                        let e = SmtError::Solver(format!("unsat core names {:?}", l.0));
                        return Err(self.broken(e));
                    }
                }
            }
        }
        let by_lit: FxHashMap<Lit, &Term> = self
            .last_assumptions
            .iter()
            .filter_map(|t| Some((term_lit(t)?, t)))
            .collect();
        let mut core = Vec::with_capacity(lits.len());
        for l in lits {
            match by_lit.get(&l) {
                Some(t) => core.push((*t).clone()),
                None => {
                    let e = SmtError::Solver(format!("unsat assumption {l:?} was not assumed"));
                    return Err(self.broken(e));
                }
            }
        }
        log::trace!("[{}] < core of {} literal(s)", self.label, core.len());
        Ok(core)
    }

    /// After `Sat` (or `Unknown`): the values of `vars`, in order. A variable the solver does
    /// not constrain still gets a value; one that was never declared gets 0 or false.
    pub fn get_values(&mut self, vars: &[Var]) -> Result<Vec<Value>, SmtError> {
        self.ready()?;
        let asked: Vec<&Var> = vars.iter().filter(|v| self.declared.contains(*v)).collect();
        let mut answers = FxHashMap::default();
        if !asked.is_empty() {
            let syms: Vec<String> = asked.iter().map(|v| smt_symbol(&v.name)).collect();
            log::trace!("[{}] > (get-value ({}))", self.label, syms.join(" "));
            self.send_unlogged(&format!("(get-value ({}))\n", syms.join(" ")))?;
            let res = no_panic(|| {
                side_parser(&mut self.solver).get_values::<Value, (), String, _>(AnswerParser, ())
            });
            let pairs = self.check(res)?;
            if pairs.len() != asked.len() {
                let e = SmtError::Solver(format!(
                    "get-value: {} values for {} variables",
                    pairs.len(),
                    asked.len()
                ));
                return Err(self.broken(e));
            }
            for (v, (_, val)) in asked.iter().zip(pairs) {
                // a real variable may be printed as an integer numeral (yices: `2`)
                let val = match (v.sort, val) {
                    (crate::logic::Sort::Real, Value::Int(n)) => Value::Real(Rat::from_integer(n)),
                    (_, val) => val,
                };
                // a lambda's element sort is that of its values: `1` in a Real array
                let val = match (v.sort.array_parts(), val) {
                    (Some(_), Value::Array(a)) if a.sort != v.sort => {
                        match super::array_value::recast(&a, v.sort) {
                            Some(x) => x,
                            None => Value::Array(a),
                        }
                    }
                    (_, val) => val,
                };
                if val.sort() != v.sort {
                    let e = SmtError::Solver(format!("get-value: {val} for {} {}", v.sort, v.name));
                    return Err(self.broken(e));
                }
                answers.insert((*v).clone(), val);
            }
        }
        Ok(vars
            .iter()
            .map(|v| match answers.get(v) {
                Some(val) => val.clone(),
                None => default_value(v.sort),
            })
            .collect())
    }

    /// After `Sat`: the values of `vars` as an assignment (see [`Smt::get_values`]).
    pub fn get_model(&mut self, vars: &[Var]) -> Result<Assignment, SmtError> {
        let vals = self.get_values(vars)?;
        Ok(vars.iter().cloned().zip(vals).collect())
    }

    /// Sends `cmd` as is (e.g. a quantified assertion) and reads nothing: only for commands
    /// that print nothing on success. Its symbols must be declared (see [`Smt::declare`]).
    pub fn raw(&mut self, cmd: &str) -> Result<(), SmtError> {
        self.settle()?;
        let cmd = cmd.trim_end();
        if cmd.contains("(assert") {
            // text we do not read: extensionality stays on from here
            self.ext.raw();
            self.tune_arrays()?;
        }
        log::trace!("[{}] > {}", self.label, cmd);
        self.queue(format_args!("{cmd}\n"))
    }

    /// Sends `cmd` as is and returns the solver's answer, one s-expression, as text.
    /// An `(error ...)` answer is an error. Meant for commands that read the last check
    /// (`get-model`, `get-interpolants`): it leaves an emulated assumption scope open.
    pub fn raw_query(&mut self, cmd: &str) -> Result<String, SmtError> {
        self.ready()?;
        if cmd.contains("check-sat") {
            // a check whose model we do not read: with extensionality
            self.ext.raw();
            self.tune_arrays()?;
        }
        let mut text = cmd.trim_end().to_string();
        text.push('\n');
        self.send(&text)?;
        let (text, _) = self.read_answer()?;
        Ok(text)
    }

    /// z3 over arrays: extensionality off while no live assertion needs it (see
    /// [`crate::logic::array_use`]: the same answers, without the extensionality
    /// lemmas that can cost z3 seconds), on otherwise.
    fn tune_arrays(&mut self) -> Result<(), SmtError> {
        if let Some(on) = self.ext.change() {
            log::trace!(
                "[{}] > (set-option :smt.array.extensional {on})",
                self.label
            );
            self.queue(format_args!("(set-option :smt.array.extensional {on})\n"))?;
            self.ext.on = on;
        }
        Ok(())
    }

    /// Writes a comment in the tee file, if any.
    pub fn comment(&mut self, text: &str) {
        let _ = self.solver.comment(text);
    }

    /// Kills the process; every later call fails with [`SmtError::Killed`].
    pub fn kill(&mut self) {
        self.killed = true;
        sigkill(self.pid);
    }

    /// Kills this process when `limit` passes before the returned guard is dropped: for
    /// commands that may not return (cvc5's `get-interpolant`). After it fired, the solver is
    /// unusable, like after any other death.
    pub fn deadline(&self, limit: Duration) -> Deadline {
        Deadline::start(self.pid, limit)
    }

    /// Query counters.
    pub fn stats(&self) -> SmtStats {
        self.stats
    }

    /// The solver kind.
    pub fn kind(&self) -> SolverKind {
        self.kind
    }

    /// Whether it runs in its interpolating mode ([`SolverConfig::interpolation`]).
    pub fn is_interpolating(&self) -> bool {
        self.interpolation
    }

    /// The label given at creation.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The PID of the solver process.
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// True while the process runs and the solver is usable.
    pub fn is_alive(&self) -> bool {
        self.ready().is_ok() && is_alive(self.pid)
    }

    // ------------------------------------------------------------ plumbing

    /// Fails when the solver was killed or broken.
    fn ready(&self) -> Result<(), SmtError> {
        if self.killed || self.kill.is_killed() {
            return Err(SmtError::Killed);
        }
        match &self.broken {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// [`Self::ready`], after closing the scope of an emulated `check-sat-assuming` (struct
    /// doc): called by every command that changes the solver's state, not by those that read
    /// the last check's model or core.
    fn settle(&mut self) -> Result<(), SmtError> {
        self.ready()?;
        if self.assume_scope {
            self.assume_scope = false;
            log::trace!("[{}] > (pop 1) (assumptions)", self.label);
            self.queue(format_args!("(pop 1)\n"))?;
        }
        Ok(())
    }

    /// Puts a command that prints nothing on success (`declare-fun`, `assert`, `push`, `pop`)
    /// in the write buffer of the pipe, unflushed: the next command that expects an answer
    /// (`check-sat`, `check-sat-assuming`, `get-value`, `get-unsat-assumptions`, a raw query:
    /// [`Self::send`]) carries it to the solver in the same `write`. One system call per
    /// query instead of one per command (rsmt2 flushes after each, and after each symbol of a
    /// `get-value`), and one wake-up of the solver process.
    fn queue(&mut self, cmd: std::fmt::Arguments) -> Result<(), SmtError> {
        let res = self.solver.write_fmt(cmd);
        self.check(res.map_err(RError::from))
    }

    /// Writes text to the solver (and the tee file), with every queued command before it.
    fn send(&mut self, text: &str) -> Result<(), SmtError> {
        log::trace!("[{}] > {}", self.label, text.trim_end());
        self.send_unlogged(text)
    }

    /// [`Self::send`] for a command its caller has logged already.
    fn send_unlogged(&mut self, text: &str) -> Result<(), SmtError> {
        let res = self
            .solver
            .write_all(text.as_bytes())
            .and_then(|()| self.solver.flush());
        self.check(res.map_err(RError::from))
    }

    /// Reads one answer outside of rsmt2's parser; `(error ...)` answers are errors.
    fn read_answer(&mut self) -> Result<(String, Sexp), SmtError> {
        let res = no_panic(|| {
            side_parser(&mut self.solver)
                .get_sexpr()
                .map(str::to_string)
        });
        let text = self.check(res)?;
        let e = Sexp::parse(&text).map_err(|m| self.broken(SmtError::Solver(m)))?;
        if let Some(m) = e.error_message() {
            return Err(self.broken(SmtError::Solver(m)));
        }
        Ok((text, e))
    }

    fn check<T>(&mut self, res: rsmt2::SmtRes<T>) -> Result<T, SmtError> {
        res.map_err(|e| self.fail(e))
    }

    /// Classifies an rsmt2 error and breaks the solver.
    fn fail(&mut self, e: RError) -> SmtError {
        let err = if self.killed || self.kill.is_killed() {
            SmtError::Killed
        } else if let RKind::SolverError(m) = e.kind() {
            // An answer: the solver is alive, but an earlier answer may still be pending.
            SmtError::Solver(m.clone())
        } else if !self.alive_after_error() {
            let tail = self.tail();
            SmtError::Io(format!(
                "solver process {} died ({e}){}{}",
                self.pid,
                if tail.is_empty() { "" } else { "; stderr: " },
                tail.join(" | ")
            ))
        } else {
            match e.kind() {
                RKind::Io(io) => SmtError::Io(io.to_string()),
                RKind::IoError(m) => SmtError::Io(m.clone()),
                _ => SmtError::Solver(e.to_string()),
            }
        };
        self.broken(err)
    }

    /// Whether the process is still alive after an error. A process that closed its output
    /// may not be a zombie yet, so this waits up to 100 ms for it to finish dying.
    fn alive_after_error(&self) -> bool {
        for _ in 0..100 {
            if !is_alive(self.pid) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }

    /// Records `e` as the reason the solver is unusable and kills the process.
    fn broken(&mut self, e: SmtError) -> SmtError {
        if e != SmtError::Killed {
            log::debug!("[{}] solver unusable: {e}", self.label);
            self.broken.get_or_insert(e.clone());
        }
        sigkill(self.pid);
        e
    }

    /// The last lines of stderr, after waiting a little for the drain to reach the end.
    fn tail(&self) -> Vec<String> {
        wait_tail(&self.stderr_tail, Duration::from_millis(100))
    }
}

impl Drop for Smt {
    /// Kills the process. rsmt2's own drop then reaps it.
    fn drop(&mut self) {
        self.kill.unregister(self.pid);
        sigkill(self.pid);
        // Let it become a zombie, so that rsmt2's reaping loop succeeds without sleeping.
        for _ in 0..100 {
            if !is_alive(self.pid) {
                break;
            }
            std::thread::sleep(Duration::from_micros(100));
        }
        log::debug!(
            "[{}] stopped after {} queries",
            self.label,
            self.stats.queries
        );
    }
}
