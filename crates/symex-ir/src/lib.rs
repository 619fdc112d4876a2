//! symex's C front-end: drives clang-14, loads LLVM IR with `llvm-ir`, and lowers it to the
//! compact, pre-resolved IR of [`ir`] that every analysis executes.
//!
//! ```no_run
//! let module = symex_ir::load("prog.c".as_ref(), &symex_ir::FrontendOptions::default())?;
//! let main = module.function_by_name("main").expect("a main function");
//! # Ok::<(), symex_ir::FrontendError>(())
//! ```

pub mod driver;
pub mod error;
pub mod ir;
mod layout;
mod llvm_facts;
pub mod locals;
mod lower;
mod print;
pub mod runtime;
pub mod source_branch;
pub mod uses;
mod verifier_decls;

pub use driver::{FrontendOptions, InputKind, DEFAULT_CLANG_FLAGS, SIMPLIFY_PASSES};
pub use error::FrontendError;
pub use ir::*;

use std::path::{Path, PathBuf};

/// Loads a program: `.c`/`.i` are compiled with clang-14 (see [`DEFAULT_CLANG_FLAGS`]), `.ll`/`.bc`
/// are read directly; the optional `opt` passes run next; the result is lowered to [`Module`].
pub fn load(path: &Path, opts: &FrontendOptions) -> Result<Module, FrontendError> {
    let kind = InputKind::of(path)?;
    if !path.is_file() {
        return Err(FrontendError::Input {
            path: path.display().to_string(),
            message: "no such file".into(),
        });
    }
    let scratch = driver::ScratchDir::new()?;
    let mut ir_path: PathBuf = path.to_path_buf();
    if kind == InputKind::C {
        ir_path = scratch.path("input.bc");
        driver::compile_c(path, &ir_path, opts)?;
    }
    if let Some(linked) = runtime::link_if_named(&ir_path, &scratch, opts)? {
        ir_path = linked;
    }
    if let Some(passes) = &opts.passes {
        let out = scratch.path("opt.bc");
        driver::run_passes(&ir_path, &out, passes, opts)?;
        ir_path = out;
    }
    driver::check_deadline(opts, path, "reading LLVM IR")?;
    let facts = llvm_facts::LlvmFacts::read(&ir_path)?;
    driver::check_deadline(opts, path, "parsing LLVM IR")?;
    let llm = parse_with_llvm_ir(&ir_path)?;
    driver::check_deadline(opts, path, "lowering")?;
    let source = path.display().to_string();
    // `llvm-ir` panics on a few malformed or exotic shapes when asked for types; report them.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        lower::lower_module(&llm, &facts, &source, opts.deadline)
    }))
    .unwrap_or_else(|panic| {
        Err(FrontendError::unsupported(format!(
            "LLVM construct that llvm-ir cannot describe ({})",
            panic_message(&*panic)
        )))
    })
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown reason".into())
}

/// Parses with `llvm-ir`, turning its panics on constructs it does not know into errors.
fn parse_with_llvm_ir(path: &Path) -> Result<llvm_ir::Module, FrontendError> {
    let is_text = path.extension().and_then(|e| e.to_str()) == Some("ll");
    let parsed = std::panic::catch_unwind(|| {
        if is_text {
            llvm_ir::Module::from_ir_path(path)
        } else {
            llvm_ir::Module::from_bc_path(path)
        }
    });
    let err = |message: String| FrontendError::Parse {
        path: path.display().to_string(),
        message,
    };
    match parsed {
        Ok(Ok(m)) => Ok(m),
        Ok(Err(message)) => Err(err(message)),
        Err(panic) => Err(err(format!(
            "llvm-ir could not read the module: {}",
            panic_message(&*panic)
        ))),
    }
}
