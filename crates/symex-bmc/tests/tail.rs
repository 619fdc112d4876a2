//! The bug-free tail (`crates/symex-bmc/src/tail.rs`): BMC drops the runs that arrive where no bug is
//! reachable, so a loop after the program's last check does not keep the answer at bounded-true. BMC is
//! run alone under Z3's resource limit; the TRUE is checked against the native sanitizer build on the
//! inputs around the check's threshold, and a tail that divides by an input is not dropped.

use std::path::{Path, PathBuf};
use symex_bmc::{Class, Options, Verdict};
use symex_engine::{BugKind, Program, TestFile, TestInput};
use symex_explore::SolverCtx;
use symex_native::{BuildOptions, RunOptions};
use symex_solver::{SolverConfig, Z3Mode};

const RLIMIT: u32 = 50_000_000;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/bmc")
        .join(name)
}

/// `unreach-call`'s meaning of the bug kinds: the error call violates it, an abort ends the run,
/// anything else is undefined behaviour outside the property.
fn unreach_call(k: BugKind) -> Class {
    match k {
        BugKind::ReachError => Class::Violation,
        BugKind::Abort | BugKind::Assertion => Class::End,
        _ => Class::Undecided,
    }
}

/// `--unwind auto` up to 64.
fn bmc(name: &str) -> (u32, Verdict) {
    let m = symex_ir::load(&example(name), &symex_ir::FrontendOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let prog = Program::new(m);
    let ctx = SolverCtx::new(
        SolverConfig::default()
            .z3_mode(Z3Mode::Bitblast)
            .rlimit(Some(RLIMIT))
            .build(),
        None,
    );
    let (k, r) =
        symex_bmc::check_auto(&prog, &Options::default(), &unreach_call, ctx, 64).expect("starts");
    (k, r.verdict)
}

fn int(x: i32) -> TestInput {
    TestInput {
        name: "__VERIFIER_nondet_int".into(),
        bytes: x.to_le_bytes().to_vec(),
    }
}

#[test]
fn a_loop_after_the_last_check_does_not_keep_bmc_from_true() {
    let (k, v) = bmc("tail_true.c");
    assert_eq!(v, Verdict::True, "at k = {k}");
    assert_eq!(k, 1, "no bound is reachable once the tail is dropped");
    let build = symex_native::build(&example("tail_true.c"), &BuildOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    for x in (-20..=40).chain([i32::MIN, i32::MAX]) {
        // The loop runs three times (or until `x <= 0`), then its input says stop.
        let test = TestFile {
            inputs: vec![int(x), int(1), int(1), int(1), int(0)],
            ..TestFile::default()
        };
        let run = symex_native::run(&build, &test, &RunOptions::default());
        assert_eq!(run.outcome.kind, "exit", "x = {x}: {:?}", run.outcome);
    }
}

#[test]
fn a_tail_that_may_divide_by_zero_is_not_dropped() {
    let (k, v) = bmc("tail_div.c");
    assert!(matches!(&v, Verdict::Unknown(_)), "at k = {k}: {v:?}");
}
