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
//! * [`induction`]: k-induction's inductive step (`--k-induction`), and `invariant`: the invariants it
//!   assumed, as C expressions for correctness witnesses.

pub mod guarded;
pub mod induction;
mod invariant;
pub mod loops;
pub mod merge;
pub mod order;
pub mod unwind;
pub mod verdict;

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
pub fn check(
    prog: &Program,
    opts: &Options,
    classify: &dyn Fn(BugKind) -> Class,
    ctx: Rc<RefCell<SolverCtx>>,
) -> Result<Report, End> {
    let shared = Shared::new(ctx);
    shared.borrow_mut().deadline = opts.max_time.map(|t| Instant::now() + t);
    let formulas = unwind::Unwinder::new(prog, opts.clone(), shared.clone()).run()?;
    let mut queries = 0;
    let verdict = verdict::decide_counting(prog, opts, &formulas, classify, &shared, &mut queries);
    let aux_queries = shared.borrow().aux_queries;
    Ok(Report {
        verdict,
        queries,
        aux_queries,
        joins: formulas.joins,
        steps: formulas.steps,
        induction: None,
        invariants: Vec::new(),
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
    let start = Instant::now();
    let mut r = check(prog, opts, classify, ctx.clone())?;
    let Verdict::BoundedTrue { loops } = &r.verdict else {
        return Ok(r);
    };
    let [l] = loops.as_slice() else {
        r.induction = Some(format!(
            "not attempted: the bounds of several loops are reachable ({})",
            loops.join(", ")
        ));
        return Ok(r);
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
    let step_time = opts.max_time.map(|t| {
        (t.saturating_sub(start.elapsed()) / STEP_SHARE_DIVISOR).max(Duration::from_millis(1))
    });
    shared.borrow_mut().deadline = step_time.map(|t| Instant::now() + t);
    let mut o = opts.clone();
    o.max_time = step_time;
    let opts = &o;
    let mut queries = 0;
    let step = induction::inductive_step(prog, opts, l, k, classify, &shared, &mut queries);
    r.queries += queries;
    r.aux_queries += shared.borrow().aux_queries;
    match step {
        Ok(invariants) => {
            r.induction = Some(format!("the inductive step holds for {l} at k = {k}"));
            r.verdict = Verdict::True;
            r.invariants = invariants;
        }
        Err(why) => r.induction = Some(format!("{l}: {why}")),
    }
    Ok(r)
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
    loop {
        let mut o = opts.clone();
        o.unwind = k;
        o.max_time = opts.max_time.map(|t| {
            t.saturating_sub(start.elapsed())
                .max(Duration::from_millis(1))
        });
        let r = if k_induction {
            check_k_induction(prog, &o, classify, ctx.clone())?
        } else {
            check(prog, &o, classify, ctx.clone())?
        };
        let out_of_time = opts.max_time.is_some_and(|t| start.elapsed() >= t);
        let deeper = matches!(r.verdict, Verdict::BoundedTrue { .. }) && k < max_unwind;
        if !deeper || out_of_time {
            return Ok((k, r));
        }
        k = k.saturating_mul(2).min(max_unwind);
    }
}
