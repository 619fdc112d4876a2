//! Bounded model checking (`symex bmc`): the lecture's *memoryless* symbolic execution, CBMC's job, on the
//! same instruction semantics as `symex run` and `symex replay`.
//!
//! * [`guarded`]: the value domain — the symbolic domain's terms, decisions that split a state into two
//!   guarded ones without asking the solver;
//! * [`loops`]: loop headers, natural loops and the reverse post-order that schedules the states;
//! * [`merge`]: joining two states at one point (`ite` of values and memory, `∨` of guards);
//! * [`order`]: unsigned comparisons of merged values decided leaf by leaf;
//! * [`unwind`]: the merging executor, loops and recursion unwound `K` times, unwinding assertions;
//! * [`verdict`]: one query per property, counterexamples replayed concretely;
//! * [`confirm`]: long counterexamples replayed on the native build instead of the interpreter;
//! * [`induction`]: k-induction's inductive step (`--k-induction`), and `invariant`: the invariants it
//!   assumed, as C expressions for correctness witnesses;
//! * [`accelerate`]: loop acceleration, `n` iterations of a path at once, for deep counterexamples;
//! * `tail`: the points from which no bug is reachable, where states are dropped.

pub mod accelerate;
pub mod confirm;
pub mod guarded;
pub mod induction;
mod invariant;
pub mod loops;
pub mod merge;
pub mod order;
mod recursion;
mod tail;
pub mod unwind;
pub mod verdict;

pub use confirm::{NativeSource, Replay};
pub use unwind::{list_loops, LoopName, Options};
pub use verdict::{Class, Report, Verdict};

use guarded::Shared;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};
use symex_engine::{BugKind, End, Program};
use symex_explore::SolverCtx;

/// Bounded model checking of `prog` at `opts.unwind`: the formulas, then the verdict.
/// `Err` when the program cannot start (no entry function).
///
/// With `opts.accelerate`, a bound without a FALSE is unwound once more with loop acceleration
/// ([`accelerate`]), and only a FALSE (a replayed counterexample) is taken from that run: no other
/// verdict rests on accelerated transitions.
pub fn check(
    prog: &Program,
    opts: &Options,
    classify: &dyn Fn(BugKind) -> Class,
    ctx: Rc<RefCell<SolverCtx>>,
) -> Result<Report, End> {
    let start = Instant::now();
    let mut r = unwound(prog, opts, classify, ctx.clone(), Extra::None)?;
    // Under the overflow checks an `nsw` operation deeper than the bound is an error the fresh
    // return value would hide: no abstraction then.
    let abstractable = !opts.checks.overflow;
    if let (Verdict::BoundedTrue { loops }, true) = (&r.verdict, abstractable) {
        let pure = recursion::without_side_effects(prog);
        // Only recursion bounds (a loop's name is its header's line, a function's its own line).
        let recursive = loops.iter().all(|l| {
            prog.module()
                .functions
                .iter()
                .enumerate()
                .any(|(i, f)| pure[i] && *l == format!("{}:{}", f.name, f.loc.line))
        });
        if recursive {
            let a = unwound(prog, opts, classify, ctx.clone(), Extra::Abstract(pure))?;
            r.queries += a.queries;
            r.aux_queries += a.aux_queries;
            if a.verdict == Verdict::True {
                r.verdict = Verdict::True;
                r.recursion_abstracted = true;
            }
        }
    }
    // Acceleration's counterexamples need a transition per phase of a loop, few: deeper bounds would
    // double the cost of plain BMC's deepening for nothing.
    if !opts.accelerate
        || opts.unwind > ACCELERATE_MAX_UNWIND
        || matches!(r.verdict, Verdict::False { .. } | Verdict::True)
    {
        return Ok(r);
    }
    let mut o = opts.clone();
    o.max_time = opts.max_time.map(|t| t.saturating_sub(start.elapsed()));
    if o.max_time.is_some_and(|t| t.is_zero()) {
        return Ok(r);
    }
    let a = unwound(prog, &o, classify, ctx, Extra::Accelerate)?;
    r.queries += a.queries;
    r.aux_queries += a.aux_queries;
    if let Verdict::False { .. } = a.verdict {
        r.verdict = a.verdict;
        r.accelerated = true;
    }
    Ok(r)
}

/// The deepest bound at which `Options::accelerate` unwinds a second time with accelerated transitions.
pub const ACCELERATE_MAX_UNWIND: u32 = 8;

/// What a second unwinding adds to the plain one.
enum Extra {
    None,
    /// Accelerated transitions at loop heads (only its FALSE is taken).
    Accelerate,
    /// Calls beyond the recursion bound of the functions without side effects return fresh values
    /// (only its TRUE is taken).
    Abstract(Vec<bool>),
}

/// The formulas of `prog` unwound at `opts.unwind` (with what `extra` adds), and their verdict.
fn unwound(
    prog: &Program,
    opts: &Options,
    classify: &dyn Fn(BugKind) -> Class,
    ctx: Rc<RefCell<SolverCtx>>,
    extra: Extra,
) -> Result<Report, End> {
    let shared = Shared::new(ctx);
    shared.borrow_mut().deadline = opts.max_time.map(|t| Instant::now() + t);
    let mut u = unwind::Unwinder::new(prog, opts.clone(), shared.clone()).slicing_tail();
    let accelerating = matches!(extra, Extra::Accelerate);
    match extra {
        Extra::None => {}
        Extra::Accelerate => u = u.accelerating(),
        Extra::Abstract(pure) => u = u.abstracting_recursion(pure),
    }
    let formulas = u.run()?;
    let mut queries = 0;
    let verdict = if accelerating && formulas.accelerated == 0 {
        // Nothing was accelerated: the plain run's formulas again, not worth their queries.
        Verdict::Unknown("no loop was accelerated".into())
    } else {
        verdict::decide_counting(prog, opts, &formulas, classify, &shared, &mut queries)
    };
    let aux_queries = shared.borrow().aux_queries;
    Ok(Report {
        verdict,
        queries,
        aux_queries,
        joins: formulas.joins,
        steps: formulas.steps,
        induction: None,
        invariants: Vec::new(),
        steps_tried: 0,
        accelerated: false,
        recursion_abstracted: false,
    })
}

/// The inductive step's share of the time the base case left: one part in this many.
const STEP_SHARE_DIVISOR: u32 = 4;

/// `--k-induction` at `opts.unwind`: the base case (bounded model checking), and when it finds no
/// violation but one loop's bound is reachable, the inductive step for that loop; `true` when it holds.
pub fn check_k_induction(
    prog: &Program,
    opts: &Options,
    classify: &dyn Fn(BugKind) -> Class,
    ctx: Rc<RefCell<SolverCtx>>,
) -> Result<Report, End> {
    Ok(check_k_induction_boxed(prog, opts, classify, ctx, None)?.0)
}

/// Whether the solvers run under Z3's resource limit (`--solver-rlimit`): then no time box or time
/// share of the inductive step depends on the clock.
fn counted() -> bool {
    symex_solver::SolverConfig::default().rlimit.is_some()
}

/// [`check_k_induction`] with the inductive step's time within `step_box` too; also, when the step
/// was tried and its query answered that `k` is too small, the number of strengthening invariants it
/// assumed (a deeper bound may prove it; a step that failed otherwise fails the same at every bound).
fn check_k_induction_boxed(
    prog: &Program,
    opts: &Options,
    classify: &dyn Fn(BugKind) -> Class,
    ctx: Rc<RefCell<SolverCtx>>,
    step_box: Option<Duration>,
) -> Result<(Report, Option<usize>), End> {
    let start = Instant::now();
    let mut r = check(prog, opts, classify, ctx.clone())?;
    let Verdict::BoundedTrue { loops } = &r.verdict else {
        return Ok((r, None));
    };
    let [l] = loops.as_slice() else {
        r.induction = Some(format!(
            "not attempted: the bounds of several loops are reachable ({})",
            loops.join(", ")
        ));
        return Ok((r, None));
    };
    // The base case covers the iterations up to the loop's own bound (`--unwindset` may set it).
    let k = l
        .rsplit_once(':')
        .and_then(|(f, line)| {
            opts.unwindset
                .iter()
                .find(|(g, m, _)| g == f && line.parse() == Ok(*m))
        })
        .map_or(opts.unwind, |(_, _, k)| *k);
    let shared = Shared::new(ctx);
    // The step gets a quarter of what the base case left of `--max-time` (its runs end there as
    // incomplete): under `--unwind auto` a step that does not hold at one bound must not take the time
    // the base case needs to deepen (a FALSE is only ever found by the base case).
    // Under a resource limit the step is bounded by counts (every query's limit, the stopping rule of
    // `--unwind auto`): it keeps only the run's own deadline, so that its answer does not depend on the load.
    let share = if counted() { 1 } else { STEP_SHARE_DIVISOR };
    let step_time = opts
        .max_time
        .map(|t| (t.saturating_sub(start.elapsed()) / share).max(Duration::from_millis(1)))
        .into_iter()
        .chain(step_box)
        .min();
    shared.borrow_mut().deadline = step_time.map(|t| Instant::now() + t);
    let mut o = opts.clone();
    o.max_time = step_time;
    let opts = &o;
    let mut queries = 0;
    let step = induction::inductive_step(prog, opts, l, k, classify, &shared, &mut queries);
    r.steps_tried = 1;
    r.queries += queries;
    r.aux_queries += shared.borrow().aux_queries;
    let mut progress = None;
    match step {
        Ok(invariants) => {
            r.induction = Some(format!("the inductive step holds for {l} at k = {k}"));
            r.verdict = Verdict::True;
            r.invariants = invariants;
        }
        Err(f) => {
            progress = f.k_too_small.then_some(f.survivors);
            r.induction = Some(format!("{l}: {}", f.why));
        }
    }
    Ok((r, progress))
}

/// The inductive step's time box under `--unwind auto` with a time limit, after the first step (which
/// has its share of the time left): this many times what the first bound took, plus
/// [`STEP_BOX_EXTRA`]. It doubles with every step that makes progress.
const STEP_BOX_FACTOR: u32 = 4;

/// See [`STEP_BOX_FACTOR`].
const STEP_BOX_EXTRA: Duration = Duration::from_secs(1);

/// Under `--unwind auto`, the steps in a row without progress after which the step is no longer tried
/// at deeper bounds (progress: the step's query answered that `k` is too small, with more strengthening
/// invariants than the step before; the first answered step counts as progress).
pub const MAX_STALLED_STEPS: u32 = 2;

/// Whether the inductive step is still worth trying at deeper bounds under `--unwind auto`, and its
/// time box: the stopping rule of k-induction, on counts (the step's answers), not on the clock.
#[derive(Default)]
struct Stepping {
    stopped: Option<String>,
    tried: u32,
    stalled: u32,
    /// The survivors of the last step whose query answered "k too small".
    survivors: Option<usize>,
    time_box: Option<Duration>,
}

impl Stepping {
    /// Records a bound's step (`progress`: see [`check_k_induction_boxed`]) that took `took` with
    /// the bound's base case, and decides whether deeper bounds try it.
    fn record(&mut self, k: u32, r: &Report, progress: Option<usize>, took: Duration, timed: bool) {
        if r.steps_tried == 0 {
            return;
        }
        self.tried += 1;
        let grew = match (progress, self.survivors) {
            (Some(now), Some(before)) => now > before,
            (Some(_), None) => true,
            (None, _) => false,
        };
        self.stalled = if grew { 0 } else { self.stalled + 1 };
        if progress.is_none() || self.stalled >= MAX_STALLED_STEPS {
            self.stopped = Some(format!(
                "not tried beyond k = {k}: the step made no progress ({})",
                r.induction.as_deref().unwrap_or("no step")
            ));
        }
        if progress.is_some() {
            self.survivors = progress;
        }
        self.time_box = timed.then(|| match self.time_box {
            Some(b) if grew => b.saturating_mul(2),
            Some(b) => b,
            None => took.saturating_mul(STEP_BOX_FACTOR) + STEP_BOX_EXTRA,
        });
    }
}

/// `--unwind auto`: iterative deepening, `K` = 1, 2, 4, … until a verdict other than `bounded-true`
/// or the time budget runs out (then the last answer, with the bound it was reached at).
pub fn check_auto(
    prog: &Program,
    opts: &Options,
    classify: &dyn Fn(BugKind) -> Class,
    ctx: Rc<RefCell<SolverCtx>>,
    max_unwind: u32,
) -> Result<(u32, Report), End> {
    check_auto_with(prog, opts, classify, ctx, max_unwind, false)
}

/// [`check_auto`], each bound with the inductive step when `k_induction`.
pub fn check_auto_with(
    prog: &Program,
    opts: &Options,
    classify: &dyn Fn(BugKind) -> Class,
    ctx: Rc<RefCell<SolverCtx>>,
    max_unwind: u32,
    k_induction: bool,
) -> Result<(u32, Report), End> {
    let start = Instant::now();
    let mut k = 1u32;
    // k-induction that knows when to stop: the step is tried at each bound only while it makes
    // progress, within a time box that doubles with each such step. On a loop it cannot prove,
    // k-induction then costs plain BMC's deepening plus a few bounded steps, and the base case (which
    // alone finds a FALSE) runs at every bound as without the flag.
    let mut stepping = Stepping::default();
    let mut bounded = None;
    loop {
        let mut o = opts.clone();
        o.unwind = k;
        o.max_time = opts.max_time.map(|t| {
            t.saturating_sub(start.elapsed())
                .max(Duration::from_millis(1))
        });
        let mut r = if k_induction && stepping.stopped.is_none() {
            let bound_start = Instant::now();
            let (r, progress) =
                check_k_induction_boxed(prog, &o, classify, ctx.clone(), stepping.time_box)?;
            let timed = opts.max_time.is_some() && !counted();
            stepping.record(k, &r, progress, bound_start.elapsed(), timed);
            r
        } else {
            let mut r = check(prog, &o, classify, ctx.clone())?;
            if k_induction {
                r.induction = stepping.stopped.clone();
            }
            r
        };
        r.steps_tried = stepping.tried;
        // An UNKNOWN at a deep bound still says how deep no violation was found (the bound before).
        if let (Verdict::Unknown(why), Some(p)) = (&mut r.verdict, bounded) {
            why.push_str(&format!(" (at k = {k}; no violation up to k = {p})"));
        }
        if matches!(r.verdict, Verdict::BoundedTrue { .. }) {
            bounded = Some(k);
        }
        let out_of_time = opts.max_time.is_some_and(|t| start.elapsed() >= t);
        let deeper = matches!(r.verdict, Verdict::BoundedTrue { .. }) && k < max_unwind;
        if !deeper || out_of_time {
            return Ok((k, r));
        }
        k = k.saturating_mul(2).min(max_unwind);
    }
}
