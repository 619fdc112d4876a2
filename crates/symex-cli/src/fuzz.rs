//! `symex fuzz FILE --seed SEEDFILE`: whitebox fuzzing by generational search (SAGE, crate `symex-fuzz`).
//! Writes each distinct crash as `crashNNNNNN.bin` (the input bytes) with `crashNNNNNN.json` (a test file
//! `symex replay` reproduces), each input that covered new blocks into `queue/`, and `report.json`.
//! Exit status: 1 a crash was found, 0 the work list ran empty without one (nothing wrong on the explored
//! space: the solver's children keep the seeds' lengths), 2 bad input, 3 a limit stopped the search first, a run was
//! cut by the instruction limit or the solver left a child unsolved.

use crate::checks::CheckArgs;
use crate::frontend::FrontendArgs;
use crate::run::{describe_start_failure, fail, output_dir};
use clap::Args;
use serde_json::{json, Value};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use symex_campaign::fuzz::FuzzWorker;
use symex_engine::{outcome, End, Halt, Program, TestFile};
use symex_fuzz::{coverage_counts, AflSync, Crash, Event, FuzzOptions, Fuzzer, RunConfig};

#[derive(Args, Debug)]
pub struct FuzzArgs {
    /// The program: .c, .i, .ll or .bc.
    pub file: PathBuf,
    #[command(flatten)]
    pub frontend: FrontendArgs,
    /// The function to start from.
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// A seed input (its bytes feed the program's inputs in the order it asks for them). Repeatable.
    #[arg(long, value_name = "FILE")]
    pub seed: Vec<PathBuf>,
    /// Every regular file of DIR is a seed (e.g. an AFL++ queue directory), in name order.
    #[arg(long, value_name = "DIR")]
    pub seed_dir: Option<PathBuf>,
    /// An AFL++ sync directory (`afl-fuzz -o DIR`): symex's new-coverage inputs and crashes go to
    /// DIR/symex/queue/ for AFL++ to pick up, and the other instances' queue entries are run and expanded
    /// as they appear (with --max-time, an empty work list waits for them).
    #[arg(long, value_name = "DIR")]
    pub sync_dir: Option<PathBuf>,
    /// Without a seed: start from this many zero bytes.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub input_size: usize,
    /// The input bytes are standard input (as many as the input holds; `run`'s stdin model).
    #[arg(long)]
    pub stdin: bool,
    /// The input bytes are the file the program opens by the path NAME (`fopen`/`open` and the stream
    /// reads; other paths fail to open). NAME must be relative: the native replay creates it in the
    /// empty directory it runs the program in.
    #[arg(long = "file", value_name = "NAME", conflicts_with = "stdin")]
    pub sym_file: Option<String>,
    /// One more `argv` string of N fuzzed bytes (a NUL among them ends it sooner), taken from the
    /// input's first bytes. Repeatable.
    #[arg(long = "arg", value_name = "N")]
    pub sym_args: Vec<usize>,
    /// Stop after this many runs.
    #[arg(long, value_name = "N")]
    pub max_runs: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "DURATION", value_parser = crate::limits::parse_duration)]
    pub max_time: Option<std::time::Duration>,
    /// Cut one run after this many IR instructions.
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    pub max_instructions: u64,
    /// Parallel workers (threads): each runs and expands inputs with its own copy of the program and its
    /// own solver; the work list, the block coverage, the inputs run and the crashes are shared.
    /// [default: the number of cores; 1 in a campaign or with --sync-dir]
    #[arg(long, value_name = "N", env = "SYMEX_JOBS",
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Time limit of one solver query, in seconds (a child whose query runs out is not run)
    /// [default: 10, none under --solver-rlimit].
    #[arg(long, value_name = "DURATION", value_parser = crate::limits::parse_duration)]
    pub solver_timeout: Option<std::time::Duration>,
    /// Z3's deterministic resource limit per solver call (its `rlimit` steps): a call that
    /// spends it answers unknown, the same way on an idle and on a loaded machine.
    #[arg(long, value_name = "N", env = "SYMEX_SOLVER_RLIMIT",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub solver_rlimit: Option<u32>,
    #[command(flatten)]
    pub checks: CheckArgs,
    /// Where crashes, the queue and the report go (default: a fresh symex-out-N).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print one JSON object (the report) instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
    /// Write every input run, one a line in hexadecimal, sorted (a campaign's worker: those of the
    /// items it ended).
    #[arg(long, value_name = "FILE")]
    pub inputs_out: Option<PathBuf>,
    #[command(flatten)]
    pub worker: crate::campaign::WorkerArgs,
}

/// The seeds in the order given: `--seed` files, then the files of `--seed-dir` by name.
fn seeds(args: &FuzzArgs) -> Result<Vec<Vec<u8>>, String> {
    let mut paths = args.seed.clone();
    if let Some(d) = &args.seed_dir {
        let rd = std::fs::read_dir(d).map_err(|e| format!("{}: {e}", d.display()))?;
        let mut files: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        paths.extend(files);
    }
    let mut out = Vec::new();
    for p in paths {
        out.push(std::fs::read(&p).map_err(|e| format!("{}: cannot read seed: {e}", p.display()))?);
    }
    if out.is_empty() {
        out.push(vec![0; args.input_size]);
    }
    Ok(out)
}

/// Writes `crashNNNNNN.bin` (in a campaign `w3-crashNNNNNN.bin`) and its test file; returns the paths.
fn write_crash(
    dir: &Path,
    prefix: &str,
    n: usize,
    crash: &Crash,
    program: &str,
    entry: &str,
) -> std::io::Result<(String, String)> {
    let bin = dir.join(format!("{prefix}crash{n:06}.bin"));
    std::fs::write(&bin, &crash.bytes)?;
    let test = TestFile {
        program: Some(program.to_string()),
        entry: Some(entry.to_string()),
        inputs: crash.inputs.clone(),
        outcome: Some(outcome(&End::Bug(crash.bug.clone()))),
    };
    let json = dir.join(format!("{prefix}crash{n:06}.json"));
    std::fs::write(&json, test.to_json())?;
    Ok((bin.display().to_string(), json.display().to_string()))
}

fn crash_json(c: &Crash, input: &str, test: &str) -> Value {
    json!({
        "kind": c.bug.kind.as_str(),
        "file": c.bug.loc.file,
        "line": c.bug.loc.line,
        "function": c.bug.loc.function,
        "message": c.bug.message,
        "stack": c.stack,
        "run": c.run,
        "time_s": c.time.as_secs_f64(),
        "input": input,
        "test": test,
    })
}

/// Joins the fuzz campaign of `--redis` and `--campaign`, if given (after checking the program's
/// hash: its IR, the options that change its runs, and the seeds).
fn join_campaign(
    args: &FuzzArgs,
    prog: &Program,
    run: &RunConfig,
    seeds: &[Vec<u8>],
) -> Result<Option<Arc<FuzzWorker>>, String> {
    if args.worker.redis.is_none() {
        return Ok(None);
    }
    if args.jobs.is_some_and(|n| n > 1) || args.sync_dir.is_some() {
        return Err(
            "a fuzz campaign's worker takes neither --jobs above 1 nor --sync-dir (start one \
             worker per core)"
                .into(),
        );
    }
    let options = format!(
        "fuzz|{}|{:?}|{}|{:?}|{:?}|{}",
        run.entry, run.checks, run.stdin, run.file, run.args, run.max_instructions
    );
    let hash = crate::campaign::hash_of(prog.module(), &options, seeds);
    crate::campaign::join_fuzz(&args.worker, &hash, seeds).map(|w| Some(Arc::new(w)))
}

/// Runs the subcommand; returns the exit status.
pub fn main(mut args: FuzzArgs) -> i32 {
    if args.checks.check_overflow {
        args.frontend.check_signed_overflow();
    }
    let seeds = match seeds(&args) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let module = match args.frontend.load(&args.file) {
        Ok(m) => m,
        Err(e) => return e.report(),
    };
    if let Some(name) = &args.sym_file {
        if let Err(e) = symex_engine::symfile::check_path(name) {
            return fail(&format!("--file {name}: {e}"));
        }
    }
    let prog = Program::new(module);
    if prog.module().function_by_name(&args.entry).is_none() {
        return fail(&format!(
            "{}: no function `{}` to start from",
            args.file.display(),
            args.entry
        ));
    }
    let dir = match output_dir(args.out.as_deref()) {
        Ok(d) => d,
        Err(e) => return fail(&format!("cannot create the output directory: {e}")),
    };
    let queue = dir.join("queue");
    if let Err(e) = std::fs::create_dir_all(&queue) {
        return fail(&format!("cannot create {}: {e}", queue.display()));
    }
    let opts = FuzzOptions {
        run: RunConfig {
            entry: args.entry.clone(),
            checks: args.checks.checks(true),
            stdin: args.stdin,
            file: args.sym_file.clone(),
            args: args.sym_args.clone(),
            max_instructions: args.max_instructions,
        },
        max_runs: args.max_runs,
        max_time: args.max_time.map(crate::limits::left),
    };
    let sync = match &args.sync_dir {
        Some(d) => match AflSync::open(d) {
            Ok(s) => Some(Mutex::new(s)),
            Err(e) => {
                return fail(&format!(
                    "{}: cannot open the sync directory: {e}",
                    d.display()
                ))
            }
        },
        None => None,
    };
    let publish = |bytes: &[u8], new: bool| -> Result<(), String> {
        match &sync {
            Some(s) => s
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .publish(bytes, new)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            None => Ok(()),
        }
    };
    let mut import = || {
        sync.as_ref()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).import())
            .unwrap_or_default()
    };
    let program = args.file.display().to_string();
    let opts_for_hash = opts.run.clone();
    let mut fuzzer = Fuzzer::new(&prog, opts);
    fuzzer.set_solver_timeout(crate::limits::query_timeout(
        args.solver_timeout,
        args.solver_rlimit,
        crate::run::DEFAULT_QUERY_TIMEOUT,
    ));
    let one_needed = args.worker.redis.is_some() || args.sync_dir.is_some();
    let jobs = crate::run::threads(args.jobs, one_needed);
    fuzzer.set_jobs(jobs as usize);
    let campaign = match join_campaign(&args, &prog, &opts_for_hash, &seeds) {
        Ok(c) => c,
        Err(e) => return fail(&e),
    };
    if let Some(w) = &campaign {
        fuzzer.set_campaign(w.clone());
    }
    // A campaign's file names carry the worker's name, so that they are unique in the campaign.
    let prefix = campaign
        .as_ref()
        .map_or(String::new(), |w| format!("{}-", w.name));
    let bar = (!args.quiet && !args.json && std::io::stderr().is_terminal()).then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}").unwrap());
        b
    });
    let mut crashes_json = Vec::new();
    let mut queued = 0usize;
    let mut io_error = None;
    let (mut runs, mut blocks, mut ncrash) = (0u64, 0usize, 0usize);
    let start = std::time::Instant::now();
    let mut start_failure = None;
    let importer: Option<&mut (dyn FnMut() -> Vec<Vec<u8>> + Send)> = if args.sync_dir.is_some() {
        Some(&mut import)
    } else {
        None
    };
    let mut on = |e: Event<'_>| match e {
        Event::Ran { run, new_blocks } => {
            runs += 1;
            blocks += new_blocks;
            if runs == 1 {
                if let End::Halt(Halt::Unsupported { .. }) = &run.end {
                    start_failure = Some(run.end.clone());
                }
            }
            if new_blocks > 0 {
                queued += 1;
                let p = queue.join(format!("{prefix}id{queued:06}.bin"));
                if let Err(e) = std::fs::write(&p, &run.bytes) {
                    io_error.get_or_insert(format!("{}: {e}", p.display()));
                }
                if let Err(e) = publish(&run.bytes, true) {
                    io_error.get_or_insert(format!("sync directory: {e}"));
                }
            }
            if let Some(b) = &bar {
                let rate = runs as f64 / start.elapsed().as_secs_f64().max(1e-3);
                b.set_message(format!(
                    "runs {runs} ({rate:.0}/s)  blocks {blocks}  crashes {ncrash}"
                ));
                b.tick();
            }
        }
        Event::Crash(c) => {
            ncrash += 1;
            match write_crash(&dir, &prefix, ncrash, c, &program, &args.entry) {
                Ok((bin, test)) => crashes_json.push(crash_json(c, &bin, &test)),
                Err(e) => {
                    io_error.get_or_insert(format!("{}: {e}", dir.display()));
                }
            }
            if let Err(e) = publish(&c.bytes, false) {
                io_error.get_or_insert(format!("sync directory: {e}"));
            }
        }
    };
    fuzzer.generate_inputs_hybrid(&seeds, &mut on, importer);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = io_error {
        return fail(&format!("cannot write the output: {e}"));
    }
    if let Some(e) = campaign.as_ref().and_then(|w| w.error()) {
        return fail(&format!("campaign worker stopped: {e}"));
    }
    if let Some(f) = &args.inputs_out {
        let mut lines: Vec<String> = fuzzer
            .inputs_run()
            .map(|b| symex_campaign::fuzz::hex(b) + "\n")
            .collect();
        lines.sort();
        if let Err(e) = std::fs::write(f, lines.concat()) {
            return fail(&format!("cannot write --inputs-out {}: {e}", f.display()));
        }
    }
    if fuzzer.crashes.is_empty() {
        if let Some(e) = start_failure {
            return fail(&describe_start_failure(&e));
        }
    }
    let (covered, total) = coverage_counts(&prog, &fuzzer.covered);
    let s = &fuzzer.stats;
    // Every child of every run was run, none left unsolved by the solver and no run cut by a limit.
    let complete = s.exhausted && s.unknown == 0 && s.cut == 0;
    let report = json!({
        "command": "fuzz",
        "file": program,
        "complete": complete,
        "stopped": s.stopped,
        "time_s": fuzzer.elapsed().as_secs_f64(),
        "runs": s.runs,
        "jobs": jobs,
        "crashes": crashes_json,
        "queue": queued,
        "coverage": {"blocks_covered": covered, "blocks_total": total},
        "search": {
            "children": s.children,
            "unsat": s.unsat,
            "unknown": s.unknown,
            "duplicates": s.duplicates,
            "divergences": s.divergences,
            "reruns": s.reruns,
            "concretised": s.concretised,
            "cut": s.cut,
            "work_list": fuzzer.work_list_len(),
            "mutants": s.mutants,
            "mutant_finds": s.mutant_finds,
            "skipped_hard": s.skipped_hard,
            "imports_dropped": s.imports_dropped,
        },
        "solver": {"queries": s.solver_queries, "time_s": s.solver_time.as_secs_f64()},
        "campaign": campaign.as_ref().map(|w| json!({
            "name": args.worker.campaign, "worker": w.name, "lost_items": s.lost_items,
        })),
    });
    let text = serde_json::to_string_pretty(&report).unwrap_or_default();
    if let Err(e) = std::fs::write(dir.join("report.json"), &text) {
        return fail(&format!("cannot write the report: {e}"));
    }
    if args.json {
        println!("{text}");
    } else if !args.quiet {
        print_summary(&report, &dir);
    }
    if !fuzzer.crashes.is_empty() {
        1
    } else if complete {
        0
    } else {
        3
    }
}

fn print_summary(r: &Value, dir: &Path) {
    println!(
        "{} runs in {:.2} s, {} of {} blocks covered, {} inputs in queue/",
        r["runs"],
        r["time_s"].as_f64().unwrap_or(0.0),
        r["coverage"]["blocks_covered"],
        r["coverage"]["blocks_total"],
        r["queue"]
    );
    let s = &r["search"];
    println!(
        "children solved {}, unsatisfiable {}, unknown {}, duplicates {}, divergences {}, concretised {}",
        s["children"], s["unsat"], s["unknown"], s["duplicates"], s["divergences"], s["concretised"]
    );
    if s["mutants"].as_u64().unwrap_or(0) > 0 {
        println!(
            "solver stalled: {} mutants run, {} covered new blocks",
            s["mutants"], s["mutant_finds"]
        );
    }
    if let Some(why) = r["stopped"].as_str() {
        println!("stopped: {why}");
    }
    for c in r["crashes"].as_array().into_iter().flatten() {
        println!(
            "crash: {} at {}:{} in {} (run {}): {}  {}",
            c["kind"].as_str().unwrap_or(""),
            c["file"].as_str().unwrap_or(""),
            c["line"],
            c["function"].as_str().unwrap_or(""),
            c["run"],
            c["message"].as_str().unwrap_or(""),
            c["input"].as_str().unwrap_or("")
        );
    }
    println!("output in {}", dir.display());
}
