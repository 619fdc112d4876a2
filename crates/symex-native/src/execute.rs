//! Running a native build on one test and reading how it ended.

use crate::report;
use crate::{inputs, outcome_of, NativeBuild, NativeRun, Outcome, RunOptions};
use std::fs::File;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use symex_engine::TestFile;

const SYMBOLIZER: &str = "/usr/bin/llvm-symbolizer-14";

/// Runs `build` on the inputs of `test`. A test the build cannot reproduce is not run: its outcome is
/// `not-reproducible` with the reason.
pub fn run(build: &NativeBuild, test: &TestFile, opts: &RunOptions) -> NativeRun {
    if let Err(reason) = inputs::reproducible(test) {
        return nothing(outcome_of("not-reproducible", reason));
    }
    match run_process(build, test, opts) {
        Ok(r) => leak_at_abnormal_end(test, r),
        Err(e) => nothing(outcome_of("not-reproducible", e)),
    }
}

/// symex checks memtrack wherever the run ends (a block lost before `abort()` stays lost); LeakSanitizer
/// only at a normal exit. A leak test whose native run ends by an abort, a failed assertion or the error
/// function is therefore not reproducible natively, never a disagreement nor an agreement.
fn leak_at_abnormal_end(test: &TestFile, run: NativeRun) -> NativeRun {
    let leak_expected = test
        .outcome
        .as_ref()
        .is_some_and(|o| o.kind == "memory-leak" || o.kind == "not-freed");
    let abnormal = matches!(
        run.outcome.kind.as_str(),
        "abort" | "assertion" | "reach-error"
    );
    if !(leak_expected && abnormal) {
        return run;
    }
    let reason = format!(
        "the run ends by `{}`, where LeakSanitizer does not look for leaks (it checks at a normal exit)",
        run.outcome.kind
    );
    NativeRun {
        outcome: outcome_of("not-reproducible", reason),
        ..run
    }
}

fn nothing(outcome: Outcome) -> NativeRun {
    NativeRun {
        outcome,
        stdout: Vec::new(),
        report: String::new(),
        warnings: Vec::new(),
    }
}

fn run_process(
    build: &NativeBuild,
    test: &TestFile,
    opts: &RunOptions,
) -> Result<NativeRun, String> {
    // Each run gets its own directory inside the build's: files of one run never mix with another's.
    let dir = tempfile::Builder::new()
        .prefix("run-")
        .tempdir_in(build.dir())
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let d = dir.path();
    let write = |name: &str, bytes: &[u8]| {
        std::fs::write(d.join(name), bytes).map_err(|e| format!("{}: {e}", d.join(name).display()))
    };
    write("inputs", &inputs::encode(test))?;
    write("stdin", &inputs::stdin_bytes(test))?;
    // The program runs in an empty directory of its own, holding only the test's fuzzed file (if any):
    // other relative paths fail to open there, as in symex's model.
    let cwd = d.join("cwd");
    std::fs::create_dir(&cwd).map_err(|e| format!("{}: {e}", cwd.display()))?;
    if let Some((path, bytes)) = inputs::sym_file(test) {
        let f = cwd.join(path);
        if let Some(parent) = f.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&f, bytes).map_err(|e| format!("{}: {e}", f.display()))?;
    }
    let open = |name: &str| File::open(d.join(name)).map_err(|e| format!("{name}: {e}"));
    let create = |name: &str| File::create(d.join(name)).map_err(|e| format!("{name}: {e}"));
    let log = d.join("sanitizer");
    let cleanup = expects_not_freed(test);
    let suppressions = d.join("lsan-suppressions");
    write("lsan-suppressions", LIBC_BUFFERS.as_bytes())?;
    let mut cmd = Command::new(build.exe());
    {
        // The fuzzed arguments, each up to its first NUL (as the program's `argv` sees them in symex).
        use std::os::unix::ffi::OsStrExt;
        for a in symex_engine::symargs::arg_strings(&test.inputs) {
            cmd.arg(std::ffi::OsStr::from_bytes(&a));
        }
    }
    // `argc` of the test: the program's name and `argc - 1` arguments (their strings are never read:
    // symex gives a test an `argc` only for a `main` that does not read `argv`).
    let extra = inputs::argc(test).map_or(0, |n| n.saturating_sub(1));
    cmd.args((0..extra).map(|i| format!("arg{i}")));
    cmd.current_dir(&cwd)
        .env("SYMEX_NATIVE_INPUTS", d.join("inputs"))
        .env("SYMEX_NATIVE_EVENTS", d.join("events"))
        .env(
            "ASAN_OPTIONS",
            asan_options(&log, opts.check_leaks || cleanup),
        )
        .env(
            "UBSAN_OPTIONS",
            format!(
                "log_path={}:print_stacktrace=1:report_error_type=1:halt_on_error=1",
                log.display()
            ),
        )
        .env("LSAN_OPTIONS", lsan_options(cleanup, &suppressions))
        .stdin(Stdio::from(open("stdin")?))
        .stdout(Stdio::from(create("stdout")?))
        .stderr(Stdio::from(create("stderr")?));
    if Path::new(SYMBOLIZER).exists() {
        cmd.env("ASAN_SYMBOLIZER_PATH", SYMBOLIZER);
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run the native build: {e}"))?;
    let status = wait(&mut child, opts.timeout);
    let stdout = std::fs::read(d.join("stdout")).unwrap_or_default();
    let events = std::fs::read_to_string(d.join("events")).unwrap_or_default();
    let sanitizer = sanitizer_logs(d);
    let warnings = events
        .lines()
        .filter_map(|l| l.strip_prefix("warning\t"))
        .map(str::to_string)
        .collect();
    let mut outcome = match status {
        None => outcome_of(
            "timeout",
            format!("the native run took longer than {:?}", opts.timeout),
        ),
        Some(status) => classify(status, &events, &sanitizer),
    };
    // With no roots, every block LeakSanitizer lists was still allocated at exit.
    if cleanup && outcome.kind == "memory-leak" {
        outcome.kind = "not-freed".into();
    }
    Ok(NativeRun {
        outcome,
        stdout,
        report: sanitizer,
        warnings,
    })
}

/// Whether the test records a block left allocated at the end (valid-memcleanup).
fn expects_not_freed(test: &TestFile) -> bool {
    test.outcome.as_ref().is_some_and(|o| o.kind == "not-freed")
}

/// Blocks the C library allocates for itself (stdio buffers, freed only if the program closes the
/// streams) and the replay runtime's table of the test's inputs: not the program's blocks.
const LIBC_BUFFERS: &str = "leak:_IO_file_doallocate\nleak:replay_runtime.c\n";

/// LeakSanitizer's settings. Leaks (memtrack) are blocks unreachable from the globals at exit, as in
/// symex after `main` returns: stale pointers left in dead stack slots and registers must not keep a
/// lost block alive (LeakSanitizer scans them conservatively by default). A pointer stored at an
/// unaligned offset (a member of a packed structure) keeps its block: SV-COMP's memtrack is about
/// pointers wherever they are, and LeakSanitizer scans only aligned words unless told otherwise.
/// For memcleanup no root is scanned at all, so every block still allocated at exit is listed.
fn lsan_options(cleanup: bool, suppressions: &Path) -> String {
    if cleanup {
        format!(
            "use_globals=0:use_stacks=0:use_registers=0:use_tls=0:use_root_regions=0:suppressions={}",
            suppressions.display()
        )
    } else {
        "use_stacks=0:use_registers=0:use_unaligned=1".to_string()
    }
}

/// ASan's settings for a replay: reports to files, new heap blocks zero-filled (the value of an all-zero
/// `uninit:*` input), `malloc` returning null rather than dying when it cannot allocate (as glibc does),
/// pointers to returned frames detected, leaks checked only when asked for.
fn asan_options(log: &Path, leaks: bool) -> String {
    format!(
        "log_path={}:detect_leaks={}:malloc_fill_byte=0:max_malloc_fill_size=2147483647:\
         allocator_may_return_null=1:detect_stack_use_after_return=1:handle_abort=0:print_summary=1",
        log.display(),
        u8::from(leaks)
    )
}

/// Waits for the child at most `limit`; None when it had to be killed.
fn wait(child: &mut std::process::Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Some(s),
            Ok(None) if start.elapsed() < limit => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// The sanitizers' reports (`sanitizer.PID` files; a program that forks may leave several).
fn sanitizer_logs(dir: &Path) -> String {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("sanitizer."))
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect::<Vec<_>>()
        .join("\n")
}

/// How the run ended: the runtime's record first (it is written just before the process ends), then a
/// sanitizer report, then the exit status or signal.
fn classify(status: ExitStatus, events: &str, sanitizer: &str) -> Outcome {
    if let Some(o) = report::runtime_end(events) {
        return o;
    }
    if let Some(o) = report::sanitizer(sanitizer) {
        return o;
    }
    use std::os::unix::process::ExitStatusExt;
    if let Some(code) = status.code() {
        return Outcome {
            kind: "exit".into(),
            code: Some(i64::from(code)),
            ..Outcome::default()
        };
    }
    let sig = status.signal().unwrap_or(0);
    if sig == libc::SIGABRT {
        return outcome_of("abort", "killed by SIGABRT".into());
    }
    outcome_of("signal", format!("killed by signal {sig}"))
}
