//! Campaigns over Redis (`symex run --redis URL --campaign NAME`, `symex campaign status|collect`):
//! the flags, the program's hash a worker joins with, and the two commands that read a campaign.
//! The Redis side is `symex-campaign`'s.

use crate::run::{program_argv, sym_file, ExploreArgs};
use clap::{Args, Subcommand};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::path::PathBuf;
use std::time::Duration;
use symex_campaign::fuzz::FuzzWorker;
use symex_campaign::{JoinError, PathRecord, Status, Worker};
use symex_engine::Checks;
use symex_explore::{FinishedPath, PathEnd};
use symex_ir::Module;

/// `run`'s flags that make the process a worker of a campaign.
#[derive(Args, Debug, Clone)]
pub struct WorkerArgs {
    /// Be a worker of the campaign --campaign at this Redis server (redis://HOST:PORT/): take work
    /// from its work list, give work back to it, record results there.
    #[arg(long, value_name = "URL", requires = "campaign")]
    pub redis: Option<String>,
    /// The campaign's name (created by its first worker).
    #[arg(long, value_name = "NAME", requires = "redis")]
    pub campaign: Option<String>,
    /// A work item its worker held this long without a sign of life goes to another worker.
    #[arg(long, value_name = "DURATION", default_value = "60",
          value_parser = crate::limits::parse_duration)]
    pub claim_after: Duration,
}

/// The hash of what decides a program's paths: the loaded IR (not its file's path, which differs
/// between machines) and the options that change the semantics or the path set.
pub fn program_hash(module: &Module, args: &ExploreArgs, checks: &Checks) -> String {
    // Not `run`'s --max-instructions: it bounds one worker's share, as --max-time does.
    let opts = format!(
        "{:?}|{:?}|{}|{:?}|{}|{:?}|{:?}",
        program_argv(args),
        sym_file(args),
        args.entry,
        checks,
        args.stdin,
        args.max_depth,
        args.max_loop_iterations
    );
    hash_of(module, &opts, &[])
}

/// SHA-256 of the loaded IR, the options that change the runs and the seeds (a fuzz campaign's).
pub fn hash_of(module: &Module, options: &str, seeds: &[Vec<u8>]) -> String {
    let mut h = Sha256::new();
    let ir = format!(
        "{:?}{:?}{:?}{:?}{:?}",
        module.target, module.types, module.globals, module.functions, module.consts
    );
    h.update(ir.as_bytes());
    h.update(options.as_bytes());
    for s in seeds {
        h.update((s.len() as u64).to_le_bytes());
        h.update(s);
    }
    h.finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
}

/// Joins the campaign of `w` (`--redis`, `--campaign`) as a worker of the program of hash `hash`.
pub fn join(w: &WorkerArgs, hash: &str, roots: u32) -> Result<Worker, String> {
    let (url, name) = target(w)?;
    Worker::join(url, name, hash, roots, w.claim_after).map_err(|e| join_error(e, name, hash))
}

/// Joins the fuzz campaign of `w` as a worker of the program (and seeds) of hash `hash`.
pub fn join_fuzz(w: &WorkerArgs, hash: &str, seeds: &[Vec<u8>]) -> Result<FuzzWorker, String> {
    let (url, name) = target(w)?;
    FuzzWorker::join(url, name, hash, seeds, w.claim_after).map_err(|e| join_error(e, name, hash))
}

fn target(w: &WorkerArgs) -> Result<(&str, &str), String> {
    match (&w.redis, &w.campaign) {
        (Some(url), Some(name)) => Ok((url, name)),
        _ => Err("--redis and --campaign go together".into()),
    }
}

fn join_error(e: JoinError, name: &str, hash: &str) -> String {
    match e {
        JoinError::Redis(e) => e,
        JoinError::OtherProgram(theirs) => format!(
            "campaign `{name}` explores another program (hash {}…; this one is {}…: another \
             IR, other --sym-arg/--sym-args/--sym-files/--stdin/--entry/check/limit options, \
             other seeds, or another command); not joining",
            &theirs[..theirs.len().min(12)],
            &hash[..12]
        ),
    }
}

/// The campaign's record of a finished path.
pub fn record(worker: &Worker, p: &FinishedPath, test: Option<String>) -> Option<PathRecord> {
    let end = match &p.end {
        PathEnd::Exit(_) => "completed",
        PathEnd::Error(_) => "error",
        PathEnd::Unsupported { .. } => "unsupported",
        PathEnd::Cut(_) | PathEnd::Halted(_) | PathEnd::StackLimit(_) => "cut",
    };
    Some(PathRecord {
        signature: p.signature.as_ref()?.to_string(),
        worker: worker.name.clone(),
        test,
        end: end.into(),
    })
}

#[derive(Args, Debug)]
pub struct CampaignArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Progress: work items in flight and done, workers, paths, tests, coverage.
    Status(Target),
    /// The totals and every path recorded: its signature, worker and test file (on that worker's
    /// machine).
    Collect(CollectArgs),
}

#[derive(Args, Debug)]
struct Target {
    /// The Redis server (redis://HOST:PORT/).
    #[arg(long, value_name = "URL")]
    redis: String,
    /// The campaign's name.
    #[arg(long, value_name = "NAME")]
    campaign: String,
    /// One JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct CollectArgs {
    #[command(flatten)]
    target: Target,
    /// Write the recorded paths' signatures, one a line, sorted (as `run --paths-out`).
    #[arg(long, value_name = "FILE")]
    paths_out: Option<PathBuf>,
    /// A fuzz campaign: write the inputs it ran, one a line in hexadecimal, sorted (as `fuzz
    /// --inputs-out`).
    #[arg(long, value_name = "FILE")]
    inputs_out: Option<PathBuf>,
}

/// Runs `symex campaign`; returns the exit status (2: no such campaign, or the server is away).
pub fn main(args: CampaignArgs) -> i32 {
    let r = match args.action {
        Action::Status(t) => status(&t),
        Action::Collect(c) => collect(&c),
    };
    match r {
        Ok(()) => 0,
        Err(e) => crate::run::fail(&e),
    }
}

fn read_status(t: &Target) -> Result<Status, String> {
    let s = symex_campaign::status(&t.redis, &t.campaign)?;
    if !s.exists {
        return Err(format!("no campaign `{}` at {}", t.campaign, t.redis));
    }
    Ok(s)
}

fn status_json(t: &Target, s: &Status) -> serde_json::Value {
    let mut v = json!({
        "campaign": t.campaign,
        "kind": s.kind,
        "program": s.program,
        "over": s.in_flight == 0,
        "items": {"in_flight": s.in_flight, "taken": s.pending, "done": s.items_done},
        "workers": {"joined": s.workers_joined, "live": s.workers_live, "waiting": s.workers_waiting},
        "blocks_covered": s.blocks_covered,
    });
    if s.kind == "fuzz" {
        v["runs"] = json!(s.runs);
        v["inputs"] = json!(s.inputs);
        v["duplicates"] = json!(s.duplicates);
        v["crashes"] = json!(s.crashes);
    } else {
        v["paths"] =
            json!({"total": s.paths, "completed": s.completed, "errors": s.errors, "cut": s.cut});
        v["tests"] = json!(s.tests);
    }
    v
}

fn print_status(t: &Target, s: &Status) {
    println!(
        "{} campaign {}: {} (program {}…)",
        s.kind,
        t.campaign,
        if s.in_flight == 0 { "over" } else { "running" },
        &s.program[..s.program.len().min(12)]
    );
    println!(
        "items: {} in flight ({} taken by a worker), {} done",
        s.in_flight, s.pending, s.items_done
    );
    println!(
        "workers: {} joined, {} live, {} waiting for work",
        s.workers_joined, s.workers_live, s.workers_waiting
    );
    if s.kind == "fuzz" {
        println!(
            "runs: {} ({} distinct inputs, {} duplicate children); crashes: {}; blocks covered: {}",
            s.runs, s.inputs, s.duplicates, s.crashes, s.blocks_covered
        );
        return;
    }
    println!(
        "paths: {} ({} completed, {} errors, {} cut); tests: {}; blocks covered: {}",
        s.paths, s.completed, s.errors, s.cut, s.tests, s.blocks_covered
    );
}

fn status(t: &Target) -> Result<(), String> {
    let s = read_status(t)?;
    match t.json {
        true => println!("{}", status_json(t, &s)),
        false => print_status(t, &s),
    }
    Ok(())
}

fn collect(c: &CollectArgs) -> Result<(), String> {
    let t = &c.target;
    let s = read_status(t)?;
    if s.kind == "fuzz" {
        return collect_fuzz(c, &s);
    }
    let mut paths = symex_campaign::paths(&t.redis, &t.campaign)?;
    paths.sort_by(|a, b| a.signature.cmp(&b.signature));
    if let Some(f) = &c.paths_out {
        let lines: String = paths.iter().map(|p| format!("{}\n", p.signature)).collect();
        std::fs::write(f, lines)
            .map_err(|e| format!("cannot write --paths-out {}: {e}", f.display()))?;
    }
    if t.json {
        let mut v = status_json(t, &s);
        v["records"] = paths
            .iter()
            .map(|p| json!({"signature": p.signature, "worker": p.worker, "end": p.end, "test": p.test}))
            .collect();
        println!("{v}");
        return Ok(());
    }
    print_status(t, &s);
    if s.in_flight != 0 {
        println!("(the campaign is still running: these are the paths recorded so far)");
    }
    for p in &paths {
        println!(
            "{} {} {} {}",
            p.signature,
            p.worker,
            p.end,
            p.test.as_deref().unwrap_or("-")
        );
    }
    Ok(())
}

/// A fuzz campaign's totals, distinct crashes (worker, what, input) and, with `--inputs-out`, inputs.
fn collect_fuzz(c: &CollectArgs, s: &Status) -> Result<(), String> {
    let t = &c.target;
    let crashes = symex_campaign::fuzz::crashes(&t.redis, &t.campaign)?;
    if let Some(f) = &c.inputs_out {
        let inputs = symex_campaign::fuzz::inputs(&t.redis, &t.campaign)?;
        let lines: String = inputs
            .iter()
            .map(|b| symex_campaign::fuzz::hex(b) + "\n")
            .collect();
        std::fs::write(f, lines)
            .map_err(|e| format!("cannot write --inputs-out {}: {e}", f.display()))?;
    }
    if t.json {
        let mut v = status_json(t, s);
        v["crash_records"] = crashes
            .iter()
            .map(|c| json!({"worker": c.worker, "what": c.what, "input": symex_campaign::fuzz::hex(&c.input)}))
            .collect();
        println!("{v}");
        return Ok(());
    }
    print_status(t, s);
    if s.in_flight != 0 {
        println!("(the campaign is still running: these are the crashes recorded so far)");
    }
    for c in &crashes {
        println!(
            "crash {} {} input {}",
            c.worker,
            c.what,
            symex_campaign::fuzz::hex(&c.input)
        );
    }
    Ok(())
}
