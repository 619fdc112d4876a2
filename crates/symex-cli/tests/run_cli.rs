//! `symex run` end to end: the JSON report of `spec/cli.md`, the files of the output directory, the exit
//! status, and the replay of the bug's test by `symex replay`.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

mod common;
use common::symex;

fn example(name: &str) -> PathBuf {
    common::example("run", name)
}

#[test]
fn run_reports_top_with_tests_coverage_and_ktest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = symex()
        .arg("run")
        .arg(example("top.c"))
        .args(["--json", "--validate-tests", "--ktest", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["command"], "run");
    assert_eq!(r["complete"], true);
    assert_eq!(r["paths"]["completed"], 11);
    assert_eq!(r["paths"]["errors"], 5);
    assert_eq!(r["paths"]["cut"], 0);
    assert_eq!(r["tests"].as_array().unwrap().len(), 16);
    let errs = r["errors"].as_array().unwrap();
    assert_eq!(errs.len(), 1, "one distinct bug (kind, location)");
    assert_eq!(errs[0]["kind"], "abort");
    assert_eq!(errs[0]["line"], 11);
    assert_eq!(errs[0]["function"], "top");
    assert!(r["coverage"]["blocks_covered"].as_u64().unwrap() > 0);
    assert!(r["solver"]["queries"].as_u64().unwrap() > 0);
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["paths"], r["paths"]);
    let lcov = std::fs::read_to_string(out.join("coverage.info")).unwrap();
    assert!(lcov.contains("SF:") && lcov.contains("DA:11,1"), "{lcov}");
    assert!(out.join("test000001.ktest").is_file());
    // The bug's test replays to the same bug.
    let test = errs[0]["test"].as_str().unwrap();
    let rep = symex()
        .arg("replay")
        .arg(example("top.c"))
        .arg(test)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(rep.status.code(), Some(1));
    let rep: Value = serde_json::from_slice(&rep.stdout).unwrap();
    assert_eq!(rep["outcome"]["kind"], "abort");
    assert_eq!(rep["outcome"]["line"], 11);
}

#[test]
fn run_exits_0_on_a_complete_clean_exploration_and_3_when_cut() {
    let dir = tempfile::tempdir().unwrap();
    let o = symex()
        .arg("run")
        .arg(example("foo.c"))
        .args(["--quiet", "--out"])
        .arg(dir.path().join("a"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let o = symex()
        .arg("run")
        .arg(example("top.c"))
        .args(["--quiet", "--tests", "errors", "--max-depth", "1", "--out"])
        .arg(dir.path().join("b"))
        .output()
        .unwrap();
    // Depth 1 cuts the deeper paths before any abort is reached.
    assert_eq!(o.status.code(), Some(3));
}

#[test]
fn run_names_a_missing_file_with_status_2() {
    let o = symex()
        .args(["run", "/nonexistent/x.c", "--quiet"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("x.c"));
}

/// A path that reaches something symex does not model makes the exploration incomplete, and the report
/// says what and where.
#[test]
fn an_unsupported_construct_is_named_among_the_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::example("ui", "stdin_other_stream.c");
    let o = symex()
        .arg("run")
        .arg(&src)
        .args(["--json", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["complete"], false);
    let reasons = r["incomplete_reasons"].as_array().unwrap();
    assert!(
        reasons.iter().any(|x| {
            let x = x.as_str().unwrap();
            x.contains("does not model") && x.contains("stdin_other_stream.c:6")
        }),
        "{reasons:?}"
    );
}

/// Printing symbolic bytes: `puts` decides where its string ends (once it took the first model's NUL, so
/// its count and its reads did not follow the path) and `putchar` returns its symbolic byte.
#[test]
fn printing_symbolic_bytes_forks_on_the_string_end() {
    let dir = tempfile::tempdir().unwrap();
    let o = symex()
        .arg("run")
        .arg(example("print_symbolic.c"))
        .args(["--json", "--validate-tests", "--out"])
        .arg(dir.path().join("a"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    // s[1] is 'a' or not; then s[0] is NUL (puts returns 1), s[1] is (2, only when not 'a'), or neither.
    assert_eq!(r["paths"]["completed"], 3);
    assert_eq!(r["paths"]["errors"], 2);
    assert_eq!(r["validation_failures"].as_array().unwrap().len(), 0);
    let errs = r["errors"].as_array().unwrap();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0]["kind"], "out-of-bounds");
    let mut codes: Vec<i64> = r["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let t: Value =
                serde_json::from_str(&std::fs::read_to_string(t.as_str().unwrap()).unwrap())
                    .unwrap();
            t["outcome"]["code"].as_i64().unwrap_or(-1)
        })
        .collect();
    codes.sort();
    assert_eq!(codes, [-1, -1, 1, 1, 2]);
}

/// `printf`'s count of a symbolic value follows the value (it was the count of the value printed, a
/// number fixed on the first path: one path, whatever x).
#[test]
fn printf_count_of_a_symbolic_value_forks_on_its_length() {
    let dir = tempfile::tempdir().unwrap();
    let o = symex()
        .arg("run")
        .arg(example("printf_count.c"))
        .args(["--json", "--validate-tests", "--out"])
        .arg(dir.path().join("a"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    // n == 4 with x >= 0 or x < 0; then n == 12 or not.
    assert_eq!(r["paths"]["completed"], 4);
    assert_eq!(r["validation_failures"].as_array().unwrap().len(), 0);
    for t in r["tests"].as_array().unwrap() {
        let t: Value =
            serde_json::from_str(&std::fs::read_to_string(t.as_str().unwrap()).unwrap()).unwrap();
        let b: Vec<u8> = t["inputs"][0]["bytes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_u64().unwrap() as u8)
            .collect();
        let x = i32::from_le_bytes(b.try_into().unwrap());
        let n = format!("{x}\n").len();
        assert_eq!(t["outcome"]["code"], i64::from(n == 12), "x = {x}");
    }
}

/// `symex run --cflags -m32`: a symbolic exploration of an i386 build (4-byte pointers, 32-bit size_t,
/// `malloc` of a symbolic 32-bit size). The bug's input is checked against the native `clang-14 -m32`
/// build: it aborts there with that input, and not with the others.
#[test]
fn run_explores_an_m32_build() {
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("nodes.c");
    std::fs::write(
        &prog,
        r#"#include <stdlib.h>
extern unsigned int __VERIFIER_nondet_uint(void);
struct node { struct node *next; int v; };
int main(void) {
    unsigned int n = __VERIFIER_nondet_uint();
    if (n > 4) return 0;
    struct node *a = malloc(n * sizeof(struct node));
    if (!a) return 0;
    for (unsigned int i = 0; i < n; i++) { a[i].next = a; a[i].v = (int)i; }
    if (n == 3 && (char *)&a[2].v - (char *)a == 20) abort();
    free(a);
    return 0;
}
"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = symex()
        .arg("run")
        .arg(&prog)
        .args(["--cflags", "-m32", "--json", "--validate-tests", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["complete"], true, "{r}");
    assert_eq!(
        r["validation_errors"].as_array().map_or(0, |v| v.len()),
        0,
        "{r}"
    );
    let errs = r["errors"].as_array().unwrap();
    assert_eq!(errs.len(), 1, "{r}");
    assert_eq!(errs[0]["kind"], "abort");
    let test: Value =
        serde_json::from_str(&std::fs::read_to_string(errs[0]["test"].as_str().unwrap()).unwrap())
            .unwrap();
    let bytes: Vec<u8> = test["inputs"][0]["bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap() as u8)
        .collect();
    let n = u32::from_le_bytes(bytes[..4].try_into().unwrap());
    // The native i386 build is the oracle: it aborts with the bug's input and with no other small one.
    for k in 0..=5u32 {
        let stub = dir.path().join(format!("stub{k}.c"));
        std::fs::write(
            &stub,
            format!("unsigned int __VERIFIER_nondet_uint(void) {{ return {k}u; }}\n"),
        )
        .unwrap();
        let exe = dir.path().join(format!("native{k}"));
        let cc = std::process::Command::new("clang-14")
            .args(["-m32", "-w", "-fsanitize=address,undefined"])
            .arg(&prog)
            .arg(&stub)
            .arg("-o")
            .arg(&exe)
            .output()
            .expect("clang-14");
        assert!(
            cc.status.success(),
            "clang-14 -m32 (scripts/ensure-deps.sh installs libc6-dev-i386): {}",
            String::from_utf8_lossy(&cc.stderr)
        );
        let run = std::process::Command::new(&exe).output().unwrap();
        assert_eq!(
            run.status.success(),
            k != n,
            "native -m32 run with n = {k} (symex's bug input: {n})"
        );
    }
}

/// `symex run --json` on an example, into a fresh directory: (exit status, report).
fn run_json(dir: &tempfile::TempDir, name: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let o = symex()
        .arg("run")
        .arg(example(name))
        .args(["--json", "--out"])
        .arg(dir.path().join("out"))
        .args(extra)
        .output()
        .unwrap();
    let r = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{name}: {e}; stderr: {}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    (o.status.code(), r)
}

#[test]
fn a_call_through_a_mismatched_function_type_is_unsupported_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let (code, r) = run_json(&dir, "fnptr_mismatch.c", &[]);
    // An unsupported construct, named with its position (spec/cli.md), not a panic (101).
    assert_eq!(code, Some(2), "{r}");
    assert_eq!(r["complete"], false);
    let why = r["incomplete_reasons"].to_string();
    assert!(why.contains("does not match"), "{why}");
}

#[test]
fn an_undefined_weak_function_is_null_as_natively() {
    let dir = tempfile::tempdir().unwrap();
    let (code, r) = run_json(&dir, "weak_function.c", &["--tests", "all"]);
    assert_eq!(code, Some(0), "{r}");
    assert_eq!(r["paths"]["completed"], 1);
    let replay = symex()
        .arg("replay")
        .arg(example("weak_function.c"))
        .arg(r["tests"][0].as_str().unwrap())
        .output()
        .unwrap();
    let Some(exe) = common::native_build(&example("weak_function.c"), dir.path(), &[]) else {
        return;
    };
    let native = Command::new(exe).status().unwrap().code();
    assert_eq!(replay.status.code(), native);
    assert_eq!(native, Some(0));
}

#[test]
fn envp_is_the_empty_environment_not_null() {
    let dir = tempfile::tempdir().unwrap();
    let (code, r) = run_json(&dir, "envp.c", &[]);
    assert_eq!(code, Some(0), "{r}");
    let Some(exe) = common::native_build(&example("envp.c"), dir.path(), &[]) else {
        return;
    };
    let native = Command::new(exe).env_clear().status().unwrap().code();
    assert_eq!(native, Some(0), "natively under an empty environment");
}

#[test]
fn a_write_before_a_block_blames_that_block() {
    let dir = tempfile::tempdir().unwrap();
    let (code, r) = run_json(&dir, "negative_index.c", &[]);
    assert_eq!(code, Some(1), "{r}");
    let e = &r["errors"][0];
    assert_eq!(e["kind"], "out-of-bounds");
    let msg = e["message"].as_str().unwrap();
    assert!(
        msg.contains("offset -4 of `malloc") && msg.contains("(size 16)"),
        "{msg}"
    );
    let Some(exe) = common::native_build(
        &example("negative_index.c"),
        dir.path(),
        &["-g", "-fsanitize=address"],
    ) else {
        return;
    };
    let native = Command::new(exe).output().unwrap();
    let asan = String::from_utf8_lossy(&native.stderr);
    assert!(
        asan.contains("4 bytes to the left of 16-byte region"),
        "{asan}"
    );
}

#[test]
fn a_switch_forks_once_per_distinct_target() {
    let dir = tempfile::tempdir().unwrap();
    let (code, r) = run_json(&dir, "switch_targets.c", &[]);
    assert_eq!(code, Some(0), "{r}");
    let paths = r["paths"]["completed"].as_u64().unwrap();
    // The oracle: every input byte run natively; each target returns its own status.
    let Some(exe) = common::native_build(&example("switch_targets.c"), dir.path(), &[]) else {
        return;
    };
    let mut results = std::collections::BTreeSet::new();
    for byte in 0..=255u32 {
        let s = Command::new(&exe)
            .env("NONDET", byte.to_string())
            .status()
            .unwrap();
        results.insert(s.code());
    }
    assert_eq!(paths, results.len() as u64, "{results:?}");
}

#[test]
fn new_coverage_writes_only_tests_of_paths_that_covered_a_new_block() {
    let dir = tempfile::tempdir().unwrap();
    let (code, r) = run_json(&dir, "new_coverage.c", &["--tests", "new-coverage"]);
    assert_eq!(code, Some(0), "{r}");
    assert_eq!(r["paths"]["completed"], 16, "4 independent byte tests");
    let tests = r["tests"].as_array().unwrap().len() as u64;
    let blocks = r["coverage"]["blocks_total"].as_u64().unwrap();
    // Each written test claims a block no earlier path covered, so there are at most as many as blocks.
    assert!(
        tests >= 1 && tests <= blocks,
        "{tests} tests, {blocks} blocks"
    );
}
