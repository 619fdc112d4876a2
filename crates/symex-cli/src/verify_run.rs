//! `symex verify --run FILE`: runs `main` of an IDF program with the concrete executor
//! (`symex_idf::run`), the run-time counterpart of the verifier.
use crate::verify::VerifyArgs;
use serde_json::json;
use symex_idf::diagnostics::{line_col, render};
use symex_idf::run::{Outcome, RunConfig, RunReport};

/// Runs the program; returns the exit status of `spec/cli.md` (1: a violation, 0: `main`
/// completed or an `assume` stopped it, 3: a limit of the run, 2: bad input).
pub fn run(args: &VerifyArgs, name: &str, src: &str) -> i32 {
    let report = match symex_idf::run::run_source(src, RunConfig::default()) {
        Ok(r) => r,
        Err(d) => {
            eprint!("{}", render(name, src, &d));
            if args.json {
                let (line, column) = line_col(src, d.span.start);
                let error = json!({"message": d.message, "line": line, "column": column});
                println!(
                    "{}",
                    json!({"command": "verify", "mode": "run", "file": name, "error": error})
                );
            }
            return 2;
        }
    };
    if args.json {
        println!("{}", to_json(name, src, &report));
    } else {
        print_human(name, src, &report, args.quiet);
    }
    match report.outcome {
        Outcome::Completed | Outcome::Blocked(_) => 0,
        Outcome::Violation(_) => 1,
        Outcome::Limit(..) => 3,
    }
}

fn to_json(name: &str, src: &str, report: &RunReport) -> serde_json::Value {
    let outcome = match &report.outcome {
        Outcome::Completed => json!({"kind": "completed"}),
        Outcome::Blocked(span) => {
            let (line, column) = line_col(src, span.start);
            json!({"kind": "blocked", "line": line, "column": column})
        }
        Outcome::Violation(v) => {
            let (line, column) = line_col(src, v.span.start);
            json!({"kind": "violation", "member": v.member, "check": v.check,
                   "message": v.message, "line": line, "column": column, "notes": v.notes})
        }
        Outcome::Limit(message, span) => {
            let (line, column) = line_col(src, span.start);
            json!({"kind": "limit", "message": message, "line": line, "column": column})
        }
    };
    json!({"command": "verify", "mode": "run", "file": name, "outcome": outcome,
           "steps": report.steps, "calls": report.calls})
}

fn print_human(name: &str, src: &str, report: &RunReport, quiet: bool) {
    let counts = format!("{} steps, {} mutator calls", report.steps, report.calls);
    match &report.outcome {
        Outcome::Completed => println!("RUN COMPLETED ({counts})"),
        Outcome::Blocked(span) => {
            let (line, _) = line_col(src, span.start);
            println!("RUN COMPLETED: an assumption was false at line {line}, the run stopped there ({counts})");
        }
        Outcome::Violation(v) => {
            let (line, _) = line_col(src, v.span.start);
            if !quiet {
                let d = symex_idf::Diagnostic {
                    message: v.message.clone(),
                    span: v.span,
                    label: format!("{} failed here", v.check),
                    notes: v.notes.clone(),
                };
                print!("{}", render(name, src, &d));
            }
            println!(
                "RUN VIOLATION in {}: {} at line {line} ({counts})",
                v.member, v.check
            );
        }
        Outcome::Limit(message, span) => {
            let (line, _) = line_col(src, span.start);
            println!("RUN UNKNOWN: {message} (line {line}; {counts})");
        }
    }
}
