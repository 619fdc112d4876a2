//! Loop acceleration (`Options::accelerate`) on bugs 2^16 and 2^26 + 2^16 iterations deep, with the
//! engine forced (BMC alone, no portfolio) and a counted budget: two unwindings, two queries, each
//! under Z3's resource limit. The oracles are independent of symex: the violating inputs are computed
//! by hand from the programs (their ranges are in the examples' comments), and the native sanitizer
//! build replays each counterexample to `reach_error` and a neighbouring input past it.
//!
//! The confirmation of a FALSE (`symex_bmc::confirm`): the 2^16-deep counterexample is replayed by
//! the interpreter (within its share of instructions), the 2^26-deep one natively; a hand-forged
//! counterexample one input past the range is rejected by the native run, and without a native source
//! the interpreter replays the long one to its end.

use std::path::{Path, PathBuf};
use symex_bmc::{Class, NativeSource, Options, Replay, Report, Verdict};
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

fn program(path: &Path) -> Program {
    let m = symex_ir::load(path, &symex_ir::FrontendOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    Program::new(m)
}

/// Options that confirm long counterexamples on the native build of `path`.
fn with_native(path: &Path, unwind: u32, accelerate: bool) -> Options {
    Options {
        unwind,
        accelerate,
        native: Some(NativeSource::new(path.into(), BuildOptions::default())),
        ..Options::default()
    }
}

fn bmc(path: &Path, k: u32, accelerate: bool) -> Report {
    let prog = program(path);
    let ctx = SolverCtx::new(
        SolverConfig::default()
            .z3_mode(Z3Mode::Bitblast)
            .rlimit(Some(RLIMIT))
            .build(),
        None,
    );
    let opts = with_native(path, k, accelerate);
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
fn deep(name: &str, range: std::ops::RangeInclusive<u32>, past: u32, replay: Replay) {
    let path = example(name);
    let plain = bmc(&path, 2, false);
    assert!(
        matches!(plain.verdict, Verdict::BoundedTrue { .. }),
        "{:?}",
        plain.verdict
    );
    let r = bmc(&path, 2, true);
    let Verdict::False {
        bug,
        inputs,
        replay: how,
    } = &r.verdict
    else {
        panic!("expected false, got {:?}", r.verdict);
    };
    assert_eq!(*how, replay);
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
    deep(
        "accel_deep16_false.c",
        262_141..=262_143,
        262_144,
        Replay::Interpreter,
    );
}

/// Two phases, 2^16 + 2^26 iterations: `x == 2^27 + 2` on leaving the loop: n = 2^27 + 1 or + 2.
#[test]
fn a_bug_behind_two_phases_of_2_to_the_26_iterations_is_two_accelerated_transitions() {
    deep(
        "accel_deep27_false.c",
        (1 << 27) + 1..=(1 << 27) + 2,
        (1 << 27) + 3,
        Replay::Native,
    );
}

/// The test of input `n` shaped as the counterexample's `like`.
fn test_of(like: &[TestInput], n: u32) -> TestFile {
    let mut inputs = like.to_vec();
    inputs[0].bytes = n.to_le_bytes().to_vec();
    TestFile {
        inputs,
        ..TestFile::default()
    }
}

/// A wrong counterexample is not taken: `n = 2^27 + 3` (one past the range, 2^16 + 2^26 + 1
/// iterations, beyond the interpreter's share) runs natively to a normal exit. The right one, without
/// a native source, is replayed by the interpreter to its end and says so.
#[test]
fn a_long_counterexample_that_misses_the_error_natively_is_rejected() {
    let path = example("accel_deep27_false.c");
    let r = bmc(&path, 2, true);
    let Verdict::False { bug, inputs, .. } = &r.verdict else {
        panic!("expected false, got {:?}", r.verdict);
    };
    let prog = program(&path);
    let opts = with_native(&path, 2, true);
    let forged = test_of(inputs, (1 << 27) + 3);
    let why = symex_bmc::confirm::confirm(&prog, &opts, &forged, bug).unwrap_err();
    assert!(
        why.contains("did not replay natively") && why.contains("exit"),
        "{why}"
    );
    let n = input_n(inputs);
    let plain = Options {
        native: None,
        ..opts
    };
    let (b, how) = symex_bmc::confirm::confirm(&prog, &plain, &test_of(inputs, n), bug)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b.kind.as_str(), "reach-error");
    assert!(
        matches!(&how, Replay::InterpreterFallback(why) if why.contains("no source")),
        "{how:?}"
    );
}

/// A loop holding a loop of ten iterations: the outer loop's probe iteration unwinds the inner one
/// (`y` reset to 10 in every iteration, `x` + 1): 2^20 + 1 outer iterations, n = 1048577 exactly,
/// over 10^7 inner iterations, confirmed natively.
#[test]
fn a_bug_behind_a_loop_holding_a_fixed_inner_loop_is_one_accelerated_transition() {
    deep(
        "accel_nested_false.c",
        1_048_577..=1_048_577,
        1_048_578,
        Replay::Native,
    );
}

/// `s += i` with `i` counting up: the progression's closed form `k(k-1)/2`. The oracle is brute force:
/// the loop run in Rust's wrapping `u32` arithmetic on the model's `n` differs from the check's
/// `n * (n - 1) / 2`; natively the model's `n` reaches the error and n = 65536 does not.
#[test]
fn a_sum_over_a_counter_is_accelerated_by_its_progression() {
    let path = example("accel_sum_false.c");
    let plain = bmc(&path, 2, false);
    assert!(
        matches!(plain.verdict, Verdict::BoundedTrue { .. }),
        "{:?}",
        plain.verdict
    );
    let r = bmc(&path, 2, true);
    let Verdict::False { bug, inputs, .. } = &r.verdict else {
        panic!("expected false, got {:?}", r.verdict);
    };
    assert!(r.accelerated);
    assert_eq!(bug.kind.as_str(), "reach-error");
    // The plain unwinding's error and bound, the accelerated one's error.
    assert!(r.queries <= 3, "{} queries", r.queries);
    let n = input_n(inputs);
    assert!((65_537..=0x20000).contains(&n), "n = {n}");
    let mut s = 0u32;
    for i in 0..n {
        s = s.wrapping_add(i);
    }
    assert_ne!(s, n.wrapping_mul(n.wrapping_sub(1)) / 2, "n = {n}");
    assert_eq!(native(&path, inputs, n), "reach-error");
    assert_eq!(native(&path, inputs, 65_536), "exit");
}
