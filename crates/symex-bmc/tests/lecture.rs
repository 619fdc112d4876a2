//! The lecture's BMC examples (IA159, "Bounded model checking", examples 1 and 2) and the path-explosion
//! program, checked against independent ground: the native sanitizer build replays every counterexample,
//! and the expected verdicts are the lecture's hand-computed ones.

use std::path::{Path, PathBuf};
use symex_bmc::{Class, Options, Report, Verdict};
use symex_engine::{Program, TestFile};
use symex_explore::SolverCtx;
use symex_native::{BuildOptions, RunOptions};
use symex_solver::{SolverConfig, Z3Mode};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/bmc")
        .join(name)
}

fn load(path: &Path) -> Program {
    let m = symex_ir::load(path, &symex_ir::FrontendOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    Program::new(m)
}

fn bmc(path: &Path, k: u32) -> Report {
    let prog = load(path);
    let ctx = SolverCtx::new(
        SolverConfig::default().z3_mode(Z3Mode::Bitblast).build(),
        None,
    );
    let opts = Options {
        unwind: k,
        ..Options::default()
    };
    symex_bmc::check(&prog, &opts, &|_| Class::Violation, ctx).expect("starts")
}

/// The native build ends the counterexample's run as symex says: an assertion failure.
fn replays_natively(path: &Path, inputs: &[symex_engine::TestInput], kind: &str) {
    let build =
        symex_native::build(path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let test = TestFile {
        inputs: inputs.to_vec(),
        ..TestFile::default()
    };
    let run = symex_native::run(&build, &test, &RunOptions::default());
    assert_eq!(
        run.outcome.kind, kind,
        "native replay: {:?}\n{}",
        run.outcome, run.report
    );
}

/// Example 1 at k = 3: `n = 2` and two values whose `unsigned char` sum wraps below the second (the
/// lecture's model is 224, 63); the concrete interpreter and the native build both fail the assertion.
#[test]
fn unsigned_char_sum_is_false_at_three_with_a_replaying_counterexample() {
    let path = example("lecture_uchar.c");
    let r = bmc(&path, 3);
    let Verdict::False { bug, inputs, .. } = &r.verdict else {
        panic!("expected false, got {:?}", r.verdict);
    };
    assert_eq!(bug.kind.as_str(), "assertion");
    assert_eq!(r.queries, 1, "one query for the one property");
    let bytes: Vec<u8> = inputs.iter().map(|i| i.bytes[0]).collect();
    let n = bytes[0] as usize;
    assert!((1..=3).contains(&n) && bytes.len() == n + 1, "{bytes:?}");
    // Hand-computed: the unsigned char sum of the values ends below the last one.
    let s = bytes[1..].iter().fold(0u8, |s, &v| s.wrapping_add(v));
    assert!(s < bytes[n], "{bytes:?} does not violate s >= v");
    replays_natively(&path, inputs, "assertion");
}

/// Example 2: the `unsigned int` sum of at most 255 bytes cannot wrap. At k = 3 the error formula is
/// unsatisfiable but the bound is reachable (n may be 4): bounded-true.
#[test]
fn unsigned_int_sum_is_bounded_true_at_three() {
    let r = bmc(&example("lecture_uint.c"), 3);
    assert!(
        matches!(r.verdict, Verdict::BoundedTrue { .. }),
        "{:?}",
        r.verdict
    );
    // The error formula folds to false (`order.rs`): only the unwinding assertion is asked.
    assert_eq!(r.queries, 1);
}

/// Example 2 at k = 256: the bound needs n > 256, impossible for an `unsigned char`, and the error formula
/// is empty (every leaf of the merged `s >= v` holds: a sum of at most 256 bytes does not wrap 32 bits), so
/// the program is proved correct; `--unwind auto` deepens to the same bound and answer.
#[test]
fn unsigned_int_sum_is_true_at_256_and_auto_finds_it() {
    let path = example("lecture_uint.c");
    assert_eq!(bmc(&path, 256).verdict, Verdict::True);
    let prog = load(&path);
    let ctx = SolverCtx::new(
        SolverConfig::default().z3_mode(Z3Mode::Bitblast).build(),
        None,
    );
    let (k, r) =
        symex_bmc::check_auto(&prog, &Options::default(), &|_| Class::Violation, ctx, 4096)
            .expect("starts");
    assert_eq!((k, r.verdict), (256, Verdict::True));
}

/// 2^30 paths for path-by-path exploration: the branches are merged and one query answers.
#[test]
fn thirty_branches_are_one_query() {
    let r = bmc(&example("paths30.c"), 30);
    assert_eq!(r.verdict, Verdict::True);
    assert_eq!(r.queries, 1);
    assert_eq!(r.aux_queries, 0);
    assert!(r.joins >= 30, "{} joins", r.joins);
}

/// The same 30 branches with an assertion that 30 positive inputs violate: the counterexample has all
/// 30 inputs positive, and the native build fails the assertion on it.
#[test]
fn thirty_branches_find_the_one_failing_path() {
    let path = example("paths30_false.c");
    let r = bmc(&path, 30);
    let Verdict::False { inputs, .. } = &r.verdict else {
        panic!("expected false, got {:?}", r.verdict);
    };
    assert_eq!(r.queries, 1);
    assert_eq!(inputs.len(), 30);
    for i in inputs {
        let v = i32::from_le_bytes(i.bytes[..4].try_into().expect("4 bytes"));
        assert!(v > 0, "{v}");
    }
    replays_natively(&path, inputs, "assertion");
}
