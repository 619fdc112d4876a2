//! valid-memcleanup (every heap block freed when the program ends, reachable or not) under `check`, the
//! exploration alone, and `bmc`, on LP64 and ILP32.
//!
//! The oracle is LeakSanitizer, not symex: each example is built natively (clang-14 with ASan, `-m32` for
//! ILP32) and run on every input of a range covering its branches with LeakSanitizer scanning no roots
//! (`symex-native` does so for a test that expects `not-freed`), so every block still allocated at exit is
//! listed. The example's verdict is TRUE when no run lists one, FALSE when one does; it must be the
//! table's, then symex's. The test of a FALSE replays natively to the same outcome.

use serde_json::Value;
use symex_engine::{Outcome, TestFile, TestInput};
use symex_native::{BuildOptions, RunOptions};

mod common;

/// Example, verdict under valid-memcleanup, verdict under valid-memsafety, inputs tried natively.
const CASES: &[(&str, &str, &str, std::ops::RangeInclusive<i32>)] = &[
    (
        "cleanup_reachable_false.c",
        "FALSE(valid-memcleanup)",
        "TRUE",
        -1..=1,
    ),
    ("cleanup_list_true.c", "TRUE", "TRUE", -1..=4),
    (
        "cleanup_branch_false.c",
        "FALSE(valid-memcleanup)",
        "TRUE",
        3..=7,
    ),
    (
        "leak_false.c",
        "FALSE(valid-memcleanup)",
        "FALSE(valid-memtrack)",
        -1..=3,
    ),
];

/// TRUE, or FALSE(valid-memcleanup) when a native run on one of `inputs` leaves a block allocated.
fn native_verdict(file: &str, inputs: std::ops::RangeInclusive<i32>, m32: bool) -> String {
    let opts = BuildOptions {
        m32,
        program_error_functions: true,
        ..BuildOptions::default()
    };
    let build = symex_native::build(&common::example("check", file), &opts)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    for k in inputs {
        let test = TestFile {
            inputs: vec![TestInput {
                name: "__VERIFIER_nondet_int".into(),
                bytes: k.to_le_bytes().to_vec(),
            }],
            // Asks symex-native for LeakSanitizer without roots.
            outcome: Some(Outcome {
                kind: "not-freed".into(),
                ..Outcome::default()
            }),
            ..TestFile::default()
        };
        let o = symex_native::run(&build, &test, &RunOptions::default()).outcome;
        match (o.kind.as_str(), o.code) {
            ("exit", Some(0)) => continue,
            ("not-freed", _) => return "FALSE(valid-memcleanup)".into(),
            _ => return format!("{file}, input {k}: {o:?}"),
        }
    }
    "TRUE".into()
}

fn last_line(out: &std::process::Output) -> String {
    let s = String::from_utf8_lossy(&out.stdout);
    s.lines().last().unwrap_or("").to_string()
}

#[test]
fn memcleanup_verdicts_agree_with_leak_sanitizer_without_roots() {
    if !common::symex()
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return;
    }
    for (file, cleanup, memsafety, inputs) in CASES {
        for (data_model, m32) in [("LP64", false), ("ILP32", true)] {
            let native = native_verdict(file, inputs.clone(), m32);
            assert_eq!(&native, cleanup, "{file} {data_model}: the native oracle");
            for (property, expected) in [
                ("valid-memcleanup", cleanup),
                ("valid-memsafety", memsafety),
            ] {
                for extra in [&[][..], &["--no-bmc"][..]] {
                    let dir = tempfile::tempdir().unwrap();
                    let o = common::symex()
                        .args(["check", "--property", property, "--data-model", data_model])
                        .args(extra)
                        .arg("--out")
                        .arg(dir.path())
                        .arg(common::example("check", file))
                        .output()
                        .unwrap();
                    assert_eq!(
                        &last_line(&o),
                        expected,
                        "{file} {data_model} {property} {extra:?}"
                    );
                }
            }
            let mut bmc = common::symex();
            bmc.args(["bmc", "--property", "valid-memcleanup", "--unwind", "5"]);
            if m32 {
                bmc.args(["--cflags", "-m32"]);
            }
            let dir = tempfile::tempdir().unwrap();
            let o = bmc
                .arg("--out")
                .arg(dir.path())
                .arg(common::example("check", file))
                .output()
                .unwrap();
            let want = if cleanup.starts_with("FALSE") {
                "FALSE"
            } else {
                "TRUE"
            };
            assert_eq!(last_line(&o), want, "{file} {data_model} bmc");
        }
    }
}

/// The test of a memcleanup FALSE replays natively (`replay --native`) to `not-freed`.
#[test]
fn a_memcleanup_counterexample_reproduces_natively() {
    let dir = tempfile::tempdir().unwrap();
    let file = common::example("check", "cleanup_branch_false.c");
    let o = common::symex()
        .args([
            "check",
            "--json",
            "--no-bmc",
            "--property",
            "valid-memcleanup",
            "--out",
        ])
        .arg(dir.path())
        .arg(&file)
        .output()
        .unwrap();
    let v: Value = serde_json::from_str(&last_line(&o)).unwrap();
    assert_eq!(v["kind"], "not-freed", "{v}");
    assert_eq!(v["subproperty"], "valid-memcleanup", "{v}");
    let test = v["test"].as_str().unwrap();
    let t = TestFile::load(std::path::Path::new(test)).unwrap();
    let x = i32::from_le_bytes(t.inputs[0].bytes[..4].try_into().unwrap());
    assert!(x <= 5, "the block is freed for x > 5: {x}");
    let o = common::symex()
        .args(["replay", "--native", "--json"])
        .arg(&file)
        .arg(test)
        .output()
        .unwrap();
    let r: Value = serde_json::from_str(&last_line(&o)).unwrap();
    assert_eq!(r["outcome"]["kind"], "not-freed", "{r}");
    assert_eq!(r["agrees"], true, "{r}");
}

/// A property file is memory safety when it names valid-free, valid-deref or valid-memtrack, even when it
/// also names valid-memcleanup (the subset's valid-memsafety.prp has all four lines): a lost block is
/// FALSE(valid-memtrack) there. A file naming valid-memcleanup alone is memory cleanup.
#[test]
fn a_memsafety_property_file_that_also_names_memcleanup_is_memory_safety() {
    let dir = tempfile::tempdir().unwrap();
    let line = |p: &str| format!("CHECK( init(main()), LTL(G {p}) )\n");
    let memsafety = dir.path().join("valid-memsafety.prp");
    std::fs::write(
        &memsafety,
        [
            "valid-free",
            "valid-deref",
            "valid-memtrack",
            "valid-memcleanup",
        ]
        .map(line)
        .concat(),
    )
    .unwrap();
    let cleanup = dir.path().join("valid-memcleanup.prp");
    std::fs::write(&cleanup, line("valid-memcleanup")).unwrap();
    let program = common::example("check", "leak_false.c");
    for (prp, want) in [
        (&memsafety, "FALSE(valid-memtrack)"),
        (&cleanup, "FALSE(valid-memcleanup)"),
    ] {
        let o = common::symex()
            .arg("check")
            .arg("--property")
            .arg(prp)
            .arg("--out")
            .arg(dir.path().join(format!("out-{}", want.len())))
            .arg(&program)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(stdout.lines().last(), Some(want), "{stdout}");
    }
}
