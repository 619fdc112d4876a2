//! Shared helpers: compile C, analyse it, run it on the reference interpreter.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;
use symex_engine::{Checks, End, Halt, Program, RunOptions, TestFile, TestInput};
use symex_ir::{FrontendOptions, Module};
use symex_term::rules::Semantics;
use symex_term::{analyse, Options, Report};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn load(path: &Path, promote: bool) -> Module {
    let mut opts = FrontendOptions::default();
    if promote {
        opts = symex_term::promoted(opts);
    }
    symex_ir::load(path, &opts).expect("compiles")
}

/// Z3's resource limit per query in these tests: their outcome must not depend on the load.
pub const RLIMIT: u32 = 5_000_000;

/// The options of a test analysis. This thread's queries end by Z3's step count
/// ([`RLIMIT`]), and the second attempt's budget is counted in queries, so the answer is the
/// same on an idle and a loaded machine; `max_time` is only a backstop against a hang.
pub fn options(sem: Semantics) -> Options {
    symex_its::smt::set_rlimit(Some(RLIMIT));
    Options {
        sem,
        entry: "main".into(),
        max_time: Duration::from_secs(600),
    }
}

pub fn term(path: &Path, sem: Semantics) -> Report {
    analyse(&load(path, true), &options(sem))
}

/// Writes `src` into a fresh temp dir and returns the file (and the dir, kept alive).
pub fn source(src: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("p.c");
    std::fs::write(&p, src).expect("write");
    (dir, p)
}

/// Runs `main` of the plain (not promoted) build on one named input.
pub fn run_with(prog: &Program, name: &str, bytes: Vec<u8>, limit: u64) -> End {
    run_named(prog, vec![(name.to_string(), bytes)], limit)
}

/// Runs `main` on the named inputs' bytes (one entry per `__VERIFIER_nondet_*` call, in order).
pub fn run_named(prog: &Program, inputs: Vec<(String, Vec<u8>)>, limit: u64) -> End {
    let test = TestFile {
        program: None,
        entry: Some("main".into()),
        inputs: inputs
            .into_iter()
            .map(|(name, bytes)| TestInput { name, bytes })
            .collect(),
        outcome: None,
    };
    run_test(prog, &test, limit)
}

/// Runs `test` from `main` with the signed-overflow check on (leaks off), at most `limit`
/// instructions.
pub fn run_test(prog: &Program, test: &TestFile, limit: u64) -> End {
    let ro = RunOptions {
        entry: "main".into(),
        checks: Checks {
            overflow: true,
            leaks: false,
            ..Checks::default()
        },
        max_instructions: limit,
        max_time: None,
    };
    symex_engine::run(prog, test, &ro).end
}

pub fn loops(end: &End) -> bool {
    matches!(end, End::Halt(Halt::Limit(_)))
}
