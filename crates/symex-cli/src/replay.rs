//! `symex replay FILE TEST`: runs the program concretely on the test's inputs (the reference semantics)
//! and reports how it ended. Exit status: 0 normal exit, 1 bug, 2 bad input or unsupported construct,
//! 3 a limit was reached or the test violates an assumption of the program.

use crate::checks::CheckArgs;
use crate::frontend::FrontendArgs;
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use symex_engine::{
    outcome, BugKind, Checks, End, Halt, Program, RunOptions, TestFile, ARGC_INPUT,
    OVERSHIFT_MESSAGE, STACK_LIMIT_MESSAGE,
};

#[derive(Args, Debug)]
#[command(
    after_help = "A test whose expected outcome is signed-overflow or memory-leak turns on --check-overflow or --check-leaks."
)]
pub struct ReplayArgs {
    /// The program: .c, .i, .ll or .bc.
    pub file: PathBuf,
    /// The test file (JSON: the inputs in the order the program asks for them), or KLEE's .ktest.
    pub test: PathBuf,
    #[command(flatten)]
    pub frontend: FrontendArgs,
    /// The function to run (default: the test's `entry`, else `main`).
    #[arg(long)]
    pub entry: Option<String>,
    /// Stop after this many seconds (exit status 3).
    #[arg(long, value_name = "DURATION", value_parser = crate::limits::parse_duration)]
    pub max_time: Option<std::time::Duration>,
    /// Stop after this many IR instructions (exit status 3).
    #[arg(long, value_name = "N")]
    pub max_instructions: Option<u64>,
    /// End the run early at a call made with more than N frames on the stack, as `run` does; 0: no
    /// limit.
    #[arg(long, value_name = "N", default_value_t = crate::run::DEFAULT_MAX_STACK_FRAMES)]
    pub max_stack_frames: u32,
    #[command(flatten)]
    pub checks: CheckArgs,
    /// Print one JSON object instead of the program's output and the outcome line.
    #[arg(long)]
    pub json: bool,
    /// Print only the program's output.
    #[arg(long)]
    pub quiet: bool,
    /// Run a native build instead (clang-14, ASan and UBSan; `-m32` in --cflags for a 32-bit build) and
    /// say whether it ends as the test says (KLEE's klee-replay).
    #[arg(long)]
    pub native: bool,
}

/// A JSON test, or a `.ktest` file (KLEE's or symex's `--ktest`): its objects are the inputs, in order.
fn load_test(path: &std::path::Path) -> Result<TestFile, String> {
    if path.extension().is_none_or(|e| e != "ktest") {
        return TestFile::load(path);
    }
    let bytes = std::fs::read(path)
        .map_err(|e| format!("{}: cannot read test file: {e}", path.display()))?;
    let k = symex_explore::ktest::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(TestFile {
        program: k.args.first().cloned(),
        entry: None,
        inputs: k.objects,
        outcome: None,
    })
}

/// Runs the subcommand; returns the exit status.
pub fn main(args: ReplayArgs) -> i32 {
    let test = match load_test(&args.test) {
        Ok(t) => t,
        Err(e) => return fail(&e),
    };
    if args.native {
        return crate::native::main(&args, test);
    }
    let expected = test.outcome.clone();
    let expects = |k: BugKind| expected.as_ref().is_some_and(|o| o.kind == k.as_str());
    let mut frontend = args.frontend.clone();
    if args.checks.check_overflow || expects(BugKind::SignedOverflow) {
        frontend.check_signed_overflow();
    }
    let module = match frontend.load(&args.file) {
        Ok(m) => m,
        Err(e) => return e.report(),
    };
    let opts = run_options(&args, &test);
    let prog = Program::with_promoted_locals(module);
    let result = symex_engine::run(&prog, &test, &opts);
    for w in &result.warnings {
        eprintln!("symex: warning: {w}");
    }
    if result.unused_inputs > 0 {
        eprintln!(
            "symex: warning: the program did not ask for the last {} input(s) of the test",
            result.unused_inputs
        );
    }
    let got = outcome(&result.end);
    if args.json {
        let mut obj = json!({
            "command": "replay",
            "file": args.file.display().to_string(),
            "test": args.test.display().to_string(),
            "outcome": got,
            "stdout": String::from_utf8_lossy(&result.stdout),
            "instructions": result.instructions,
            "time_s": result.elapsed.as_secs_f64(),
            "cpu_time_s": result.cpu_time.as_secs_f64(),
            "inputs": result.inputs,
        });
        if let Some(exp) = &expected {
            obj["expected"] = json!(exp);
            obj["matches_expected"] =
                json!(exp.kind == got.kind && (exp.kind != "exit" || exp.code == got.code));
        }
        println!("{obj}");
    } else {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(&result.stdout);
        if !args.quiet {
            if !result.stdout.is_empty() && !result.stdout.ends_with(b"\n") {
                let _ = writeln!(out);
            }
            let _ = writeln!(out, "{}", describe(&result.end));
        }
        let _ = out.flush();
    }
    match &result.end {
        End::Exit(_) => 0,
        End::Bug(_) => 1,
        End::Halt(Halt::Unsupported { .. }) => {
            if !args.json {
                eprintln!("symex: error: {}", describe(&result.end));
            }
            2
        }
        End::Halt(_) => 3,
    }
}

/// The interpreter's options for `test`: a recorded signed-overflow, memory-leak or not-freed outcome turns
/// its check on; the overshift check follows [`overshift_by_default`] unless the flags say.
pub(crate) fn run_options(args: &ReplayArgs, test: &TestFile) -> RunOptions {
    let expects = |k: BugKind| test.outcome.as_ref().is_some_and(|o| o.kind == k.as_str());
    RunOptions {
        entry: args
            .entry
            .clone()
            .or_else(|| test.entry.clone())
            .unwrap_or_else(|| "main".into()),
        checks: Checks {
            overflow: args.checks.check_overflow || expects(BugKind::SignedOverflow),
            leaks: args.checks.check_leaks || expects(BugKind::MemoryLeak),
            cleanup: expects(BugKind::NotFreed),
            // A test of `symex check` on a `main` that reads `argc` starts with it.
            symbolic_argc: test.inputs.first().is_some_and(|i| i.name == ARGC_INPUT),
            silent_klee_assume: args.checks.silent_klee_assume,
            host_environment: args.checks.env,
            ubsan_runtime: args.checks.ubsan_runtime,
            overshift: args.checks.overshift(overshift_by_default(test)),
            max_stack_frames: args.max_stack_frames,
            // A concrete run takes the same target either way.
            switch_per_value: false,
        },
        max_instructions: args.max_instructions.unwrap_or(u64::MAX),
        max_time: args.max_time.map(crate::limits::left),
    }
}

/// `--check-overshift`'s default for `test`: on as in `run`, unless the test records another outcome.
/// A test of `run` that ends otherwise took no shift out of range, so the check cannot change it; a
/// test of `check` or `bmc` (which do not check shifts) may have, and replays as it was found. A test
/// without an outcome (a `.ktest`) replays as KLEE runs it.
fn overshift_by_default(test: &TestFile) -> bool {
    match &test.outcome {
        None => true,
        Some(o) => {
            o.kind == BugKind::Reported.as_str() && o.message.as_deref() == Some(OVERSHIFT_MESSAGE)
        }
    }
}

/// The outcome line of plain mode.
fn describe(end: &End) -> String {
    match end {
        End::Exit(code) => format!("outcome: exit {code}"),
        End::Bug(b) => format!("outcome: {b}"),
        End::Halt(Halt::AssumptionViolated(l)) => {
            format!("outcome: assumption-violated at {}:{} in {}: the test's inputs violate an assumption", l.file, l.line, l.function)
        }
        End::Halt(Halt::SilentExit(l)) => {
            format!(
                "outcome: silent-exit at {}:{} in {}",
                l.file, l.line, l.function
            )
        }
        End::Halt(Halt::Limit(msg)) => format!("outcome: limit: {msg}"),
        End::Halt(Halt::StackLimit(l)) => format!(
            "outcome: early at {}:{} in {}: {STACK_LIMIT_MESSAGE}",
            l.file, l.line, l.function
        ),
        End::Halt(Halt::Unsupported { what, loc }) => {
            format!(
                "outcome: unsupported at {}:{} in {}: {what}",
                loc.file, loc.line, loc.function
            )
        }
    }
}

pub(crate) fn fail(msg: &str) -> i32 {
    eprintln!("symex: error: {msg}");
    2
}
