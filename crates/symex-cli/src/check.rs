//! `symex check --property P FILE`: one SV-COMP verdict from a symbolic exploration. `FALSE` only with a
//! violation whose test the concrete interpreter reproduces; `TRUE` only when the exploration completed
//! (every feasible path explored to its end, nothing approximated) without one; `UNKNOWN` otherwise — a
//! verdict is never guessed. Exit status: 0 TRUE, 1 FALSE, 2 bad input, 3 UNKNOWN.

use crate::portfolio::Answer;
use crate::property::{meaning, Meaning, Property};
use crate::run::{explore, fail, output_dir, ExploreArgs, Output, TestsMode};
use clap::{Args, ValueEnum};
use serde_json::json;
use std::path::{Path, PathBuf};
use symex_engine::{Checks, Program};
use symex_explore::{FinishedPath, PathEnd};

/// The data model of the program (SV-COMP's `data_model`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DataModel {
    /// 64-bit long and pointers (x86-64 Linux).
    #[value(name = "LP64", alias = "lp64")]
    Lp64,
    /// 32-bit int, long and pointers: compiled for i386 (`clang -m32`).
    #[value(name = "ILP32", alias = "ilp32")]
    Ilp32,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The program (.c, .i, .ll or .bc), or an SV-COMP task-definition file (.yml).
    pub file: PathBuf,
    /// unreach-call, valid-memsafety, valid-memcleanup, no-overflow, termination, def-behavior, or an SV-COMP .prp file (with a task
    /// file: the one of its properties to check; all of them without it).
    #[arg(long, value_parser = Property::parse)]
    pub property: Option<Property>,
    #[command(flatten)]
    pub explore: ExploreArgs,
    /// The data model the program is meant for.
    #[arg(long, value_enum, default_value = "LP64")]
    pub data_model: DataModel,
    /// Where the violation's test goes (default: a fresh symex-out-N).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print one JSON object instead of the verdict lines.
    #[arg(long)]
    pub json: bool,
    /// Print only the verdict line.
    #[arg(long)]
    pub quiet: bool,
    /// Decide by exploration alone (no bounded model checking after an undecided exploration).
    #[arg(long)]
    pub no_bmc: bool,
    /// The task file's property this process checks (`task.rs` runs one process per property).
    #[arg(long, hide = true)]
    pub task_property: Option<usize>,
    /// Write a witness to FILE (SV-COMP's YAML 2.0 format for .yml/.yaml, GraphML 1.0 otherwise): for
    /// FALSE the violation's path, for TRUE a correctness witness with the proof's loop invariants.
    #[arg(long, value_name = "FILE")]
    pub witness: Option<PathBuf>,
}

/// The budget of bounded model checking and the Horn-clause engine without `--max-time` and
/// `--solver-rlimit` (the exploration has none). Under `--solver-rlimit` alone they have none either:
/// BMC deepens until a verdict, a query that spends the limit, or the largest unwinding.
const DEFAULT_BMC_BUDGET: std::time::Duration = std::time::Duration::from_secs(60);

/// What `check` explores, once the input is read and the property's program made.
pub(crate) struct Prepared {
    pub prog: Program,
    pub checks: Checks,
    pub dir: PathBuf,
    pub max_memory: u64,
}

/// Runs the subcommand; returns the exit status.
pub fn main(mut args: CheckArgs) -> i32 {
    if crate::task::is_task_file(&args.file) {
        return crate::task::main(args);
    }
    let Some(p) = args.property else {
        return fail("--property is required for a program (a task file names its properties)");
    };
    let Prepared {
        prog,
        checks,
        dir,
        max_memory,
    } = match prepare(&mut args, p) {
        Ok(prepared) => prepared,
        Err(status) => return status,
    };
    let program = args.file.display().to_string();
    let out = Output {
        dir: Some(&dir),
        tests: TestsMode::Errors,
        ktest: false,
        program: program.clone(),
        progress: false,
        validate: true,
        klee_halting: false,
        emit_all_errors: false,
        program_output: false,
        signatures: false,
        campaign: None,
    };
    // The portfolio: bounded model checking in its own thread beside the exploration, both with the
    // whole budget; the first definite verdict ends the process (`portfolio.rs`).
    let bmc = (!args.no_bmc).then(|| crate::portfolio::BmcJob {
        module: prog.module(),
        property: p,
        entry: &args.explore.entry,
        checks,
        stdin: args.explore.stdin,
        budget: match (args.explore.max_time, args.explore.solver_rlimit) {
            (Some(t), _) => Some(crate::limits::left(t)),
            (None, Some(_)) => None,
            (None, None) => Some(DEFAULT_BMC_BUDGET),
        },
        dir: &dir,
        program: &program,
        max_memory_mb: max_memory,
        source: &args.file,
        frontend: args.explore.frontend.options(),
    });
    let print = |engine: &str, a: Answer| report_answer(&args, engine, a);
    let explored = || match explore_answer(&prog, &args, p, checks, &out) {
        Ok(a) => a,
        // The program cannot start: nothing for BMC to decide either.
        Err(why) => crate::portfolio::finish(|| fail(&why)),
    };
    crate::portfolio::race(bmc, &print, explored)
}

/// Reads the program as property `p` needs it (data model, overflow checks, the memory budget) and the
/// checks it is explored with. `Err` is the exit status of a verdict already printed (termination,
/// inputs declined) or of bad input.
pub(crate) fn prepare(args: &mut CheckArgs, p: Property) -> Result<Prepared, i32> {
    if args.data_model == DataModel::Ilp32 {
        // The real 32-bit target (i386: 4-byte int, long and pointers, 32-bit size_t), as SV-COMP means.
        let flags = args.explore.frontend.cflags.take().unwrap_or_default();
        args.explore.frontend.cflags = Some(format!("-m32 {flags}"));
    }
    if p.checks_overflow() {
        args.explore.frontend.check_signed_overflow();
    }
    // `check` never aborts on host memory: without `--max-memory` the run stops (UNKNOWN, with the
    // reason) at the default budget, below what the machine or `ulimit -v` would refuse.
    let max_memory = *args
        .explore
        .max_memory
        .get_or_insert_with(symex_engine::budget::default_memory_limit_mb);
    let module = match args.explore.frontend.load(&args.file) {
        Ok(m) => m,
        Err(e) if e.timed_out() => {
            return Err(report(
                args,
                "unknown",
                None,
                None,
                &[format!("timeout: {e}")],
            ));
        }
        Err(e) => return Err(fail(&e.to_string())),
    };
    let prog = crate::property::program(module, p);
    if p == Property::Termination {
        // TRUE from a `symex term` YES, FALSE from a NO with a replayed witness, else UNKNOWN.
        let e = &args.explore;
        let (verdict, reasons, nonterm) =
            crate::term::verdict(&args.file, &e.frontend, &e.entry, e.max_time);
        let witness = match (&nonterm, &args.witness) {
            (Some(w), Some(to)) => Some(
                crate::witness_term::write(&prog, w, &e.entry, &args.file, args.data_model, to)
                    .map(|p| (p, Vec::new(), None)),
            ),
            _ => None,
        };
        return Err(report_full(
            args, None, verdict, None, None, &reasons, witness,
        ));
    }
    let symbolic_argc = match crate::main_args::symbolic_argc(&prog, &args.explore.entry) {
        Ok(argc) => argc,
        Err(why) => return Err(report(args, "unknown", None, None, &[why])),
    };
    if let Some(why) = crate::property::declined(p, &args.file) {
        return Err(report(args, "unknown", None, None, &[why]));
    }
    let existed = args.out.as_deref().is_some_and(Path::exists);
    let dir = match output_dir(args.out.as_deref()) {
        Ok(d) => d,
        Err(e) => return Err(fail(&format!("cannot create the output directory: {e}"))),
    };
    if !existed {
        let _ = MADE_DIR.set(dir.clone());
    }
    let checks = Checks {
        symbolic_argc,
        ..p.checks()
    };
    Ok(Prepared {
        prog,
        checks,
        dir,
        max_memory,
    })
}

/// The exploration's answer: `FALSE` on the first violation whose test replays, `TRUE` when it completed
/// with nothing undecided, else `UNKNOWN` with the reasons. `Err` when the program cannot start.
pub(crate) fn explore_answer(
    prog: &Program,
    args: &CheckArgs,
    p: Property,
    checks: Checks,
    out: &Output<'_>,
) -> Result<Answer, String> {
    let mut violation: Option<(symex_engine::Bug, Option<&'static str>)> = None;
    let mut undecided: Vec<String> = Vec::new();
    let mut stop = |path: &FinishedPath| -> bool {
        let PathEnd::Error(b) = &path.end else {
            return false;
        };
        match meaning(p, b.kind) {
            Meaning::Violation(_) if path.address_dependent => {
                undecided.push(format!(
                    "a violation depends on numeric addresses the model fixes: {b}"
                ));
                false
            }
            Meaning::Violation(sub) if path.validation_error.is_none() => {
                violation = Some((b.clone(), sub));
                true
            }
            Meaning::Violation(_) => {
                undecided.push(format!("a violation's test does not replay: {b}"));
                false
            }
            Meaning::End => false,
            Meaning::Undecided => {
                undecided.push(format!("undefined behaviour outside the property: {b}"));
                false
            }
        }
    };
    // The portfolio's other engines run on their own threads beside the exploration: one thread
    // unless --jobs asks for more.
    let mut explore_args = args.explore.clone();
    explore_args.jobs.get_or_insert(1);
    let ex = match explore(prog, &explore_args, checks, out, &mut stop) {
        Ok(x) => x,
        // A valid program whose objects the memory model cannot place (an i386 global of 512 KiB or
        // more): no run was explored, so no verdict. A missing entry function stays bad input.
        Err(symex_engine::End::Halt(symex_engine::Halt::Unsupported { what, .. }))
            if entry_has_body(prog, &args.explore.entry) =>
        {
            return Ok(Answer::Unknown(vec![format!("unsupported: {what}")]));
        }
        Err(e) => return Err(crate::run::describe_start_failure(&e)),
    };
    if let Some((bug, sub)) = violation {
        let test = ex
            .errors
            .iter()
            .find(|e| e.bug.kind == bug.kind && e.bug.loc == bug.loc)
            .and_then(|e| e.test.clone());
        return Ok(Answer::False {
            bug,
            sub,
            test,
            replay: None,
        });
    }
    let s = &ex.summary;
    let mut reasons = undecided;
    reasons.extend(s.incomplete_reasons.iter().cloned());
    reasons.extend(ex.unsupported.iter().map(|u| format!("unsupported: {u}")));
    reasons.extend(
        ex.validation_errors
            .iter()
            .map(|v| format!("a test does not replay: {v}")),
    );
    if s.cut > 0 && s.incomplete_reasons.is_empty() {
        reasons.push(format!("{} paths were cut", s.cut));
    }
    if s.complete && reasons.is_empty() {
        return Ok(Answer::True(Vec::new()));
    }
    if !s.complete && reasons.is_empty() {
        reasons.push("the exploration did not complete".into());
    }
    Ok(Answer::Unknown(reasons))
}

/// Prints `engine`'s answer (`check`'s verdict lines) and returns the exit status.
fn report_answer(args: &CheckArgs, engine: &str, a: Answer) -> i32 {
    let engine = (!engine.is_empty()).then_some(engine);
    match a {
        Answer::True(invariants) => {
            let proves = args.property.is_none_or(Property::proves);
            let w = args
                .witness
                .as_deref()
                .filter(|_| proves)
                .map(|to| write_correctness_witness(args, &invariants, to));
            report_full(args, engine, "true", None, None, &[], w)
        }
        // How a long counterexample was replayed is the FALSE's evidence (`because:`).
        Answer::False {
            bug,
            sub,
            test,
            replay,
        } => {
            let how: Vec<String> = replay.into_iter().collect();
            report_by(args, engine, "false", Some((&bug, sub)), test, &how)
        }
        Answer::Unknown(reasons) => report_by(args, None, "unknown", None, None, &reasons),
    }
}

/// Whether the program defines its entry function (a start failure is then the model's, not the input's).
fn entry_has_body(prog: &Program, entry: &str) -> bool {
    prog.module()
        .function_by_name(entry)
        .is_some_and(|f| prog.module().func(f).body.is_some())
}

/// The optimisation level `--cflags` asks for, if not `-O0` (clang's last `-O` flag wins; symex's own
/// compile is `-O0`).
fn optimisation(cflags: Option<&str>) -> Option<String> {
    let last = cflags?.split_whitespace().rfind(|f| f.starts_with("-O"))?;
    (last != "-O0").then(|| last.to_string())
}

/// Prints the verdict and returns the exit status.
fn report(
    args: &CheckArgs,
    verdict: &str,
    bug: Option<(&symex_engine::Bug, Option<&str>)>,
    test: Option<String>,
    reasons: &[String],
) -> i32 {
    report_by(args, None, verdict, bug, test, reasons)
}

/// The output directory this process made (not one that existed before).
static MADE_DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Removes the output directory this process made when nothing was written into it (a `TRUE` has no
/// test), and the `symex-out-last` link to it.
fn remove_unused_output_dir() {
    let Some(d) = MADE_DIR.get() else { return };
    if std::fs::remove_dir(d).is_ok() {
        let last = Path::new("symex-out-last");
        if std::fs::read_link(last).is_ok_and(|t| t == *d) {
            let _ = std::fs::remove_file(last);
        }
    }
}

/// [`report`], naming the portfolio's engine that decided (`engine: …` line, JSON `"engine"`).
fn report_by(
    args: &CheckArgs,
    engine: Option<&str>,
    verdict: &str,
    bug: Option<(&symex_engine::Bug, Option<&str>)>,
    test: Option<String>,
    reasons: &[String],
) -> i32 {
    report_full(args, engine, verdict, bug, test, reasons, None)
}

/// A correctness witness written (its path, the invariants left out, and what `term`'s abstract states
/// added) or why not.
type Written = Result<(String, Vec<String>, Option<String>), String>;

/// [`report_by`] with a witness already written: a TRUE's correctness witness, or a termination
/// FALSE's stem and cycle.
fn report_full(
    args: &CheckArgs,
    engine: Option<&str>,
    verdict: &str,
    bug: Option<(&symex_engine::Bug, Option<&str>)>,
    test: Option<String>,
    reasons: &[String],
    written: Option<Written>,
) -> i32 {
    let mut reasons = std::borrow::Cow::Borrowed(reasons);
    let verdict = match args.property {
        Some(p) if verdict == "true" && !p.proves() => {
            reasons.to_mut().push(format!(
                "no violation of {} was found, but TRUE is not answered: the undefined behaviour symex \
                 checks (invalid dereferences and frees, division by zero, signed overflow and shifts \
                 out of range, unreachable code reached) is not all of C's (reads of uninitialised \
                 memory, unsequenced side effects, strict aliasing, ...)",
                p.name()
            ));
            "unknown"
        }
        _ => verdict,
    };
    let verdict = match optimisation(args.explore.frontend.cflags.as_deref()) {
        Some(level) if verdict == "true" => {
            reasons.to_mut().push(format!(
                "the program is compiled with `{level}`: the optimiser may delete or inline calls of a \
                 `reach_error` defined with a body and remove undefined behaviour the property is about, \
                 so TRUE is only answered for unoptimised builds"
            ));
            "unknown"
        }
        _ => verdict,
    };
    if verdict == "true" {
        remove_unused_output_dir();
    }
    let line = match (verdict, bug) {
        ("true", _) => "TRUE".to_string(),
        ("false", Some((_, Some(sub)))) => format!("FALSE({sub})"),
        ("false", _) => "FALSE".to_string(),
        _ => "UNKNOWN".to_string(),
    };
    let witness = match (verdict, bug, &test, &args.witness) {
        ("false", Some((b, sub)), Some(t), Some(w)) => {
            Some(write_witness(args, b, sub, t, w).map(|p| (p, Vec::new(), None)))
        }
        // An optimised build's TRUE became UNKNOWN above: its witness is not written. A FALSE without
        // a bug (termination's) comes with its witness already written.
        ("true", ..) | ("false", None, ..) => written,
        _ => None,
    };
    if args.json {
        let mut o = json!({
            "command": "check",
            "file": args.file.display().to_string(),
            "property": args.property.map(Property::name),
            "verdict": verdict,
        });
        if let Some((b, sub)) = bug {
            o["kind"] = json!(b.kind.as_str());
            o["subproperty"] = json!(sub);
            o["file_line"] = json!(b.loc.line);
            o["function"] = json!(b.loc.function);
            o["message"] = json!(b.message);
            o["test"] = json!(test);
        }
        match &witness {
            Some(Ok((w, left_out, from_term))) => {
                o["witness"] = json!(w);
                if !left_out.is_empty() {
                    o["invariants_left_out"] = json!(left_out);
                }
                if let Some(note) = from_term {
                    o["invariants_from_term"] = json!(note);
                }
            }
            Some(Err(why)) => o["witness_error"] = json!(why),
            None => {}
        }
        if !reasons.is_empty() {
            o["reasons"] = json!(reasons);
        }
        if let (Some(e), "true" | "false") = (engine, verdict) {
            o["engine"] = json!(e);
        }
        println!("{o}");
    } else {
        if !args.quiet {
            if let Some((b, _)) = bug {
                println!("violation: {b}");
                if let Some(t) = &test {
                    println!("test: {t}");
                }
            }
            match &witness {
                Some(Ok((w, left_out, from_term))) => {
                    println!("witness: {w}");
                    for l in left_out {
                        println!("invariant left out: {l}");
                    }
                    if let Some(note) = from_term {
                        println!("invariants from term: {note}");
                    }
                }
                Some(Err(why)) => println!("witness not written: {why}"),
                None => {}
            }
            // A definite verdict's reasons are its evidence (a NO's non-termination witness), not doubts.
            let label = if verdict == "unknown" {
                "unknown because"
            } else {
                "because"
            };
            for r in reasons.iter() {
                println!("{label}: {r}");
            }
            if let (Some(e), "true" | "false") = (engine, verdict) {
                println!("decided by: {e}");
            }
        }
        println!("{line}");
    }
    match verdict {
        "true" => 0,
        "false" => 1,
        _ => 3,
    }
}

/// Writes the GraphML violation witness of the violation's test `test` to `to`; returns its path.
fn write_witness(
    args: &CheckArgs,
    bug: &symex_engine::Bug,
    sub: Option<&str>,
    test: &str,
    to: &std::path::Path,
) -> Result<String, String> {
    let p = args.property.ok_or("no property")?;
    let t = symex_engine::TestFile::load(std::path::Path::new(test))?;
    let module = args
        .explore
        .frontend
        .load_untimed(&args.file)
        .map_err(|e| e.to_string())?;
    let prog = crate::property::program(module, p);
    let checks = Checks {
        symbolic_argc: t.inputs.iter().any(|i| i.name == symex_engine::ARGC_INPUT),
        ..p.checks()
    };
    let task = crate::witness::Task {
        program: &args.file,
        property: p,
        subproperty: sub,
        data_model: args.data_model,
        violation_line: bug.loc.line,
        violation_function: &bug.loc.function,
        source_branches: !args.explore.frontend.simplify
            && optimisation(args.explore.frontend.cflags.as_deref()).is_none(),
    };
    let yaml = crate::witness::is_yaml(to);
    let g = if yaml {
        crate::witness::yaml(&prog, &t, &args.explore.entry, checks, &task)?
    } else {
        crate::witness::graphml(&prog, &t, &args.explore.entry, checks, &task)?
    };
    std::fs::write(to, g).map_err(|e| format!("{}: {e}", to.display()))?;
    Ok(to.display().to_string())
}

/// Writes the correctness witness of a TRUE with the proof's `invariants` to `to` (YAML 2.0
/// `invariant_set` for .yml/.yaml, GraphML 1.0 otherwise).
fn write_correctness_witness(
    args: &CheckArgs,
    invariants: &[symex_engine::LoopInvariant],
    to: &Path,
) -> Written {
    let task = crate::witness_correct::Proven {
        program: &args.file,
        property: args.property.ok_or("no property")?,
        data_model: args.data_model,
    };
    let yaml = crate::witness::is_yaml(to);
    let mut invariants = invariants.to_vec();
    let mut from_term = None;
    if yaml {
        // The loops the proof gave no invariant: what `term`'s abstract states offer, confirmed.
        from_term = Some(
            match crate::term_invariants::confirmed(args, task.property) {
                Ok((invs, note)) => {
                    for i in invs {
                        if !invariants
                            .iter()
                            .any(|j| j.function == i.function && j.line == i.line)
                        {
                            invariants.push(i);
                        }
                    }
                    note
                }
                Err(why) => format!("none: {why}"),
            },
        );
    }
    let (text, left_out) = if yaml {
        crate::witness_correct::invariant_set(&task, &invariants)?
    } else {
        let why = invariants
            .iter()
            .map(|i| {
                format!(
                    "{}:{}: `{}` (GraphML witnesses carry none)",
                    i.function, i.line, i.expression
                )
            })
            .collect();
        (crate::witness_correct::graphml(&task)?, why)
    };
    std::fs::write(to, text).map_err(|e| format!("{}: {e}", to.display()))?;
    Ok((to.display().to_string(), left_out, from_term))
}
