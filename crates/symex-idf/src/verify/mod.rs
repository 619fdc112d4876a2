//! Symbolic execution for implicit dynamic frames (the paper's §3), one rule family per
//! file as in Viper Silicon: [`evaluator`] (Figure 5), [`producer`] (Figure 6), [`consumer`]
//! (Figure 7), [`executor`] (Figure 8), [`brancher`] (splitting on a condition), [`call`] (what calls share), [`joiner`]
//! (§6.1 `join` and loops), [`ghost`] (open/close/use and their §4.1 inference),
//! [`validity`] (Definitions 3 to 7) and [`termination`] (§3.6).
//!
//! Every rule is written in continuation-passing style: it takes the work that remains on
//! the current path as a continuation and returns `Ok(())` when every path through it
//! verifies, or the first [`Failure`].
pub mod brancher;
pub mod call;
pub mod consumer;
pub mod evaluator;
pub mod executor;
pub mod ghost;
pub mod heap;
pub mod joiner;
pub mod pretty;
pub mod producer;
pub mod prover;
pub mod state;
pub mod termination;
pub mod terms;
pub mod validity;

use crate::ir::{Program, Span};
use prover::Prover;
pub use state::State;
use std::sync::Arc;
use symex_expr::Term;

/// Switches of the verifier.
#[derive(Clone, Debug)]
pub struct Config {
    /// Infer `open`, `close` and `use` (the paper's §4.1).
    pub infer: bool,
    /// How many inferred ghost operations may nest (bounds recursion through predicates).
    pub infer_depth: usize,
    /// How many evaluations of pure-method bodies for `use`/`using` may nest: a body that uses
    /// itself (directly, through another pure method, a contract or a predicate body) would
    /// otherwise unfold forever.
    pub use_depth: usize,
    /// Record the symbolic state before each statement of a path, for the trace of a failure
    /// (`--trace`). Without it a failure has only its final state, and a long straight-line
    /// body does not keep one state per statement alive.
    pub trace: bool,
    /// A time budget for the whole program (`--max-time`); also each solver call's limit.
    pub max_time: Option<std::time::Duration>,
    /// Each solver call's limit when there is no `max_time`: nonlinear integer arithmetic is
    /// undecidable, and Z3 may never answer (`x*x*x + y*y*y != z*z*z`); an unanswered
    /// query counts as unknown, so the failure it causes is inconclusive.
    pub query_limit: std::time::Duration,
    /// Z3's deterministic resource limit per solver call (`--solver-rlimit`). With one, it
    /// replaces `query_limit`: whether a call runs out no longer depends on the machine's
    /// load (`max_time` still bounds the whole program).
    pub query_rlimit: Option<u32>,
    /// Free what verification built when it is done. A process that ends right after the
    /// report (the CLI) sets it to false: the final states of `main` and the verifier (the
    /// program, the solver) are left to the process's exit, which returns their memory at once
    /// instead of freeing them object by object.
    pub free_at_end: bool,
}

/// The default of [`Config::use_depth`].
pub const USE_DEPTH: usize = 8;

/// The default of [`Config::query_limit`].
pub const QUERY_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

impl Default for Config {
    fn default() -> Config {
        Config {
            infer: true,
            infer_depth: 3,
            use_depth: USE_DEPTH,
            trace: true,
            max_time: None,
            query_limit: QUERY_LIMIT,
            query_rlimit: None,
            free_at_end: true,
        }
    }
}

/// One statement on the path to a failure, with the symbolic state before it.
#[derive(Clone, Debug)]
pub struct TraceStep {
    pub span: Span,
    pub state: State,
    /// What the step is when it is not a statement of the member (an inferred ghost
    /// operation), or whose state it shows (a callee's, the old one).
    pub label: Option<String>,
}

/// The first failing obligation of a member.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The obligation and the part that failed, e.g.
    /// "postcondition might not hold: c.getX() = old(getX())".
    pub message: String,
    /// The failing part (a conjunct, a field access, a statement).
    pub span: Span,
    pub notes: Vec<String>,
    /// The statements executed on the failing path, each with the state before it, and the
    /// state at the failure last.
    pub trace: Vec<TraceStep>,
    /// The solver answered unknown: the failure may be spurious.
    pub inconclusive: bool,
    /// The formula that did not follow from the path condition (`Σ ⊬ goal`), when the
    /// failure is one.
    pub goal: Option<Term>,
}

pub type VResult = Result<(), Box<Failure>>;

/// A continuation: the rest of the current path, given the state and a result.
pub type K<'k, T> = &'k mut dyn FnMut(&mut Verifier, State, T) -> VResult;

/// What is being checked when an assertion is consumed, for messages
/// ("precondition of `c.setX(5)` might not hold").
#[derive(Clone, Debug)]
pub struct Obligation {
    what: std::borrow::Cow<'static, str>,
    /// Where a failure is reported when the assertion belongs to another member (the call
    /// site for a callee's precondition); the conjunct's own position goes into a note.
    pub site: Option<Span>,
    /// The source text whose `{}` in `what` stands for, put in only when a failure is
    /// reported: an obligation is made at every call, and most are met.
    quoted: Option<Span>,
}

impl Obligation {
    pub fn new(what: impl Into<std::borrow::Cow<'static, str>>) -> Obligation {
        Obligation {
            what: what.into(),
            site: None,
            quoted: None,
        }
    }

    pub fn at_site(what: impl Into<std::borrow::Cow<'static, str>>, site: Span) -> Obligation {
        Obligation {
            what: what.into(),
            site: Some(site),
            quoted: None,
        }
    }

    /// An obligation whose description quotes the source text at `quoted` where `what` has
    /// `{}` ("precondition of `{}` might not hold").
    pub fn quoting(mut self, quoted: Span) -> Obligation {
        self.quoted = Some(quoted);
        self
    }

    /// What is being checked, as reported.
    pub fn what(&self, v: &Verifier) -> String {
        match self.quoted {
            Some(span) => self.what.replacen("{}", &v.text(span), 1),
            None => self.what.to_string(),
        }
    }

    /// A failure of the part `part` of the assertion.
    pub fn fail(&self, v: &Verifier, state: &State, part: Span) -> Box<Failure> {
        let msg = format!("{}: {}", self.what(v), v.text(part));
        match self.site {
            None => v.fail(state, part, msg),
            Some(site) => {
                let (line, col) = crate::diagnostics::line_col(&v.src, part.start);
                let mut f = v.fail(state, site, msg);
                if let Some(last) = f.trace.last_mut() {
                    last.label = Some(
                        "the callee's contract: its store binds the parameters to the arguments"
                            .into(),
                    );
                }
                f.with_note(format!(
                    "the failing part `{}` is at line {line}, column {col}",
                    v.text(part)
                ))
            }
        }
    }
}

/// The verifier: the program, the solver and the bookkeeping shared by all rules.
pub struct Verifier {
    pub program: Arc<Program>,
    pub src: Arc<str>,
    pub config: Config,
    pub prover: Prover,
    /// Statements on the current path (for `--trace`).
    pub path: Vec<TraceStep>,
    /// Nesting of inferred ghost operations.
    pub infer_level: usize,
    /// How many `use`/`using` body evaluations enclose the current point (bounded by
    /// [`Config::use_depth`]).
    pub use_level: usize,
    /// The outermost `use`/`using` of the current nest, where exceeding the bound is reported.
    pub use_site: Option<Span>,
    /// How many evaluations in the old state enclose the current point (`old(e)`, the entry
    /// side of `untouched`): a failure there shows the old state, and says so.
    pub viewing_old: usize,
    /// Set while checking a pure method body (§3.6).
    pub termination: Option<termination::Context>,
    /// When the time budget runs out.
    pub deadline: Option<std::time::Instant>,
    /// The next allocation number (`terms::object_id`).
    pub next_oid: i128,
    /// Paths of method bodies and `main` verified to their end (the postcondition).
    pub paths: u64,
    /// Predicates closed by inference on the current path (§3.6 must know whether a pure
    /// call's precondition needed one).
    pub inferred_closes: u64,
    /// Warnings about members (a precondition no state satisfies).
    pub warnings: Vec<crate::Diagnostic>,
}

impl Verifier {
    pub fn new(program: Arc<Program>, src: Arc<str>, config: Config, prover: Prover) -> Verifier {
        Verifier {
            program,
            src,
            config: config.clone(),
            prover,
            path: Vec::new(),
            infer_level: 0,
            use_level: 0,
            use_site: None,
            viewing_old: 0,
            termination: None,
            deadline: config.max_time.map(|d| std::time::Instant::now() + d),
            next_oid: 1,
            paths: 0,
            inferred_closes: 0,
            warnings: Vec::new(),
        }
    }

    /// The source text of a span, on one line.
    pub fn text(&self, span: Span) -> String {
        let s = self.src.get(span.start..span.end).unwrap_or("?");
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// A failure at `span` with the path so far and the current state.
    pub fn fail(&self, state: &State, span: Span, message: impl Into<String>) -> Box<Failure> {
        let mut trace = self.path.clone();
        let label = (self.viewing_old > 0)
            .then(|| "the old state: G, the heap at the method's entry, stands in for H".into());
        trace.push(TraceStep {
            span,
            state: state.clone(),
            label,
        });
        Box::new(Failure {
            message: message.into(),
            span,
            notes: Vec::new(),
            trace,
            inconclusive: self.prover.saw_unknown(),
            goal: None,
        })
    }

    /// Runs `f` (the rest of the path) with an inferred ghost operation recorded on the path
    /// for `--trace`, with the state it produced.
    pub fn with_step<T>(
        &mut self,
        span: Span,
        state: &State,
        label: String,
        f: impl FnOnce(&mut Verifier) -> T,
    ) -> T {
        if !self.config.trace {
            return f(self);
        }
        let depth = self.path.len();
        self.path.push(TraceStep {
            span,
            state: state.clone(),
            label: Some(label),
        });
        let r = f(self);
        self.path.truncate(depth);
        r
    }

    /// Runs `f` in the old state (for the `--trace` label of a failure there).
    pub fn in_old<T>(&mut self, f: impl FnOnce(&mut Verifier) -> T) -> T {
        self.viewing_old += 1;
        let r = f(self);
        self.viewing_old -= 1;
        r
    }

    /// A failure when the time budget has run out (inconclusive: exit status 3).
    pub fn out_of_time(&self, state: &State, span: Span) -> Option<Box<Failure>> {
        let deadline = self.deadline?;
        if std::time::Instant::now() < deadline {
            return None;
        }
        let mut f = self.fail(
            state,
            span,
            "time limit reached (--max-time): verification stopped here",
        );
        f.inconclusive = true;
        Some(f)
    }

    /// Whether inferred ghost operations may nest one level deeper.
    pub fn may_infer(&self) -> bool {
        self.config.infer && self.infer_level < self.config.infer_depth
    }

    /// Runs `f` one inference level deeper.
    pub fn deeper<T>(&mut self, f: impl FnOnce(&mut Verifier) -> T) -> T {
        self.infer_level += 1;
        let r = f(self);
        self.infer_level -= 1;
        r
    }

    /// Whether the path condition of `state` entails `goal` (syntactically, else by the solver).
    pub fn proves(&mut self, state: &State, goal: &Term) -> bool {
        self.prover.proves(&state.pc, goal)
    }

    /// Whether the path of `state` is infeasible (Σ ⊢ false): Figure 6 drops a path whose
    /// produced facts contradict Σ. Asked only where a path would otherwise fail without the
    /// solver (a missing chunk), so that verified paths cost no extra query.
    pub fn dead(&mut self, state: &State) -> bool {
        self.prover.proves(&state.pc, &Term::ff())
    }

    /// Whether `cond` may hold on the path of `state`: asked of the facts `cond` reaches, so a
    /// path whose facts contradict each other elsewhere may be explored (its obligations are
    /// still proved from all of Σ).
    pub fn feasible(&mut self, state: &State, cond: &Term) -> bool {
        !self.prover.proves_sliced(&state.pc, &cond.not())
    }

    /// `Σ ⊢ goal` from the facts `goal` reaches (see [`Prover::proves_sliced`]): for searches,
    /// whose "not found" falls back on a check of the whole path.
    pub fn proves_sliced(&mut self, state: &State, goal: &Term) -> bool {
        self.prover.proves_sliced(&state.pc, goal)
    }
}

/// Runs `f` with a continuation that collects every state and result it is given instead of
/// going on: used where a rule must see the outcome of a sub-derivation before deciding
/// (inferred ghost operations, guarded evaluation).
pub fn collect<T: Clone>(
    v: &mut Verifier,
    f: impl FnOnce(&mut Verifier, K<T>) -> VResult,
) -> Result<Vec<(State, T)>, Box<Failure>> {
    let mut out = Vec::new();
    let mut k = |_: &mut Verifier, s: State, t: T| {
        out.push((s, t));
        Ok(())
    };
    f(v, &mut k)?;
    Ok(out)
}

/// The outcome of verifying a program.
#[derive(Debug)]
pub struct Report {
    pub members: Vec<validity::MemberResult>,
    /// The front end's and the verifier's warnings, in that order.
    pub warnings: Vec<crate::Diagnostic>,
    /// Entailment questions settled syntactically / sent to the solver layers.
    pub syntactic_checks: u64,
    pub solver_queries: u64,
    /// Paths of method bodies and `main` verified to their end.
    pub paths: u64,
    pub time_s: f64,
}

impl Report {
    pub fn verified(&self) -> bool {
        self.members
            .iter()
            .all(|m| matches!(m.status, validity::Status::Verified))
    }

    /// Some failure may be spurious because the solver answered unknown.
    pub fn inconclusive(&self) -> bool {
        self.undecided() > 0
    }

    /// Members that failed with every solver question answered: their failures are definite.
    pub fn definitely_failed(&self) -> usize {
        self.members
            .iter()
            .filter(|m| matches!(&m.status, validity::Status::Failed(f) if !f.inconclusive))
            .count()
    }

    /// Members whose failure may be spurious (the solver answered unknown, the time ran out).
    pub fn undecided(&self) -> usize {
        self.members
            .iter()
            .filter(|m| matches!(&m.status, validity::Status::Failed(f) if f.inconclusive))
            .count()
    }
}

/// Continuation-passing style nests one Rust frame group per statement on a path, so
/// verification runs on a thread with a large (lazily committed) stack.
const STACK_BYTES: usize = 1 << 30;

/// Verifies a checked program with the default solver chain of `symex-solver`.
pub fn run(program: Program, src: &str, config: Config) -> Report {
    let src: Arc<str> = Arc::from(src);
    let work = move || {
        let start = std::time::Instant::now();
        let solver = symex_solver::SolverConfig::default()
            .z3_mode(symex_solver::Z3Mode::Incremental)
            .timeout(query_time_limit(&config))
            .rlimit(
                config
                    .query_rlimit
                    .or(symex_solver::SolverConfig::default().rlimit),
            )
            .build();
        let mut warnings = program.warnings.clone();
        let mut v = Verifier::new(Arc::new(program), src, config, Prover::new(solver));
        let members = validity::program(&mut v);
        warnings.append(&mut v.warnings);
        let report = Report {
            members,
            warnings,
            syntactic_checks: v.prover.syntactic,
            solver_queries: v.prover.queries,
            paths: v.paths,
            time_s: start.elapsed().as_secs_f64(),
        };
        if !v.config.free_at_end {
            std::mem::forget(v);
        }
        report
    };
    on_large_stack("idf-verify", work)
}

/// The time limit of each solver call: the program's budget, else `query_limit` unless a
/// resource limit takes its place.
fn query_time_limit(config: &Config) -> Option<std::time::Duration> {
    match (config.max_time, config.query_rlimit) {
        (Some(t), _) => Some(t),
        (None, Some(_)) => None,
        (None, None) => Some(config.query_limit),
    }
}

/// Runs `f` on a thread of its own with a stack of `STACK_BYTES` (lazily committed) and waits
/// for it; a panic in `f` is passed on.
pub fn on_large_stack<T: Send>(name: &str, f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name(name.into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, f)
        {
            Ok(handle) => match handle.join() {
                Ok(value) => value,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => panic!("cannot spawn the {name} thread"),
        }
    })
}
