//! The optional bug checks that `run` and `replay` share (`--check-overflow`, `--check-leaks`).

use clap::Args;
use symex_engine::Checks;

/// Bug kinds that are only reported when asked for.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct CheckArgs {
    /// Report signed overflow of `nsw` arithmetic.
    #[arg(long)]
    pub check_overflow: bool,
    /// Report heap blocks unreachable at exit.
    #[arg(long)]
    pub check_leaks: bool,
    /// A provably false `klee_assume` ends its path silently (no test), instead of as a `user`
    /// error (KLEE's flag of the same name).
    #[arg(long)]
    pub silent_klee_assume: bool,
    /// `main`'s `envp` and `getenv` see symex's own environment, as a program under KLEE sees KLEE's
    /// (without it the environment is empty). Replay a test with the same environment.
    #[arg(long)]
    pub env: bool,
    /// Report every UBSan check compiled into the program (`-fsanitize=...`) as KLEE's UBSan runtime
    /// does: unsigned overflow, any shift and division check too (KLEE's flag of the same name).
    #[arg(long)]
    pub ubsan_runtime: bool,
    /// Report a shift by at least its operand's width as KLEE does (KLEE's flag of the same name, on
    /// there by default): an error with the `overshift.err` file. Without it such a shift gives 0.
    #[arg(long)]
    pub check_overshift: bool,
}

impl CheckArgs {
    /// The engine's checks these flags ask for.
    pub fn checks(self) -> Checks {
        Checks {
            overflow: self.check_overflow,
            leaks: self.check_leaks,
            symbolic_argc: false,
            silent_klee_assume: self.silent_klee_assume,
            host_environment: self.env,
            ubsan_runtime: self.ubsan_runtime,
            overshift: self.check_overshift,
            ..Checks::default()
        }
    }
}
