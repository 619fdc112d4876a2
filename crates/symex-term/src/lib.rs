//! `symex term`: termination of C programs by symbolic execution graphs (AProVE's method,
//! Hensel, Giesl, Frohn, Ströder, JLAMP 2018 — "[B]" in the comments; seed 004).
//!
//! * [`state`]: abstract states `(p, LV, KB)` (Def. 1) of the register fragment, literals,
//!   readings; [`classify`]: the static `U_P`/`S_P` classification (§2); [`kb`]: `⟨a⟩_FO`
//!   and entailment through the solver (Def. 2).
//! * [`rules`]: the symbolic-execution rules of §3, one family per file.
//! * [`seg`]: the SEG with generalization at loop heads ([`heads`]); [`its_build`]: the ITS
//!   of Def. 7, proved by `symex-its`.
//! * [`nonterm`]: non-termination (not the paper's method): a concrete lasso (an exact
//!   repeat of the state) or a recurrent set at a loop head closed under every SEG path,
//!   reached by a concrete run — both bit-precise; [`validate`]: every answer re-run on the
//!   reference interpreter (`symex_engine`, as `symex replay`).

pub mod classify;
pub mod guard_split;
pub mod heads;
pub mod invariants;
pub mod its_build;
pub mod kb;
pub mod list;
pub mod mem_head;
pub mod nonterm;
pub mod recurrent;
pub mod rules;
pub mod seg;
pub mod state;
pub mod validate;

use rules::{Exec, Semantics};
use seg::{Limits, Seg, Stop};
use std::time::{Duration, Instant};
use symex_ir::Module;
use symex_its::termination::{self, SccProof, Termination};
use symex_its::{preprocess, Its};

/// `opt` flags that keep `simplifycfg` from speculating: folding `if (j > 0) j--; else i--;`
/// into two unconditional `add nsw` and `select`s (cousot9 of the TPDB) runs the decrement of
/// the branch not taken, whose overflow is a `poison` value in LLVM (undefined behaviour only
/// once it is used) — the rules of [B] §3 read an `nsw` overflow as `ERR` at once.
pub const NO_SPECULATION: [&str; 2] = [
    "-phi-node-folding-threshold=0",
    "-two-entry-phi-node-folding-threshold=0",
];

/// The pipeline of the analysed module: `mem2reg,simplifycfg` without speculation (no
/// "bonus" instruction hoisted into a branch's predecessor either).
pub const PASSES: &str = "mem2reg,simplifycfg<bonus-inst-threshold=0>";

/// The front-end options of the module [`analyse`] reads, from those of the plain build.
pub fn promoted(mut opts: symex_ir::FrontendOptions) -> symex_ir::FrontendOptions {
    opts.passes = Some(PASSES.into());
    opts.opt_flags
        .extend(NO_SPECULATION.iter().map(|f| f.to_string()));
    opts
}

/// The termination-competition answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    Maybe,
}

impl Answer {
    pub fn as_str(self) -> &'static str {
        match self {
            Answer::Yes => "YES",
            Answer::No => "NO",
            Answer::Maybe => "MAYBE",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Options {
    pub sem: Semantics,
    pub entry: String,
    pub max_time: Duration,
}

/// Everything `symex term` prints.
#[derive(Debug)]
pub struct Report {
    pub answer: Answer,
    /// Why MAYBE (or what the NO rests on).
    pub reason: Option<String>,
    /// The SEG has no `ERR` state and every construct was supported.
    pub memory_safe: bool,
    pub seg: Option<Seg>,
    /// The ITS of Def. 7 and after `symex-its`'s preprocessing.
    pub its: Option<Its>,
    pub its_preprocessed: Option<Its>,
    pub proof: Vec<SccProof>,
    pub witness: Option<nonterm::Witness>,
    pub solver_queries: u64,
}

impl Report {
    /// The report before any proof: `MAYBE`, nothing found yet.
    fn maybe() -> Report {
        Report {
            answer: Answer::Maybe,
            reason: None,
            memory_safe: false,
            seg: None,
            its: None,
            its_preprocessed: None,
            proof: Vec::new(),
            witness: None,
            solver_queries: 0,
        }
    }
}

/// Proves termination of `module` (lowered after `mem2reg`) from `opts.entry`.
pub fn analyse(module: &Module, opts: &Options) -> Report {
    let started = Instant::now();
    let deadline = started + opts.max_time;
    let query_timeout = opts.max_time.min(Duration::from_secs(10));
    let mut report = Report::maybe();
    let Some(entry) = module.function_by_name(&opts.entry) else {
        report.reason = Some(format!("no function `{}`", opts.entry));
        return report;
    };
    if module.func(entry).body.is_none() {
        report.reason = Some(format!("`{}` has no body", opts.entry));
        return report;
    }
    let asked = symex_its::smt::queries();
    let mut ex = Exec::new(module, opts.sem, kb::Kb::new(query_timeout));
    let limited = prove(&mut ex, entry, deadline, query_timeout, &mut report);
    report.solver_queries = ex.kb.queries;
    // A second SEG with guard-split heads (`guard_split.rs`): disjunctive invariants for the
    // programs the plain heads leave unproved. Only then: its extra general states cost
    // time on programs the plain SEG proves (trex03's three guards). With half the time left:
    // the search for a NO below runs to the deadline on a terminating program, and needs
    // the other half on a non-terminating one. Under a resource limit its budget is counted
    // instead, in queries (about twice the first attempt's), so that the answer does not
    // depend on the load.
    if report.answer == Answer::Maybe && !limited && Instant::now() < deadline {
        let budget = termination::retry_budget(symex_its::smt::queries() - asked);
        let half = if budget.is_some() {
            deadline
        } else {
            Instant::now() + deadline.saturating_duration_since(Instant::now()) / 2
        };
        let mut ex = Exec::new(module, opts.sem, kb::Kb::new(query_timeout));
        ex.split_guards = true;
        let mut second = Report::maybe();
        prove(&mut ex, entry, half, query_timeout, &mut second);
        second.solver_queries = report.solver_queries + ex.kb.queries;
        if second.answer == Answer::Yes {
            report = second;
        } else {
            report.solver_queries = second.solver_queries;
        }
    }
    // Under `--math-int` the search runs in the model too (its concrete runs are exact over ℤ);
    // `validate` replays the witness on C only where no value leaves its type's range.
    if report.answer == Answer::Maybe {
        if let Some(w) = nonterm::search(module, opts, report.seg.as_ref(), deadline) {
            report.answer = Answer::No;
            report.reason = Some(w.proof.clone());
            report.witness = Some(w);
        }
    }
    report
}

/// The SEG of `opts.entry` alone, without a termination proof: the abstract states of its loop heads
/// (for candidate invariants, [`invariants`]), or why it could not be built.
pub fn build_seg(module: &Module, opts: &Options) -> Result<Seg, String> {
    let entry = module
        .function_by_name(&opts.entry)
        .ok_or_else(|| format!("no function `{}`", opts.entry))?;
    let query_timeout = opts.max_time.min(Duration::from_secs(10));
    let mut ex = Exec::new(module, opts.sem, kb::Kb::new(query_timeout));
    let limits = Limits {
        max_states: 50_000,
        max_rounds: 200,
        deadline: Instant::now() + opts.max_time,
    };
    seg::build(&mut ex, entry, &limits).map_err(|s| match s {
        Stop::Err(r) => format!("ERR state: {r}"),
        Stop::Unsupported(r) => r,
        Stop::Limit(r) => format!("limit: {r}"),
    })
}

/// Builds the SEG and proves its ITS terminating, filling `report`'s answer, reason, SEG,
/// ITS and proof. Returns whether it stopped at a limit (time, states, rounds).
fn prove(
    ex: &mut Exec,
    entry: symex_ir::FuncId,
    deadline: Instant,
    query_timeout: Duration,
    report: &mut Report,
) -> bool {
    let limits = Limits {
        max_states: 50_000,
        max_rounds: 200,
        deadline,
    };
    match seg::build(ex, entry, &limits) {
        Ok(seg) => {
            report.memory_safe = true;
            let its = its_build::to_its(&seg);
            // The preprocessing's budget and every query of the back end end at the
            // deadline too (one query could otherwise run `query_timeout` past it).
            let left = || deadline.saturating_duration_since(Instant::now());
            let pre = preprocess::preprocess(&its, query_timeout.min(left()));
            let tl = termination::Limits {
                query_timeout: query_timeout.min(left()),
                deadline,
            };
            // Partial evaluation of the unproved SCCs (symex-its) separates phases that one
            // linear function cannot rank; the proof then refers to the refined ITS.
            let (pre, proved) = termination::prove_refining(&pre, &tl);
            let mut limited = false;
            match proved {
                Termination::Yes(p) => {
                    report.answer = Answer::Yes;
                    report.proof = p;
                }
                Termination::Maybe(r, p) => {
                    limited = Instant::now() >= deadline;
                    report.reason = Some(format!("the ITS back end found no proof: {r}"));
                    report.proof = p;
                }
            }
            report.its = Some(its);
            report.its_preprocessed = Some(pre);
            report.seg = Some(seg);
            limited
        }
        Err(Stop::Err(r)) => {
            report.reason = Some(format!("ERR state: {r}"));
            false
        }
        Err(Stop::Unsupported(r)) => {
            report.reason = Some(r);
            false
        }
        Err(Stop::Limit(r)) => {
            report.reason = Some(format!("limit: {r}"));
            true
        }
    }
}
