//! `symex check --property def-behavior` (SV-COMP's `LTL(G def-behavior)`): each kind of undefined
//! behaviour symex checks is a `FALSE` whose test the native build (clang-14 under ASan/UBSan, through
//! `symex replay --native`) reproduces as the same undefined behaviour; a program without any is
//! `UNKNOWN`, never `TRUE`, since other kinds are not checked; `bmc` refuses the property, and a task
//! file that names it is checked.

use serde_json::Value;
use std::path::Path;

mod common;

/// `check --json --property def-behavior` on `program`, with the output in `out`: the JSON object and
/// the exit status.
fn check(program: &Path, out: &Path, extra: &[&str]) -> (Value, Option<i32>) {
    let o = common::symex()
        .args(["check", "--json", "--property", "def-behavior", "--out"])
        .arg(out)
        .args(extra)
        .arg(program)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let v = serde_json::from_str(stdout.lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {stdout} {}", String::from_utf8_lossy(&o.stderr)));
    (v, o.status.code())
}

#[test]
fn every_checked_kind_of_undefined_behaviour_is_false_and_reproduces_natively() {
    // (folder, program, kind, line): written from C11 (6.5.7p3, 6.5.6p8, 6.5p5, 6.5.5p5), not from runs.
    let cases = [
        ("check", "def_shift_false.c", "reported", 8),
        ("check", "def_deref_false.c", "out-of-bounds", 8),
        ("check", "def_overflow_false.c", "signed-overflow", 7),
        ("check/tasks", "def_div_false.c", "div-by-zero", 7),
    ];
    for (folder, name, kind, line) in cases {
        let program = common::example(folder, name);
        let dir = tempfile::tempdir().unwrap();
        let (v, status) = check(&program, &dir.path().join("out"), &[]);
        assert_eq!(
            (v["verdict"].as_str(), status),
            (Some("false"), Some(1)),
            "{name}: {v}"
        );
        assert_eq!(v["kind"], kind, "{name}: {v}");
        assert_eq!(v["file_line"], line, "{name}: {v}");
        assert_eq!(v["subproperty"], Value::Null, "{name}: {v}");
        let test = v["test"].as_str().unwrap();
        let nat = common::native_replay_agrees(&program, test);
        if kind == "reported" {
            // the overshift check's report is UBSan's shift-exponent report natively
            let m = nat["outcome"]["message"].as_str().unwrap_or("");
            assert!(m.starts_with("shift exponent"), "{name}: {nat}");
        }
    }
}

#[test]
fn a_program_without_checked_undefined_behaviour_is_unknown_never_true() {
    let program = common::example("check", "def_clean_unknown.c");
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("witness.yml");
    let (v, status) = check(
        &program,
        &dir.path().join("out"),
        &["--witness", w.to_str().unwrap()],
    );
    assert_eq!(
        (v["verdict"].as_str(), status),
        (Some("unknown"), Some(3)),
        "{v}"
    );
    let reasons = v["reasons"].to_string();
    assert!(reasons.contains("TRUE is not answered"), "{v}");
    assert!(!w.exists(), "no correctness witness without a TRUE: {v}");
    // The same program under no-overflow (a property symex decides) is TRUE.
    let o = common::symex()
        .args(["check", "--property", "no-overflow"])
        .arg(&program)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_task_file_naming_def_behavior_is_checked_and_bmc_refuses_the_property() {
    let task = common::example("check/tasks", "def_div_false.yml");
    let dir = tempfile::tempdir().unwrap();
    let o = common::symex()
        .args(["check", "--json", "--out"])
        .arg(dir.path().join("out"))
        .arg(&task)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let v: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let r = &v["results"][0];
    assert_eq!(r["property"], "def-behavior", "{v}");
    assert_eq!(r["verdict"], "false", "{v}");
    assert_eq!(r["agrees"], true, "{v}");
    let o = common::symex()
        .args(["bmc", "--property", "def-behavior"])
        .arg(common::example("check", "def_shift_false.c"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("def-behavior"));
}
