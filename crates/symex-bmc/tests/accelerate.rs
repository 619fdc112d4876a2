//! Loop acceleration (`Options::accelerate`) on bugs 2^16 and 2^26 + 2^16 iterations deep, with the
//! engine forced (BMC alone, no portfolio) and a counted budget: two unwindings, two queries, each
//! under Z3's resource limit. The oracles are independent of symex: the violating inputs are computed
//! by hand from the programs (their ranges are in the examples' comments), and the native sanitizer
//! build replays each counterexample to `reach_error` and a neighbouring input past it.

use std::path::{Path, PathBuf};
use symex_bmc::{Class, Options, Report, Verdict};
use symex_engine::{Program, TestFile, TestInput};
use symex_explore::SolverCtx;
use symex_native::{BuildOptions, RunOptions};
use symex_solver::{SolverConfig, Z3Mode};

/// Z3's resource limit per query (the CLI tests' `SYMEX_SOLVER_RLIMIT`).
const RLIMIT: u32 = 50_000_000;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/bmc")
        .join(name)
}

fn bmc(path: &Path, k: u32, accelerate: bool) -> Report {
    let m = symex_ir::load(path, &symex_ir::FrontendOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let prog = Program::new(m);
    let ctx = SolverCtx::new(
        SolverConfig::default()
            .z3_mode(Z3Mode::Bitblast)
            .rlimit(Some(RLIMIT))
            .build(),
        None,
    );
    let opts = Options {
        unwind: k,
        accelerate,
        ..Options::default()
    };
    symex_bmc::check(&prog, &opts, &|_| Class::Violation, ctx).expect("starts")
}

/// The one `unsigned int` input of a counterexample.
fn input_n(inputs: &[TestInput]) -> u32 {
    assert_eq!(inputs.len(), 1, "{inputs:?}");
    u32::from_le_bytes(inputs[0].bytes[..4].try_into().expect("4 bytes"))
}

/// The native build's outcome on `n`.
fn native(path: &Path, like: &[TestInput], n: u32) -> String {
    let build =
        symex_native::build(path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut inputs = like.to_vec();
    inputs[0].bytes = n.to_le_bytes().to_vec();
    let test = TestFile {
        inputs,
        ..TestFile::default()
    };
    let run = symex_native::run(&build, &test, &RunOptions::default());
    run.outcome.kind
}

/// Deep bugs: plain BMC at unwinding 2 only reaches the bound; with acceleration the same bound is a
/// FALSE whose input is one of the hand-computed ones, and the native build reaches the error on it
/// and not on `past` (the first input beyond the range).
fn deep(name: &str, range: std::ops::RangeInclusive<u32>, past: u32) {
    let path = example(name);
    let plain = bmc(&path, 2, false);
    assert!(
        matches!(plain.verdict, Verdict::BoundedTrue { .. }),
        "{:?}",
        plain.verdict
    );
    let r = bmc(&path, 2, true);
    let Verdict::False { bug, inputs } = &r.verdict else {
        panic!("expected false, got {:?}", r.verdict);
    };
    assert!(r.accelerated);
    assert_eq!(bug.kind.as_str(), "reach-error");
    assert!(r.queries <= 2, "{} queries", r.queries);
    let n = input_n(inputs);
    assert!(range.contains(&n), "n = {n}, expected {range:?}");
    assert_eq!(native(&path, inputs, n), "reach-error");
    assert_eq!(native(&path, inputs, past), "exit");
}

/// 2^16 iterations: `y == 65536` with `x` (4 per iteration) past `n`: n = 262141 ... 262143.
#[test]
fn a_bug_two_to_the_sixteen_iterations_deep_is_one_accelerated_transition() {
    deep("accel_deep16_false.c", 262_141..=262_143, 262_144);
}

/// Two phases, 2^16 + 2^26 iterations: `x == 2^27 + 2` on leaving the loop: n = 2^27 + 1 or + 2.
#[test]
fn a_bug_behind_two_phases_of_2_to_the_26_iterations_is_two_accelerated_transitions() {
    deep(
        "accel_deep27_false.c",
        (1 << 27) + 1..=(1 << 27) + 2,
        (1 << 27) + 3,
    );
}
