//! Building the program natively: clang-14 with ASan and UBSan, the program's own definitions of the
//! functions the runtime intercepts made weak, and the runtime with one input function per
//! `__VERIFIER_nondet_*` the program calls.

use crate::BuildOptions;
use std::path::{Path, PathBuf};
use std::process::Command;

const CLANG: &str = "clang-14";
const NM: &str = "llvm-nm-14";
const OBJCOPY: &str = "llvm-objcopy-14";
const RUNTIME: &str = include_str!("../runtime/replay_runtime.c");

/// The program's error functions: with [`crate::BuildOptions::program_error_functions`] a definition of
/// one in the program stays strong, so its body runs.
const ERROR_FUNCTIONS: [&str; 2] = ["reach_error", "__VERIFIER_error"];

/// Functions the runtime defines. A program that defines one itself (SV-COMP tasks define `reach_error`
/// as a call of `__assert_fail`, sometimes with an empty body) has its definition made weak, so that a
/// call is the event symex reports whatever the body does.
const INTERCEPTED: [&str; 9] = [
    "reach_error",
    "__VERIFIER_error",
    "__VERIFIER_assume",
    "__assert_fail",
    "abort",
    "klee_assume",
    "klee_make_symbolic",
    "klee_int",
    "klee_range",
];

/// A native build of one program: the executable in a private temporary directory.
#[derive(Debug)]
pub struct NativeBuild {
    dir: tempfile::TempDir,
    exe: PathBuf,
    /// The source, for reports that name it.
    pub source: PathBuf,
    pub m32: bool,
}

impl NativeBuild {
    pub(crate) fn exe(&self) -> &Path {
        &self.exe
    }

    pub(crate) fn dir(&self) -> &Path {
        self.dir.path()
    }
}

/// Compiles and links `source` (`.c`, `.i`; `.ll`/`.bc` get ASan only, UBSan's checks are inserted by
/// clang's C front end). The error is the message to print (clang's diagnostics verbatim).
pub fn build(source: &Path, opts: &BuildOptions) -> Result<NativeBuild, String> {
    let dir = tempfile::Builder::new()
        .prefix("symex-native-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let m32 = opts.m32 || crate::wants_m32(&opts.cflags);
    let arch: &[&str] = if m32 { &["-m32"] } else { &[] };
    let prog_o = dir.path().join("program.o");
    let mut cc = Command::new(CLANG);
    cc.args(["-c", "-g", "-O0", "-w", "-fno-omit-frame-pointer"])
        .args(arch)
        .args(sanitizers(opts.check_overflow))
        // Uninitialised locals read as zero: the value a test's all-zero `uninit:*` input gives them.
        .args([
            "-ftrivial-auto-var-init=zero",
            "-enable-trivial-auto-var-init-zero-knowing-it-will-be-removed-from-clang",
        ]);
    for d in &opts.include_dirs {
        cc.arg("-I").arg(d);
    }
    // KLEE's header as symex ships it, last on the include path as in the symbolic build.
    cc.arg("-idirafter").arg(klee_include(dir.path())?);
    for d in &opts.defines {
        cc.arg(format!("-D{d}"));
    }
    cc.args(opts.cflags.iter().filter(|f| f.as_str() != "-m32"));
    cc.arg(source).arg("-o").arg(&prog_o);
    tool(
        cc,
        CLANG,
        &format!("{}: native compilation failed", source.display()),
    )?;

    let defined = symbols(&prog_o, "--defined-only")?;
    let intercepted: Vec<&str> = INTERCEPTED
        .iter()
        .copied()
        .filter(|f| defined.iter().any(|d| d == f))
        .filter(|f| !(opts.program_error_functions && ERROR_FUNCTIONS.contains(f)))
        .collect();
    weaken(&prog_o, &intercepted, "the program's error functions")?;

    let rt_c = dir.path().join("replay_runtime.c");
    let mut runtime = RUNTIME.to_string();
    for f in symbols(&prog_o, "--undefined-only")? {
        if f.starts_with("__VERIFIER_nondet") {
            runtime.push_str(&format!("SYMEX_NONDET({f})\n"));
        }
    }
    std::fs::write(&rt_c, runtime).map_err(|e| format!("{}: {e}", rt_c.display()))?;
    let rt_o = dir.path().join("replay_runtime.o");
    let mut rc = Command::new(CLANG);
    rc.args(["-c", "-g", "-O0", "-w"])
        .args(arch)
        .arg(&rt_c)
        .arg("-o")
        .arg(&rt_o);
    tool(rc, CLANG, "compiling the replay runtime failed")?;
    // The program's own error functions stay: the runtime's versions give way to them.
    let kept: Vec<&str> = ERROR_FUNCTIONS
        .iter()
        .copied()
        .filter(|f| opts.program_error_functions && defined.iter().any(|d| d == f))
        .collect();
    weaken(&rt_o, &kept, "the runtime's error functions")?;

    let exe = dir.path().join("program");
    let mut ld = Command::new(CLANG);
    ld.args(arch)
        .args(sanitizers(opts.check_overflow))
        .arg(&prog_o)
        .arg(&rt_o)
        .arg("-lm")
        .arg("-o")
        .arg(&exe);
    tool(ld, CLANG, "linking the native build failed")?;
    Ok(NativeBuild {
        dir,
        exe,
        source: source.to_path_buf(),
        m32,
    })
}

/// Writes `klee/klee.h` under `dir` and returns the folder to put on the include path.
fn klee_include(dir: &Path) -> Result<PathBuf, String> {
    let inc = dir.join("include");
    let klee = inc.join("klee");
    std::fs::create_dir_all(&klee)
        .and_then(|()| std::fs::write(klee.join("klee.h"), symex_ir::driver::KLEE_HEADER))
        .map_err(|e| format!("{}: cannot write klee/klee.h: {e}", klee.display()))?;
    Ok(inc)
}

/// Makes the definitions of `names` in `object` weak, so that another definition wins at link time.
fn weaken(object: &Path, names: &[&str], what: &str) -> Result<(), String> {
    if names.is_empty() {
        return Ok(());
    }
    let mut oc = Command::new(OBJCOPY);
    oc.args(names.iter().map(|f| format!("--weaken-symbol={f}")))
        .arg(object);
    tool(oc, OBJCOPY, &format!("weakening {what} failed")).map(|_| ())
}

/// ASan and UBSan, every report fatal, with the checks that judge something other than what symex and
/// SV-COMP call a bug left out:
/// * array-bounds: bounds are the object's, as ASan, symex and SV-COMP's valid-deref define them (an index
///   past a struct's inner array that stays inside the struct is no invalid dereference there);
/// * null: it flags `&((T *)0)->field` (the `offsetof`/`container_of` idiom), which accesses nothing; a real
///   null dereference faults in the zero page, which ASan reports;
/// * pointer-overflow: address arithmetic that wraps or offsets null accesses nothing either;
/// * signed-integer-overflow and shift-base (a `<<` whose result is not representable) only when overflow
///   is checked: symex wraps signed arithmetic otherwise.
fn sanitizers(check_overflow: bool) -> Vec<&'static str> {
    let mut v = vec![
        "-fsanitize=address,undefined",
        "-fno-sanitize=bounds,null,pointer-overflow",
        "-fno-sanitize-recover=all",
    ];
    if !check_overflow {
        v.push("-fno-sanitize=signed-integer-overflow,shift-base");
    }
    v
}

/// The external symbols of an object file (`--defined-only` or `--undefined-only`).
fn symbols(obj: &Path, which: &str) -> Result<Vec<String>, String> {
    let mut nm = Command::new(NM);
    nm.args([which, "--extern-only", "--format=just-symbols"])
        .arg(obj);
    let out = tool(nm, NM, "listing the program's symbols failed")?;
    Ok(out.lines().map(str::to_string).collect())
}

/// Runs a tool; its stdout, or an error with `what` and the tool's diagnostics.
fn tool(mut cmd: Command, name: &str, what: &str) -> Result<String, String> {
    let out = cmd.output().map_err(|e| {
        format!("cannot run {name}: {e} (scripts/ensure-deps.sh installs what native replay needs)")
    })?;
    if !out.status.success() {
        return Err(format!(
            "{what}:\n{}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
