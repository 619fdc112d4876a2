//! Loop invariants for a TRUE's correctness witness from `symex term`'s abstract states, for the loops
//! the proof itself gave none (a complete exploration gives none at all): the SEG of the termination
//! analysis proposes the facts of each loop head's general state (`symex_term::invariants`), and the
//! Horn-clause encoding keeps those that its queries show inductive (`symex_chc::houdini`). One
//! analysis proposes, another checks on the engine's bit-precise semantics; nothing unchecked is
//! written.

use crate::check::CheckArgs;
use crate::property::{classify, Property};
use std::path::Path;
use std::time::Duration;
use symex_engine::{BugKind, Checks, LinearCandidate, LoopInvariant};
use symex_term::rules::Semantics;

/// At most this long for the SEG and the confirmation together: they only add to a verdict already
/// printed-to-be, so they must not hold it long.
const BUDGET: Duration = Duration::from_secs(60);

/// The candidate invariants of the loop heads of `file` (from `entry`) that the SEG's abstract states
/// state, built within `budget`; `Err` says why there are none.
pub fn seg_candidates(
    file: &Path,
    frontend: symex_ir::FrontendOptions,
    entry: &str,
    budget: Duration,
) -> Result<Vec<LinearCandidate>, String> {
    let promoted = symex_term::promoted(frontend);
    let module = symex_ir::load(file, &promoted).map_err(|e| e.to_string())?;
    let opts = symex_term::Options {
        sem: Semantics::default(),
        entry: entry.to_string(),
        max_time: budget,
    };
    let seg = symex_term::build_seg(&module, &opts).map_err(|e| format!("no SEG: {e}"))?;
    let candidates = symex_term::invariants::candidates(&seg, &module);
    if candidates.is_empty() {
        return Err("the SEG's loop heads give no candidate over named variables".into());
    }
    Ok(candidates)
}

/// Hints for the Horn-clause engine ([`seg_candidates`]; none when the SEG gives none): at most
/// [`HINT_BUDGET`] of `budget` for the SEG. Under `--solver-rlimit` without a time budget the SEG's
/// own counts (states, rounds) and the rlimit of each query end it, not the clock, so that the
/// hints, and the verdicts resting on them, are the same on an idle and on a loaded machine.
pub fn hints(
    file: &Path,
    frontend: symex_ir::FrontendOptions,
    entry: &str,
    budget: Option<Duration>,
) -> Vec<LinearCandidate> {
    let t = match budget {
        Some(b) => (b / 4).min(HINT_BUDGET),
        None if symex_solver::SolverConfig::default().rlimit.is_some() => COUNTED,
        None => HINT_BUDGET,
    };
    seg_candidates(file, frontend, entry, t).unwrap_or_default()
}

/// The most time the SEG for [`hints`] takes (a quarter of the engine's budget when that is less).
const HINT_BUDGET: Duration = Duration::from_secs(10);

/// No time limit in practice: the SEG's counts end it first.
const COUNTED: Duration = Duration::from_secs(24 * 3600);

/// The confirmed invariants of the entry function's loops (none: no candidate survived), with a note
/// saying how many candidates were offered and kept; `Err` says why there is none to offer.
pub fn confirmed(
    args: &CheckArgs,
    property: Property,
) -> Result<(Vec<LoopInvariant>, String), String> {
    let budget = args
        .explore
        .max_time
        .map_or(BUDGET, |t| crate::limits::left(t).min(BUDGET));
    let candidates = seg_candidates(
        &args.file,
        args.explore.frontend.options(),
        &args.explore.entry,
        budget,
    )?;
    let plain = args
        .explore
        .frontend
        .load_untimed(&args.file)
        .map_err(|e| e.to_string())?;
    let prog = crate::property::program(plain, property);
    let bmc = symex_bmc::Options {
        entry: args.explore.entry.clone(),
        checks: Checks {
            overflow: property.checks_overflow(),
            ..Checks::default()
        },
        unwind: 1,
        unwindset: Vec::new(),
        max_time: Some(budget),
        stdin: args.explore.stdin as usize,
        accelerate: false,
        native: None,
    };
    let ctx = crate::chc::merging_solver(
        crate::limits::query_timeout(
            args.explore.solver_timeout,
            args.explore.solver_rlimit,
            crate::run::DEFAULT_QUERY_TIMEOUT,
        )
        .map(|t| t.min(budget)),
    );
    let p = Some(property);
    let cls = move |k: BugKind| classify(p, k);
    let c = symex_chc::houdini::confirm(&prog, &bmc, &cls, ctx, &candidates)?;
    let note = format!(
        "{} of {} candidates from term's abstract states are inductive ({} queries)",
        c.kept, c.offered, c.queries
    );
    Ok((c.invariants, note))
}
