//! `symex bmc` beyond the recursion bound: calls of functions without side effects return any value
//! in a second unwinding whose TRUE alone is taken. Each answer is checked against the native build
//! (`symex-native`, clang-14 with sanitizers), not against symex's own interpreter.

use serde_json::Value;
use std::path::{Path, PathBuf};
use symex_engine::{TestFile, TestInput};
use symex_native::{BuildOptions, NativeBuild, RunOptions};

mod common;

fn example(name: &str) -> PathBuf {
    common::example("bmc", name)
}

/// `symex bmc --property PROPERTY --unwind K --json`: the JSON answer.
fn bmc(dir: &Path, name: &str, property: &str, unwind: u32) -> Value {
    let o = common::symex()
        .args(["bmc", "--property", property, "--json", "--out"])
        .arg(dir)
        .args(["--unwind", &unwind.to_string()])
        .arg(example(name))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{name}: {e}: {stdout}"))
}

fn native(name: &str, opts: &BuildOptions) -> NativeBuild {
    symex_native::build(&example(name), opts).unwrap_or_else(|e| panic!("{e}"))
}

fn int_input(x: i32) -> TestFile {
    TestFile {
        inputs: vec![TestInput {
            name: "__VERIFIER_nondet_int".into(),
            bytes: x.to_le_bytes().to_vec(),
        }],
        ..TestFile::default()
    }
}

fn native_outcome(build: &NativeBuild, test: &TestFile) -> String {
    symex_native::run(build, test, &RunOptions::default())
        .outcome
        .kind
}

#[test]
fn a_capped_recursion_is_true_beyond_its_bound() {
    let dir = tempfile::tempdir().unwrap();
    for k in [1, 2] {
        let v = bmc(dir.path(), "recursion_capped_true.c", "unreach-call", k);
        assert_eq!(v["verdict"], "true", "K = {k}: {v}");
        assert_eq!(v["recursion_abstracted"], true, "K = {k}: {v}");
    }
    let build = native("recursion_capped_true.c", &BuildOptions::default());
    for x in (-50..2000).chain([100_000]) {
        assert_eq!(native_outcome(&build, &int_input(x)), "exit", "x = {x}");
    }
}

#[test]
fn a_reachable_cap_is_never_true_and_false_at_its_depth() {
    let dir = tempfile::tempdir().unwrap();
    for k in [1, 2] {
        let v = bmc(dir.path(), "recursion_capped_false.c", "unreach-call", k);
        assert_eq!(v["verdict"], "bounded-true", "K = {k}: {v}");
    }
    let v = bmc(dir.path(), "recursion_capped_false.c", "unreach-call", 3);
    assert_eq!(v["verdict"], "false", "{v}");
    let test = v["errors"][0]["test"]
        .as_str()
        .expect("a FALSE names its test");
    let test = TestFile::load(Path::new(test)).unwrap();
    let build = native("recursion_capped_false.c", &BuildOptions::default());
    assert_ne!(native_outcome(&build, &test), "exit", "{v}");
    assert_eq!(native_outcome(&build, &int_input(2)), "exit");
}

#[test]
fn an_overflow_beyond_the_bound_is_not_abstracted_away() {
    let dir = tempfile::tempdir().unwrap();
    for k in [1, 2] {
        let v = bmc(dir.path(), "recursion_overflow_false.c", "no-overflow", k);
        assert_eq!(v["verdict"], "bounded-true", "K = {k}: {v}");
    }
    let v = bmc(dir.path(), "recursion_overflow_false.c", "no-overflow", 3);
    assert_eq!(v["verdict"], "false", "{v}");
    let test = v["errors"][0]["test"]
        .as_str()
        .expect("a FALSE names its test");
    let test = TestFile::load(Path::new(test)).unwrap();
    let overflow = BuildOptions {
        check_overflow: true,
        ..BuildOptions::default()
    };
    let build = native("recursion_overflow_false.c", &overflow);
    assert_ne!(native_outcome(&build, &test), "exit", "{v}");
    assert_eq!(native_outcome(&build, &int_input(3)), "exit");
}
