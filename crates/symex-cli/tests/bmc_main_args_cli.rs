//! `symex bmc` and `symex bmc --engine chc` start `main` as `check` does: a `main` that reads `argc` runs
//! with any `argc >= 0`, one that reads `argv`'s strings is not decided. Each FALSE is checked on the
//! native build (`symex-native`, clang-14 with sanitizers, run with `argc - 1` arguments), not on symex's
//! interpreter.

use serde_json::Value;
use std::path::{Path, PathBuf};
use symex_engine::{TestFile, TestInput, ARGC_INPUT};
use symex_native::{BuildOptions, NativeBuild, RunOptions};

mod common;

fn example(name: &str) -> PathBuf {
    common::example("check", name)
}

/// `symex bmc --engine ENGINE --property unreach-call --json`: the JSON answer.
fn bmc(dir: &Path, engine: &str, name: &str) -> Value {
    let o = common::symex()
        .args(["bmc", "--engine", engine, "--property", "unreach-call"])
        .args(["--json", "--out"])
        .arg(dir.join(engine))
        .arg(example(name))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "{engine} {name}: {e}: {stdout}{}",
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn native(name: &str) -> NativeBuild {
    symex_native::build(&example(name), &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The native outcome of `build` run with `argc` (the test's `argc` input: `argc - 1` arguments).
fn native_with_argc(build: &NativeBuild, argc: i32) -> String {
    let test = TestFile {
        inputs: vec![TestInput {
            name: ARGC_INPUT.into(),
            bytes: argc.to_le_bytes().to_vec(),
        }],
        ..TestFile::default()
    };
    symex_native::run(build, &test, &RunOptions::default())
        .outcome
        .kind
}

/// Only `argc == 3` reaches the error (natively: every other count from 1 to 12 exits 0). `bmc` used to
/// run `main` with `argc = 1` and answered TRUE; both engines now answer FALSE with `argc = 3`, and the
/// counterexample aborts natively.
#[test]
fn bmc_and_chc_explore_argc_as_check_does() {
    let name = "unreach_argc_three_false.c";
    let build = native(name);
    for argc in 1..=12 {
        let exits = native_with_argc(&build, argc) == "exit";
        assert_eq!(exits, argc != 3, "argc = {argc}");
    }
    let dir = tempfile::tempdir().unwrap();
    for engine in ["bmc", "chc"] {
        let v = bmc(dir.path(), engine, name);
        assert_eq!(v["verdict"], "false", "{engine}: {v}");
        let test = v["errors"][0]["test"]
            .as_str()
            .expect("a FALSE names its test");
        let test = TestFile::load(Path::new(test)).unwrap();
        let argc = test.inputs.first().expect("an argc input");
        assert_eq!(argc.name, ARGC_INPUT, "{engine}: {test:?}");
        assert_eq!(argc.bytes, 3i32.to_le_bytes(), "{engine}: {test:?}");
        let o = common::symex()
            .args(["replay", "--native", "--json"])
            .arg(example(name))
            .arg(v["errors"][0]["test"].as_str().unwrap())
            .output()
            .unwrap();
        let r: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(r["agrees"], true, "{engine}: {r}");
    }
}

/// `argv` handed to a function that never reads it leaves `argc` the only input (FALSE with
/// `argc = 4`, which aborts natively); `argv` whose strings a callee reads is not decided, by either
/// engine (natively `./a.out x` reaches the error, so TRUE would be wrong).
#[test]
fn argv_is_followed_into_callees() {
    let dir = tempfile::tempdir().unwrap();
    let build = native("argv_passed_unread_false.c");
    assert_eq!(native_with_argc(&build, 3), "exit");
    assert_ne!(native_with_argc(&build, 4), "exit");
    let v = bmc(dir.path(), "bmc", "argv_passed_unread_false.c");
    assert_eq!(v["verdict"], "false", "{v}");
    let test = TestFile::load(Path::new(v["errors"][0]["test"].as_str().unwrap())).unwrap();
    let argc = i32::from_le_bytes(test.inputs[0].bytes[..4].try_into().unwrap());
    assert!(argc >= 4, "{test:?}");
    assert_ne!(native_with_argc(&build, argc), "exit");
    for engine in ["bmc", "chc"] {
        let v = bmc(dir.path(), engine, "argv_passed_read_unknown.c");
        assert_eq!(v["verdict"], "unknown", "{engine}: {v}");
        assert!(v["reason"].as_str().unwrap().contains("argv"), "{v}");
    }
}
