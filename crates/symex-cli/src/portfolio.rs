//! `check`'s portfolio: bounded model checking (`symex bmc --unwind auto --k-induction`) and the
//! Horn-clause engine (`symex bmc --engine chc`) run in threads of their own beside the exploration, all
//! with the whole `--max-time`. The first definite
//! verdict — `TRUE` with a proof, `FALSE` with a test the concrete interpreter replayed — is printed under
//! one lock and ends the process at once, so the other engine neither runs on nor prints; `UNKNOWN` only
//! when every engine is undecided, with the reasons of each.
//!
//! Each engine has its own solver: a Z3 context belongs to the thread that made it (`symex-solver`'s
//! `Z3Solver` is not `Send`), and BMC builds its `Program` from a copy of the module in its thread (a
//! `Program` shares names through `Rc`). Terms are hash-consed in one process-wide, thread-safe table.

use crate::bmc::{run_bmc, write_test, Unwind};
use crate::property::{meaning, Meaning, Property};
use std::io::Write;
use std::path::Path;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use symex_bmc::{Options, Verdict};
use symex_engine::{Bug, Checks, End};
use symex_ir::Module;

/// What one engine concludes.
pub enum Answer {
    /// A proof: the exploration completed, or BMC's error formulas are unsatisfiable with no reachable
    /// bound (or the inductive step holds), with the loop invariants the proof used (for the correctness
    /// witness; empty when the proof needs none, as a complete exploration or a full unwinding).
    True(Vec<symex_engine::LoopInvariant>),
    /// A violation whose test the concrete interpreter (or, for a long run, the native build)
    /// replayed, with the SV-COMP subproperty, and how it was replayed when not by the interpreter.
    False {
        bug: Bug,
        sub: Option<&'static str>,
        test: Option<String>,
        replay: Option<String>,
    },
    /// No verdict, and why.
    Unknown(Vec<String>),
}

impl Answer {
    fn definite(&self) -> bool {
        !matches!(self, Answer::Unknown(_))
    }
}

/// What BMC's thread needs (all of it `Send`; the `Program` is rebuilt there).
pub struct BmcJob<'a> {
    pub module: &'a Module,
    pub property: Property,
    pub entry: &'a str,
    pub checks: Checks,
    /// Symbolic bytes of standard input (`--stdin`): BMC must decide the same program the exploration
    /// runs (with stdin empty instead, it once answered TRUE where a read byte reaches the error).
    pub stdin: u32,
    /// Its time budget; `None`: none (under `--solver-rlimit` without `--max-time`, where counts
    /// bound BMC's deepening and every query, and the exploration's end is awaited).
    pub budget: Option<Duration>,
    /// Where its counterexample's test goes (under a name of its own: the exploration writes
    /// `testNNNNNN.json` into the same directory at the same time).
    pub dir: &'a Path,
    /// The program's name as the test file records it.
    pub program: &'a str,
    /// The host memory limit (MiB) BMC's copies of the engine honour, as the exploration's do.
    pub max_memory_mb: u64,
    /// The source and how it is compiled: `symex term`'s abstract states give the Horn-clause engine
    /// candidate invariants (from its own build of the source).
    pub source: &'a Path,
    pub frontend: symex_ir::FrontendOptions,
}

/// The stack of BMC's thread: its terms are deep `ite` trees that the solver and the simplifier walk
/// recursively (the main thread has the system's 8 MiB; a spawned one only 2 MiB by default).
const BMC_STACK_BYTES: usize = 512 << 20;

/// The stack of the Horn-clause engine's thread: its formulas are one iteration's, far shallower than
/// BMC's unrolled ones. Kept small because a stack is reserved address space: under `ulimit -v` a
/// second 512 MiB stack left too little for the exploration's own memory budget.
const CHC_STACK_BYTES: usize = 64 << 20;

/// The lock under which the one definite verdict is printed.
static ANSWERED: Mutex<()> = Mutex::new(());

/// Prints a definite verdict through `print` (which returns the exit status) and ends the process at
/// once. `_exit`, not `exit`: the other engine's thread may be inside Z3, whose static destructors
/// `exit` would run under it; stdout is flushed first. A second engine arriving here waits on the lock
/// until the process is gone, so exactly one verdict is printed.
pub fn finish(print: impl FnOnce() -> i32) -> ! {
    let _only_one = ANSWERED.lock().unwrap_or_else(|e| e.into_inner());
    let status = print();
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process without running anything else; every output is flushed.
    unsafe { libc::_exit(status) }
}

/// How long the exploration's UNKNOWN waits for BMC past BMC's own deadline before it is answered
/// without it (a step that does not check the clock must not hold the verdict past `--max-time`).
const BMC_GRACE: Duration = Duration::from_secs(2);

/// Runs `explore` on this thread, and BMC and the Horn-clause engine (unless `bmc` is `None`) on two
/// others; `report(engine, answer)`
/// prints a verdict and returns the exit status. Ends the process: with the first definite answer, or
/// with UNKNOWN once every engine is undecided (or BMC or CHC overran the deadline by [`BMC_GRACE`]).
pub fn race(
    bmc: Option<BmcJob<'_>>,
    report: &(dyn Fn(&str, Answer) -> i32 + Sync),
    explore: impl FnOnce() -> Answer,
) -> ! {
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel::<Answer>();
        let deadline = bmc
            .as_ref()
            .and_then(|job| job.budget)
            .map(|b| Instant::now() + b);
        let mut spawned = Vec::new();
        if let Some(job) = bmc.as_ref() {
            let engines: [(&str, Engine, usize); 2] = [
                ("bmc", bmc_answer, BMC_STACK_BYTES),
                ("chc", crate::chc::answer, CHC_STACK_BYTES),
            ];
            for (name, engine, stack) in engines {
                let tx = tx.clone();
                spawned.push((
                    name,
                    std::thread::Builder::new()
                        .name(name.into())
                        .stack_size(stack)
                        .spawn_scoped(s, move || {
                            let a = engine(job);
                            if a.definite() {
                                finish(|| report(name, a));
                            }
                            let _ = tx.send(a);
                        }),
                ));
            }
        }
        drop(tx);
        let explored = explore();
        if explored.definite() {
            finish(|| report("exploration", explored));
        }
        let Answer::Unknown(mut reasons) = explored else {
            unreachable!("a definite answer ended the process")
        };
        let mut running = 0;
        for (name, r) in spawned {
            match r {
                Ok(_) => running += 1,
                Err(e) => reasons.push(format!("{name}: its thread did not start: {e}")),
            }
        }
        if bmc.is_some() {
            let until = deadline.map(|d| d + BMC_GRACE);
            while running > 0 {
                let received = match until {
                    Some(u) => rx.recv_timeout(u.saturating_duration_since(Instant::now())),
                    None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                };
                match received {
                    Ok(Answer::Unknown(why)) => reasons.extend(why),
                    Ok(_) => unreachable!("a definite answer ended the process"),
                    Err(RecvTimeoutError::Timeout) => {
                        reasons.push("bmc/chc: still running past the time limit".into());
                        break;
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        reasons.push("bmc/chc: a thread ended without an answer".into());
                        break;
                    }
                }
                running -= 1;
            }
        }
        // `finish`, not a return: leaving the scope would join an engine's thread that overran.
        finish(|| report("", Answer::Unknown(reasons)))
    })
}

/// An engine of the portfolio beside the exploration, on a thread of its own.
type Engine = fn(&BmcJob<'_>) -> Answer;

/// BMC with `--unwind auto --k-induction` within the job's budget (verdict rules as `check`'s: FALSE
/// only with a replayed test, TRUE only with a proof).
pub fn bmc_answer(job: &BmcJob<'_>) -> Answer {
    // The budget is per thread: this one's must be set here, not inherited from the exploration's.
    symex_engine::budget::set(symex_engine::budget::Budget {
        max_memory_mb: Some(job.max_memory_mb),
        deadline: job.budget.map(|b| std::time::Instant::now() + b),
    });
    let prog = crate::property::program(job.module.clone(), job.property);
    let opts = Options {
        entry: job.entry.to_string(),
        checks: job.checks,
        unwind: 1,
        unwindset: Vec::new(),
        max_time: job.budget,
        stdin: job.stdin as usize,
        accelerate: true,
        native: Some(crate::frontend::native_source(job.source, &job.frontend)),
    };
    let p = Some(job.property);
    let (k, report) = match run_bmc(&prog, &opts, Unwind::Auto, p, job.budget, true) {
        Ok(r) => r,
        Err(e) => {
            return Answer::Unknown(vec![format!(
                "bmc: {}",
                crate::run::describe_start_failure(&e)
            )])
        }
    };
    let induction = report
        .induction
        .as_ref()
        .map_or(String::new(), |why| format!(" (k-induction: {why})"));
    match report.verdict {
        Verdict::True => Answer::True(report.invariants),
        Verdict::False {
            bug,
            inputs,
            replay,
        } => {
            let sub = match meaning(job.property, bug.kind) {
                Meaning::Violation(sub) => sub,
                _ => None,
            };
            let end = End::Bug(bug.clone());
            let name = "bmc-counterexample.json";
            let test = write_test(job.dir, name, job.program, job.entry, &inputs, &end).ok();
            Answer::False {
                bug,
                sub,
                test,
                replay: replay.describe(),
            }
        }
        Verdict::BoundedTrue { loops } => Answer::Unknown(vec![format!(
            "bmc: no violation up to unwinding {k}, but the bound is reachable in {}{induction}",
            loops.join(", ")
        )]),
        Verdict::Unknown(why) => Answer::Unknown(vec![format!("bmc: {why}{induction}")]),
    }
}
