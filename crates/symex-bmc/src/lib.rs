//! Bounded model checking (`symex bmc`): the lecture's *memoryless* symbolic execution, CBMC's job, on the
//! same instruction semantics as `symex run` and `symex replay`.
//!
//! * [`guarded`]: the value domain — the symbolic domain's terms, decisions that split a state into two
//!   guarded ones without asking the solver;
//! * [`loops`]: loop headers, natural loops and the reverse post-order that schedules the states;
//! * [`merge`]: joining two states at one point (`ite` of values and memory, `∨` of guards);
//! * [`order`]: unsigned comparisons of merged values decided leaf by leaf;
//! * [`unwind`]: the merging executor, loops and recursion unwound `K` times, unwinding assertions;
//! * [`verdict`]: one query per property, counterexamples replayed concretely.

pub mod guarded;
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
    })
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
    let start = Instant::now();
    let mut k = 1u32;
    loop {
        let mut o = opts.clone();
        o.unwind = k;
        o.max_time = opts.max_time.map(|t| {
            t.saturating_sub(start.elapsed())
                .max(Duration::from_millis(1))
        });
        let r = check(prog, &o, classify, ctx.clone())?;
        let out_of_time = opts.max_time.is_some_and(|t| start.elapsed() >= t);
        let deeper = matches!(r.verdict, Verdict::BoundedTrue { .. }) && k < max_unwind;
        if !deeper || out_of_time {
            return Ok((k, r));
        }
        k = k.saturating_mul(2).min(max_unwind);
    }
}
