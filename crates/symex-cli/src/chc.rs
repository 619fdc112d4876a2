//! The Horn-clause engine (`symex bmc --engine chc`, and the third engine of `check`'s portfolio):
//! `symex-chc` answers safe with invariants it has re-checked, unsafe, or unknown; an unsafe answer
//! becomes FALSE only with a counterexample that BMC finds and the concrete interpreter replays.

use crate::bmc::{run_bmc, Unwind};
use crate::property::{classify, Property};
use serde_json::json;
use std::time::{Duration, Instant};
use symex_bmc::{Options, Report, Verdict};
use symex_chc::{Answer, Budget, LoopInvariant};
use symex_engine::{BugKind, End, LinearCandidate, Program};
use symex_explore::SolverCtx;
use symex_solver::{SolverConfig, Z3Mode};

/// Decides `prog` with Spacer within `opts.max_time` (and Z3's `rlimit` per call when given): the
/// verdict as BMC reports it, and the invariants of a TRUE.
pub fn decide(
    prog: &Program,
    opts: &Options,
    property: Option<Property>,
    solver_timeout: Option<Duration>,
    rlimit: Option<u32>,
    hints: &dyn Fn() -> Vec<LinearCandidate>,
) -> Result<(Report, Vec<LoopInvariant>), End> {
    let start = Instant::now();
    let ctx = merging_solver(solver_timeout);
    let cls = move |k: BugKind| classify(property, k);
    let budget = Budget {
        rlimit,
        timeout: opts.max_time.or(solver_timeout),
    };
    let report = |verdict, queries| Report {
        verdict,
        queries,
        aux_queries: 0,
        joins: 0,
        steps: 0,
        induction: None,
        invariants: Vec::new(),
        steps_tried: 0,
        accelerated: false,
        recursion_abstracted: false,
    };
    match symex_chc::prove(prog, opts, &cls, ctx, budget, hints) {
        Answer::Safe {
            invariants,
            queries,
        } => {
            let mut r = report(Verdict::True, queries);
            r.invariants = for_witness(&invariants);
            Ok((r, invariants))
        }
        Answer::Unknown(why) => Ok((
            report(Verdict::Unknown(format!("chc: {why}")), 0),
            Vec::new(),
        )),
        Answer::Unsafe { violations } => {
            // Spacer's derivation has no inputs: BMC deepens until it finds them (and replays them).
            let mut o = opts.clone();
            o.max_time = opts.max_time.map(|t| t.saturating_sub(start.elapsed()));
            let (_, r) = run_bmc(prog, &o, Unwind::Auto, property, solver_timeout, false)?;
            if matches!(r.verdict, Verdict::False { .. }) {
                return Ok((r, Vec::new()));
            }
            let bugs: Vec<String> = violations
                .iter()
                .map(|b| format!("{} at line {}", b.kind.as_str(), b.loc.line))
                .collect();
            let why = format!(
                "chc: Spacer derives a violation ({}), but BMC found no counterexample ({})",
                bugs.join(", "),
                match &r.verdict {
                    Verdict::Unknown(w) => w.clone(),
                    v => v.name().to_string(),
                }
            );
            Ok((report(Verdict::Unknown(why), r.queries), Vec::new()))
        }
    }
}

/// The solver of the Horn-clause encoding (and of anything else built on the merging executor's terms),
/// with `timeout` per query.
pub fn merging_solver(timeout: Option<Duration>) -> std::rc::Rc<std::cell::RefCell<SolverCtx>> {
    let ctx = SolverCtx::new(
        SolverConfig::default().z3_mode(Z3Mode::Bitblast).build(),
        timeout,
    );
    // Terms here merge paths: reads of large objects at symbolic offsets fork, as they did.
    ctx.borrow_mut().large_select = false;
    ctx
}

/// The invariants as JSON: function, line, column, the C expression and the conjuncts left out.
pub fn invariants_json(invariants: &[LoopInvariant]) -> serde_json::Value {
    json!(invariants
        .iter()
        .map(|i| json!({
            "function": i.function,
            "line": i.line,
            "column": i.col,
            "c_expression": i.c_expression(),
            "conjuncts_omitted": i.omitted,
        }))
        .collect::<Vec<_>>())
}

/// The Horn-clause engine in `check`'s portfolio: TRUE with re-checked invariants; an unsafe answer
/// is left to BMC's thread, which finds and replays the counterexample.
pub fn answer(job: &crate::portfolio::BmcJob<'_>) -> crate::portfolio::Answer {
    use crate::portfolio::Answer as A;
    // Under `--solver-rlimit` alone there is no time budget: the encoding ends by its count of queries
    // (`symex_chc::ENCODING_QUERIES`), Spacer and every query by the rlimit.
    let job_budget = job.budget;
    symex_engine::budget::set(symex_engine::budget::Budget {
        max_memory_mb: Some(job.max_memory_mb),
        deadline: job_budget.map(|b| Instant::now() + b),
    });
    let prog = crate::property::program(job.module.clone(), job.property);
    let opts = Options {
        entry: job.entry.to_string(),
        checks: job.checks,
        unwind: 1,
        unwindset: Vec::new(),
        max_time: job_budget,
        stdin: job.stdin as usize,
        accelerate: false,
        native: None,
    };
    let ctx = merging_solver(job_budget);
    let p = Some(job.property);
    let cls = move |k: BugKind| classify(p, k);
    let budget = Budget {
        rlimit: SolverConfig::default().rlimit,
        timeout: job_budget,
    };
    let hints =
        || crate::term_invariants::hints(job.source, job.frontend.clone(), job.entry, job.budget);
    match symex_chc::prove(&prog, &opts, &cls, ctx, budget, &hints) {
        Answer::Safe { invariants, .. } => A::True(for_witness(&invariants)),
        Answer::Unsafe { .. } => A::Unknown(vec![
            "chc: Spacer derives a violation (BMC looks for its inputs)".into(),
        ]),
        Answer::Unknown(why) => A::Unknown(vec![format!("chc: {why}")]),
    }
}

/// The invariants as the correctness witness writes them (those with at least one conjunct in C).
fn for_witness(invariants: &[LoopInvariant]) -> Vec<symex_engine::LoopInvariant> {
    invariants
        .iter()
        .filter(|i| !i.c_conjuncts.is_empty())
        .map(|i| symex_engine::LoopInvariant {
            function: i.function.clone(),
            line: i.line,
            expression: i.c_expression(),
        })
        .collect()
}
