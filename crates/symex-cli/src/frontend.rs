//! The flags every subcommand that reads a C program shares (`-I`, `-D`, `--cflags`), and loading the
//! program with them.

use clap::Args;
use std::path::{Path, PathBuf};
use symex_ir::{FrontendError, FrontendOptions, Module};

/// What BMC needs to confirm a long counterexample on the native build of `source`, compiled with the
/// flags `opts` loaded it with (`symex_bmc::confirm`).
pub fn native_source(source: &Path, opts: &FrontendOptions) -> symex_bmc::NativeSource {
    let build = symex_native::BuildOptions {
        include_dirs: opts.include_dirs.clone(),
        defines: opts.defines.clone(),
        m32: symex_native::wants_m32(&opts.cflags),
        cflags: opts.cflags.clone(),
        check_overflow: false,
        program_error_functions: false,
    };
    symex_bmc::NativeSource::new(source.to_path_buf(), build)
}

/// Front-end flags of `spec/cli.md`.
#[derive(Args, Clone, Debug, Default)]
pub struct FrontendArgs {
    /// Add DIR to clang's include path.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a preprocessor macro, NAME or NAME=VALUE.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Further clang flags, e.g. "-m32 -O2" (split at white space).
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub cflags: Option<String>,
    /// Run LLVM's mem2reg and simplifycfg passes before lowering.
    #[arg(long)]
    pub simplify: bool,
}

impl FrontendArgs {
    /// Compiles C with clang's checks of signed arithmetic
    /// (`-fsanitize=signed-integer-overflow,shift-base,shift-exponent`), whose reports symex models as
    /// signed overflow: they cover what clang folds at compile time (`INT_MAX + 1`, `-INT_MIN`: no
    /// `nsw` instruction is left for symex to check) and signed `<<` (C11 6.5.7p4), which LLVM's `shl`
    /// cannot tell from unsigned. The exponent check is needed for `1 << 32`: the base check is
    /// skipped for exponents at or above the width; the engine drops its reports on unsigned and
    /// right shifts.
    pub fn check_signed_overflow(&mut self) {
        let flags = self.cflags.take().unwrap_or_default();
        self.cflags = Some(format!(
            "-fsanitize=signed-integer-overflow,shift-base,shift-exponent {flags}"
        ));
    }

    /// Compiles (if C) and lowers `file` within the process's `--max-time`.
    pub fn load(&self, file: &Path) -> Result<Module, LoadError> {
        symex_ir::load(file, &self.options()).map_err(LoadError)
    }

    /// [`Self::load`] outside `--max-time`: for reading the program again to write the witness of an
    /// answer already found (a FALSE found just before the limit keeps its witness).
    pub fn load_untimed(&self, file: &Path) -> Result<Module, LoadError> {
        let opts = FrontendOptions {
            deadline: None,
            ..self.options()
        };
        symex_ir::load(file, &opts).map_err(LoadError)
    }

    /// `--cflags`, split at white space.
    fn cflag_list(&self) -> Vec<String> {
        self.cflags
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .map(String::from)
            .collect()
    }

    /// The native sanitizer build (`symex-native`) of a program read with these flags.
    pub fn native_build_options(
        &self,
        check_overflow: bool,
        program_error_functions: bool,
    ) -> symex_native::BuildOptions {
        let cflags = self.cflag_list();
        symex_native::BuildOptions {
            include_dirs: self.include.clone(),
            defines: self.define.clone(),
            m32: symex_native::wants_m32(&cflags),
            cflags,
            check_overflow,
            program_error_functions,
        }
    }

    /// The front-end options these flags select.
    pub fn options(&self) -> FrontendOptions {
        let mut opts = FrontendOptions {
            include_dirs: self.include.clone(),
            defines: self.define.clone(),
            cflags: self.cflag_list(),
            deadline: crate::limits::process_deadline(),
            ..FrontendOptions::default()
        };
        if self.simplify {
            opts = opts.with_simplify();
        }
        opts
    }
}

/// Why a program did not load: bad input (exit status 2) or the time limit (exit status 3).
#[derive(Debug)]
pub struct LoadError(pub FrontendError);

impl LoadError {
    /// Whether `--max-time` ran out while loading (an inconclusive end, not bad input).
    pub fn timed_out(&self) -> bool {
        matches!(self.0, FrontendError::Timeout { .. })
    }

    /// Prints the message and returns the exit status of `spec/cli.md`.
    pub fn report(&self) -> i32 {
        if self.timed_out() {
            eprintln!("symex: timeout: {}", self.0);
            3
        } else {
            eprintln!("symex: error: {}", self.0);
            2
        }
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}
