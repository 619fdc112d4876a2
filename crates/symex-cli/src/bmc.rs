//! `symex bmc FILE --unwind K`: bounded model checking (`symex-bmc`). Loops and recursion are unwound K
//! times, one SMT query per property decides; `false` comes with a test the concrete interpreter replayed.
//! Exit status: 0 true, 1 false, 2 bad input, 3 bounded-true (no error within the bound, a longer run
//! exists) or unknown.

use crate::checks::CheckArgs;
use crate::frontend::FrontendArgs;
use crate::property::{classify, Property};
use crate::run::{fail, output_dir};
use clap::Args;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use symex_bmc::{Options, Report, Verdict};
use symex_chc::LoopInvariant;
use symex_engine::{outcome, BugKind, End, Program, TestFile, TestInput};
use symex_explore::SolverCtx;
use symex_solver::{SolverConfig, Z3Mode};

/// `--unwind`: a bound, or iterative deepening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unwind {
    Bound(u32),
    Auto,
}

fn parse_unwind(s: &str) -> Result<Unwind, String> {
    if s == "auto" {
        return Ok(Unwind::Auto);
    }
    s.parse::<u32>()
        .map(Unwind::Bound)
        .map_err(|_| format!("`{s}` is neither a number nor `auto`"))
}

/// `--unwindset main:7:10,f:3:2`: per-loop bounds, loops named as `--show-loops` prints them.
fn parse_unwindset(s: &str) -> Result<UnwindSet, String> {
    s.split(',')
        .filter(|x| !x.is_empty())
        .map(|item| {
            let parts: Vec<&str> = item.rsplitn(3, ':').collect();
            let bad = || format!("`{item}` is not FUNCTION:LINE:K");
            if parts.len() != 3 {
                return Err(bad());
            }
            let k = parts[0].parse().map_err(|_| bad())?;
            let line = parts[1].parse().map_err(|_| bad())?;
            Ok((parts[2].to_string(), line, k))
        })
        .collect::<Result<_, _>>()
        .map(UnwindSet)
}

/// `--engine`: how loops are decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// Bounded model checking (with `--k-induction`, its inductive step).
    Bmc,
    /// Constrained Horn clauses solved by Z3's Spacer: invariants for unbounded loops, re-checked by
    /// symex before TRUE (see `symex-chc`).
    Chc,
}

/// The value of `--unwindset` (one type of its own: clap's derive would read a `Vec` as repeated values).
#[derive(Clone, Debug)]
pub struct UnwindSet(pub Vec<(String, u32, u32)>);

#[derive(Args, Debug)]
pub struct BmcArgs {
    /// The program: .c, .i, .ll or .bc.
    pub file: PathBuf,
    #[command(flatten)]
    pub frontend: FrontendArgs,
    /// The function to start from.
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// Iterations of each loop (and nested activations of each function), or `auto`: 1, 2, 4, ... until a
    /// verdict other than bounded-true or the time budget.
    #[arg(long, default_value = "auto", value_parser = parse_unwind)]
    pub unwind: Unwind,
    /// Per-loop bounds, FUNCTION:LINE:K separated by commas (loops as --show-loops lists them).
    #[arg(long, value_name = "LOOP:K,...", value_parser = parse_unwindset)]
    pub unwindset: Option<UnwindSet>,
    /// Besides the base case (BMC to the bound), the inductive step of k-induction for the loop whose
    /// bound is reachable: `true` when it holds (loops no bound covers).
    #[arg(long)]
    pub k_induction: bool,
    /// Also look for deep violations with loop acceleration: a loop head may take n iterations of one
    /// path at once (n symbolic) where each variable changes by a constant; only a FALSE (replayed
    /// concretely) is taken from those runs.
    #[arg(long)]
    pub accelerate: bool,
    /// `chc`: encode the entry function's loop as Horn clauses for Z3's Spacer; TRUE comes with the
    /// invariant at the loop head (re-checked by symex), FALSE with BMC's replayed counterexample.
    #[arg(long, value_enum, default_value = "bmc")]
    pub engine: Engine,
    /// List the program's loops (FUNCTION:LINE) and stop.
    #[arg(long)]
    pub show_loops: bool,
    /// Check one SV-COMP property (as `check` does) instead of every bug kind.
    #[arg(long, value_parser = Property::parse)]
    pub property: Option<Property>,
    #[command(flatten)]
    pub checks: CheckArgs,
    /// Stop after this many seconds (the answer is then unknown, or the last bounded-true of `auto`).
    #[arg(long, value_name = "DURATION", value_parser = crate::limits::parse_duration)]
    pub max_time: Option<std::time::Duration>,
    /// Time limit of one solver query, in seconds [default: 60, none under --solver-rlimit].
    #[arg(long, value_name = "DURATION", value_parser = crate::limits::parse_duration)]
    pub solver_timeout: Option<std::time::Duration>,
    /// Z3's deterministic resource limit per solver call (its `rlimit` steps): a call that
    /// spends it answers unknown, the same way on an idle and on a loaded machine.
    #[arg(long, value_name = "N", env = "SYMEX_SOLVER_RLIMIT",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub solver_rlimit: Option<u32>,
    /// Where the counterexample's test goes (default: a fresh symex-out-N).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Print only the verdict line.
    #[arg(long)]
    pub quiet: bool,
}

/// The time limit of one of BMC's queries without `--solver-timeout` and `--solver-rlimit`.
pub const DEFAULT_QUERY_TIMEOUT: Duration = Duration::from_secs(60);

/// The largest bound `--unwind auto` tries.
pub const MAX_AUTO_UNWIND: u32 = 1 << 12;

/// Z3's resource limit per query of `--unwind auto` when neither `--max-time` nor `--solver-rlimit`
/// gives a budget: the deepening then ends at the first bound whose query spends it, the same bound on
/// any machine (`examples/chc/disjunctive_flag.c`: UNKNOWN at k = 256, where a time limit per query
/// let each bound's query grow past a minute).
pub const DEFAULT_AUTO_RLIMIT: u32 = 10_000_000;

/// Runs bounded model checking at `unwind`: the bound it answered at, and the report.
pub fn run_bmc(
    prog: &Program,
    opts: &Options,
    unwind: Unwind,
    property: Option<Property>,
    solver_timeout: Option<Duration>,
    k_induction: bool,
) -> Result<(u32, Report), End> {
    // Bit-blasting per query: the formulas are large `ite` terms, where Z3's incremental core is slow
    // (the lecture's example 2 at k = 5: over 60 s incrementally, 0.5 s bit-blasted).
    let ctx = SolverCtx::new(
        SolverConfig::default().z3_mode(Z3Mode::Bitblast).build(),
        solver_timeout,
    );
    // Terms here merge paths: reads of large objects at symbolic offsets fork, as they did.
    ctx.borrow_mut().large_select = false;
    let cls = move |k: BugKind| classify(property, k);
    match unwind {
        Unwind::Bound(k) => {
            let mut o = opts.clone();
            o.unwind = k;
            if k_induction {
                symex_bmc::check_k_induction(prog, &o, &cls, ctx).map(|r| (k, r))
            } else {
                symex_bmc::check(prog, &o, &cls, ctx).map(|r| (k, r))
            }
        }
        Unwind::Auto => {
            symex_bmc::check_auto_with(prog, opts, &cls, ctx, MAX_AUTO_UNWIND, k_induction)
        }
    }
}

/// Writes the counterexample's test (with the replay's outcome) as `dir/name`.
pub fn write_test(
    dir: &Path,
    name: &str,
    program: &str,
    entry: &str,
    inputs: &[TestInput],
    end: &End,
) -> std::io::Result<String> {
    let t = TestFile {
        program: Some(program.to_string()),
        entry: Some(entry.to_string()),
        inputs: inputs.to_vec(),
        outcome: Some(outcome(end)),
    };
    let path = dir.join(name);
    std::fs::write(&path, t.to_json())?;
    Ok(path.display().to_string())
}

/// Runs the subcommand; returns the exit status.
pub fn main(mut args: BmcArgs) -> i32 {
    let start = Instant::now();
    if args.checks.check_overflow || args.property == Some(Property::NoOverflow) {
        args.frontend.check_signed_overflow();
    }
    let module = match args.frontend.load(&args.file) {
        Ok(m) => m,
        Err(e) => return e.report(),
    };
    // Library models honour the deadline inside one call (a `strlen` over hundreds of MiB).
    symex_engine::budget::set(symex_engine::budget::Budget {
        max_memory_mb: None,
        deadline: crate::limits::process_deadline(),
    });
    // Under a property, a `reach_error` with a body means what it means for `check`.
    let prog = match args.property {
        Some(p) => crate::property::program(module, p),
        None => Program::new(module),
    };
    if args.show_loops {
        for l in symex_bmc::list_loops(&prog) {
            println!("{}:{}", l.function, l.line);
        }
        return 0;
    }
    if args.property == Some(Property::Termination) {
        return fail("bmc does not decide termination (use `symex term` or `symex check`)");
    }
    if args.property == Some(Property::DefBehavior) {
        return fail(
            "bmc does not decide def-behavior (use `symex check`, which reports its violations)",
        );
    }
    // SV-COMP gives a shift by at least the width no error of its own.
    let mut checks = args.checks.checks(false);
    checks.overflow |= args.property == Some(Property::NoOverflow);
    checks.leaks |= args.property == Some(Property::ValidMemsafety);
    checks.cleanup |= args.property == Some(Property::ValidMemcleanup);
    // `main` starts as under `check`: any `argc >= 0` when it reads `argc`; not decided when it reads
    // `argv` or `envp` (with `argc = 1` alone, a TRUE would miss the runs with arguments).
    let harness = crate::main_args::symbolic_argc(&prog, &args.entry);
    checks.symbolic_argc = harness.as_ref().is_ok_and(|&argc| argc);
    // A deterministic default budget for `--unwind auto`: every query under Z3's resource limit.
    let default_budget = args.engine == Engine::Bmc
        && args.unwind == Unwind::Auto
        && args.max_time.is_none()
        && args.solver_rlimit.is_none();
    if default_budget {
        args.solver_rlimit = Some(DEFAULT_AUTO_RLIMIT);
        symex_solver::set_default_rlimit(args.solver_rlimit);
    }
    let opts = Options {
        entry: args.entry.clone(),
        checks,
        unwind: 1,
        unwindset: args.unwindset.clone().map(|u| u.0).unwrap_or_default(),
        max_time: args.max_time.map(crate::limits::left),
        stdin: 0,
        accelerate: args.accelerate,
        native: Some(crate::frontend::native_source(
            &args.file,
            &args.frontend.options(),
        )),
    };
    let timeout = crate::limits::query_timeout(
        args.solver_timeout,
        args.solver_rlimit,
        DEFAULT_QUERY_TIMEOUT,
    );
    if let Some(why) = declined(&args).or(harness.err()) {
        let report = Report {
            verdict: Verdict::Unknown(why),
            queries: 0,
            aux_queries: 0,
            joins: 0,
            steps: 0,
            induction: None,
            invariants: Vec::new(),
            steps_tried: 0,
            accelerated: false,
            recursion_abstracted: false,
        };
        print_report(&args, 0, &report, &[], None, start.elapsed());
        return 3;
    }
    let mut invariants = Vec::new();
    let decided = match args.engine {
        Engine::Chc => {
            let hints = || {
                crate::term_invariants::hints(
                    &args.file,
                    args.frontend.options(),
                    &args.entry,
                    opts.max_time,
                )
            };
            crate::chc::decide(
                &prog,
                &opts,
                args.property,
                timeout,
                args.solver_rlimit,
                &hints,
            )
            .map(|(r, inv)| {
                invariants = inv;
                (0, r)
            })
        }
        Engine::Bmc => run_bmc(
            &prog,
            &opts,
            args.unwind,
            args.property,
            timeout,
            args.k_induction,
        ),
    };
    let (k, mut report) = match decided {
        Ok(r) => r,
        Err(e) => return fail(&crate::run::describe_start_failure(&e)),
    };
    if let (true, Verdict::Unknown(why)) = (default_budget, &mut report.verdict) {
        why.push_str(&format!(
            "; the default budget of --unwind auto: Z3's rlimit {DEFAULT_AUTO_RLIMIT} per query \
             (--max-time or --solver-rlimit set another)"
        ));
    }
    let mut test = None;
    if let Verdict::False { bug, inputs, .. } = &report.verdict {
        let dir = match output_dir(args.out.as_deref()) {
            Ok(d) => d,
            Err(e) => return fail(&format!("cannot create the output directory: {e}")),
        };
        let program = args.file.display().to_string();
        match write_test(
            &dir,
            "test000001.json",
            &program,
            &args.entry,
            inputs,
            &End::Bug(bug.clone()),
        ) {
            Ok(p) => test = Some(p),
            Err(e) => return fail(&format!("cannot write the test: {e}")),
        }
    }
    print_report(
        &args,
        k,
        &report,
        &invariants,
        test.as_deref(),
        start.elapsed(),
    );
    match report.verdict {
        Verdict::True => 0,
        Verdict::False { .. } => 1,
        Verdict::BoundedTrue { .. } | Verdict::Unknown(_) => 3,
    }
}

/// How the counterexample was replayed, when not by the interpreter alone.
fn replay_note(v: &Verdict) -> Option<String> {
    match v {
        Verdict::False { replay, .. } => replay.describe(),
        _ => None,
    }
}

/// Why `--property` is not decided for this input: the conservative rules of `check` apply to `bmc` too
/// (`no-overflow` with an unsuffixed literal above `INT_MAX`, or an LLVM input without clang's checks).
fn declined(args: &BmcArgs) -> Option<String> {
    crate::property::declined(args.property?, &args.file)
}

fn print_report(
    args: &BmcArgs,
    k: u32,
    r: &Report,
    invariants: &[LoopInvariant],
    test: Option<&str>,
    time: Duration,
) {
    let errors: Vec<_> = match &r.verdict {
        Verdict::False { bug, .. } => vec![json!({
            "kind": bug.kind.as_str(),
            "file": bug.loc.file,
            "line": bug.loc.line,
            "function": bug.loc.function,
            "message": bug.message,
            "test": test,
        })],
        _ => Vec::new(),
    };
    if args.json {
        let mut o = json!({
            "command": "bmc",
            "file": args.file.display().to_string(),
            "unwind": k,
            "verdict": r.verdict.name(),
            "errors": errors,
            "time_s": time.as_secs_f64(),
            "solver": {"queries": r.queries, "unwinding_queries": r.aux_queries},
            "joins": r.joins,
        });
        match &r.verdict {
            Verdict::Unknown(why) => o["reason"] = json!(why),
            Verdict::BoundedTrue { loops } => o["bound_reached"] = json!(loops),
            _ => {}
        }
        if let Some(why) = &r.induction {
            o["k_induction"] = json!(why);
        }
        if r.accelerated {
            o["accelerated"] = json!(true);
        }
        if let Verdict::False { replay, .. } = &r.verdict {
            o["replay"] = json!(replay.name());
            if let Some(how) = replay.describe() {
                o["replay_note"] = json!(how);
            }
        }
        if r.recursion_abstracted {
            o["recursion_abstracted"] = json!(true);
        }
        if args.k_induction {
            o["induction_steps"] = json!(r.steps_tried);
        }
        if args.engine == Engine::Chc {
            o["engine"] = json!("chc");
            o["invariants"] = crate::chc::invariants_json(invariants);
        }
        println!("{o}");
        return;
    }
    if !args.quiet {
        match args.engine {
            Engine::Bmc => println!("unwind: {k}"),
            Engine::Chc => println!("engine: chc"),
        }
        for inv in invariants {
            println!(
                "invariant at {}:{}: {}",
                inv.function,
                inv.line,
                inv.c_expression()
            );
        }
        match &r.verdict {
            Verdict::False { bug, .. } => {
                println!("violation: {bug}");
                if let Some(t) = test {
                    println!("test: {t}");
                }
                if r.accelerated {
                    println!("found with loop acceleration");
                }
                if let Some(how) = replay_note(&r.verdict) {
                    println!("replay: {how}");
                }
            }
            Verdict::BoundedTrue { loops } => {
                println!(
                    "no error within the bound; the bound is reachable in {}",
                    loops.join(", ")
                )
            }
            Verdict::Unknown(why) => println!("unknown because: {why}"),
            Verdict::True if r.recursion_abstracted => println!(
                "calls beyond the bound of recursive functions without side effects: any return value"
            ),
            Verdict::True => {}
        }
        if let Some(why) = &r.induction {
            println!("k-induction: {why}");
        }
        println!(
            "queries: {} (+{} while unwinding), joins: {}, time: {:.2} s",
            r.queries,
            r.aux_queries,
            r.joins,
            time.as_secs_f64()
        );
    }
    println!("{}", r.verdict.name().to_uppercase());
}
