//! `symex term FILE`: termination of a C program by a symbolic execution graph and an integer
//! transition system (`symex-term`). Prints `YES`, `NO` or `MAYBE` first, then the proof.

use crate::frontend::FrontendArgs;
use clap::Args;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use symex_its::print;
use symex_term::rules::Semantics;
use symex_term::{analyse, validate, Answer, Options, Report};

#[derive(Args, Debug)]
pub struct TermArgs {
    /// The program: .c, .i, .ll or .bc.
    pub file: PathBuf,
    #[command(flatten)]
    pub frontend: FrontendArgs,
    /// The function whose runs must terminate (default: `main`, else the only function nothing
    /// calls, as `symex cost` picks it).
    #[arg(long)]
    pub entry: Option<String>,
    /// A time budget in seconds; when it runs out the answer is MAYBE.
    #[arg(long, value_name = "DURATION", value_parser = crate::limits::parse_duration)]
    pub max_time: Option<std::time::Duration>,
    /// Z3's deterministic resource limit per solver call (its `rlimit` steps): a call that
    /// spends it answers unknown, the same way on an idle and on a loaded machine.
    #[arg(long, value_name = "N", env = "SYMEX_SOLVER_RLIMIT",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub solver_rlimit: Option<u32>,
    /// Mathematical integers instead of bit-vectors (unsound for C: for comparison only).
    #[arg(long)]
    pub math_int: bool,
    /// Signed overflow wraps around instead of being undefined behaviour (the paper's setting).
    #[arg(long)]
    pub signed_wrap: bool,
    /// Write the SEG (loop heads and the chains between them) in DOT to FILE.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    /// Random concrete runs that check a YES (0: none).
    #[arg(long, default_value_t = 20)]
    pub check_runs: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Print only the answer line.
    #[arg(long)]
    pub quiet: bool,
}

pub fn main(args: TermArgs) -> i32 {
    let started = Instant::now();
    let name = args.file.display().to_string();
    let promoted = symex_term::promoted(args.frontend.options());
    let module = match symex_ir::load(&args.file, &promoted) {
        Ok(m) => m,
        Err(e) => return crate::frontend::LoadError(e).report(),
    };
    let plain = match args.frontend.load(&args.file) {
        Ok(m) => m,
        Err(e) => return e.report(),
    };
    // The same choice as `symex cost`: the complexity benchmarks' C files have no `main`.
    let entry = match symex_cost::program::entry(&module, args.entry.as_deref()) {
        Ok(e) => e,
        Err(e) => return crate::replay::fail(&format!("{name}: {e}")),
    };
    let budget = args
        .max_time
        .map_or(Duration::from_secs(3600), crate::limits::left);
    let opts = Options {
        sem: Semantics {
            math_int: args.math_int,
            signed_wrap: args.signed_wrap,
        },
        entry,
        max_time: budget,
    };
    let mut report = analyse(&module, &opts);
    // Every answer is re-run on the reference interpreter; a contradicted answer is withdrawn.
    let check = validate::check_until(
        &plain,
        &opts,
        &report,
        args.check_runs,
        crate::limits::process_deadline(),
    );
    if let Some(problem) = &check.contradiction {
        report.answer = Answer::Maybe;
        report.reason = Some(format!("answer withdrawn: {problem}"));
    }
    if let (Some(path), Some(seg)) = (&args.dot, &report.seg) {
        if let Err(e) = std::fs::write(path, symex_term::seg::to_dot(seg)) {
            eprintln!("symex: error: cannot write {}: {e}", path.display());
            return 2;
        }
    }
    if args.json {
        println!("{}", to_json(&name, &report, &check, started));
    } else {
        println!("{}", report.answer.as_str());
        if !args.quiet {
            print_proof(&report, &check);
        }
    }
    match report.answer {
        Answer::Yes => 0,
        Answer::No => 1,
        Answer::Maybe => 3,
    }
}

fn print_proof(r: &Report, check: &validate::Check) {
    if let Some(reason) = &r.reason {
        println!("reason: {reason}");
    }
    println!("memory_safe: {}", r.memory_safe);
    if let Some(seg) = &r.seg {
        print!("{}", symex_term::seg::describe(seg));
    }
    if let Some(its) = &r.its {
        println!("ITS (Def. 7, KoAT format):");
        print!("{}", print::to_koat(its));
    }
    if let Some(its) = &r.its_preprocessed {
        if r.answer == Answer::Yes || !r.proof.is_empty() {
            println!("Ranking functions (after preprocessing):");
            for (i, t) in its.transitions.iter().enumerate() {
                println!("  t{i}: {}", print::rule(its, t));
            }
            for p in &r.proof {
                for s in &p.steps {
                    let removed: Vec<String> = s.removed.iter().map(|i| format!("t{i}")).collect();
                    let function = match (&s.quadratic_guard, &s.word_size, &s.ratio) {
                        (Some(q), _, _) => q.display(its),
                        (None, Some(ws), _) => ws.display(its),
                        (None, None, Some(r)) => r.display(its),
                        (None, None, None) if s.clamped => {
                            format!("max({}, 0)", s.function.display(its))
                        }
                        (None, None, None) => s.function.display(its),
                    };
                    println!("  {function} removes {}", removed.join(", "));
                }
            }
        }
    }
    if let Some(w) = &r.witness {
        println!("non-termination witness: {}", w.describe());
    }
    println!("{}", check.summary());
}

fn to_json(name: &str, r: &Report, check: &validate::Check, started: Instant) -> Value {
    let its = r.its.as_ref().map(print::to_koat);
    let ranking: Vec<Value> = match &r.its_preprocessed {
        Some(pre) => r
            .proof
            .iter()
            .flat_map(|p| p.steps.iter())
            .map(|s| match (&s.quadratic_guard, &s.word_size, &s.ratio) {
                (Some(q), _, _) => json!(q.display(pre)),
                (None, Some(ws), _) => json!(ws.display(pre)),
                (None, None, Some(r)) => json!(r.display(pre)),
                (None, None, None) if s.clamped => {
                    json!(format!("max({}, 0)", s.function.display(pre)))
                }
                (None, None, None) => json!(s.function.display(pre)),
            })
            .collect(),
        None => vec![],
    };
    json!({
        "command": "term",
        "file": name,
        "answer": r.answer.as_str(),
        "memory_safe": r.memory_safe,
        "reason": r.reason,
        "its": its,
        "ranking_functions": ranking,
        "witness": r.witness.as_ref().map(|w| json!({"inputs": w.inputs.iter().map(|(n, wd, v)| json!({"name": n, "width": wd, "value": v.to_string()})).collect::<Vec<_>>(), "proof": w.proof})),
        "seg": r.seg.as_ref().map(|s| json!({"loop_heads": s.heads.len(), "chains": s.edges.len(), "states": s.states, "rounds": s.rounds})),
        "check": check.to_json(),
        "solver": {"queries": r.solver_queries},
        "time_s": started.elapsed().as_secs_f64(),
    })
}

/// The SV-COMP verdict for `termination.prp` (`symex check --property termination`): `true`
/// from a YES, `false` from a NO whose witness replayed (with that witness), else `unknown`; with the
/// reasons.
pub fn verdict(
    file: &std::path::Path,
    frontend: &FrontendArgs,
    entry: &str,
    max_time: Option<Duration>,
) -> (
    &'static str,
    Vec<String>,
    Option<symex_term::nonterm::Witness>,
) {
    let promoted = symex_term::promoted(frontend.options());
    let promoted = symex_ir::load(file, &promoted).map_err(|e| e.to_string());
    let plain = frontend.load(file).map_err(|e| e.to_string());
    let (module, plain) = match (promoted, plain) {
        (Ok(m), Ok(p)) => (m, p),
        (Err(e), _) | (_, Err(e)) => return ("unknown", vec![e], None),
    };
    let opts = Options {
        sem: Semantics::default(),
        entry: entry.to_string(),
        max_time: max_time.map_or(Duration::from_secs(900), crate::limits::left),
    };
    let report = analyse(&module, &opts);
    let check = validate::check_until(
        &plain,
        &opts,
        &report,
        20,
        crate::limits::process_deadline(),
    );
    if let Some(c) = check.contradiction {
        return ("unknown", vec![format!("answer withdrawn: {c}")], None);
    }
    match (report.answer, report.witness) {
        (Answer::Yes, _) => ("true", vec![], None),
        (Answer::No, Some(w)) => ("false", vec![w.describe()], Some(w)),
        _ => (
            "unknown",
            vec![report.reason.unwrap_or_else(|| "no proof".into())],
            None,
        ),
    }
}
