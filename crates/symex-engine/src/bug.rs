//! The bug kinds of `spec/cli.md` and how a run ends.

use std::fmt;

/// A kind of bug symex detects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BugKind {
    Assertion,
    ReachError,
    Abort,
    NullDeref,
    OutOfBounds,
    UseAfterFree,
    DoubleFree,
    InvalidFree,
    DivByZero,
    SignedOverflow,
    MemoryLeak,
    /// A heap block still allocated when the program ends (valid-memcleanup), reachable or not.
    NotFreed,
    Unreachable,
    /// A KLEE intrinsic called against its contract (KLEE's `user.err`): a wrong size or a read-only
    /// object given to `klee_make_symbolic`, a provably false `klee_assume`, ...
    User,
    /// `klee_report_error`: the program reports an error of its own (the suffix it gives is the
    /// error file's extension, [`Bug::suffix`]).
    Reported,
}

impl BugKind {
    /// The `kind` string of `spec/cli.md`.
    pub fn as_str(self) -> &'static str {
        match self {
            BugKind::Assertion => "assertion",
            BugKind::ReachError => "reach-error",
            BugKind::Abort => "abort",
            BugKind::NullDeref => "null-deref",
            BugKind::OutOfBounds => "out-of-bounds",
            BugKind::UseAfterFree => "use-after-free",
            BugKind::DoubleFree => "double-free",
            BugKind::InvalidFree => "invalid-free",
            BugKind::DivByZero => "div-by-zero",
            BugKind::SignedOverflow => "signed-overflow",
            BugKind::MemoryLeak => "memory-leak",
            BugKind::NotFreed => "not-freed",
            BugKind::Unreachable => "unreachable",
            BugKind::User => "user",
            BugKind::Reported => "reported",
        }
    }

    /// Every kind, in the order of `spec/cli.md`.
    pub const ALL: [BugKind; 15] = [
        BugKind::Assertion,
        BugKind::ReachError,
        BugKind::Abort,
        BugKind::NullDeref,
        BugKind::OutOfBounds,
        BugKind::UseAfterFree,
        BugKind::DoubleFree,
        BugKind::InvalidFree,
        BugKind::DivByZero,
        BugKind::SignedOverflow,
        BugKind::MemoryLeak,
        BugKind::NotFreed,
        BugKind::Unreachable,
        BugKind::User,
        BugKind::Reported,
    ];

    /// The kind named `s`.
    pub fn parse(s: &str) -> Option<BugKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

impl fmt::Display for BugKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where something happened in the source program.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SourceLoc {
    pub file: String,
    pub line: u32,
    pub function: String,
}

/// A bug found on a run: its kind, where, and what exactly went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bug {
    pub kind: BugKind,
    pub loc: SourceLoc,
    pub message: String,
    /// The error file's extension a `klee_report_error` call asked for (e.g. `my.err`).
    pub suffix: Option<String>,
}

impl fmt::Display for Bug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at {}:{} in {}: {}",
            self.kind, self.loc.file, self.loc.line, self.loc.function, self.message
        )
    }
}

/// Why a run stopped before its end without saying anything about the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// `__VERIFIER_assume` / `klee_assume` on a false condition: the test is not an input of this path.
    AssumptionViolated(SourceLoc),
    /// The instruction or time budget ran out.
    Limit(String),
    /// `klee_silent_exit`: the path ends without a test (KLEE's `SilentExit`).
    SilentExit(SourceLoc),
    /// The program needs something symex does not model (named).
    Unsupported { what: String, loc: SourceLoc },
    /// A call found the stack at its frame limit ([`crate::Checks::max_stack_frames`], KLEE's
    /// `--max-stack-frames`): the path ends early where the call was made, with a test, as KLEE
    /// ends it ([`STACK_LIMIT_MESSAGE`]).
    StackLimit(SourceLoc),
}

/// KLEE's message for a path ended at the stack-frame limit (its `.early` file and warning).
pub const STACK_LIMIT_MESSAGE: &str = "Maximum stack size reached.";

/// How a run ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// `exit(code)` or a return from the entry function.
    Exit(i64),
    Bug(Bug),
    Halt(Halt),
}
