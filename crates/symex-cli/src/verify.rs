//! `symex verify FILE`: the implicit-dynamic-frames verifier (`docs/src/concepts/idf-language.md`).
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use symex_idf::diagnostics::{line_col, render, render_warning};
use symex_idf::verify::pretty::{render_trace, term};
use symex_idf::verify::validity::Status;
use symex_idf::verify::{Config, Report, TraceStep};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The `.idf` program.
    pub file: PathBuf,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Print the symbolic states (heap, store, path condition) along each failing path.
    #[arg(long)]
    pub trace: bool,
    /// Do not infer `open`, `close` and `use` (the paper's §3 without §4.1).
    #[arg(long)]
    pub no_infer: bool,
    /// How deep inferred ghost operations may nest.
    #[arg(long, default_value_t = 3)]
    pub infer_depth: usize,
    /// A time budget in seconds (also each solver call's limit; without it each call stops
    /// after 10 s); when it runs out the verification stops, says so, and exits with status 3.
    #[arg(long, value_name = "DURATION", value_parser = crate::limits::parse_duration)]
    pub max_time: Option<std::time::Duration>,
    /// Z3's deterministic resource limit per solver call (its `rlimit` steps): a call that
    /// spends it answers unknown, the same way on an idle and on a loaded machine. It takes
    /// the place of the 10 s limit per call.
    #[arg(long, value_name = "N", env = "SYMEX_SOLVER_RLIMIT",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub solver_rlimit: Option<u32>,
    /// Print only the verdict.
    #[arg(long)]
    pub quiet: bool,
    /// Do not verify: run `main` concretely with run-time checks of assertions, contracts
    /// (postconditions with the parameters' entry values), loop invariants, permissions,
    /// predicate bodies at close/open/opening, `untouched` and pure-method termination.
    /// Exit 1 on a violation, 0 when `main` completes, 3 at a limit of the run.
    #[arg(long)]
    pub run: bool,
}

/// Runs the subcommand; returns the exit status of `spec/cli.md`.
pub fn run(args: &VerifyArgs) -> i32 {
    let name = args.file.display().to_string();
    let src = match read_source(&args.file) {
        Ok(s) => s,
        Err((message, position)) => {
            eprintln!("error: cannot read {name}: {message}");
            if args.json {
                let mut error = json!({ "message": message });
                if let Some((line, column)) = position {
                    error["line"] = json!(line);
                    error["column"] = json!(column);
                }
                println!(
                    "{}",
                    json!({"command": "verify", "file": name, "error": error})
                );
            }
            return 2;
        }
    };
    if args.run {
        return crate::verify_run::run(args, &name, &src);
    }
    let max_time = args.max_time.map(crate::limits::left);
    let config = Config {
        infer: !args.no_infer,
        infer_depth: args.infer_depth,
        trace: args.trace,
        max_time,
        query_rlimit: args.solver_rlimit,
        // The process ends after the report.
        free_at_end: false,
        ..Config::default()
    };
    let report = match symex_idf::verify_source(&src, config) {
        Ok(r) => r,
        Err(d) => {
            eprint!("{}", render(&name, &src, &d));
            if args.json {
                let (line, column) = line_col(&src, d.span.start);
                let out = json!({"command": "verify", "file": name, "error": {"message": d.message, "line": line, "column": column}});
                println!("{out}");
            }
            return 2;
        }
    };
    for w in &report.warnings {
        eprint!("{}", render_warning(&name, &src, w));
    }
    if args.json {
        println!("{}", to_json(&name, &src, &report, args.trace));
    } else {
        print_human(&name, &src, &report, args);
    }
    exit_status(&report)
}

/// The program text without the byte-order mark some editors put first; an error names the
/// line and column of the first byte that is not UTF-8.
fn read_source(path: &std::path::Path) -> Result<String, (String, Option<(usize, usize)>)> {
    let bytes = std::fs::read(path).map_err(|e| (e.to_string(), None))?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let before = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            let position = line_col(&before, valid);
            let message = format!(
                "not UTF-8 text (byte 0x{:02x} at line {}, column {})",
                e.as_bytes()[valid],
                position.0,
                position.1
            );
            return Err((message, Some(position)));
        }
    };
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// A definite failure decides the run (1) even when other members are undecided (3 only when
/// no member failed definitely).
fn exit_status(report: &Report) -> i32 {
    if report.verified() {
        0
    } else if report.definitely_failed() > 0 {
        1
    } else {
        3
    }
}

fn to_json(name: &str, src: &str, report: &Report, trace: bool) -> serde_json::Value {
    let members: Vec<_> = report
        .members
        .iter()
        .map(|m| match &m.status {
            Status::Verified => json!({"name": m.name, "status": "verified"}),
            Status::Failed(f) => {
                let (line, column) = line_col(src, f.span.start);
                let status = if f.inconclusive { "unknown" } else { "failed" };
                let mut error =
                    json!({"message": f.message, "line": line, "column": column, "notes": f.notes});
                if trace {
                    error["trace"] = f.trace.iter().map(|step| trace_step(src, step)).collect();
                    if let Some(goal) = &f.goal {
                        error["goal"] = json!(term(goal));
                    }
                }
                json!({"name": m.name, "status": status, "errors": [error]})
            }
        })
        .collect();
    let warnings: Vec<_> = report
        .warnings
        .iter()
        .map(|w| {
            let (line, column) = line_col(src, w.span.start);
            json!({"message": w.message, "line": line, "column": column})
        })
        .collect();
    json!({
        "command": "verify",
        "file": name,
        "verified": report.verified(),
        "warnings": warnings,
        "time_s": report.time_s,
        "members": members,
        "paths": report.paths,
        "solver": {"queries": report.solver_queries, "syntactic": report.syntactic_checks},
    })
}

/// One step of a failing path: the statement and the symbolic state before it.
fn trace_step(src: &str, step: &TraceStep) -> serde_json::Value {
    let (line, column) = line_col(src, step.span.start);
    let st = &step.state;
    let heap =
        |h: &symex_idf::verify::state::Heap| h.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let store: serde_json::Map<String, serde_json::Value> = st
        .store
        .iter()
        .map(|(k, v)| (k.to_string(), json!(term(v))))
        .collect();
    json!({
        "line": line,
        "column": column,
        "statement": snippet(src, step.span),
        "label": step.label,
        "heap": heap(&st.heap),
        "old_heap": heap(&st.old),
        "store": store,
        "path_condition": st.pc.facts().iter().map(term).collect::<Vec<_>>(),
    })
}

fn snippet(src: &str, span: symex_idf::ir::Span) -> String {
    let text = src.get(span.start..span.end).unwrap_or("");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn print_human(name: &str, src: &str, report: &Report, args: &VerifyArgs) {
    let failed = report
        .members
        .iter()
        .filter(|m| !matches!(m.status, Status::Verified))
        .count();
    if !args.quiet {
        for m in &report.members {
            match &m.status {
                Status::Verified => println!("{:<28} verified", m.name),
                Status::Failed(f) => {
                    let verdict = if f.inconclusive { "UNKNOWN" } else { "FAILED" };
                    println!("{:<28} {verdict}", m.name);
                    let d = symex_idf::Diagnostic {
                        message: f.message.clone(),
                        span: f.span,
                        label: "this part failed".into(),
                        notes: f.notes.clone(),
                    };
                    print!("{}", render(name, src, &d));
                    if args.trace {
                        println!("symbolic states on the failing path:");
                        print!("{}", render_trace(src, &f.trace, f.goal.as_ref()));
                    }
                }
            }
        }
        println!(
            "{} members, {} paths, {} solver queries, {} settled syntactically, {:.3} s",
            report.members.len(),
            report.paths,
            report.solver_queries,
            report.syntactic_checks,
            report.time_s
        );
    }
    let (definite, undecided) = (report.definitely_failed(), report.undecided());
    if failed == 0 {
        println!("VERIFIED");
    } else if definite == 0 {
        println!(
            "UNKNOWN ({failed} of {} members not verified: the solver answered unknown or the time ran out)",
            report.members.len()
        );
    } else if undecided > 0 {
        println!(
            "FAILED ({definite} of {} members; {undecided} more undecided: the solver answered unknown or the time ran out)",
            report.members.len()
        );
    } else {
        println!("FAILED ({failed} of {} members)", report.members.len());
    }
}
