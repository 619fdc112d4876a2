//! `symex run FILE`: explores the paths of a program symbolically, reports bugs and writes one test per
//! path into the output directory (with `report.json` and `coverage.info`). Exit status: 0 nothing wrong on
//! a complete exploration, 1 bugs found, 2 bad input or an unsupported construct, 3 incomplete.

use crate::checks::CheckArgs;
use crate::frontend::FrontendArgs;
use crate::klee_out::HALT_MESSAGE;
use clap::{Args, ValueEnum};
use serde_json::{json, Value};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use symex_campaign::Worker;
use symex_engine::{outcome, Checks, End, Halt, Program, TestFile, STACK_LIMIT_MESSAGE};
use symex_explore::{
    parallel, Control, Explorer, FinishedPath, Limits, Options, PathEnd, ProgramArg, Progress,
    SearcherKind, SolverCtx, Summary,
};
use symex_solver::{SolverConfig, Z3Mode};

/// The time limit of one exploration query without `--solver-timeout` and `--solver-rlimit`.
pub const DEFAULT_QUERY_TIMEOUT: Duration = Duration::from_secs(10);

/// Which paths get a test file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TestsMode {
    /// Every path that exited or hit a bug.
    All,
    /// Only the first path of each distinct bug.
    Errors,
    /// Paths that covered a block no earlier path covered, and the first path of each bug.
    NewCoverage,
}

/// Exploration flags shared by `run` and `check`.
#[derive(Args, Debug, Clone)]
pub struct ExploreArgs {
    #[command(flatten)]
    pub frontend: FrontendArgs,
    /// The function to start from.
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// Stop exploring after this many seconds (the remaining paths are cut).
    #[arg(long, value_name = "DURATION", value_parser = crate::limits::parse_duration)]
    pub max_time: Option<std::time::Duration>,
    /// Cut a path after this many forks along it.
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
    /// Fork at most this many times in all; later branches follow one feasible side (KLEE's
    /// --max-forks; the exploration is then incomplete).
    #[arg(long, value_name = "N")]
    pub max_forks: Option<u64>,
    /// Stop exploring when the process uses this many MiB.
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<u64>,
    /// `run`: halt after this many IR instructions in all, the live paths getting tests (KLEE's
    /// --max-instructions); `check`: cut a path after this many IR instructions along it.
    #[arg(long, value_name = "N")]
    pub max_instructions: Option<u64>,
    /// Cut a path that enters one block more than this many times (loop iterations, recursion).
    #[arg(long, value_name = "N")]
    pub max_loop_iterations: Option<u32>,
    /// dfs, bfs, random-path, coverage-new or default (random-path interleaved with coverage-new).
    #[arg(long, default_value = "default", value_parser = parse_searcher)]
    pub search: SearcherKind,
    /// Seed of the randomised searchers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Replay every test concretely and check it follows its path's blocks and ending.
    #[arg(long)]
    pub validate_tests: bool,
    /// Time limit of one solver query, in seconds (a query that runs out cuts its path) [default: 10,
    /// none under --solver-rlimit].
    #[arg(long, value_name = "DURATION", value_parser = crate::limits::parse_duration)]
    pub solver_timeout: Option<std::time::Duration>,
    /// Z3's deterministic resource limit per solver call (its `rlimit` steps): a call that
    /// spends it answers unknown, the same way on an idle and on a loaded machine.
    #[arg(long, value_name = "N", env = "SYMEX_SOLVER_RLIMIT",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub solver_rlimit: Option<u32>,
    /// Standard input holds N symbolic bytes (read with getchar, fgetc, fread, read, fgets, scanf
    /// "%d"); without it stdin is empty. At most 1 MiB: every byte is a solver variable.
    #[arg(long, visible_alias = "sym-stdin", value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(..=1 << 20))]
    pub stdin: u32,
    /// One more argument of `main`: up to N symbolic bytes (KLEE's --sym-arg N; repeatable; after the
    /// arguments given after --).
    #[arg(long = "sym-arg", value_name = "N")]
    pub sym_arg: Vec<usize>,
    /// MIN to MAX further symbolic arguments of up to N bytes each, after those of --sym-arg (KLEE's
    /// --sym-args MIN MAX N): the exploration starts once for each count.
    #[arg(long = "sym-args", num_args = 3, value_names = ["MIN", "MAX", "N"])]
    pub sym_args: Option<Vec<usize>>,
    /// NUM symbolic files of N bytes, named A, B, ... (KLEE's --sym-files NUM N; symex models one file,
    /// so NUM is 0 or 1), read as `symex fuzz --file A` reads its file.
    #[arg(long = "sym-files", num_args = 2, value_names = ["NUM", "N"])]
    pub sym_files: Option<Vec<usize>>,
    /// Arguments given to the program (`main`'s argv[1], ...), after `--`.
    #[arg(last = true, value_name = "ARGS")]
    pub program_args: Vec<String>,
    /// Explore on N threads, splitting the tree among them (each thread has its own solver); the
    /// paths explored, tests and report are those of one thread [default: the number of cores for
    /// `run`, 1 for `check`, whose other engines run beside the exploration; 1 with a bound of the
    /// whole run or in a campaign].
    #[arg(long, value_name = "N", env = "SYMEX_JOBS",
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// How Z3 is driven: incremental (push/pop on the path condition's prefix; a query holding a
    /// multiplexer bit-blasted afresh), bitblast (a fresh bit-blasting tactic per query; faster on
    /// queries with large ite/mux terms), fresh, assumptions.
    #[arg(long, value_name = "MODE", default_value = "incremental", value_parser = parse_solver_mode)]
    pub solver_mode: Z3Mode,
}

fn parse_solver_mode(s: &str) -> Result<Z3Mode, String> {
    Z3Mode::parse(s).ok_or_else(|| {
        format!("unknown solver mode `{s}` (incremental, bitblast, fresh, assumptions)")
    })
}

fn parse_searcher(s: &str) -> Result<SearcherKind, String> {
    SearcherKind::parse(s).ok_or_else(|| {
        format!("unknown searcher `{s}` (dfs, bfs, random-path, coverage-new, default)")
    })
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The program: .c, .i, .ll or .bc.
    pub file: PathBuf,
    #[command(flatten)]
    pub explore: ExploreArgs,
    /// Where tests and reports go (default: a fresh symex-out-N, with symex-out-last pointing to it). An
    /// existing DIR is refused, as KLEE refuses it.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Empty an existing --out directory first (only one that is empty or holds an earlier run's
    /// report.json or info).
    #[arg(long, requires = "out")]
    pub out_overwrite: bool,
    /// Halt at the first error (KLEE's --exit-on-error): the states still alive get their tests.
    #[arg(long)]
    pub exit_on_error: bool,
    /// Write an error file for every path that hits an error, not only the first at each place.
    #[arg(long)]
    pub emit_all_errors: bool,
    /// Which paths get a test.
    #[arg(long, value_enum, default_value = "all")]
    pub tests: TestsMode,
    /// Also write each test in KLEE's .ktest format.
    #[arg(long)]
    pub ktest: bool,
    /// End a path early (with a test and a `.early` file) at a call made with more than N frames on
    /// the stack, as KLEE does ("Maximum stack size reached."); 0: no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STACK_FRAMES)]
    pub max_stack_frames: u32,
    /// How a `switch` forks: `internal`, one path per target (KLEE's default), or `simple`, one path
    /// per case value, as KLEE's chain of comparisons.
    #[arg(long, value_enum, default_value = "internal")]
    pub switch_type: SwitchType,
    #[command(flatten)]
    pub checks: CheckArgs,
    /// Print one JSON object (the report) instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
    /// Write each finished path's signature (its decisions from the root: `0:1101[2a]`), one a
    /// line, sorted: two explorations of one program explored the same paths when the files agree.
    #[arg(long, value_name = "FILE")]
    pub paths_out: Option<PathBuf>,
    /// Do not print the program's standard output as the paths execute it (it is printed by default,
    /// as KLEE prints it, before the summary; never with --json or --quiet).
    #[arg(long)]
    pub no_program_output: bool,
    #[command(flatten)]
    pub worker: crate::campaign::WorkerArgs,
}

/// KLEE's `--switch-type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SwitchType {
    /// One path per target.
    Internal,
    /// One path per case value.
    Simple,
}

/// KLEE's default `--max-stack-frames`.
pub const DEFAULT_MAX_STACK_FRAMES: u32 = 8192;

/// A distinct bug: its first path and test.
pub struct FoundError {
    pub bug: symex_engine::Bug,
    pub test: Option<String>,
}

/// What an exploration produced, for `run` and `check`.
pub struct Exploration {
    pub summary: Summary,
    pub errors: Vec<FoundError>,
    pub tests: TestFiles,
    pub unsupported: Vec<String>,
    pub validation_errors: Vec<String>,
    /// The finished paths' signatures, sorted (with [`Output::signatures`]).
    pub signatures: Vec<String>,
    /// The threads it ran on.
    pub jobs: u32,
}

/// The test files an exploration wrote, by number: an exploration may write hundreds of thousands, and
/// their names are only printed at its end.
pub struct TestFiles {
    dir: Option<PathBuf>,
    /// Before each name: a campaign's worker's (`w3-`), so that names are unique in the campaign.
    prefix: String,
    numbers: Vec<u32>,
}

impl TestFiles {
    pub fn count(&self) -> usize {
        self.numbers.len()
    }

    /// The files' paths, as [`write_test`] names them.
    pub fn paths(&self) -> Vec<String> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        self.numbers
            .iter()
            .map(|&n| {
                let stem = test_stem(&self.prefix, n as usize);
                dir.join(format!("{stem}.json")).display().to_string()
            })
            .collect()
    }
}

/// The name of test number `n` without its extension (`test000001`, in a campaign `w3-test000001`).
fn test_stem(prefix: &str, n: usize) -> String {
    format!("{prefix}test{n:06}")
}

/// Where the files of an exploration go, and how.
pub struct Output<'a> {
    pub dir: Option<&'a Path>,
    pub tests: TestsMode,
    pub ktest: bool,
    pub program: String,
    pub progress: bool,
    /// Replay every test whatever the flags say (`check` answers only from replayed tests).
    pub validate: bool,
    /// KLEE's halting: `--max-instructions` bounds the whole run (not each path), and the states
    /// alive at a halt get their tests (`.early` files).
    pub klee_halting: bool,
    /// An error file for every error path (else for the first at each place).
    pub emit_all_errors: bool,
    /// Print the program's standard output on ours as the paths execute it.
    pub program_output: bool,
    /// Keep each finished path's signature (`--paths-out`).
    pub signatures: bool,
    /// The campaign this process is a worker of (`--redis`, `--campaign`).
    pub campaign: Option<Arc<Worker>>,
}

impl Output<'_> {
    /// What goes before the tests' names.
    fn test_prefix(&self) -> String {
        self.campaign
            .as_ref()
            .map_or(String::new(), |w| format!("{}-", w.name))
    }
}

/// `main`'s arguments, one list per initial state: the concrete ones, those of --sym-arg, and each
/// count that --sym-args allows.
pub fn program_argv(a: &ExploreArgs) -> Result<Vec<Vec<ProgramArg>>, String> {
    let mut fixed: Vec<ProgramArg> = a
        .program_args
        .iter()
        .map(|s| ProgramArg::Concrete(s.as_bytes().to_vec()))
        .collect();
    fixed.extend(a.sym_arg.iter().map(|&n| ProgramArg::Symbolic(n)));
    let Some(v) = &a.sym_args else {
        return Ok(if fixed.is_empty() {
            Vec::new()
        } else {
            vec![fixed]
        });
    };
    let (min, max, n) = (v[0], v[1], v[2]);
    if min > max {
        return Err(format!(
            "--sym-args {min} {max} {n}: MIN is larger than MAX"
        ));
    }
    Ok((min..=max)
        .map(|k| {
            let mut args = fixed.clone();
            args.extend(std::iter::repeat_n(ProgramArg::Symbolic(n), k));
            args
        })
        .collect())
}

/// The symbolic file of --sym-files: KLEE names its files A, B, ...; symex models one.
pub fn sym_file(a: &ExploreArgs) -> Result<Option<(String, usize)>, String> {
    match a.sym_files.as_deref() {
        None | Some([0, _]) => Ok(None),
        Some([1, n]) => Ok(Some(("A".into(), *n))),
        Some(v) => Err(format!(
            "--sym-files {} {}: symex models one symbolic file (NUM must be 0 or 1)",
            v[0], v[1]
        )),
    }
}

/// The exploration's limits; `whole_run`: `--max-instructions` bounds the whole run (KLEE's reading)
/// instead of each path.
pub fn limits(a: &ExploreArgs, whole_run: bool) -> Limits {
    let (per_path, total) = match whole_run {
        true => (None, a.max_instructions),
        false => (a.max_instructions, None),
    };
    Limits {
        max_time: a.max_time.map(crate::limits::left),
        max_depth: a.max_depth,
        max_memory_mb: a.max_memory,
        max_instructions: per_path,
        max_total_instructions: total,
        max_loop_iterations: a.max_loop_iterations,
    }
}

/// The instructions `check`'s replays of paths without a violation may take beyond the exploration's
/// own: every test of a program whose paths are short is replayed.
const REPLAY_ALLOWANCE: u64 = 1 << 24;

/// Explores `prog`; the exploration ends at the first path `stop` accepts.
pub fn explore(
    prog: &Program,
    args: &ExploreArgs,
    checks: Checks,
    out: &Output<'_>,
    stop: &mut dyn FnMut(&FinishedPath) -> bool,
) -> Result<Exploration, End> {
    let bad_args = |what: String| {
        End::Halt(Halt::Unsupported {
            what,
            loc: symex_engine::SourceLoc::default(),
        })
    };
    let argv = program_argv(args).map_err(bad_args)?;
    let sym_file = sym_file(args).map_err(bad_args)?;
    let opts = Options {
        argv,
        sym_file,
        entry: args.entry.clone(),
        checks,
        limits: limits(args, out.klee_halting),
        searcher: args.search,
        seed: args.seed,
        validate: args.validate_tests || out.validate,
        // `check` replays for its verdicts: a violation always, other paths while cheap.
        replay_allowance: (out.validate && !args.validate_tests).then_some(REPLAY_ALLOWANCE),
        stdin: args.stdin as usize,
        dump_states_on_halt: out.klee_halting,
        max_forks: args.max_forks,
        // A campaign records its paths by their signatures.
        signatures: out.signatures || out.campaign.is_some(),
    };
    let whole_run_bound = args.max_forks.is_some() || opts.limits.max_total_instructions.is_some();
    let jobs = threads(args.jobs, out.campaign.is_some() || whole_run_bound);
    if out.campaign.is_some() && (jobs > 1 || args.max_forks.is_some()) {
        return Err(bad_args(
            "a campaign's worker takes neither --jobs above 1 nor --max-forks (a bound of one \
             worker's share would change the campaign's paths)"
                .into(),
        ));
    }
    if jobs > 1 && whole_run_bound {
        return Err(bad_args(
            "--jobs above 1 does not take bounds of the whole run yet (--max-forks, run's --max-instructions)"
                .into(),
        ));
    }
    let mode = args.solver_mode;
    let timeout = crate::limits::query_timeout(
        args.solver_timeout,
        args.solver_rlimit,
        DEFAULT_QUERY_TIMEOUT,
    );
    let new_solver = || SolverCtx::new(SolverConfig::default().z3_mode(mode).build(), timeout);
    let bar = out.progress.then(progress_bar);
    let mut errors: Vec<FoundError> = Vec::new();
    let mut tests: Vec<u32> = Vec::new();
    let mut unsupported = Vec::new();
    let mut validation_errors = Vec::new();
    let mut signatures = Vec::new();
    let mut n = 0usize;
    let prefix = out.test_prefix();
    let mut on_path = |p: &FinishedPath| -> Control {
        if let Some(sig) = &p.signature {
            signatures.push(sig.to_string());
        }
        if let Some(v) = &p.validation_error {
            validation_errors.push(v.clone());
        }
        let first_error = match &p.end {
            PathEnd::Error(b) => !errors
                .iter()
                .any(|e| e.bug.kind == b.kind && e.bug.loc == b.loc),
            PathEnd::Unsupported { what, loc } => {
                let m = format!("{}:{} in {}: {what}", loc.file, loc.line, loc.function);
                if !unsupported.contains(&m) {
                    unsupported.push(m);
                }
                false
            }
            _ => false,
        };
        let wanted = match (&p.end, out.tests) {
            (
                PathEnd::Exit(_) | PathEnd::Error(_) | PathEnd::Halted(_) | PathEnd::StackLimit(_),
                TestsMode::All,
            ) => true,
            (PathEnd::Error(_), _) => first_error || out.emit_all_errors,
            (
                PathEnd::Exit(_) | PathEnd::Halted(_) | PathEnd::StackLimit(_),
                TestsMode::NewCoverage,
            ) => p.new_coverage,
            _ => false,
        };
        let mut test_path = None;
        if wanted {
            n += 1;
            let stem = test_stem(&prefix, n);
            test_path = out
                .dir
                .and_then(|d| write_test(d, &stem, out, p, &args.entry).ok());
            if let (Some(_), Some(d)) = (&test_path, out.dir) {
                tests.push(n as u32);
                let _ = match &p.end {
                    PathEnd::Error(b) if first_error || out.emit_all_errors => {
                        crate::klee_out::write_error(d, &stem, b, &p.stack).map(|_| ())
                    }
                    PathEnd::Halted(_) => crate::klee_out::write_early(d, &stem, HALT_MESSAGE),
                    PathEnd::StackLimit(_) => {
                        crate::klee_out::write_early(d, &stem, STACK_LIMIT_MESSAGE)
                    }
                    _ => Ok(()),
                };
            }
        }
        if let Some(w) = &out.campaign {
            if let Some(r) = crate::campaign::record(w, p, test_path.clone()) {
                w.record(r);
            }
        }
        if let (PathEnd::Error(b), true) = (&p.end, first_error) {
            errors.push(FoundError {
                bug: b.clone(),
                test: test_path,
            });
        }
        if stop(p) {
            return Control::Stop;
        }
        Control::Continue
    };
    let mut on_progress = |pr: &Progress| {
        if let Some(b) = &bar {
            b.set_message(format!(
                "paths {} | live states {} | blocks covered {} | solver queries {} | {:.1} s",
                pr.paths,
                pr.live,
                pr.blocks_covered,
                pr.queries,
                pr.elapsed.as_secs_f64()
            ));
        }
    };
    let summary = if jobs > 1 {
        let setup = parallel::Setup {
            prog,
            opts,
            jobs: jobs as usize,
            solver: &new_solver,
            echo: out.program_output,
        };
        let mut on_output = |bytes: &[u8]| match &bar {
            Some(b) => b.suspend(|| echo(bytes)),
            None => echo(bytes),
        };
        parallel::explore(setup, &mut on_path, &mut on_output, &mut on_progress)?
    } else {
        let mut explorer = Explorer::new(prog, opts, new_solver());
        if let Some(w) = &out.campaign {
            let shared: Arc<dyn parallel::WorkList> = w.clone();
            explorer = explorer.in_pool(shared, false);
        }
        if out.program_output {
            let bar = bar.clone();
            explorer = explorer.echo_output(Box::new(move |bytes: &[u8]| match &bar {
                Some(b) => b.suspend(|| echo(bytes)),
                None => echo(bytes),
            }));
        }
        explorer.run(&mut on_path, &mut on_progress)?
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    signatures.sort_unstable();
    Ok(Exploration {
        summary,
        errors,
        tests: TestFiles {
            dir: out.dir.map(Path::to_path_buf),
            prefix,
            numbers: tests,
        },
        unsupported,
        validation_errors,
        signatures,
        jobs,
    })
}

/// The threads of `run` or `fuzz`: `--jobs` (or `SYMEX_JOBS`) when given; else one where the run
/// needs one (`one_needed`: a campaign's worker, a bound of the whole run), or the cores this process
/// may use.
pub fn threads(given: Option<u32>, one_needed: bool) -> u32 {
    given.unwrap_or_else(|| match one_needed {
        true => 1,
        false => std::thread::available_parallelism().map_or(1, |n| n.get().min(256) as u32),
    })
}

/// Writes a path's output to our standard output at once (a closed pipe is ignored here; the summary's
/// `println!` ends the process quietly then).
fn echo(bytes: &[u8]) {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(bytes);
    let _ = o.flush();
}

fn progress_bar() -> indicatif::ProgressBar {
    let b = indicatif::ProgressBar::new_spinner();
    b.enable_steady_tick(Duration::from_millis(200));
    b
}

/// Writes test number `n` (JSON, and `.ktest` when asked); returns the JSON file's path.
fn write_test(
    dir: &Path,
    stem: &str,
    out: &Output<'_>,
    p: &FinishedPath,
    entry: &str,
) -> std::io::Result<String> {
    let oc = match (&p.replay_end, &p.end) {
        (Some(e), _) => outcome(e),
        (None, PathEnd::Exit(c)) => outcome(&End::Exit(*c)),
        (None, PathEnd::Error(b)) => outcome(&End::Bug(b.clone())),
        (None, PathEnd::Halted(why)) => outcome(&End::Halt(Halt::Limit(why.clone()))),
        (None, PathEnd::StackLimit(loc)) => outcome(&End::Halt(Halt::StackLimit(loc.clone()))),
        (None, _) => outcome(&End::Halt(Halt::Limit("cut".into()))),
    };
    let t = TestFile {
        program: Some(out.program.clone()),
        entry: Some(entry.to_string()),
        inputs: p.inputs.clone(),
        outcome: Some(oc),
    };
    let path = dir.join(format!("{stem}.json"));
    std::fs::write(&path, t.to_json())?;
    if out.ktest {
        let k = symex_explore::ktest::encode(std::slice::from_ref(&out.program), &p.inputs);
        std::fs::write(dir.join(format!("{stem}.ktest")), k)?;
    }
    Ok(path.display().to_string())
}

/// `run`'s output directory, as KLEE's: an existing `--out` is refused unless `overwrite` (then it is
/// emptied, when it looks like an earlier run's output).
pub fn fresh_output_dir(out: Option<&Path>, overwrite: bool) -> Result<PathBuf, String> {
    let Some(d) = out else {
        return output_dir(None).map_err(|e| format!("cannot create the output directory: {e}"));
    };
    if d.exists() {
        if !overwrite {
            return Err(format!(
                "cannot create \"{}\": File exists (give another --out, or --out-overwrite to empty it)",
                d.display()
            ));
        }
        empty_earlier_output(d)?;
    }
    std::fs::create_dir_all(d).map_err(|e| format!("cannot create \"{}\": {e}", d.display()))?;
    Ok(d.to_path_buf())
}

/// Removes `d` when it is a directory that is empty or holds an earlier run's `report.json` or `info`:
/// `--out-overwrite` given the wrong path must not delete someone's files.
fn empty_earlier_output(d: &Path) -> Result<(), String> {
    let shown = d.display();
    let mut entries = std::fs::read_dir(d).map_err(|e| format!("cannot empty \"{shown}\": {e}"))?;
    let earlier = d.join("report.json").is_file() || d.join("info").is_file();
    if !earlier && entries.next().is_some() {
        return Err(format!(
            "--out-overwrite: \"{shown}\" holds no earlier run's report.json or info; not emptying it"
        ));
    }
    std::fs::remove_dir_all(d).map_err(|e| format!("cannot empty \"{shown}\": {e}"))
}

/// The output directory: `--out`, or a fresh `symex-out-N` with `symex-out-last` pointing to it.
pub fn output_dir(out: Option<&Path>) -> std::io::Result<PathBuf> {
    if let Some(d) = out {
        std::fs::create_dir_all(d)?;
        return Ok(d.to_path_buf());
    }
    let mut n = 1;
    loop {
        let d = PathBuf::from(format!("symex-out-{n}"));
        match std::fs::create_dir(&d) {
            Ok(()) => {
                let last = Path::new("symex-out-last");
                let _ = std::fs::remove_file(last);
                #[cfg(unix)]
                let _ = std::os::unix::fs::symlink(&d, last);
                return Ok(d);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// The `errors` entries of the JSON report.
pub fn errors_json(errors: &[FoundError]) -> Vec<Value> {
    errors
        .iter()
        .map(|e| {
            let mut v = json!({
                "kind": e.bug.kind.as_str(),
                "file": e.bug.loc.file,
                "line": e.bug.loc.line,
                "function": e.bug.loc.function,
                "message": e.bug.message,
                "test": e.test,
            });
            if let Some(suffix) = &e.bug.suffix {
                v["suffix"] = json!(suffix);
            }
            v
        })
        .collect()
}

/// Runs the subcommand; returns the exit status.
pub fn main(mut args: RunArgs) -> i32 {
    if args.checks.check_overflow {
        args.explore.frontend.check_signed_overflow();
    }
    let module = match args.explore.frontend.load(&args.file) {
        Ok(m) => m,
        Err(e) => return e.report(),
    };
    let checks = Checks {
        max_stack_frames: args.max_stack_frames,
        switch_per_value: args.switch_type == SwitchType::Simple,
        ..args.checks.checks(true)
    };
    let campaign = match join_campaign(&args, &module, &checks) {
        Ok(c) => c,
        Err(e) => return fail(&e),
    };
    let prog = Program::new(module);
    let dir = match fresh_output_dir(args.out.as_deref(), args.out_overwrite) {
        Ok(d) => d,
        Err(e) => return fail(&e),
    };
    let out = Output {
        dir: Some(&dir),
        tests: args.tests,
        ktest: args.ktest,
        program: args.file.display().to_string(),
        progress: !args.quiet && !args.json && std::io::stderr().is_terminal(),
        validate: false,
        klee_halting: true,
        emit_all_errors: args.emit_all_errors,
        program_output: !args.no_program_output && !args.quiet && !args.json,
        signatures: args.paths_out.is_some(),
        campaign: campaign.clone(),
    };
    let started = std::time::SystemTime::now();
    crate::interrupt::install();
    let exit_on_error = args.exit_on_error;
    let mut stop = |p: &FinishedPath| exit_on_error && matches!(p.end, PathEnd::Error(_));
    let ex = match explore(&prog, &args.explore, checks, &out, &mut stop) {
        Ok(x) => x,
        Err(e) => return fail(&describe_start_failure(&e)),
    };
    if let Some(e) = campaign.as_ref().and_then(|w| w.error()) {
        return fail(&format!("campaign worker stopped: {e}"));
    }
    if let Some(f) = &args.paths_out {
        // A worker's paths are those it recorded in the campaign (a path of an item another worker
        // took over is that worker's).
        let signatures = match &campaign {
            Some(w) => {
                let mut v: Vec<String> = w.committed().into_iter().map(|r| r.signature).collect();
                v.sort_unstable();
                v
            }
            None => ex.signatures.clone(),
        };
        let lines: String = signatures.iter().map(|s| format!("{s}\n")).collect();
        if let Err(e) = std::fs::write(f, lines) {
            return fail(&format!("cannot write --paths-out {}: {e}", f.display()));
        }
    }
    let s = &ex.summary;
    let report = json!({
        "command": "run",
        "file": args.file.display().to_string(),
        "complete": s.complete,
        "incomplete_reasons": s.incomplete_reasons,
        "time_s": s.time.as_secs_f64(),
        "paths": {"completed": s.completed, "errors": s.errors, "cut": s.cut,
                  "infeasible": s.infeasible, "silent_exits": s.silent_exits,
                  "unsupported": s.unsupported},
        "messages": s.messages,
        "errors": errors_json(&ex.errors),
        "tests": ex.tests.paths(),
        "coverage": {"blocks_covered": s.blocks_covered, "blocks_total": s.blocks_total},
        "solver": {"queries": s.queries, "time_s": s.solver_time.as_secs_f64(),
                   "layers": s.solver_layers.iter().map(|l| json!({
                       "layer": l.layer, "queries": l.queries, "hits": l.hits, "calls": l.calls,
                       "sat": l.sat, "unsat": l.unsat, "unknown": l.unknown,
                       "time_s": l.time.as_secs_f64()})).collect::<Vec<_>>()},
        "instructions": s.instructions,
        "jobs": ex.jobs,
        "campaign": campaign.as_ref().map(|w| json!({
            "name": args.worker.campaign, "worker": w.name,
            "paths_recorded": w.committed().len(), "items_taken_over": w.lost_items()})),
        "states_moved": s.states_taken,
        "unsupported": ex.unsupported,
        "validation_failures": ex.validation_errors,
        "out": dir.display().to_string(),
    });
    let _ = std::fs::write(
        dir.join("report.json"),
        serde_json::to_string_pretty(&report).unwrap_or_default(),
    );
    let _ = std::fs::write(
        dir.join("coverage.info"),
        symex_explore::coverage::lcov(&prog, &s.covered),
    );
    let argv: Vec<String> = std::env::args().collect();
    let info = crate::klee_out::Info {
        argv: &argv,
        started,
        finished: std::time::SystemTime::now(),
        summary: s,
        tests: ex.tests.count(),
    };
    let _ = std::fs::write(dir.join("info"), crate::klee_out::info_file(&info));
    if let Err(e) = crate::klee_stats::write(
        &dir.join("run.stats"),
        &crate::klee_stats::Record::of(&prog, s),
    ) {
        eprintln!("symex: warning: cannot write run.stats: {e}");
    }
    if args.json {
        println!("{report}");
    } else if !args.quiet {
        print_summary(&args.file, &dir, &ex);
    }
    if !args.json {
        for m in &s.messages {
            eprintln!("{m}");
        }
    }
    for u in &ex.unsupported {
        eprintln!("symex: error: unsupported construct at {u}");
    }
    for v in &ex.validation_errors {
        eprintln!("symex: error: a test does not replay along its path: {v}");
    }
    status(&ex)
}

/// Joins the campaign of `--redis` and `--campaign`, if given (after checking the program's hash).
fn join_campaign(
    args: &RunArgs,
    module: &symex_ir::Module,
    checks: &Checks,
) -> Result<Option<Arc<Worker>>, String> {
    if args.worker.redis.is_none() {
        return Ok(None);
    }
    let roots = program_argv(&args.explore)?.len().max(1) as u32;
    let hash = crate::campaign::program_hash(module, &args.explore, checks);
    crate::campaign::join(&args.worker, &hash, roots).map(|w| Some(Arc::new(w)))
}

fn print_summary(file: &Path, dir: &Path, ex: &Exploration) {
    let s = &ex.summary;
    println!(
        "symex run {}: {} paths ({} completed, {} errors, {} cut) in {:.2} s",
        file.display(),
        s.completed + s.errors + s.cut,
        s.completed,
        s.errors,
        s.cut,
        s.time.as_secs_f64()
    );
    for e in &ex.errors {
        println!(
            "  {} at {}:{} in {}: {}{}",
            e.bug.kind,
            e.bug.loc.file,
            e.bug.loc.line,
            e.bug.loc.function,
            e.bug.message,
            e.test
                .as_ref()
                .map(|t| format!(" (test {t})"))
                .unwrap_or_default()
        );
    }
    println!(
        "coverage: {}/{} blocks; solver: {} queries, {:.2} s",
        s.blocks_covered,
        s.blocks_total,
        s.queries,
        s.solver_time.as_secs_f64()
    );
    if s.complete {
        println!(
            "exploration complete; {} tests in {}",
            ex.tests.count(),
            dir.display()
        );
    } else {
        println!(
            "exploration incomplete ({}); {} tests in {}",
            s.incomplete_reasons.join("; "),
            ex.tests.count(),
            dir.display()
        );
    }
}

/// The exit status of `spec/cli.md` for an exploration.
fn status(ex: &Exploration) -> i32 {
    if !ex.errors.is_empty() {
        1
    } else if !ex.unsupported.is_empty() {
        2
    } else if !ex.summary.complete || !ex.validation_errors.is_empty() {
        3
    } else {
        0
    }
}

/// Why a program could not start (no entry function, an entry with aggregate parameters).
pub fn describe_start_failure(e: &End) -> String {
    match e {
        End::Halt(Halt::Unsupported { what, .. }) => what.clone(),
        other => format!("the program cannot start: {other:?}"),
    }
}

pub fn fail(msg: &str) -> i32 {
    eprintln!("symex: error: {msg}");
    2
}
