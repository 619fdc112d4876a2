//! The optional bug checks that `run`, `replay`, `fuzz` and `bmc` share (`--check-overflow`,
//! `--check-leaks`, `--check-overshift`, ...).

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
    /// Report a shift by at least its operand's width as KLEE does (KLEE's flag of the same name):
    /// an error with the `overshift.err` file. On by default for `run`, `replay` and `fuzz` (as in
    /// KLEE), off for `bmc` (SV-COMP's semantics); `--check-overshift=false` turns it off, and an
    /// unchecked shift by at least the width gives 0.
    #[arg(
        long,
        value_name = "BOOL",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_parser = clap::builder::BoolishValueParser::new(),
        overrides_with = "no_check_overshift"
    )]
    pub check_overshift: Option<bool>,
    /// The same as `--check-overshift=false`.
    #[arg(long, overrides_with = "check_overshift")]
    pub no_check_overshift: bool,
}

impl CheckArgs {
    /// Whether shifts are checked: as the flags say, `default` when they say nothing.
    pub fn overshift(self, default: bool) -> bool {
        !self.no_check_overshift && self.check_overshift.unwrap_or(default)
    }

    /// The engine's checks these flags ask for; `overshift` is the command's default for
    /// `--check-overshift`.
    pub fn checks(self, overshift: bool) -> Checks {
        Checks {
            overflow: self.check_overflow,
            leaks: self.check_leaks,
            symbolic_argc: false,
            silent_klee_assume: self.silent_klee_assume,
            host_environment: self.env,
            ubsan_runtime: self.ubsan_runtime,
            overshift: self.overshift(overshift),
            ..Checks::default()
        }
    }
}
