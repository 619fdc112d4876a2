//! k-induction (`--k-induction`): the inductive step proves loops no bound covers, and never proves a
//! program that fails. Ground: the native build (a run with the failing input fails the assertion, runs
//! over a range of inputs pass), hand-computed invariants, and the base case's own answers.

use std::path::{Path, PathBuf};
use symex_bmc::{Class, Options, Report, Verdict};
use symex_engine::{Program, TestFile, TestInput};
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

fn ctx() -> std::rc::Rc<std::cell::RefCell<SolverCtx>> {
    SolverCtx::new(
        SolverConfig::default().z3_mode(Z3Mode::Bitblast).build(),
        None,
    )
}

fn bmc(path: &Path, k: u32, induction: bool) -> Report {
    let prog = load(path);
    let opts = Options {
        unwind: k,
        ..Options::default()
    };
    let r = if induction {
        symex_bmc::check_k_induction(&prog, &opts, &|_| Class::Violation, ctx())
    } else {
        symex_bmc::check(&prog, &opts, &|_| Class::Violation, ctx())
    };
    r.expect("starts")
}

/// The native run of the program with `n` as its one `unsigned int` input: its outcome kind.
fn native_outcome(build: &symex_native::NativeBuild, n: u32) -> String {
    let test = TestFile {
        inputs: vec![TestInput {
            name: "__VERIFIER_nondet_uint".into(),
            bytes: n.to_le_bytes().to_vec(),
        }],
        ..TestFile::default()
    };
    symex_native::run(build, &test, &RunOptions::default())
        .outcome
        .kind
}

/// `i` counts to any `unsigned int n`: `x == 2*i` inside the loop is 1-inductive and `i <= n` after it
/// holds by the invariant `i <= n` read from the guard `i < n`. Without the step: bounded-true (n may be
/// 4); with it: true at k = 1 and 3. The native build passes for n = 0..300 and n = 2^20.
#[test]
fn counting_to_a_nondeterministic_bound_is_true_by_induction() {
    let path = example("kind_count.c");
    let plain = bmc(&path, 3, false);
    assert!(
        matches!(plain.verdict, Verdict::BoundedTrue { .. }),
        "{:?}",
        plain.verdict
    );
    assert_eq!(plain.induction, None);
    for k in [1, 3] {
        let r = bmc(&path, k, true);
        assert_eq!(r.verdict, Verdict::True, "k = {k}: {:?}", r.induction);
    }
    let build =
        symex_native::build(&path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    // Native runs whose length does not depend on the machine's speed: every n below 300, and n = 2^20
    // (a million iterations, milliseconds even under the sanitizers). The former 2^31 - 1 iterations
    // took longer than the native runner's 10 s limit on a loaded machine and came back as `timeout`.
    for n in (0..300).chain([1 << 20]) {
        assert_eq!(native_outcome(&build, n), "exit", "n = {n}");
    }
}

/// The assertion fails only at the 1000th iteration: the step must fail at every small k (the answer
/// stays bounded-true), and the native build shows the failure at n = 1000, not at n = 999.
#[test]
fn a_failure_after_many_iterations_is_never_true() {
    let path = example("kind_late_false.c");
    for k in [1, 2, 3, 8] {
        let r = bmc(&path, k, true);
        assert!(
            matches!(r.verdict, Verdict::BoundedTrue { .. }),
            "k = {k}: {:?}",
            r.verdict
        );
        let why = r.induction.expect("the step was attempted");
        assert!(why.contains("inductive step fails"), "{why}");
    }
    let build =
        symex_native::build(&path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(native_outcome(&build, 999), "exit");
    assert_eq!(native_outcome(&build, 1000), "assertion");
    // `--unwind auto --k-induction`: the step fails at every bound, and the base case at K = 1024 finds
    // the violation, whose input (n >= 1000) fails natively.
    let (k, r) = symex_bmc::check_auto_with(
        &load(&path),
        &Options::default(),
        &|_| Class::Violation,
        ctx(),
        4096,
        true,
    )
    .expect("starts");
    let Verdict::False { inputs, .. } = &r.verdict else {
        panic!("expected false, got {:?} at {k}", r.verdict);
    };
    let n = u32::from_le_bytes(inputs[0].bytes[..4].try_into().expect("4 bytes"));
    assert!(n >= 1000 && k >= 1000, "n = {n}, k = {k}");
    assert_eq!(native_outcome(&build, n), "assertion");
    // The step made no progress after the first (the same invariants each time): it stopped being tried
    // long before K = 1024, and the base case still found the violation.
    assert_eq!(
        r.steps_tried,
        1 + symex_bmc::MAX_STALLED_STEPS,
        "{:?}",
        r.induction
    );
    let why = r.induction.expect("the reason the step stopped");
    assert!(why.contains("not tried beyond k = 4"), "{why}");
}

/// Where no candidate states the invariant (`s == i*i`, nonlinear), the step fails at every bound:
/// under `--unwind auto` k-induction stops trying it after three steps and answers what plain BMC
/// answers, with a count of queries close to plain BMC's. The native build passes for n = 0..300,
/// around 2^16 and at 2^20.
#[test]
fn k_induction_that_cannot_prove_a_loop_stops_and_keeps_plain_bmcs_answer() {
    let path = example("kind_square_true.c");
    let prog = load(&path);
    let auto = |induction| {
        symex_bmc::check_auto_with(
            &prog,
            &Options::default(),
            &|_| Class::Violation,
            ctx(),
            64,
            induction,
        )
        .expect("starts")
    };
    let (pk, plain) = auto(false);
    let (kk, kind) = auto(true);
    assert!(
        matches!(plain.verdict, Verdict::BoundedTrue { .. }),
        "{:?}",
        plain.verdict
    );
    assert_eq!((pk, &plain.verdict), (kk, &kind.verdict));
    assert_eq!(plain.steps_tried, 0);
    assert_eq!(
        kind.steps_tried,
        1 + symex_bmc::MAX_STALLED_STEPS,
        "{:?}",
        kind.induction
    );
    // Each step asks a handful of queries (Houdini's and the step's); every bound's base case the same
    // as without the flag.
    assert!(
        kind.queries <= plain.queries + 20 * u64::from(kind.steps_tried),
        "{} vs {}",
        kind.queries,
        plain.queries
    );
    let build =
        symex_native::build(&path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    // Native runs whose length does not depend on the machine's speed.
    for n in (0..300).chain(65_530..65_542).chain([1 << 20]) {
        assert_eq!(native_outcome(&build, n), "exit", "n = {n}");
    }
}

/// `i <= n` after a signed loop fails for n < 0 (the candidate invariant `i <= n` fails at the first
/// arrival): the base case finds it, with or without the step.
#[test]
fn a_candidate_that_does_not_hold_at_entry_proves_nothing() {
    let path = example("kind_signed_false.c");
    for induction in [false, true] {
        let r = bmc(&path, 1, induction);
        let Verdict::False { inputs, .. } = &r.verdict else {
            panic!("expected false, got {:?}", r.verdict);
        };
        let n = i32::from_le_bytes(inputs[0].bytes[..4].try_into().expect("4 bytes"));
        assert!(n < 0, "n = {n}");
    }
}

/// The lecture's `unsigned int s` program: its assertion `s >= v` after the loop is not inductive
/// without `s >= v` as an invariant (not a guard relation), so the step fails at k = 3 and the answer
/// stays bounded-true; at k = 256 the base case alone proves it, and the step is not needed.
#[test]
fn lecture_unsigned_int_sum_needs_its_bound() {
    let path = example("lecture_uint.c");
    let r = bmc(&path, 3, true);
    assert!(
        matches!(r.verdict, Verdict::BoundedTrue { .. }),
        "{:?}",
        r.verdict
    );
    assert!(r.induction.is_some());
    let r = bmc(&path, 256, true);
    assert_eq!(r.verdict, Verdict::True);
    assert_eq!(r.induction, None);
}

/// Writes through a pointer the loop loads, and a global a called function writes: what the havoc does
/// not cover is found by the check of one iteration, and the step is not attempted (the reason says so).
#[test]
fn writes_the_havoc_does_not_cover_stop_the_step() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let progs = [
        (
            "pointer.c",
            "#include <assert.h>\nextern unsigned int __VERIFIER_nondet_uint(void);\n\
             int main(void) {\n  unsigned int n = __VERIFIER_nondet_uint();\n  unsigned int i = 0;\n\
             unsigned int a[4] = {0, 0, 0, 0};\n  unsigned int *p = &a[1];\n\
             while (i < n) {\n    *p = *p + 1;\n    i++;\n    assert(a[0] == 0);\n  }\n  return 0;\n}\n",
        ),
        (
            "global.c",
            "#include <assert.h>\nextern unsigned int __VERIFIER_nondet_uint(void);\n\
             unsigned int g = 0;\nstatic void bump(void) { g++; }\n\
             int main(void) {\n  unsigned int n = __VERIFIER_nondet_uint();\n  unsigned int i = 0;\n\
             while (i < n) {\n    bump();\n    i++;\n    assert(g < 10);\n  }\n  return 0;\n}\n",
        ),
    ];
    for (name, src) in progs {
        let path = dir.path().join(name);
        std::fs::write(&path, src).expect("write");
        let r = bmc(&path, 2, true);
        assert!(
            matches!(r.verdict, Verdict::BoundedTrue { .. }),
            "{name}: {:?}",
            r.verdict
        );
        let why = r.induction.expect("a reason");
        assert!(why.contains("outside what is havocked"), "{name}: {why}");
    }
}

/// A count down and a count up keep their sum: the candidate `x + y == n` (not a guard relation: the
/// guard is `x > 0`) survives Houdini and the step proves `y == n` after the loop, at k = 1 and 2;
/// without the step the answer is bounded-true. The native build passes for n = 0..299 and 2^20. Its
/// twin counting up by 2 breaks the sum: the base case finds `n > 0` with or without the step, and the
/// native build fails there.
#[test]
fn a_sum_invariant_proves_a_count_down_and_never_its_false_twin() {
    let path = example("kind_count_down.c");
    let plain = bmc(&path, 2, false);
    assert!(
        matches!(plain.verdict, Verdict::BoundedTrue { .. }),
        "{:?}",
        plain.verdict
    );
    for k in [1, 2] {
        let r = bmc(&path, k, true);
        assert_eq!(r.verdict, Verdict::True, "k = {k}: {:?}", r.induction);
    }
    let build =
        symex_native::build(&path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for n in (0..300).chain([1 << 20]) {
        assert_eq!(native_outcome(&build, n), "exit", "n = {n}");
    }
    let twin = example("kind_count_down_false.c");
    let build =
        symex_native::build(&twin, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for induction in [false, true] {
        let r = bmc(&twin, 1, induction);
        let Verdict::False { inputs, .. } = &r.verdict else {
            panic!("expected false, got {:?}", r.verdict);
        };
        let n = u32::from_le_bytes(inputs[0].bytes[..4].try_into().expect("4 bytes"));
        assert!(n > 0, "n = {n}");
        assert_eq!(native_outcome(&build, n), "assertion", "n = {n}");
    }
    assert_eq!(native_outcome(&build, 0), "exit");
}

/// A loop that writes a variable uninitialised before it (SV-COMP's `locks`): the havoc covers it (an
/// uninitialised load is an unconstrained input), so the step proves the program at k = 1, where it is
/// bounded-true without the step. Native runs pass for p in {0, 1, -7} and 0..40 iterations. Its twin
/// reads the variable before writing it: false with or without the step, the counterexample's
/// uninitialised value being the one the assertion excludes.
#[test]
fn a_variable_uninitialised_before_the_loop_is_havocked() {
    let path = example("kind_uninit_lock.c");
    let plain = bmc(&path, 1, false);
    assert!(
        matches!(plain.verdict, Verdict::BoundedTrue { .. }),
        "{:?}",
        plain.verdict
    );
    let r = bmc(&path, 1, true);
    assert_eq!(r.verdict, Verdict::True, "{:?}", r.induction);
    let build =
        symex_native::build(&path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let int = |v: i32| TestInput {
        name: "__VERIFIER_nondet_int".into(),
        bytes: v.to_le_bytes().to_vec(),
    };
    for p in [0, 1, -7] {
        for iterations in [0, 1, 2, 39] {
            let mut inputs = vec![int(p)];
            inputs.extend((0..iterations).map(|_| int(1)));
            inputs.push(int(0));
            let test = TestFile {
                inputs,
                ..TestFile::default()
            };
            let run = symex_native::run(&build, &test, &RunOptions::default());
            assert_eq!(run.outcome.kind, "exit", "p = {p}, {iterations} iterations");
        }
    }
    let dir = tempfile::tempdir().expect("a temp dir");
    let twin = dir.path().join("twin.c");
    std::fs::write(
        &twin,
        "#include <assert.h>\nextern int __VERIFIER_nondet_int(void);\n\
         int main(void) {\n  int lk;\n  while (__VERIFIER_nondet_int()) {\n    assert(lk != 7);\n\
         lk = 0;\n  }\n  return 0;\n}\n",
    )
    .expect("write");
    for induction in [false, true] {
        let r = bmc(&twin, 1, induction);
        let Verdict::False { inputs, .. } = &r.verdict else {
            panic!("expected false, got {:?}", r.verdict);
        };
        let lk = inputs
            .iter()
            .find(|i| i.name.starts_with("uninit:"))
            .expect("the uninitialised value is an input");
        assert_eq!(lk.bytes[..4], 7i32.to_le_bytes(), "{inputs:?}");
    }
}
