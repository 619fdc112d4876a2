//! Native replay of symex tests (KLEE's `klee-replay`): the program compiled by clang-14 with
//! AddressSanitizer and UndefinedBehaviorSanitizer, linked with a small C runtime that feeds the test's
//! inputs to the SV-COMP and KLEE input functions, run, and its end mapped to symex's outcome kinds.
//!
//! This is the oracle that is not symex: nothing here uses symex's front end, memory model or interpreter.
//! What the native build can and cannot reproduce (see [`inputs::reproducible`]):
//! * inputs asked through `__VERIFIER_nondet_*`, `klee_int`, `klee_range`, `klee_make_symbolic`, and stdin
//!   bytes: fed in order;
//! * uninitialised memory: the build zero-initialises locals (`-ftrivial-auto-var-init=zero`) and ASan fills
//!   new heap blocks with zeros, so a test whose `uninit:*` inputs are all zero is reproduced; one that
//!   gives uninitialised memory another value is *not reproducible natively* (MemorySanitizer, which could
//!   trace such reads, cannot be combined with ASan, and a pattern fill is one value, not the test's);
//! * an entry function other than `main` is not reproducible natively.

mod compile;
mod execute;
pub mod inputs;
mod report;

pub use compile::{build, NativeBuild};
pub use execute::run;
pub use symex_engine::Outcome;

use std::path::PathBuf;
use std::time::Duration;

/// How to build the program.
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    pub include_dirs: Vec<PathBuf>,
    pub defines: Vec<String>,
    /// Further clang flags (e.g. `-O2`); `-m32` selects a 32-bit build.
    pub cflags: Vec<String>,
    /// A 32-bit build (`-m32`, i386): SV-COMP's ILP32 tasks.
    pub m32: bool,
    /// UBSan's signed-integer-overflow check (symex's `--check-overflow`); without it signed arithmetic
    /// wraps, as in symex.
    pub check_overflow: bool,
    /// Keep the program's own definitions of the error functions (`reach_error`, `__VERIFIER_error`)
    /// instead of reporting a call as `reach-error`: under `no-overflow` and `valid-memsafety` symex runs
    /// such a function as an ordinary call, so a test of those properties replays with its body.
    pub program_error_functions: bool,
}

/// How to run a build.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// LeakSanitizer at exit (symex's `--check-leaks`).
    pub check_leaks: bool,
    /// Wall-clock limit of the run (outcome `timeout` when exceeded).
    pub timeout: Duration,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            check_leaks: false,
            timeout: Duration::from_secs(10),
        }
    }
}

/// A native run: how it ended, in symex's terms, and what it printed.
#[derive(Clone, Debug)]
pub struct NativeRun {
    /// `exit`, a bug kind of `spec/cli.md`, or one of the kinds that say the run cannot be compared:
    /// `assumption-violated`, `timeout`, `not-reproducible`, `undefined-behavior` (undefined behaviour
    /// symex does not report as a bug, e.g. an over-wide shift), `signal`.
    pub outcome: Outcome,
    pub stdout: Vec<u8>,
    /// The sanitizer report, if there was one.
    pub report: String,
    /// The runtime's warnings (inputs asked in another order or size than the test has them).
    pub warnings: Vec<String>,
}

impl NativeRun {
    /// True when the native run says something about the program (it did not stop for a reason of its own).
    pub fn reproduced(&self) -> bool {
        !matches!(
            self.outcome.kind.as_str(),
            "not-reproducible" | "assumption-violated" | "timeout"
        )
    }

    /// Whether the native run ends as symex says the test ends: the same kind, and for a normal exit the
    /// same status (locations are not compared: a leak is reported where its block was allocated
    /// natively). A test both say violates an assumption agrees; one the native build cannot reproduce
    /// never does.
    pub fn agrees_with(&self, symex: &Outcome) -> bool {
        let o = &self.outcome;
        if o.kind == "assumption-violated" {
            return symex.kind == o.kind;
        }
        if overshift(symex) && o.kind == "undefined-behavior" {
            return o
                .message
                .as_deref()
                .is_some_and(|m| m.starts_with("shift exponent"));
        }
        self.reproduced() && o.kind == symex.kind && (o.kind != "exit" || o.code == symex.code)
    }
}

/// symex's report of a shift whose exponent is not below the width (`--check-overshift`, KLEE's
/// runtime check): UBSan's shift-exponent check reports the same undefined behaviour ("shift exponent
/// 32 is too large for 32-bit type 'unsigned int'", "shift exponent -1 is negative").
fn overshift(symex: &Outcome) -> bool {
    symex.kind == "reported" && symex.message.as_deref() == Some(symex_engine::OVERSHIFT_MESSAGE)
}

/// The outcome of a run that did not happen or ended for a reason of the replay itself.
pub(crate) fn outcome_of(kind: &str, message: String) -> Outcome {
    Outcome {
        kind: kind.into(),
        message: Some(message),
        ..Outcome::default()
    }
}

/// True when `cflags` ask for a 32-bit build.
pub fn wants_m32(cflags: &[String]) -> bool {
    cflags.iter().any(|f| f == "-m32")
}
