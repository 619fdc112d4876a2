//! `symex check`'s portfolio (issue 14): the exploration and BMC (`--unwind auto --k-induction`) run side
//! by side and the first definite verdict is answered, naming its engine (`"engine"` in the JSON). Each
//! example is decided by one engine only, by construction (see its first comment), and each verdict is
//! checked against the native build (`symex-native`, clang-14 with sanitizers): a FALSE's test reaches
//! `reach_error` natively; a TRUE's program passes natively on the inputs tried.

use serde_json::Value;
use std::path::{Path, PathBuf};
use symex_engine::{TestFile, TestInput};
use symex_native::{BuildOptions, NativeBuild, RunOptions};

mod common;

/// The `--max-time` of a run whose verdict must come: only a guard against a hang, far above the
/// seconds these examples take, so that the verdict does not depend on the machine's load.
const BACKSTOP: &str = "600";

fn example(name: &str) -> PathBuf {
    common::example("check", name)
}

/// `symex check --property unreach-call --json` with `extra`: the JSON answer.
fn check(dir: &Path, name: &str, extra: &[&str]) -> Value {
    let o = common::symex()
        .args(["check", "--property", "unreach-call", "--json", "--out"])
        .arg(dir)
        .arg(example(name))
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let v: Value =
        serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{name}: {e}: {stdout}"));
    let status = match v["verdict"].as_str() {
        Some("true") => 0,
        Some("false") => 1,
        _ => 3,
    };
    assert_eq!(o.status.code(), Some(status), "{name}: {v}");
    v
}

fn native(name: &str) -> NativeBuild {
    symex_native::build(&example(name), &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The native outcome kind of a FALSE answer's test.
fn native_outcome_of_test(build: &NativeBuild, answer: &Value) -> String {
    let test = answer["test"].as_str().expect("a FALSE names its test");
    let test = TestFile::load(Path::new(test)).unwrap_or_else(|e| panic!("{e}"));
    symex_native::run(build, &test, &RunOptions::default())
        .outcome
        .kind
}

/// `bmc --property unreach-call --unwind UNWIND --k-induction` on the example `name`: the JSON report.
fn k_induction(name: &str, unwind: &str) -> Value {
    let o = common::symex()
        .args(["bmc", "--property", "unreach-call", "--unwind", unwind])
        .args(["--k-induction", "--json"])
        .arg(example(name))
        .output()
        .unwrap();
    serde_json::from_slice(&o.stdout).unwrap()
}

/// No bound covers the loop and the exploration cannot complete (one path per `n`), so BMC's inductive
/// step proves it (forced here with `bmc --k-induction`), as does the Horn-clause engine (its own
/// candidates `x == 2*i` and `i <= n`): which of the two answers `check` is a race, and either is
/// right. With `--no-bmc` the answer is UNKNOWN. The native build passes for n = 0..200 and n = 2^20.
#[test]
fn a_loop_no_bound_covers_is_true_by_k_induction() {
    let dir = tempfile::tempdir().unwrap();
    let name = "portfolio_kind_true.c";
    let v = check(dir.path(), name, &["--max-time", BACKSTOP]);
    assert_eq!(v["verdict"], "true", "{v}");
    assert!(matches!(v["engine"].as_str(), Some("bmc" | "chc")), "{v}");
    let b = k_induction(name, "8");
    assert_eq!(b["verdict"], "true", "{b}");
    let v = check(dir.path(), name, &["--max-time", "3", "--no-bmc"]);
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert_eq!(v.get("engine"), None, "{v}");
    let build = native(name);
    for n in (0..200u32).chain([1 << 20]) {
        let test = TestFile {
            inputs: vec![TestInput {
                name: "__VERIFIER_nondet_uint".into(),
                bytes: n.to_le_bytes().to_vec(),
            }],
            ..TestFile::default()
        };
        let run = symex_native::run(&build, &test, &RunOptions::default());
        assert_eq!(run.outcome.kind, "exit", "n = {n}");
    }
}

/// `y == n` after a loop that counts `x` and `y` together needs `y == x`, which none of k-induction's
/// candidates states (its step fails), and the exploration cannot complete: the Horn-clause engine
/// decides, and its invariant, compiled into the loop condition of the native build, holds at every
/// arrival for n = 0..200 and 2^20 (and the program passes).
#[test]
fn a_relational_invariant_is_true_by_the_horn_clause_engine() {
    let dir = tempfile::tempdir().unwrap();
    let name = "portfolio_chc_true.c";
    let v = check(dir.path(), name, &["--max-time", BACKSTOP]);
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["engine"], "chc", "{v}");
    let b = k_induction(name, "8");
    assert_eq!(b["verdict"], "bounded-true", "{b}");
    let b = true_by_the_horn_clause_engine(&example(name));
    let inv = &b["invariants"][0];
    invariant_holds_natively(&example(name), inv, (0..200u32).chain([1 << 20]));
}

/// The error at the 4097th iteration of a concrete loop is beyond BMC's largest automatic bound
/// (`bmc --unwind 4096` is bounded-true, the inductive step fails), so the exploration answers; its test
/// reaches `reach_error` natively.
#[test]
fn an_error_beyond_every_bound_is_false_by_exploration() {
    let dir = tempfile::tempdir().unwrap();
    let name = "portfolio_deep_false.c";
    let v = check(dir.path(), name, &["--max-time", BACKSTOP]);
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["engine"], "exploration", "{v}");
    assert_eq!(native_outcome_of_test(&native(name), &v), "reach-error");
    let b = k_induction(name, "4096");
    assert_eq!(b["verdict"], "bounded-true", "{b}");
    let step = b["k_induction"].as_str().unwrap_or_default();
    assert!(step.contains("inductive step fails"), "{b}");
}

/// One choice sequence of 2^30 reaches the error: BMC's merged query finds it (its test has 30 choices
/// whose `lo`, computed here, is the pattern, and reaches `reach_error` natively), the exploration alone
/// does not (UNKNOWN with `--no-bmc`).
#[test]
fn merged_pointer_choices_are_false_by_bmc() {
    let dir = tempfile::tempdir().unwrap();
    let name = "portfolio_pointer_false.c";
    let v = check(dir.path(), name, &["--max-time", BACKSTOP]);
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["engine"], "bmc", "{v}");
    let test = TestFile::load(Path::new(v["test"].as_str().unwrap())).unwrap();
    assert_eq!(test.inputs.len(), 30, "{v}");
    let lo: u32 = (0..30)
        .filter(|&i| test.inputs[i].bytes[0] != 0)
        .map(|i| 1u32 << i)
        .sum();
    assert_eq!(lo, 0x2A5C_93E1);
    assert_eq!(native_outcome_of_test(&native(name), &v), "reach-error");
    let v = check(dir.path(), name, &["--max-time", "3", "--no-bmc"]);
    assert_eq!(v["verdict"], "unknown", "{v}");
}

/// `bmc --property no-overflow` declines what `check` declines: an unsuffixed literal above INT_MAX
/// (a `long` in C, INT_MIN as SV-COMP reads it). Before, `bmc` alone answered TRUE on SV-COMP's
/// AdditionIntMin, whose expected verdict is FALSE. The native sanitizer build shows that C's reading
/// has no overflow (it exits normally), so neither verdict can be given.
#[test]
fn bmc_declines_an_int_min_literal_as_check_does() {
    let name = "portfolio_int_min_literal.c";
    let o = common::symex()
        .args(["bmc", "--property", "no-overflow", "--json"])
        .arg(example(name))
        .output()
        .unwrap();
    let b: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(b["verdict"], "unknown", "{b}");
    assert!(b["reason"].as_str().unwrap().contains("2147483648"), "{b}");
    assert_eq!(o.status.code(), Some(3));
    let dir = tempfile::tempdir().unwrap();
    let o = common::symex()
        .args(["check", "--property", "no-overflow", "--json", "--out"])
        .arg(dir.path())
        .arg(example(name))
        .output()
        .unwrap();
    let c: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(c["verdict"], "unknown", "{c}");
    let opts = BuildOptions {
        check_overflow: true,
        ..BuildOptions::default()
    };
    let build = symex_native::build(&example(name), &opts).unwrap_or_else(|e| panic!("{e}"));
    let run = symex_native::run(&build, &TestFile::default(), &RunOptions::default());
    assert_eq!(run.outcome.kind, "exit", "{:?}", run.outcome);
}

/// An unsuffixed `-2147483648` that is a whole right-hand side assigns exactly INT_MIN: not declined,
/// and `x--` then overflows. `check` and `bmc` answer FALSE; the native sanitizer build reports the
/// overflow.
#[test]
fn an_assigned_int_min_literal_is_decided() {
    let name = "portfolio_int_min_assigned.c";
    let dir = tempfile::tempdir().unwrap();
    let o = common::symex()
        .args(["check", "--property", "no-overflow", "--json", "--out"])
        .arg(dir.path())
        .arg(example(name))
        .output()
        .unwrap();
    let c: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(c["verdict"], "false", "{c}");
    assert_eq!(c["kind"], "signed-overflow", "{c}");
    let o = common::symex()
        .args(["bmc", "--property", "no-overflow", "--json", "--out"])
        .arg(dir.path().join("bmc"))
        .arg(example(name))
        .output()
        .unwrap();
    let b: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(b["verdict"], "false", "{b}");
    let opts = BuildOptions {
        check_overflow: true,
        ..BuildOptions::default()
    };
    let build = symex_native::build(&example(name), &opts).unwrap_or_else(|e| panic!("{e}"));
    let run = symex_native::run(&build, &TestFile::default(), &RunOptions::default());
    assert_eq!(run.outcome.kind, "signed-overflow", "{:?}", run.outcome);
}

/// Bugs 2^16 iterations deep in loops whose guard compares a counter with an input: the path forks in
/// every iteration, and the exploration, forced (`--no-bmc`: BMC's loop acceleration finds
/// `deep_counter_false.c` too, and the race is not this test's), reaches the error. Its
/// test reaches `reach_error` natively. The iterations do not reach the solver: `run` to a depth of
/// 65,600 forks asks it at most a handful of queries (the path condition keeps one bound of the input,
/// and each fork's model is the path's model moved to the bound, checked by evaluation).
#[test]
fn a_bug_two_to_the_sixteen_iterations_deep_is_false_by_exploration() {
    for name in ["deep_guard_false.c", "deep_counter_false.c"] {
        let dir = tempfile::tempdir().unwrap();
        let v = check(dir.path(), name, &["--max-time", BACKSTOP, "--no-bmc"]);
        assert_eq!(v["verdict"], "false", "{name}: {v}");
        assert_eq!(v["engine"], "exploration", "{name}: {v}");
        assert_eq!(native_outcome_of_test(&native(name), &v), "reach-error");
        let out = tempfile::tempdir().unwrap();
        let o = common::symex()
            .args(["run", "--tests", "errors", "--max-depth", "65600", "--json"])
            .args(["--max-time", BACKSTOP, "--out"])
            .arg(out.path().join("run"))
            .arg(example(name))
            .output()
            .unwrap();
        let r: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(r["paths"]["errors"], 1, "{name}: {r}");
        assert!(
            r["paths"]["completed"].as_u64() >= Some(65_536),
            "{name}: {r}"
        );
        assert!(r["solver"]["queries"].as_u64() <= Some(4), "{name}: {r}");
    }
}

/// `x + y == n` for a loop that moves a nondeterministic `n` from `x` to `y` (`sum_relation.c`): the
/// Horn-clause engine, forced with `bmc --engine chc`, proves it with that relation (Spacer's old
/// unsat-core generator finds it; its default one does not with libz3 4.8.12). Its invariant,
/// compiled into the loop condition of the native build, holds at every arrival and the program
/// passes for n = 0..=300 and 2^20.
#[test]
fn a_sum_relation_is_true_by_the_horn_clause_engine() {
    let path = common::example("chc", "sum_relation.c");
    let b = true_by_the_horn_clause_engine(&path);
    let inv = &b["invariants"][0];
    let expr = inv["c_expression"].as_str().unwrap();
    assert!(
        expr.contains('x') && expr.contains('y') && expr.contains('n'),
        "{b}"
    );
    invariant_holds_natively(&path, inv, (0..=300u32).chain([1 << 20]));
}

/// `bmc --engine chc` on `program`: TRUE with a whole invariant (no conjunct left out of its C form);
/// the JSON report.
fn true_by_the_horn_clause_engine(program: &std::path::Path) -> Value {
    let o = common::symex()
        .args(["bmc", "--property", "unreach-call", "--engine", "chc"])
        .arg("--json")
        .arg(program)
        .output()
        .unwrap();
    let b: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(b["verdict"], "true", "{b}");
    assert_eq!(b["invariants"][0]["conjuncts_omitted"], 0, "{b}");
    b
}

/// The invariant `inv` (a `c_expression` at a `line` of `program`) compiled into the loop condition
/// of the native build, where a violation exits 77: the program must pass for every `n` of `inputs`
/// (its one `__VERIFIER_nondet_uint`), so the invariant holds at every arrival of those runs.
fn invariant_holds_natively(program: &Path, inv: &Value, inputs: impl Iterator<Item = u32>) {
    let tests = inputs.map(|n| vec![uint_input(n)]).collect();
    invariant_holds_natively_on(program, inv, tests);
}

fn uint_input(n: u32) -> TestInput {
    TestInput {
        name: "__VERIFIER_nondet_uint".into(),
        bytes: n.to_le_bytes().to_vec(),
    }
}

/// [`invariant_holds_natively`] with the runs' inputs given in full (each a run's values in order).
fn invariant_holds_natively_on(program: &Path, inv: &Value, tests: Vec<Vec<TestInput>>) {
    let expr = inv["c_expression"].as_str().unwrap();
    let line = inv["line"].as_u64().unwrap() as usize;
    let src = std::fs::read_to_string(program).unwrap();
    let mut lines: Vec<String> = src.lines().map(String::from).collect();
    assert!(lines[line - 1].contains("while ("), "{}", lines[line - 1]);
    lines[line - 1] =
        lines[line - 1].replacen("while (", &format!("while (chc_check({expr}), "), 1);
    let dir = tempfile::tempdir().unwrap();
    let instrumented = dir.path().join(program.file_name().unwrap());
    std::fs::write(
        &instrumented,
        format!(
            "extern void exit(int);\nstatic void chc_check(int ok) {{ if (!ok) exit(77); }}\n#line 1\n{}\n",
            lines.join("\n")
        ),
    )
    .unwrap();
    let build = symex_native::build(&instrumented, &BuildOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    for inputs in tests {
        let test = TestFile {
            inputs,
            ..TestFile::default()
        };
        let run = symex_native::run(&build, &test, &RunOptions::default());
        assert_eq!(
            (run.outcome.kind.as_str(), run.outcome.code),
            ("exit", Some(0)),
            "inputs {:?}: {}",
            test.inputs,
            run.report
        );
    }
}

/// `x <= 2*y` after a loop adding 1 or 2 to `x` and 1 to `y` (`twice_bound.c`, `n <= 10^6`): Spacer's
/// invariant over the integer clauses (`x <= 2*y`) misses what keeps a step from wrapping, and the
/// octagons of `symex term` at the loop head (`i == y`, `i <= n`, `x <= i + y`) give it; the
/// Horn-clause engine, forced with `bmc --engine chc`, keeps their inductive part, which implies
/// safety. The invariant, compiled into the native build, holds for every choice sequence of
/// n = 0..=6 and for n = 300 and 1000 with all choices 1, all 0, and alternating.
#[test]
fn a_relation_from_terms_octagons_proves_twice_bound() {
    let path = common::example("chc", "twice_bound.c");
    let b = true_by_the_horn_clause_engine(&path);
    let inv = &b["invariants"][0];
    let run = |n: u32, choice: &dyn Fn(u32) -> bool| {
        let mut v = vec![uint_input(n)];
        v.extend((0..n).map(|k| TestInput {
            name: "__VERIFIER_nondet_bool".into(),
            bytes: vec![u8::from(choice(k))],
        }));
        v
    };
    let mut tests = Vec::new();
    for n in 0..=6u32 {
        for bits in 0..(1u32 << n) {
            tests.push(run(n, &|k| bits >> k & 1 == 1));
        }
    }
    for n in [300, 1000] {
        tests.push(run(n, &|_| true));
        tests.push(run(n, &|_| false));
        tests.push(run(n, &|k| k % 2 == 0));
    }
    invariant_holds_natively_on(&path, inv, tests);
}

/// Two loops in sequence (`loop_sequence.c`: `k` counted up with `i` to `n <= 10^6`, then down with
/// `j`): the Horn-clause engine, forced with `bmc --engine chc`, proves `k == 0` after both with an
/// invariant at each loop head (lines 14 and 19); each, compiled into the loop condition of the
/// native build, holds at every arrival for n = 0..=300 and 10^6.
#[test]
fn loops_in_sequence_are_true_by_the_horn_clause_engine() {
    let path = common::example("chc", "loop_sequence.c");
    let b = true_by_the_horn_clause_engine(&path);
    let invs = b["invariants"].as_array().unwrap();
    let lines: Vec<u64> = invs.iter().map(|i| i["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [14, 19], "{b}");
    for inv in invs {
        assert_eq!(inv["conjuncts_omitted"], 0, "{b}");
        invariant_holds_natively(&path, inv, (0..=300u32).chain([1_000_000]));
    }
}

/// A loop nested in another (`nested.c`: the inner one adds 10 to `k` one by one, `n <= 10^6` times):
/// the Horn-clause engine, forced with `bmc --engine chc`, proves `k == 10*n` after both with an
/// invariant at each loop head (lines 14 and 16); each, compiled into the loop condition of the native
/// build, holds at every arrival for n = 0..=300, 999999 and 10^6.
#[test]
fn nested_loops_are_true_by_the_horn_clause_engine() {
    let path = common::example("chc", "nested.c");
    let b = true_by_the_horn_clause_engine(&path);
    let invs = b["invariants"].as_array().unwrap();
    let lines: Vec<u64> = invs.iter().map(|i| i["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [14, 16], "{b}");
    for inv in invs {
        assert_eq!(inv["conjuncts_omitted"], 0, "{b}");
        invariant_holds_natively(&path, inv, (0..=300u32).chain([999_999, 1_000_000]));
    }
}

/// The Horn-clause engine's encoding ends by a count, not a clock: the eight 64 MiB `memcpy`s of
/// `mem_copy_memory_limit_unknown.c` go through a pointer the loop head makes symbolic, one query per
/// chunk (before the count, the encoding ran for over 13 minutes under the resource limit alone). Forced
/// with `bmc --engine chc`, without `--max-time`, it answers UNKNOWN with the count as the reason. Natively
/// the program exits 0 (see its comment): UNKNOWN, not a wrong verdict.
#[test]
fn the_horn_clause_encoding_ends_by_its_query_count() {
    let o = common::symex()
        .args([
            "bmc",
            "--property",
            "unreach-call",
            "--engine",
            "chc",
            "--json",
        ])
        .arg(example("mem_copy_memory_limit_unknown.c"))
        .output()
        .unwrap();
    let b: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(b["verdict"], "unknown", "{b}");
    assert!(
        b.to_string()
            .contains("the encoding exceeds its count of 1000 solver queries"),
        "{b}"
    );
    assert_eq!(o.status.code(), Some(3), "{b}");
}
