//! Spacer's answers on loops k-induction cannot prove, against the native build: for a TRUE, the
//! invariant Spacer found (as symex prints it in C) is compiled into the program's loop condition and
//! the native ASan/UBSan build runs over a range of inputs — the invariant must hold at every arrival
//! at the loop head and the program must exit normally; for an unsafe answer, the failing input the
//! native build shows.

use std::path::{Path, PathBuf};
use symex_bmc::{Class, Options};
use symex_chc::{Answer, Budget, LoopInvariant};
use symex_engine::{Program, TestFile, TestInput};
use symex_explore::SolverCtx;
use symex_native::{BuildOptions, RunOptions};
use symex_solver::{SolverConfig, Z3Mode};

/// Z3's deterministic budget for Spacer (no wall clock in tests).
const RLIMIT: u32 = 100_000_000;

/// The most queries the check of a congruence invariant may take (initiation, consecution and safety
/// for each candidate, over a few rounds of Houdini).
const QUERIES: u64 = 60;

/// The exit status of a native run whose invariant check failed.
const INVARIANT_FAILED: i64 = 77;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/chc")
        .join(name)
}

fn prove(path: &Path) -> Answer {
    let m = symex_ir::load(path, &symex_ir::FrontendOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let prog = Program::new(m);
    let ctx = SolverCtx::new(
        SolverConfig::default().z3_mode(Z3Mode::Bitblast).build(),
        None,
    );
    let budget = Budget {
        rlimit: Some(RLIMIT),
        timeout: None,
    };
    symex_chc::prove(
        &prog,
        &Options::default(),
        &|_| Class::Violation,
        ctx,
        budget,
        &Vec::new,
    )
}

fn safe(path: &Path) -> LoopInvariant {
    match prove(path) {
        Answer::Safe { mut invariants, .. } => {
            assert_eq!(invariants.len(), 1);
            invariants.remove(0)
        }
        a => panic!("{}: expected safe, got {a:?}", path.display()),
    }
}

/// The program with each invariant of `invs` checked each time the loop condition on its head's line
/// is evaluated (`while (` becomes `while (chc_check(INV), `): a failure exits with
/// [`INVARIANT_FAILED`].
fn instrumented(path: &Path, invs: &[LoopInvariant], dir: &Path) -> PathBuf {
    let src = std::fs::read_to_string(path).expect("source");
    let mut lines: Vec<String> = src.lines().map(String::from).collect();
    for inv in invs {
        let head = &mut lines[inv.line as usize - 1];
        assert!(head.contains("while ("), "line {}: {head}", inv.line);
        *head = head.replacen(
            "while (",
            &format!("while (chc_check({}), ", inv.c_expression()),
            1,
        );
    }
    let mut text = format!(
        "extern void exit(int);\nstatic void chc_check(int ok) {{ if (!ok) exit({INVARIANT_FAILED}); }}\n"
    );
    // A `#line` keeps the program's own line numbers after the two lines above.
    text.push_str(&format!("#line 1 \"{}\"\n", path.display()));
    text.push_str(&lines.join("\n"));
    text.push('\n');
    let out = dir.join(path.file_name().expect("a file"));
    std::fs::write(&out, text).expect("write");
    out
}

fn uints(values: &[u32]) -> TestFile {
    TestFile {
        inputs: values
            .iter()
            .map(|v| TestInput {
                name: "__VERIFIER_nondet_uint".into(),
                bytes: v.to_le_bytes().to_vec(),
            })
            .collect(),
        ..TestFile::default()
    }
}

/// The same for `__VERIFIER_nondet_int` (the bits of `values`, read back as `int`).
fn ints(values: &[i32]) -> TestFile {
    let mut t = uints(&values.iter().map(|&v| v as u32).collect::<Vec<_>>());
    for i in &mut t.inputs {
        i.name = "__VERIFIER_nondet_int".into();
    }
    t
}

/// Runs the instrumented build on each input sequence: every run exits with status 0.
fn holds_natively(path: &Path, inv: &LoopInvariant, inputs: &[Vec<u32>]) {
    all_hold_natively(path, std::slice::from_ref(inv), inputs);
}

/// As [`holds_natively`], with every invariant of `invs` checked at its own loop head.
fn all_hold_natively(path: &Path, invs: &[LoopInvariant], inputs: &[Vec<u32>]) {
    let tests: Vec<TestFile> = inputs.iter().map(|i| uints(i)).collect();
    all_hold_natively_on(path, invs, &tests);
}

/// As [`all_hold_natively`], on test files: every conjunct of each invariant has a C form, some
/// invariant has one (an invariant `1` at an inner loop checks nothing), and every run exits with 0.
fn all_hold_natively_on(path: &Path, invs: &[LoopInvariant], tests: &[TestFile]) {
    for inv in invs {
        assert!(inv.omitted == 0, "{inv:?}");
    }
    assert!(invs.iter().any(|i| !i.c_conjuncts.is_empty()), "{invs:?}");
    let dir = tempfile::tempdir().expect("tempdir");
    let src = instrumented(path, invs, dir.path());
    let build =
        symex_native::build(&src, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for input in tests {
        let run = symex_native::run(&build, input, &RunOptions::default());
        assert_eq!(
            (run.outcome.kind.as_str(), run.outcome.code),
            ("exit", Some(0)),
            "{} with inputs {:?}, invariants {:?}: {}",
            path.display(),
            input.inputs,
            invs.iter().map(|i| i.c_expression()).collect::<Vec<_>>(),
            run.report
        );
    }
}

/// The disjunctive invariant of Gulwani's example (no inputs: one run checks every arrival).
#[test]
fn a_disjunctive_invariant_is_proved() {
    let path = example("disjunctive.c");
    let inv = safe(&path);
    holds_natively(&path, &inv, &[vec![]]);
}

/// Spacer derives the assertion's failure; natively it fails at n = 5 and not below.
#[test]
fn an_unsafe_loop_is_unsafe() {
    let path = example("sum_false.c");
    let Answer::Unsafe { violations } = prove(&path) else {
        panic!("expected unsafe");
    };
    assert!(violations.iter().all(|b| b.kind.as_str() == "assertion"));
    let build =
        symex_native::build(&path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for n in 0..5 {
        let run = symex_native::run(&build, &uints(&[n]), &RunOptions::default());
        assert_eq!(run.outcome.kind, "exit", "n = {n}");
    }
    let run = symex_native::run(&build, &uints(&[5]), &RunOptions::default());
    assert_eq!(run.outcome.kind, "assertion");
}

/// A check after the loop over its final values (`s == 3*n`): Spacer's invariant of the clauses
/// without wrap-around (`s == 3*i && s <= 3*n`) passes the bit-vector re-check only with the first
/// arrival's bound on the input (`n <= 1000000`), which the re-check adds.
#[test]
fn a_post_loop_check_is_proved_with_the_input_bound() {
    let path = example("post_loop.c");
    let inv = safe(&path);
    assert!(
        inv.c_conjuncts.iter().any(|c| c.contains("1000000")),
        "{inv:?}"
    );
    let inputs: Vec<Vec<u32>> = (0..=300u32)
        .chain([999_999, 1_000_000, 1 << 20])
        .map(|n| vec![n])
        .collect();
    holds_natively(&path, &inv, &inputs);
}

/// A loop nested in another whose inner loop runs once more when `i == 3` (`nested_false.c`): Spacer
/// derives the failure over both loop heads' predicates; natively the program exits normally for
/// n = 0..=3 and reaches the error for n = 4.
#[test]
fn a_nested_loop_bug_is_unsafe() {
    let path = example("nested_false.c");
    let Answer::Unsafe { violations } = prove(&path) else {
        panic!("expected unsafe");
    };
    assert!(violations.iter().all(|b| b.kind.as_str() == "reach-error"));
    let build =
        symex_native::build(&path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for n in 0..4 {
        let run = symex_native::run(&build, &uints(&[n]), &RunOptions::default());
        assert_eq!(run.outcome.kind, "exit", "n = {n}");
    }
    let run = symex_native::run(&build, &uints(&[4]), &RunOptions::default());
    assert_eq!(run.outcome.kind, "reach-error");
}

/// As [`safe`], with the queries of the invariant's check.
fn safe_counted(path: &Path) -> (LoopInvariant, u64) {
    match prove(path) {
        Answer::Safe {
            mut invariants,
            queries,
        } => {
            assert_eq!(invariants.len(), 1);
            (invariants.remove(0), queries)
        }
        a => panic!("{}: expected safe, got {a:?}", path.display()),
    }
}

/// `x` even at the loop head (`even_step.c`: steps of 2 through a function, from 0): Spacer over
/// integers cannot state `x % 2`; the congruence candidate `(x & 1) == 0`, checked on the bit-vectors,
/// proves it with a few queries. The invariant holds natively at every arrival for n = 0..=300 and
/// 2^20.
#[test]
fn a_congruence_proves_an_even_step() {
    let path = example("even_step.c");
    let (inv, queries) = safe_counted(&path);
    assert!(inv.c_expression().contains("& "), "{inv:?}");
    assert!(queries <= QUERIES, "{queries} queries: {inv:?}");
    let inputs: Vec<Vec<u32>> = (0..=300u32).chain([1 << 20]).map(|n| vec![n]).collect();
    holds_natively(&path, &inv, &inputs);
}

/// A loop that steps by 1 up to 100, then by 2 (`phases_parity.c`): the congruence holds in the second
/// phase only, and the candidate `x < 100 || (x & 1) == 0` (the loop's own comparison joined to it)
/// proves the check after the loop. The invariant holds natively for n = 0..=300, 999999 and 10^6.
#[test]
fn a_congruence_of_the_last_phase_is_proved_as_a_disjunction() {
    let path = example("phases_parity.c");
    let (inv, queries) = safe_counted(&path);
    assert!(inv.c_expression().contains("||"), "{inv:?}");
    assert!(queries <= QUERIES, "{queries} queries: {inv:?}");
    let inputs: Vec<Vec<u32>> = (0..=300u32)
        .chain([999_999, 1_000_000])
        .map(|n| vec![n])
        .collect();
    holds_natively(&path, &inv, &inputs);
}

/// The same loop with its first phase ending at the odd 5 (`phases_parity_false.c`): no candidate
/// survives that implies the check, and the answer is unsafe; natively the program exits normally for
/// n = 0..=4 and reaches the error for n = 5..=300.
#[test]
fn an_odd_last_phase_is_unsafe() {
    let path = example("phases_parity_false.c");
    let Answer::Unsafe { violations } = prove(&path) else {
        panic!("expected unsafe");
    };
    assert!(violations.iter().all(|b| b.kind.as_str() == "reach-error"));
    let build =
        symex_native::build(&path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for n in 0..=300 {
        let run = symex_native::run(&build, &uints(&[n]), &RunOptions::default());
        let expected = if n <= 4 { "exit" } else { "reach-error" };
        assert_eq!(run.outcome.kind, expected, "n = {n}");
    }
}

/// Every invariant of a safe answer, with the queries of its check.
fn safe_all(path: &Path) -> (Vec<LoopInvariant>, u64) {
    match prove(path) {
        Answer::Safe {
            invariants,
            queries,
        } => (invariants, queries),
        a => panic!("{}: expected safe, got {a:?}", path.display()),
    }
}

/// A trap for a kind of candidate: the answer must not be safe, and the native build shows which
/// inputs exit normally (`exits`) and which reach the error (`fails`).
fn not_safe(path: &Path, exits: &[TestFile], fails: &[TestFile]) {
    let answer = prove(path);
    assert!(
        !matches!(answer, Answer::Safe { .. }),
        "{}: {answer:?}",
        path.display()
    );
    let build =
        symex_native::build(path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for (tests, expected) in [(exits, "exit"), (fails, "reach-error")] {
        for t in tests {
            let run = symex_native::run(&build, t, &RunOptions::default());
            assert_eq!(run.outcome.kind, expected, "{:?}", t.inputs);
        }
    }
}

/// The most queries the check of the new kinds of candidates may take (Houdini over a few dozen
/// candidates at two loop heads).
const FAMILY_QUERIES: u64 = 400;

/// A loop that clears the lowest set bit while a flag toggles (`bit_parity.c`): the relation over
/// GF(2) `par(v1) ^ par(p) == par(v)` and the flag's values `p == 0 || p == 1` prove the check
/// against the parity folded by shifts. The invariant (with `__builtin_parity`) holds natively at
/// every arrival for v = 0..=4096 and a few wide values.
#[test]
fn a_parity_relation_proves_the_bit_count() {
    let path = example("bit_parity.c");
    let (invs, queries) = safe_all(&path);
    assert!(
        invs.iter()
            .any(|i| i.c_expression().contains("__builtin_parity")),
        "{invs:?}"
    );
    assert!(queries <= FAMILY_QUERIES, "{queries} queries: {invs:?}");
    let inputs: Vec<Vec<u32>> = (0..=4096u32)
        .chain([0xffff_ffff, 0x8000_0000, 0x1234_5678])
        .map(|v| vec![v])
        .collect();
    all_hold_natively(&path, &invs, &inputs);
}

/// Its trap (`bit_parity_false.c`): a step that clears more than one bit; the relation is suggested
/// and dropped, the answer is not safe, and natively v = 2 and 3 reach the error.
#[test]
fn a_parity_relation_that_a_step_breaks_proves_nothing() {
    let u = |v: u32| uints(&[v]);
    not_safe(&example("bit_parity_false.c"), &[u(0), u(1)], &[u(2), u(3)]);
}

/// Repeated digit sums (`digit_sum.c`): `m == n` at the outer loop's head, from the copies before it
/// and after its inner loop. Natively it holds for n = 0..=5000 and 2^32 - 1.
#[test]
fn a_copy_proves_the_outer_loop() {
    let path = example("digit_sum.c");
    let (invs, queries) = safe_all(&path);
    assert!(queries <= FAMILY_QUERIES, "{queries} queries: {invs:?}");
    let inputs: Vec<Vec<u32>> = (0..=5000u32).chain([u32::MAX]).map(|v| vec![v]).collect();
    all_hold_natively(&path, &invs, &inputs);
}

/// Its trap (`digit_sum_false.c`): the copy is off by one after a sum of 10; not safe, and natively
/// n = 19 and 28 reach the error while 0..=18 exit.
#[test]
fn a_copy_that_a_step_breaks_proves_nothing() {
    let exits: Vec<TestFile> = (0..=18).map(|v| uints(&[v])).collect();
    not_safe(
        &example("digit_sum_false.c"),
        &exits,
        &[uints(&[19]), uints(&[28])],
    );
}

/// Two loops where the second's check needs the first's exact exit (`half_bound.c`): at the first
/// head `k == n + 1 - i/2`, `i` even and `i == 0 || i < n + 2`; at the second the template over its
/// bound `j >= n/2 || k + j == 1 + n/2`. Natively the invariants hold for n = -300..=300 and 10^6.
#[test]
fn a_template_over_the_bound_proves_the_second_loop() {
    let path = example("half_bound.c");
    let (invs, queries) = safe_all(&path);
    assert_eq!(invs.len(), 2, "{invs:?}");
    assert!(queries <= FAMILY_QUERIES, "{queries} queries: {invs:?}");
    let tests: Vec<TestFile> = (-300..=300)
        .chain([1_000_000])
        .map(|n| ints(&[n]))
        .collect();
    all_hold_natively_on(&path, &invs, &tests);
}

/// Its trap (`half_bound_false.c`): `k` one short, so the template fails on arrival; not safe, and
/// natively n = -300..=1 exit while 2..=300 reach the error.
#[test]
fn a_template_that_fails_on_arrival_proves_nothing() {
    let exits: Vec<TestFile> = (-300..=1).map(|n| ints(&[n])).collect();
    let fails: Vec<TestFile> = (2..=300).map(|n| ints(&[n])).collect();
    not_safe(&example("half_bound_false.c"), &exits, &fails);
}
