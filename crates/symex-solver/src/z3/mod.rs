//! The Z3 backend: translates terms (cached per context), checks, reads models back.

mod model;
mod translate;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use symex_expr::{Op, Sort, Term};

use crate::solver::{SatResult, Solver, Unknown};
use crate::stats::LayerStats;
use translate::Translator;

/// How the backend uses Z3 between queries.
///
/// `Incremental` is the default: on path-condition-shaped queries it measured about 14
/// times faster than `Fresh` with Z3 4.8.12 (see the README), because without push/pop Z3
/// runs its whole preprocessing tactic on every query.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Z3Mode {
    /// A fresh assertion set per query (Z3 may then pick its preprocessing tactics).
    Fresh,
    /// Keep the assertions shared with the previous query's prefix on Z3's push/pop stack.
    #[default]
    Incremental,
    /// A fresh assertion set per query, solved by a lean tactic (simplify, propagate values, solve
    /// equations, bit-blast, SAT) in the manner of STP: no incremental state, and none of the
    /// default preprocessing that makes `Fresh` slow.
    Bitblast,
    /// Assert every constraint once, guarded by its own indicator literal, and check each
    /// query under the indicators of its constraints (nothing is ever popped: any subset of
    /// the constraints seen is checked incrementally, and lemmas are kept).
    Assumptions,
}

impl Z3Mode {
    /// The mode named `s` (`incremental`, `fresh`, `bitblast`, `assumptions`).
    pub fn parse(s: &str) -> Option<Z3Mode> {
        match s {
            "incremental" => Some(Z3Mode::Incremental),
            "fresh" => Some(Z3Mode::Fresh),
            "bitblast" => Some(Z3Mode::Bitblast),
            "assumptions" => Some(Z3Mode::Assumptions),
            _ => None,
        }
    }
}

/// Bit-vector `ite` nodes from which a constraint counts as a multiplexer (a read at a symbolic offset
/// of a 16-byte object has 15).
const MUX_ITES: usize = 15;

/// Constraints whose multiplexer test is remembered before the memo starts afresh.
const MUX_MEMO_LIMIT: usize = 1 << 18;

/// Indicators kept before the assumption-mode solver starts afresh.
const INDICATOR_LIMIT: usize = 20_000;

/// The bare Z3 backend.
///
/// It uses the calling thread's Z3 context, so it is not `Send`: make one per thread.
/// A timeout, an exhausted resource limit or any failure inside Z3 answers `Unknown` (and
/// resets the backend).
pub struct Z3Solver {
    solver: z3::Solver,
    tr: Translator,
    mode: Z3Mode,
    timeout: Option<Duration>,
    /// Z3's deterministic resource limit per check (its `rlimit` count), `None`: none.
    rlimit: Option<u32>,
    /// Z3's nlsat procedure, asked about the nonlinear integer queries left undecided under a
    /// resource limit ([`Z3Solver::set_nlsat_fallback`]); made on first use.
    nlsat: Option<z3::Solver>,
    nlsat_fallback: bool,
    /// The bit-blasting solver that incremental mode hands multiplexer queries to
    /// ([`Z3Solver::query_mode`]); made on first use.
    blaster: Option<z3::Solver>,
    /// The shape of each constraint seen, by term id (ids are never reused).
    mux_memo: FxHashMap<u64, Shape>,
    /// Queries bit-blasted that way.
    blasted: u64,
    /// The constraints currently asserted, one push level each (incremental mode).
    asserted: Vec<Term>,
    /// The indicator literal guarding each constraint asserted (assumption mode).
    indicators: FxHashMap<u64, z3::ast::Bool>,
    stats: LayerStats,
}

impl Default for Z3Solver {
    fn default() -> Self {
        Z3Solver::new()
    }
}

impl Z3Solver {
    /// A backend in the default ([`Z3Mode::Incremental`]) mode without a time limit.
    pub fn new() -> Z3Solver {
        Z3Solver::with_mode(Z3Mode::default())
    }

    /// A backend using Z3 as `mode` says.
    pub fn with_mode(mode: Z3Mode) -> Z3Solver {
        Z3Solver {
            solver: make_solver(mode),
            tr: Translator::default(),
            mode,
            timeout: None,
            rlimit: None,
            nlsat: None,
            nlsat_fallback: false,
            blaster: None,
            mux_memo: FxHashMap::default(),
            blasted: 0,
            asserted: Vec::new(),
            indicators: FxHashMap::default(),
            stats: LayerStats::new("z3"),
        }
    }

    fn apply_params(&self) {
        let mut p = z3::Params::new();
        // No Z3 `timeout`: the watchdog of `check_with_watchdog` alone ends a query at its time limit.
        // Z3 4.8.12 serves every `timeout` from one process-wide pool of timer threads, and with
        // several threads checking at once (`check`'s portfolio) a check could wait for that pool
        // long after its answer was found: a query decided in milliseconds idle ran to its whole time
        // limit under load, so a verdict depended on the load (and on the other engines' timers).
        p.set_u32("timeout", u32::MAX);
        // A solver parameter, so Z3 counts it from the start of each check (a context-wide
        // limit would be spent once for the solver's whole life). Zero is Z3's "no limit".
        p.set_u32("rlimit", self.rlimit.unwrap_or(0));
        self.solver.set_params(&p);
    }

    /// Sets Z3's resource limit per check (`None`: no limit). Unlike a time limit it counts
    /// Z3's own steps, so whether a query runs out does not depend on the machine's load:
    /// running out answers `Unknown`, the same way on every run with the same Z3.
    ///
    /// Z3 4.8.12 does not count inside its default arithmetic solver's nonlinear integer
    /// search when that runs incrementally (pushed assertions): such a query can run past
    /// the limit; a time limit set beside it still ends it.
    pub fn set_rlimit(&mut self, rlimit: Option<u32>) {
        self.rlimit = rlimit;
        self.apply_params();
    }

    /// Under a resource limit, puts each nonlinear integer query to Z3's nlsat procedure (the
    /// `qfnra-nlsat` tactic, exact on integers) before the default solver, each under the limit:
    /// nlsat's unsat is the answer; its model is used only when the default solver decides
    /// nothing. Z3 4.8.12 checks a fresh nonlinear integer query with its `qfnia` tactic, which
    /// can spend the whole limit on a small query that nlsat decides with a hundredth of it
    /// (the guards of four steps of a loop whose update turns, for one); a time limit hid this,
    /// because on pushed assertions Z3 first tries its incremental core, which does not count
    /// the limit. Every query the default solver decides keeps its answer and model (nlsat's
    /// models differ and steer the provers elsewhere); both attempts count Z3's steps, so the
    /// answer still does not depend on the load.
    pub fn set_nlsat_fallback(&mut self, on: bool) {
        self.nlsat_fallback = on;
    }

    /// How many queries incremental mode bit-blasted afresh because they hold a multiplexer.
    pub fn multiplexer_queries(&self) -> u64 {
        self.blasted
    }

    /// Resets the solver and runs an empty check, which clears a cancellation left in the
    /// context by an interrupt or a spent resource limit.
    fn clear_cancellation(&mut self) {
        self.reset();
        let _ = self.solver.check();
    }

    fn reset(&mut self) {
        self.solver.reset();
        self.asserted.clear();
        self.indicators.clear();
        self.apply_params();
    }

    /// Asserts the query; returns the literals to assume (assumption mode). `None` when the time limit
    /// passed while the query was being built.
    fn assert_constraints(
        &mut self,
        constraints: &[Term],
        mode: Z3Mode,
    ) -> Option<Vec<z3::ast::Bool>> {
        if mode == Z3Mode::Assumptions {
            return self.assume(constraints);
        }
        match mode {
            Z3Mode::Fresh | Z3Mode::Bitblast => {
                self.reset();
                for c in constraints {
                    let b = self.tr.translate_bool(c)?;
                    self.solver.assert(&b);
                }
            }
            Z3Mode::Incremental => {
                let common = self
                    .asserted
                    .iter()
                    .zip(constraints)
                    .take_while(|(a, b)| a == b)
                    .count();
                let extra = self.asserted.len() - common;
                if extra > 0 {
                    self.solver.pop(u32::try_from(extra).unwrap_or(u32::MAX));
                    self.asserted.truncate(common);
                }
                for c in &constraints[common..] {
                    let b = self.tr.translate_bool(c)?;
                    self.solver.push();
                    self.solver.assert(&b);
                    self.asserted.push(c.clone());
                }
            }
            Z3Mode::Assumptions => unreachable!("handled above"),
        }
        Some(Vec::new())
    }

    fn assume(&mut self, constraints: &[Term]) -> Option<Vec<z3::ast::Bool>> {
        if self.indicators.len() > INDICATOR_LIMIT {
            self.reset();
        }
        let mut lits = Vec::with_capacity(constraints.len());
        for c in constraints {
            if let Some(p) = self.indicators.get(&c.id()) {
                lits.push(p.clone());
                continue;
            }
            let b = self.tr.translate_bool(c)?;
            let p = z3::ast::Bool::new_const(format!("!assume{}", c.id()));
            self.solver.assert(p.implies(&b));
            self.indicators.insert(c.id(), p.clone());
            lits.push(p);
        }
        Some(lits)
    }

    /// How this query is put to Z3. Z3 4.8.12's default arithmetic solver does not count
    /// its resource limit in its nonlinear integer search, which is what runs on pushed
    /// assertions; on a fresh assertion set Z3 takes a nonlinear procedure that counts. So under
    /// a resource limit a nonlinear integer query is checked afresh, whatever the mode.
    ///
    /// In incremental mode a query holding a multiplexer (a read at a symbolic offset, an `ite` tree
    /// over bit-vector leaves) is bit-blasted afresh: Z3's incremental core, which push/pop selects,
    /// took about four times the processor time of the bit-blasting tactic on such queries (`parray`:
    /// 70 queries, each with 64-leaf multiplexers), while on comparison-shaped path conditions it is
    /// the faster one. The pushed assertions stay as they are for the next query.
    fn query_mode(&mut self, constraints: &[Term]) -> Z3Mode {
        let counted_anyway = matches!(self.mode, Z3Mode::Fresh | Z3Mode::Bitblast);
        if self.rlimit.is_some() && !counted_anyway && nonlinear_integer(constraints) {
            Z3Mode::Fresh
        } else if self.mode == Z3Mode::Incremental && self.holds_multiplexer(constraints) {
            Z3Mode::Bitblast
        } else {
            self.mode
        }
    }

    /// Whether the query is for the bit-blasting tactic: one constraint holds a multiplexer (at least
    /// [`MUX_ITES`] `ite` nodes of bit-vector sort) and every constraint is over Booleans and
    /// bit-vectors alone, which that tactic decides (arrays, integers and functions it does not).
    /// Memoised per constraint.
    fn holds_multiplexer(&mut self, constraints: &[Term]) -> bool {
        if self.mux_memo.len() > MUX_MEMO_LIMIT {
            self.mux_memo.clear();
        }
        let mut mux = false;
        for c in constraints {
            let shape = *self
                .mux_memo
                .entry(c.id())
                .or_insert_with(|| constraint_shape(c));
            if shape == Shape::Other {
                return false;
            }
            mux |= shape == Shape::Multiplexer;
        }
        mux
    }

    fn check_inner(&mut self, constraints: &[Term]) -> SatResult {
        let mode = self.query_mode(constraints);
        let mut nlsat_model = None;
        if self.nlsat_fallback && self.rlimit.is_some() && nonlinear_integer(constraints) {
            match self.check_by_nlsat(constraints) {
                // Unsat is unsat whoever proves it; a model is taken from nlsat only where the
                // default solver finds none, so that the provers' models stay those of main Z3.
                SatResult::Unsat => return SatResult::Unsat,
                sat @ SatResult::Sat(_) => nlsat_model = Some(sat),
                // The time limit ended it: the default solver would run past it.
                SatResult::Unknown(u) if u.0.starts_with("timeout") => {
                    return SatResult::Unknown(u)
                }
                SatResult::Unknown(_) => {}
            }
        }
        if mode == Z3Mode::Bitblast && self.mode == Z3Mode::Incremental {
            return self.check_by_blasting(constraints);
        }
        let mut result = self.check_in(constraints, mode);
        if let (SatResult::Unknown(_), Some(sat)) = (&result, nlsat_model) {
            result = sat;
        }
        if mode != self.mode {
            // The fresh assertions must not stay under the next incremental query.
            self.reset();
        }
        result
    }

    /// The query checked afresh by the nlsat solver (swapped in for the default one meanwhile).
    fn check_by_nlsat(&mut self, constraints: &[Term]) -> SatResult {
        let nlsat = self
            .nlsat
            .take()
            .unwrap_or_else(|| z3::Tactic::new("qfnra-nlsat").solver());
        let default = std::mem::replace(&mut self.solver, nlsat);
        let result = self.check_in(constraints, Z3Mode::Fresh);
        self.reset();
        self.nlsat = Some(std::mem::replace(&mut self.solver, default));
        self.reset();
        result
    }

    /// The query checked afresh by the bit-blasting solver, swapped in for the incremental one
    /// meanwhile, whose pushed assertions are kept for the next query.
    fn check_by_blasting(&mut self, constraints: &[Term]) -> SatResult {
        self.blasted += 1;
        let blaster = self
            .blaster
            .take()
            .unwrap_or_else(|| make_solver(Z3Mode::Bitblast));
        let incremental = std::mem::replace(&mut self.solver, blaster);
        let asserted = std::mem::take(&mut self.asserted);
        let result = self.check_in(constraints, Z3Mode::Bitblast);
        self.blaster = Some(std::mem::replace(&mut self.solver, incremental));
        self.asserted = asserted;
        result
    }

    fn check_in(&mut self, constraints: &[Term], mode: Z3Mode) -> SatResult {
        let deadline = self.timeout.map(|t| Instant::now() + t);
        self.tr.deadline = deadline;
        let assumptions = self.assert_constraints(constraints, mode);
        self.tr.deadline = None;
        let Some(assumptions) = assumptions else {
            return SatResult::Unknown(Unknown("timeout (while building the query)".into()));
        };
        let Some(result) = self.check_with_watchdog(&assumptions, deadline) else {
            return SatResult::Unknown(Unknown("timeout (interrupted)".into()));
        };
        match result {
            z3::SatResult::Unsat => SatResult::Unsat,
            z3::SatResult::Unknown => {
                let reason = self
                    .solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "unknown".into());
                // A spent resource limit leaves the context cancelled as an interrupt does
                // (the next query's assertions were cut short, answering "canceled"): start
                // afresh the same way.
                self.clear_cancellation();
                SatResult::Unknown(Unknown(reason))
            }
            z3::SatResult::Sat => match self.solver.get_model() {
                None => SatResult::Unknown(Unknown("Z3 gave no model".into())),
                Some(zm) => match model::read_model(&mut self.tr, &zm, constraints) {
                    // Z3 4.8.12 answers sat for some unsatisfiable equalities between
                    // arrays built on constant arrays over small index sorts, so no model
                    // leaves the backend unchecked. (A model the evaluator cannot judge,
                    // e.g. integer division by a zero variable, is passed on.)
                    Ok(m) if m.satisfies(constraints) == Ok(false) => SatResult::Unknown(Unknown(
                        "Z3's model violates the constraints (a Z3 bug)".into(),
                    )),
                    Ok(m) => SatResult::Sat(Arc::new(m)),
                    Err(e) => SatResult::Unknown(Unknown(e)),
                },
            },
        }
    }
}

/// How often a query's watchdog looks for a halt request.
const HALT_POLL: Duration = Duration::from_millis(50);

impl Z3Solver {
    /// The query's time limit: a watchdog thread interrupts the context at the deadline (Z3's own
    /// `timeout` is not used, see `apply_params`).
    ///
    /// `Z3_interrupt` (4.8.12) leaves the context's resource limit cancelled until the next
    /// check starts, and assertions added meanwhile are silently truncated: the next model
    /// then violates them (seen in CI: one timed-out incremental query in ten). So after an
    /// interrupt the solver is reset and an empty check clears the cancellation.
    /// `None` when the watchdog interrupted the check.
    fn check_with_watchdog(
        &mut self,
        assumptions: &[z3::ast::Bool],
        deadline: Option<Instant>,
    ) -> Option<z3::SatResult> {
        let check = |solver: &z3::Solver| {
            if assumptions.is_empty() {
                solver.check()
            } else {
                solver.check_assumptions(assumptions)
            }
        };
        let Some(deadline) = deadline else {
            return Some(check(&self.solver));
        };
        // What is left of the query's time after building it.
        let limit = deadline.saturating_duration_since(Instant::now());
        let handle = self.solver.get_context().handle();
        let (done, finished) = mpsc::channel::<()>();
        let halts = crate::halt::requests();
        let (result, interrupted) = std::thread::scope(|scope| {
            let watchdog = scope.spawn(move || {
                // An interrupt that lands before Z3 starts the check is lost (the check clears it),
                // which happens when building the query used up the time: so it is repeated until
                // the check returns. The watchdog also wakes now and then to pass on a halt request.
                let end = Instant::now() + limit;
                let mut late = false;
                loop {
                    let now = Instant::now();
                    let wait = if late {
                        Duration::from_millis(10)
                    } else {
                        end.saturating_duration_since(now).min(HALT_POLL)
                    };
                    if finished.recv_timeout(wait) != Err(mpsc::RecvTimeoutError::Timeout) {
                        break;
                    }
                    if late || Instant::now() >= end || crate::halt::requests() != halts {
                        handle.interrupt();
                        late = true;
                    }
                }
                late
            });
            let r = check(&self.solver);
            drop(done);
            (r, watchdog.join().unwrap_or(true))
        });
        if interrupted {
            self.clear_cancellation();
            return None;
        }
        Some(result)
    }
}

/// What a constraint is, for [`Z3Solver::holds_multiplexer`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shape {
    /// Booleans and bit-vectors, with at least [`MUX_ITES`] bit-vector `ite` nodes.
    Multiplexer,
    /// Booleans and bit-vectors, fewer `ite` nodes.
    BitVector,
    /// Some node of another sort, or an uninterpreted function.
    Other,
}

fn constraint_shape(c: &Term) -> Shape {
    let (mut ites, mut other) = (0, false);
    symex_expr::visit::postorder(std::slice::from_ref(c), |t| {
        let sort = t.sort();
        other |= !matches!(sort, Sort::Bool | Sort::BitVec(_)) || matches!(t.op(), Op::Apply(_));
        ites += (matches!(t.op(), Op::Ite) && !sort.is_bool()) as usize;
    });
    match (other, ites >= MUX_ITES) {
        (true, _) => Shape::Other,
        (false, true) => Shape::Multiplexer,
        (false, false) => Shape::BitVector,
    }
}

/// Whether an integer product of two non-constant factors occurs in `constraints`.
fn nonlinear_integer(constraints: &[Term]) -> bool {
    let mut found = false;
    symex_expr::visit::postorder(constraints, |t| {
        found |= matches!(t.op(), Op::IntMul | Op::IntDiv | Op::IntMod)
            && t.args().iter().filter(|a| !a.is_const()).count() > 1;
    });
    found
}

/// The Z3 solver object a mode works with.
fn make_solver(mode: Z3Mode) -> z3::Solver {
    match mode {
        Z3Mode::Bitblast => [
            "simplify",
            "propagate-values",
            "solve-eqs",
            "bit-blast",
            "sat",
        ]
        .iter()
        .map(|t| z3::Tactic::new(t))
        .reduce(|a, b| a.and_then(&b))
        .expect("tactics")
        .solver(),
        _ => z3::Solver::new(),
    }
}

impl Solver for Z3Solver {
    fn check(&mut self, constraints: &[Term]) -> SatResult {
        let start = Instant::now();
        let result = if constraints.iter().any(Term::is_false) {
            SatResult::Unsat
        } else {
            let r = catch_unwind(AssertUnwindSafe(|| self.check_inner(constraints)));
            r.unwrap_or_else(|_| {
                // The wrapper panics when Z3 returns an error; start afresh.
                self.tr.clear();
                self.solver = make_solver(self.mode);
                self.reset();
                SatResult::Unknown(Unknown("Z3 failed".into()))
            })
        };
        self.stats.record(start.elapsed(), &result);
        self.stats.calls += 1;
        result
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
        self.apply_params();
    }
}
