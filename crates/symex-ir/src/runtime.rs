//! The library functions written in C (`runtime/libc.c`): those that call back into the program
//! (`qsort`, `bsearch`) or read text by C's rules (`strtol` and its siblings, `errno`). A program that
//! names one of them is linked with the runtime's bitcode (`llvm-link --only-needed`), so they run as
//! the program's own code under every domain; a program that defines the name keeps its definition
//! (the runtime's are weak).

use crate::driver::{run_tool, FrontendOptions, ScratchDir, DEFAULT_CLANG_FLAGS};
use crate::error::{FrontendError, Result};
use std::path::{Path, PathBuf};

/// The runtime's source.
pub const LIBC_SOURCE: &str = include_str!("../runtime/libc.c");

/// The functions the runtime defines.
pub const LIBC_FUNCTIONS: &[&str] = &[
    "qsort",
    "bsearch",
    "strtol",
    "strtoll",
    "strtoul",
    "strtoull",
    "atol",
    "atoll",
    "__errno_location",
];

/// Links the runtime into the bitcode or IR at `ir` when its text names a runtime function; returns
/// the linked module's path, or `None` when nothing is needed.
pub(crate) fn link_if_named(
    ir: &Path,
    scratch: &ScratchDir,
    opts: &FrontendOptions,
) -> Result<Option<PathBuf>> {
    let bytes = std::fs::read(ir).map_err(|e| FrontendError::Input {
        path: ir.display().to_string(),
        message: format!("cannot read it: {e}"),
    })?;
    // Symbol names stand in the bitcode's string table as plain bytes; a false match costs only a link
    // that adds nothing.
    // One vectorised substring search per name: comparing the name at every offset of the bitcode
    // cost about 20 M machine instructions for a csmith program's, an eighth of its loading.
    let named = LIBC_FUNCTIONS
        .iter()
        .any(|f| memchr::memmem::find(&bytes, f.as_bytes()).is_some());
    if !named {
        return Ok(None);
    }
    let src = scratch.path("symex-libc.c");
    std::fs::write(&src, LIBC_SOURCE).map_err(|e| FrontendError::Input {
        path: src.display().to_string(),
        message: format!("cannot write the runtime's source: {e}"),
    })?;
    let rt = scratch.path("symex-libc.bc");
    let mut args: Vec<String> = vec!["-c".into(), "-emit-llvm".into()];
    // No `-g`: the runtime's lines are not the program's, so coverage and reports stay on the program.
    args.extend(
        DEFAULT_CLANG_FLAGS
            .iter()
            .filter(|f| **f != "-g")
            .map(|f| f.to_string()),
    );
    // The program's target (`-m32`, `--target=`) is the runtime's.
    args.extend(
        opts.cflags
            .iter()
            .filter(|f| f.starts_with("-m") || f.starts_with("--target"))
            .cloned(),
    );
    args.extend([
        src.display().to_string(),
        "-o".into(),
        rt.display().to_string(),
    ]);
    run_tool(opts.clang(), &args, &src, opts.deadline)?;
    let out = scratch.path("linked.bc");
    let link = [
        ir.display().to_string(),
        "--only-needed".into(),
        rt.display().to_string(),
        "-o".into(),
        out.display().to_string(),
    ];
    run_tool("llvm-link-14", &link, ir, opts.deadline)?;
    Ok(Some(out))
}
