//! Confirming a counterexample before FALSE is answered. symex's concrete interpreter replays it for
//! up to [`INTERPRETED_STEPS`] instructions; a longer run (loop acceleration finds bugs 2^27 iterations
//! deep, which the interpreter replays in seconds) is run on the native sanitizer build instead
//! (`symex-native`: the program compiled by clang-14 with ASan and UBSan, the counterexample's inputs
//! fed to `__VERIFIER_nondet_*` in order), at the machine's speed. The FALSE stands only if that run
//! ends in the same violation (kind, and line when the native run knows it). Without a source to
//! build, without clang, or for a program the native build cannot reproduce, the interpreter replays
//! the counterexample to its end as before, and the verdict says so ([`Replay`]).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use symex_engine::interp::RunOptions;
use symex_engine::{outcome, Bug, End, Halt, Program, TestFile};
use symex_native::{BuildOptions, NativeBuild, NativeRun};

/// The instructions the interpreter replays before a counterexample counts as long (a fraction of a
/// second; a native build costs about as much).
pub const INTERPRETED_STEPS: u64 = 1 << 22;

/// Most instructions of the interpreter's replay to the end (when there is no native build).
const MAX_INTERPRETED_STEPS: u64 = 1 << 32;

/// The native run's wall-clock limit when the thread has no deadline (`symex_engine::budget`).
const NATIVE_TIMEOUT: Duration = Duration::from_secs(60);

/// How a counterexample was confirmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replay {
    /// symex's interpreter reproduced the violation within [`INTERPRETED_STEPS`].
    Interpreter,
    /// Longer than that: the native build reached the violation.
    Native,
    /// Longer than that, and not run natively (why): the interpreter reproduced it to its end.
    InterpreterFallback(String),
}

impl Replay {
    /// How the verdict's counterexample was replayed, for the output (`None`: the interpreter, briefly).
    pub fn describe(&self) -> Option<String> {
        match self {
            Replay::Interpreter => None,
            Replay::Native => Some(format!(
                "the counterexample runs over {INTERPRETED_STEPS} instructions; its native \
                 sanitizer build (clang-14) reached the violation"
            )),
            Replay::InterpreterFallback(why) => Some(format!(
                "the counterexample runs over {INTERPRETED_STEPS} instructions and was replayed \
                 by the interpreter to its end (no native run: {why})"
            )),
        }
    }

    /// `interpreter`, `native` or `interpreter-fallback` (JSON).
    pub fn name(&self) -> &'static str {
        match self {
            Replay::Interpreter => "interpreter",
            Replay::Native => "native",
            Replay::InterpreterFallback(_) => "interpreter-fallback",
        }
    }
}

/// The program's source and how it is compiled, for native confirmation (`Options::native`). Builds
/// are made once per set of flags and kept for the run.
#[derive(Clone, Debug)]
pub struct NativeSource {
    pub source: PathBuf,
    /// The front end's flags (`-I`, `-D`, `--cflags`, `-m32`); the sanitizer flags are set per
    /// violation.
    pub build: BuildOptions,
    built: Arc<Mutex<Vec<Built>>>,
}

/// A build under the flags `(check_overflow, program_error_functions)`, or why it failed.
type Built = ((bool, bool), Arc<Result<NativeBuild, String>>);

impl NativeSource {
    pub fn new(source: PathBuf, build: BuildOptions) -> Self {
        NativeSource {
            source,
            build,
            built: Arc::default(),
        }
    }

    /// The build that reports `bug` as symex does: overflow checked for a signed overflow (or when the
    /// run checks it), and a program's own error functions kept unless the bug is the error call
    /// (as `symex replay --native` builds).
    fn build_for(&self, bug: &Bug, overflow: bool) -> Arc<Result<NativeBuild, String>> {
        let kind = bug.kind.as_str();
        self.build(overflow || kind == "signed-overflow", kind == "reach-error")
    }

    /// The build with signed overflow checked or not, and the program's error functions replaced by the
    /// runtime's (`error_call`: the violation looked for is their call) or kept.
    fn build(&self, overflow: bool, error_call: bool) -> Arc<Result<NativeBuild, String>> {
        let key = (overflow, !error_call);
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, b)) = built.iter().find(|(k, _)| *k == key) {
            return b.clone();
        }
        let opts = BuildOptions {
            check_overflow: key.0,
            program_error_functions: key.1,
            ..self.build.clone()
        };
        let b = Arc::new(symex_native::build(&self.source, &opts));
        built.push((key, b.clone()));
        b
    }
}

/// The end of `test`'s run on the interpreter when it ends within [`INTERPRETED_STEPS`] instructions;
/// `None` for a longer run, which [`NativeSource::run`] runs at the machine's speed instead.
pub fn short_run(prog: &Program, opts: &crate::Options, test: &TestFile) -> Option<End> {
    match interpreted(prog, opts, test, INTERPRETED_STEPS) {
        End::Halt(Halt::Limit(_)) => None,
        end => Some(end),
    }
}

impl NativeSource {
    /// `test` run on the native build (`error_call`: the violation looked for is a call of the error
    /// function; `overflow`: signed overflow is checked; `leaks`: LeakSanitizer is on) within the
    /// thread's deadline, or why it could not run.
    pub fn run(
        &self,
        test: &TestFile,
        error_call: bool,
        overflow: bool,
        leaks: bool,
    ) -> Result<NativeRun, String> {
        let build = self.build(overflow, error_call);
        let build = build.as_ref().as_ref().map_err(|e| first_line(e))?;
        Ok(run_native(build, test, leaks))
    }
}

/// `test` run on `build` within the thread's deadline ([`NATIVE_TIMEOUT`] without one).
fn run_native(build: &NativeBuild, test: &TestFile, leaks: bool) -> NativeRun {
    let timeout = symex_engine::budget::current()
        .deadline
        .map_or(NATIVE_TIMEOUT, |d| {
            d.saturating_duration_since(Instant::now())
        });
    let run_opts = symex_native::RunOptions {
        check_leaks: leaks,
        timeout,
    };
    symex_native::run(build, test, &run_opts)
}

/// Confirms that `test` (no outcome recorded) ends in `bug` when `prog` runs it: the interpreter for
/// short runs, the native build for long ones. The bug as the interpreter reports it (`bug` itself
/// after a native run), and how; `Err` says why the counterexample is not taken.
pub fn confirm(
    prog: &Program,
    opts: &crate::Options,
    test: &TestFile,
    bug: &Bug,
) -> Result<(Bug, Replay), String> {
    if let Some(end) = short_run(prog, opts, test) {
        return same_bug(end, bug).map(|b| (b, Replay::Interpreter));
    }
    let why = match &opts.native {
        None => "no source to build natively".to_string(),
        Some(n) => match native(n, opts, test, bug) {
            Ok(()) => return Ok((bug.clone(), Replay::Native)),
            Err(Native::Disagrees(why)) => return Err(why),
            Err(Native::Unavailable(why)) => why,
        },
    };
    same_bug(interpreted(prog, opts, test, MAX_INTERPRETED_STEPS), bug)
        .map(|b| (b, Replay::InterpreterFallback(why)))
}

/// The end of the interpreter's run of `test` within `steps` instructions (`symex replay`'s loop: no
/// trace is kept).
fn interpreted(prog: &Program, opts: &crate::Options, test: &TestFile, steps: u64) -> End {
    symex_engine::interp::run(
        prog,
        test,
        &RunOptions {
            entry: opts.entry.clone(),
            checks: opts.checks,
            max_instructions: steps,
            max_time: None,
        },
    )
    .end
}

fn same_bug(end: End, bug: &Bug) -> Result<Bug, String> {
    match end {
        End::Bug(b) if b.kind == bug.kind && b.loc == bug.loc => Ok(b),
        other => Err(format!(
            "the counterexample of {} at {}:{} did not replay (the replay ended with {other:?})",
            bug.kind.as_str(),
            bug.loc.file,
            bug.loc.line
        )),
    }
}

/// Why a native run did not confirm.
enum Native {
    /// It ran and ended otherwise: the counterexample is not taken.
    Disagrees(String),
    /// It could not run or say anything (the interpreter decides instead).
    Unavailable(String),
}

/// The native run of `test`: `Ok` when it ends in `bug`.
fn native(
    n: &NativeSource,
    opts: &crate::Options,
    test: &TestFile,
    bug: &Bug,
) -> Result<(), Native> {
    if opts.entry != "main" {
        return Err(Native::Unavailable(format!(
            "the native build runs `main`, not `{}`",
            opts.entry
        )));
    }
    let build = n.build_for(bug, opts.checks.overflow);
    let build = match build.as_ref() {
        Ok(b) => b,
        Err(e) => return Err(Native::Unavailable(first_line(e))),
    };
    let expected = outcome(&End::Bug(bug.clone()));
    let leaks = opts.checks.leaks || bug.kind.as_str() == "memory-leak";
    let run = run_native(build, test, leaks);
    let o = &run.outcome;
    match o.kind.as_str() {
        "not-reproducible" => Err(Native::Unavailable(describe(&run))),
        "timeout" => Err(Native::Disagrees(format!(
            "the counterexample of {} at {}:{} did not end natively in time ({})",
            bug.kind.as_str(),
            bug.loc.file,
            bug.loc.line,
            describe(&run)
        ))),
        _ if run.agrees_with(&expected) && o.line.is_none_or(|l| l == bug.loc.line) => Ok(()),
        _ => Err(Native::Disagrees(format!(
            "the counterexample of {} at {}:{} did not replay natively (the native run ended with {})",
            bug.kind.as_str(),
            bug.loc.file,
            bug.loc.line,
            describe(&run)
        ))),
    }
}

fn describe(run: &NativeRun) -> String {
    let o = &run.outcome;
    let mut s = o.kind.clone();
    if let Some(c) = o.code {
        s.push_str(&format!(" {c}"));
    }
    if let Some(l) = o.line {
        s.push_str(&format!(" at line {l}"));
    }
    if let Some(m) = &o.message {
        s.push_str(&format!(": {}", first_line(m)));
    }
    s
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}
