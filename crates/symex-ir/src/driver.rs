//! Turns an input file into LLVM bitcode: clang-14 for C, opt-14 for the optional passes.

use crate::error::{FrontendError, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The clang flags every C input is compiled with, before the user's own flags.
///
/// `-O0 -Xclang -disable-O0-optnone` keeps the code as written (as KLEE and AProVE analyse it) while
/// still letting `opt` passes run on it afterwards; `-g` keeps file:line for reports;
/// `-fno-discard-value-names` keeps LLVM value names for IR dumps. `-fsanitize-address-use-after-scope`
/// (a code generation option of its own, without AddressSanitizer) makes clang emit `llvm.lifetime.*`
/// markers at -O0 too, so that block-scoped locals die when their block is left and start indeterminate
/// at each entry (clang leaves them out for variables a `goto` or `switch` may jump past).
pub const DEFAULT_CLANG_FLAGS: &[&str] = &[
    "-O0",
    "-Xclang",
    "-disable-O0-optnone",
    "-Xclang",
    "-fsanitize-address-use-after-scope",
    "-g",
    "-fno-discard-value-names",
];

/// The pass pipeline `FrontendOptions::with_simplify` selects.
pub const SIMPLIFY_PASSES: &str = "mem2reg,simplifycfg";

/// How to compile and load a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrontendOptions {
    /// `-I` directories.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions, `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// Extra clang flags, appended after the defaults (so `-O2` here overrides `-O0`).
    pub cflags: Vec<String>,
    /// An `opt-14 -passes=` pipeline run on the bitcode before lowering (e.g. [`SIMPLIFY_PASSES`]).
    pub passes: Option<String>,
    /// The clang executable (default `clang-14`).
    pub clang: Option<String>,
    /// The opt executable (default `opt-14`).
    pub opt: Option<String>,
    /// Further `opt` flags for the pipeline (e.g. `-phi-node-folding-threshold=0`).
    pub opt_flags: Vec<String>,
    /// When loading must give up ([`FrontendError::Timeout`]): clang and opt are killed then, and
    /// the in-process stages check it between steps.
    pub deadline: Option<Instant>,
}

impl FrontendOptions {
    /// Options that run `mem2reg,simplifycfg` before lowering.
    pub fn with_simplify(mut self) -> Self {
        self.passes = Some(SIMPLIFY_PASSES.to_owned());
        self
    }

    pub(crate) fn clang(&self) -> &str {
        self.clang.as_deref().unwrap_or("clang-14")
    }

    fn opt(&self) -> &str {
        self.opt.as_deref().unwrap_or("opt-14")
    }

    /// The full clang command line arguments for compiling `src` to bitcode `out`.
    pub fn clang_args(&self, src: &Path, out: &Path) -> Vec<String> {
        let mut args: Vec<String> = vec!["-c".into(), "-emit-llvm".into()];
        args.extend(DEFAULT_CLANG_FLAGS.iter().map(|s| s.to_string()));
        for dir in &self.include_dirs {
            args.push(format!("-I{}", dir.display()));
        }
        for def in &self.defines {
            args.push(format!("-D{def}"));
        }
        args.extend(self.cflags.iter().cloned());
        args.push(src.display().to_string());
        args.push("-o".into());
        args.push(out.display().to_string());
        args
    }
}

/// What kind of input a path is, by extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// `.c` or `.i`: compiled with clang.
    C,
    /// `.ll`: textual LLVM IR.
    LlvmText,
    /// `.bc`: LLVM bitcode.
    Bitcode,
}

impl InputKind {
    pub fn of(path: &Path) -> Result<InputKind> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("c") | Some("i") => Ok(InputKind::C),
            Some("ll") => Ok(InputKind::LlvmText),
            Some("bc") => Ok(InputKind::Bitcode),
            _ => Err(FrontendError::Input {
                path: path.display().to_string(),
                message: "unknown input kind (expected .c, .i, .ll or .bc)".into(),
            }),
        }
    }
}

/// A scratch directory removed on drop.
pub(crate) struct ScratchDir(PathBuf);

impl ScratchDir {
    pub(crate) fn new() -> Result<ScratchDir> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("symex-ir-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| FrontendError::Input {
            path: dir.display().to_string(),
            message: format!("cannot create a scratch directory: {e}"),
        })?;
        Ok(ScratchDir(dir))
    }

    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn run_tool(
    tool: &str,
    args: &[String],
    input: &Path,
    deadline: Option<Instant>,
) -> Result<()> {
    let mut child = Command::new(tool)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| FrontendError::Tool {
            tool: tool.to_owned(),
            message: format!(
                "cannot run it ({e}); install it with `apt-get install -y {}`",
                if tool.starts_with("opt") || tool.starts_with("llvm-") {
                    "llvm-14"
                } else {
                    "clang-14"
                }
            ),
        })?;
    // Diagnostics are drained beside the wait, so that a chatty tool never blocks on a full pipe.
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| FrontendError::Tool {
            tool: tool.to_owned(),
            message: format!("cannot wait for it: {e}"),
        })? {
            break status;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(FrontendError::Timeout {
                path: input.display().to_string(),
                stage: format!("running {tool}"),
            });
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let diagnostics = reader.join().unwrap_or_default();
    if status.success() {
        return Ok(());
    }
    Err(FrontendError::Compile {
        path: input.display().to_string(),
        diagnostics: String::from_utf8_lossy(&diagnostics).into_owned(),
    })
}

/// `klee/klee.h` as symex ships it: KLEE's intrinsics declared, so that programs written for KLEE
/// compile unchanged.
pub const KLEE_HEADER: &str = include_str!("../include/klee/klee.h");

/// Writes `klee/klee.h` under `dir` (the scratch folder of one compilation) and returns the clang
/// flags that put it last on the include path: a `-I` of the user's (a KLEE checkout) comes first.
fn klee_include_flags(dir: &Path) -> Result<[String; 2]> {
    let inc = dir.join("symex-include");
    let klee = inc.join("klee");
    std::fs::create_dir_all(&klee)
        .and_then(|()| std::fs::write(klee.join("klee.h"), KLEE_HEADER))
        .map_err(|e| FrontendError::Input {
            path: klee.display().to_string(),
            message: format!("cannot write klee/klee.h: {e}"),
        })?;
    Ok(["-idirafter".into(), inc.display().to_string()])
}

/// [`FrontendError::Timeout`] if `opts`' deadline has passed, naming the stage about to start.
pub(crate) fn check_deadline(opts: &FrontendOptions, path: &Path, stage: &str) -> Result<()> {
    match opts.deadline {
        Some(d) if Instant::now() >= d => Err(FrontendError::Timeout {
            path: path.display().to_string(),
            stage: stage.to_owned(),
        }),
        _ => Ok(()),
    }
}

/// Compiles a C file to bitcode at `out`.
pub(crate) fn compile_c(src: &Path, out: &Path, opts: &FrontendOptions) -> Result<()> {
    if !src.is_file() {
        return Err(FrontendError::Input {
            path: src.display().to_string(),
            message: "no such file".into(),
        });
    }
    let scratch = out.parent().unwrap_or(Path::new("."));
    let klee = klee_include_flags(scratch)?;
    let text = std::fs::read(src).map_err(|e| FrontendError::Input {
        path: src.display().to_string(),
        message: format!("cannot read it: {e}"),
    })?;
    let Some(rewritten) = std::str::from_utf8(&text)
        .ok()
        .and_then(|t| crate::verifier_decls::without_noreturn_verifier_decls(t, src))
    else {
        let mut args = opts.clang_args(src, out);
        args.splice(0..0, klee);
        return run_tool(opts.clang(), &args, src, opts.deadline);
    };
    // The copy lives beside the bitcode; quoted includes still resolve from the source's folder.
    let copy = out.with_extension("verifier.c");
    std::fs::write(&copy, rewritten).map_err(|e| FrontendError::Input {
        path: copy.display().to_string(),
        message: format!("cannot write a scratch copy: {e}"),
    })?;
    let mut args = opts.clang_args(&copy, out);
    args.splice(0..0, klee);
    if let Some(dir) = src.parent().filter(|d| !d.as_os_str().is_empty()) {
        args.insert(0, dir.display().to_string());
        args.insert(0, "-iquote".into());
    }
    run_tool(opts.clang(), &args, src, opts.deadline)
}

/// Runs the `opt` pass pipeline on `input`, writing bitcode to `out`.
pub(crate) fn run_passes(
    input: &Path,
    out: &Path,
    passes: &str,
    opts: &FrontendOptions,
) -> Result<()> {
    let mut args = opts.opt_flags.clone();
    args.extend([
        format!("-passes={passes}"),
        input.display().to_string(),
        "-o".into(),
        out.display().to_string(),
    ]);
    run_tool(opts.opt(), &args, input, opts.deadline)
}
