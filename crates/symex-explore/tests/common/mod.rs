//! Shared helpers of the exploration tests: load a C program, explore it with tests validated, collect
//! the finished paths.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use symex_engine::{Checks, Program};
use symex_explore::{Control, Explorer, FinishedPath, Options, SearcherKind, SolverCtx, Summary};
use symex_solver::SolverConfig;

pub fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/run")
        .join(name)
}

pub fn load(path: &Path) -> Program {
    let m = symex_ir::load(path, &symex_ir::FrontendOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Program::new(m)
}

pub fn options(search: SearcherKind) -> Options {
    Options {
        searcher: search,
        validate: true,
        ..Options::default()
    }
}

/// Explores `prog` with `opts` (tests validated) and returns the summary and every finished path.
pub fn explore(prog: &Program, opts: Options) -> (Summary, Vec<FinishedPath>) {
    let ctx = SolverCtx::new(SolverConfig::default().build(), None);
    let mut paths = Vec::new();
    let summary = Explorer::new(prog, opts, ctx)
        .run(
            &mut |p| {
                paths.push(p.clone());
                Control::Continue
            },
            &mut |_| {},
        )
        .expect("the program starts");
    for p in &paths {
        assert_eq!(p.validation_error, None, "a test does not replay: {p:?}");
    }
    (summary, paths)
}

pub fn explore_file(path: &Path, opts: Options) -> (Program, Summary, Vec<FinishedPath>) {
    let prog = load(path);
    let (s, p) = explore(&prog, opts);
    (prog, s, p)
}

pub fn checks_none() -> Checks {
    Checks::default()
}
