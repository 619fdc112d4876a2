//! The files KLEE writes beside its tests, in KLEE's formats: `testNNNNNN.<kind>.err` for an error (message,
//! position, stack), `testNNNNNN.early` for a state alive when the exploration halted, and the `info` file
//! (command line, times, totals).

use std::path::Path;
use symex_engine::stack::StackFrame;
use symex_engine::{Bug, BugKind};
use symex_explore::Summary;

/// The extension of a bug's error file, as KLEE names it (`TerminationTypes.h`); a `klee_report_error`
/// suffix is used as given.
pub fn error_extension(bug: &Bug) -> String {
    if let Some(s) = &bug.suffix {
        return s.clone();
    }
    match bug.kind {
        // An SV-COMP `reach_error` is an `__assert_fail` under KLEE.
        BugKind::Assertion | BugKind::ReachError => "assert.err",
        BugKind::Abort => "abort.err",
        BugKind::NullDeref | BugKind::OutOfBounds | BugKind::UseAfterFree => "ptr.err",
        BugKind::DoubleFree | BugKind::InvalidFree => "free.err",
        BugKind::DivByZero => "div.err",
        BugKind::SignedOverflow => "overflow.err",
        // KLEE has no leak checks: the files are named after symex's kinds.
        BugKind::MemoryLeak => "leak.err",
        BugKind::NotFreed => "not-freed.err",
        BugKind::Unreachable => "exec.err",
        BugKind::User => "user.err",
        BugKind::Reported => "report_error.err",
    }
    .to_string()
}

/// The stack lines of KLEE's files (`Stack:` followed by one tab-indented line per activation).
fn stack_text(stack: &[StackFrame]) -> String {
    let mut s = String::from("Stack: \n");
    for (i, f) in stack.iter().enumerate() {
        s.push('\t');
        s.push_str(&f.klee_line(i));
        s.push('\n');
    }
    s
}

/// The contents of an error file (`Executor::terminateStateOnError`), without KLEE's `assembly.ll line` and
/// `State` lines (symex writes no `assembly.ll` and numbers no states).
pub fn error_file(bug: &Bug, stack: &[StackFrame]) -> String {
    let mut s = format!("Error: {}\n", bug.message);
    if !bug.loc.file.is_empty() {
        s.push_str(&format!("File: {}\nLine: {}\n", bug.loc.file, bug.loc.line));
    }
    s + &stack_text(stack)
}

/// Writes the error file of the test named `stem` (`test000001`); returns its name.
pub fn write_error(
    dir: &Path,
    stem: &str,
    bug: &Bug,
    stack: &[StackFrame],
) -> std::io::Result<String> {
    let name = format!("{stem}.{}", error_extension(bug));
    std::fs::write(dir.join(&name), error_file(bug, stack))?;
    Ok(name)
}

/// KLEE's message for a state alive at a halt (its `.early` file).
pub const HALT_MESSAGE: &str = "Execution halting.";

/// Writes the `.early` file of the test named `stem`: KLEE's message for a path it ended early (a state alive at
/// a halt, [`HALT_MESSAGE`]; one at the stack-frame limit).
pub fn write_early(dir: &Path, stem: &str, message: &str) -> std::io::Result<()> {
    std::fs::write(dir.join(format!("{stem}.early")), format!("{message}\n"))
}

/// A local time as KLEE prints it in `info` (`%Y-%m-%d %H:%M:%S`).
pub fn local_time(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as libc::time_t;
    // SAFETY: localtime_r writes into the zeroed struct we own; strftime writes at most buf.len() bytes.
    unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&secs, &mut tm).is_null() {
            return String::new();
        }
        let mut buf = [0u8; 64];
        let n = libc::strftime(
            buf.as_mut_ptr().cast(),
            buf.len(),
            c"%Y-%m-%d %H:%M:%S".as_ptr(),
            &tm,
        );
        String::from_utf8_lossy(&buf[..n]).into_owned()
    }
}

/// `HH:MM:SS` of a duration (KLEE's `Elapsed:`).
fn hms(d: std::time::Duration) -> String {
    let s = d.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// What the `info` file says about a run.
pub struct Info<'a> {
    pub argv: &'a [String],
    pub started: std::time::SystemTime,
    pub finished: std::time::SystemTime,
    pub summary: &'a Summary,
    pub tests: usize,
}

/// The `info` file: the command line, the process id, start and end, and the totals in KLEE's
/// `KLEE: done:` lines (which KLEE users' scripts grep). As in KLEE, completed paths are those that
/// exited; errors and cut paths are partially completed.
pub fn info_file(i: &Info<'_>) -> String {
    let s = i.summary;
    let explored = s.completed + s.errors + s.cut;
    format!(
        "{}\nPID: {}\nStarted: {}\nFinished: {}\nElapsed: {}\n\
         KLEE: done: explored paths = {explored}\n\
         KLEE: done: total queries = {}\n\
         KLEE: done: total instructions = {}\n\
         KLEE: done: completed paths = {}\n\
         KLEE: done: partially completed paths = {}\n\
         KLEE: done: generated tests = {}\n",
        i.argv.join(" "),
        std::process::id(),
        local_time(i.started),
        local_time(i.finished),
        hms(s.time),
        s.queries,
        s.instructions,
        s.completed,
        s.errors + s.cut,
        i.tests,
    )
}
