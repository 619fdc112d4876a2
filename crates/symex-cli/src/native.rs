//! `symex replay --native FILE TEST`: the test replayed on a native sanitizer build (`symex-native`),
//! compared with the outcome the test records (or, for a test without one, the outcome of symex's
//! interpreter on it).

use crate::replay::{fail, run_options, ReplayArgs};
use serde_json::json;
use std::io::Write;
use std::time::Duration;
use symex_engine::{outcome, Outcome, Program, TestFile};
use symex_native::{NativeRun, RunOptions};

/// Default wall-clock limit of a native run.
const DEFAULT_TIMEOUT_S: f64 = 60.0;

/// Runs `replay --native`; returns the exit status (that of the native outcome, as for `replay`).
pub fn main(args: &ReplayArgs, test: TestFile) -> i32 {
    let symex = match &test.outcome {
        Some(o) => Some(o.clone()),
        None => interpreted(args, &test),
    };
    let expects = |k: &str| symex.as_ref().is_some_and(|o| o.kind == k);
    let build_opts = args.frontend.native_build_options(
        args.checks.check_overflow || expects("signed-overflow"),
        // A test that ends otherwise although the path may call the program's own `reach_error` was
        // explored with that function as an ordinary call (check's no-overflow and valid-memsafety).
        symex.is_some() && !expects("reach-error"),
    );
    let build = match symex_native::build(&args.file, &build_opts) {
        Ok(b) => b,
        Err(e) => return fail(&e),
    };
    let mut test = test;
    if let Some(entry) = &args.entry {
        test.entry = Some(entry.clone());
    }
    let run_opts = RunOptions {
        check_leaks: args.checks.check_leaks || expects("memory-leak"),
        timeout: args.max_time.map_or(
            Duration::from_secs_f64(DEFAULT_TIMEOUT_S),
            crate::limits::left,
        ),
    };
    let run = symex_native::run(&build, &test, &run_opts);
    for w in &run.warnings {
        eprintln!("symex: warning: native run: {w}");
    }
    let agreement = symex.as_ref().map(|s| run.agrees_with(s));
    if args.json {
        print_json(args, &run, symex.as_ref(), agreement, build.m32);
    } else {
        print_plain(args, &run, symex.as_ref(), agreement);
    }
    match run.outcome.kind.as_str() {
        "exit" => 0,
        "not-reproducible" | "assumption-violated" | "timeout" => 3,
        _ => 1,
    }
}

/// symex's interpreter on a test that records no outcome; None when it cannot run the program.
fn interpreted(args: &ReplayArgs, test: &TestFile) -> Option<Outcome> {
    match args.frontend.load(&args.file) {
        Ok(module) => {
            let result = symex_engine::run(
                &Program::with_promoted_locals(module),
                test,
                &run_options(args, test),
            );
            Some(outcome(&result.end))
        }
        Err(e) => {
            eprintln!("symex: warning: no outcome to compare with: the test records none and {e}");
            None
        }
    }
}

fn print_json(
    args: &ReplayArgs,
    run: &NativeRun,
    symex: Option<&Outcome>,
    agreement: Option<bool>,
    m32: bool,
) {
    let obj = json!({
        "command": "replay",
        "native": true,
        "file": args.file.display().to_string(),
        "test": args.test.display().to_string(),
        "m32": m32,
        "outcome": run.outcome,
        "reproducible": run.reproduced(),
        "expected": symex,
        "agrees": agreement.unwrap_or(false),
        "stdout": String::from_utf8_lossy(&run.stdout),
        "warnings": run.warnings,
        "sanitizer_report": run.report,
    });
    println!("{obj}");
}

fn print_plain(
    args: &ReplayArgs,
    run: &NativeRun,
    symex: Option<&Outcome>,
    agreement: Option<bool>,
) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(&run.stdout);
    if !args.quiet {
        if !run.stdout.is_empty() && !run.stdout.ends_with(b"\n") {
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "outcome (native): {}", describe(&run.outcome));
        let verdict = match (agreement, symex) {
            (Some(true), Some(s)) => format!("agrees with symex ({})", s.kind),
            (Some(false), Some(s)) if run.outcome.kind == "not-reproducible" => {
                format!("not reproducible natively (symex: {})", describe(s))
            }
            (_, Some(s)) => format!("DISAGREES with symex: {}", describe(s)),
            _ => "nothing to compare with".to_string(),
        };
        let _ = writeln!(out, "native replay {verdict}");
    }
    let _ = out.flush();
}

/// `KIND at FILE:LINE in FUNCTION: MESSAGE`, or `exit N`, as far as known.
fn describe(o: &Outcome) -> String {
    if o.kind == "exit" {
        return format!("exit {}", o.code.unwrap_or(0));
    }
    let mut s = o.kind.clone();
    if let Some(f) = &o.file {
        s.push_str(&format!(" at {f}:{}", o.line.unwrap_or(0)));
    }
    if let Some(f) = &o.function {
        s.push_str(&format!(" in {f}"));
    }
    if let Some(m) = &o.message {
        s.push_str(&format!(": {m}"));
    }
    s
}
