//! `symex validate`: violation witnesses are confirmed when a run they allow violates the property (and
//! its test reproduces on the native build), rejected when none does. The expected results follow from
//! the programs (`examples/validate/pin.c` violates unreach-call exactly for a = 3, b = 22), not from
//! symex's output; the confirming tests are replayed natively by the validator itself, and the round
//! trip (`check --witness`, then `validate`) is checked on both formats.

use serde_json::Value;
use std::path::{Path, PathBuf};

mod common;

/// `validate --json --witness W PROGRAM EXTRA…`: exit status and the JSON object.
fn validate(witness: &Path, program: &Path, extra: &[&str], out: &Path) -> (i32, Value) {
    let o = common::symex()
        .args(["validate", "--json", "--witness"])
        .arg(witness)
        .arg(program)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let v: Value = serde_json::from_str(stdout.lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {stdout} {}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code().unwrap_or(-1), v)
}

fn pin(name: &str) -> PathBuf {
    common::example("validate", name)
}

/// A native replay that ran must have reproduced the violation (it is skipped only without clang).
fn assert_native_agrees(v: &Value) {
    let native = v["native"].as_str().unwrap_or("");
    assert!(
        native.starts_with("reproduced") || native.starts_with("not run: "),
        "{v}"
    );
}

#[test]
fn a_witness_that_fixes_every_value_is_confirmed() {
    let dir = tempfile::tempdir().unwrap();
    let (status, v) = validate(&pin("pin.graphml"), &pin("pin.c"), &[], dir.path());
    assert_eq!(status, 1, "{v}");
    assert_eq!(v["result"], "confirmed", "{v}");
    assert_eq!(v["kind"], "reach-error", "{v}");
    assert_eq!(v["file_line"], 11, "{v}");
    assert_eq!(v["values_followed"], 2, "{v}");
    assert_native_agrees(&v);
}

#[test]
fn a_witness_that_leaves_a_value_free_is_confirmed_by_exploring_it() {
    let dir = tempfile::tempdir().unwrap();
    let (status, v) = validate(&pin("pin_partial.yml"), &pin("pin.c"), &[], dir.path());
    assert_eq!(status, 1, "{v}");
    assert_eq!(v["result"], "confirmed", "{v}");
    assert_eq!(v["format"], "YAML 2.0", "{v}");
    assert_eq!(v["values_followed"], 1, "{v}");
    assert_native_agrees(&v);
}

#[test]
fn witnesses_whose_values_miss_the_violation_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let (status, v) = validate(&pin("pin_wrong.graphml"), &pin("pin.c"), &[], dir.path());
    assert_eq!((status, v["result"].as_str()), (0, Some("rejected")), "{v}");
    // The right a, the wrong b: the guide must fix the second call too.
    let text = std::fs::read_to_string(pin("pin.graphml")).unwrap();
    assert!(text.contains("\\result == 22;"));
    let off_by_one = dir.path().join("b23.graphml");
    std::fs::write(
        &off_by_one,
        text.replace("\\result == 22;", "\\result == 23;"),
    )
    .unwrap();
    let (status, v) = validate(&off_by_one, &pin("pin.c"), &[], &dir.path().join("o2"));
    assert_eq!((status, v["result"].as_str()), (0, Some("rejected")), "{v}");
}

/// The two nondet inputs (x, n) of a confirming test of `branches.c`, as C ints.
fn branches_inputs(v: &Value) -> (i32, i32) {
    let test: Value =
        serde_json::from_str(&std::fs::read_to_string(v["test"].as_str().unwrap()).unwrap())
            .unwrap();
    let int = |i: usize| {
        let b: Vec<u8> = test["inputs"][i]["bytes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_u64().unwrap() as u8)
            .collect();
        i32::from_le_bytes(b[..4].try_into().unwrap())
    };
    (int(0), int(1))
}

/// Witnesses that fix no value and name only branch directions (`examples/validate/branches.c`: the
/// violation needs n == 7, with x > 10 after two laps or x <= 10 after seven). The directions alone
/// decide which run is meant: each confirmed run lies on the side the witness names, and witnesses
/// whose directions no run can take, or that send the last condition away from the violation, are
/// rejected (the program itself is FALSE, so reading directions past would confirm them).
#[test]
fn witnesses_that_name_only_branch_directions_are_followed() {
    let ex = |n: &str| common::example("validate", n);
    let dir = tempfile::tempdir().unwrap();
    let (status, v) = validate(&ex("branches.graphml"), &ex("branches.c"), &[], dir.path());
    assert_eq!(
        (status, v["result"].as_str()),
        (1, Some("confirmed")),
        "{v}"
    );
    assert_eq!(
        (
            v["values_followed"].as_u64(),
            v["branches_followed"].as_u64()
        ),
        (Some(0), Some(5)),
        "{v}"
    );
    let (x, n) = branches_inputs(&v);
    assert!(x > 10 && n == 7, "x = {x}, n = {n}");
    assert_native_agrees(&v);
    let (status, v) = validate(
        &ex("branches.yml"),
        &ex("branches.c"),
        &[],
        &dir.path().join("y"),
    );
    assert_eq!(
        (status, v["result"].as_str()),
        (1, Some("confirmed")),
        "{v}"
    );
    assert_eq!(v["branches_followed"], 2, "{v}");
    let (x, n) = branches_inputs(&v);
    assert!(x <= 10 && n == 7, "x = {x}, n = {n}");
    assert_native_agrees(&v);
    for (i, w) in ["branches_wrong.graphml", "branches_else.graphml"]
        .iter()
        .enumerate()
    {
        let (status, v) = validate(
            &ex(w),
            &ex("branches.c"),
            &[],
            &dir.path().join(format!("r{i}")),
        );
        assert_eq!(
            (status, v["result"].as_str()),
            (0, Some("rejected")),
            "{w}: {v}"
        );
    }
}

/// `check --json --property PROPERTY --witness W` on `program` (its output in `out`): the JSON object.
fn check_with_witness(
    program: &Path,
    property: &str,
    extra: &[&str],
    w: &Path,
    out: &Path,
) -> Value {
    let o = common::symex()
        .args(["check", "--json", "--property", property, "--witness"])
        .arg(w)
        .arg("--out")
        .arg(out)
        .args(extra)
        .arg(program)
        .output()
        .unwrap();
    serde_json::from_str(String::from_utf8_lossy(&o.stdout).lines().last().unwrap()).unwrap()
}

/// `check --witness W` on `program` must answer FALSE, and `validate` must confirm W (exit status 1):
/// `check`'s and `validate`'s JSON objects (outputs in `dir`'s `c` and `v`).
fn check_then_confirm(
    program: &Path,
    property: &str,
    extra: &[&str],
    w: &Path,
    dir: &Path,
) -> (Value, Value) {
    let c = check_with_witness(program, property, extra, w, &dir.join("c"));
    assert_eq!(c["verdict"], "false", "{c}");
    let (status, v) = validate(w, program, extra, &dir.join("v"));
    assert_eq!(
        (status, v["result"].as_str()),
        (1, Some("confirmed")),
        "{}: {v}",
        w.display()
    );
    (c, v)
}

/// symex's own witness of `examples/witness/branch_directions.c`, GraphML or YAML, carries the directions
/// of its run; `validate` follows them (and the value) to the violation, and rejects the witness with its
/// first `false` direction turned (the `for` loop's exit at i == 3 made a fourth lap, which no run takes).
#[test]
fn a_witness_with_a_turned_direction_is_rejected() {
    // GraphML `control` edges and YAML `branching` waypoints: the first `false` direction turned.
    for (ext, from, to) in [
        ("graphml", "condition-false", "condition-true"),
        ("yml", "value: 'false'", "value: 'true'"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let program = common::example("witness", "branch_directions.c");
        let w = dir.path().join(format!("w.{ext}"));
        let (_, v) = check_then_confirm(&program, "unreach-call", &[], &w, dir.path());
        // The `for` loop's four directions (its line has one keyword); in GraphML also the others.
        assert!(v["branches_followed"].as_u64().unwrap() >= 4, "{ext}: {v}");
        let text = std::fs::read_to_string(&w).unwrap();
        assert!(text.contains(from), "{ext}: {text}");
        let turned = dir.path().join(format!("turned.{ext}"));
        std::fs::write(&turned, text.replacen(from, to, 1)).unwrap();
        let (status, v) = validate(&turned, &program, &[], &dir.path().join("v2"));
        assert_eq!(
            (status, v["result"].as_str()),
            (0, Some("rejected")),
            "{ext}: {v}"
        );
    }
}

/// What `check --witness` writes, in either format, `validate` confirms with the same bug; with the one
/// value changed, the same witness is rejected.
#[test]
fn symex_witnesses_round_trip_and_a_changed_value_is_rejected() {
    let cases: [(&str, &str, &str, &[&str]); 3] = [
        ("check", "unreach_false.c", "unreach-call", &[]),
        ("check", "memsafety_false.c", "valid-memsafety", &[]),
        (
            "check/tasks",
            "leak_after_error.c",
            "unreach-call",
            &["--data-model", "ILP32"],
        ),
    ];
    for (folder, name, property, extra) in cases {
        for ext in ["graphml", "yml"] {
            let dir = tempfile::tempdir().unwrap();
            let program = common::example(folder, name);
            let w = dir.path().join(format!("w.{ext}"));
            let (c, v) = check_then_confirm(&program, property, extra, &w, dir.path());
            assert_eq!(v["kind"], c["kind"], "{name} {ext}: {v}");
            assert_eq!(v["file_line"], c["file_line"], "{name} {ext}: {v}");
            assert_native_agrees(&v);
            if name != "unreach_false.c" {
                continue;
            }
            // x == 42 is the one violating value; 43 is not.
            let text = std::fs::read_to_string(&w).unwrap();
            assert!(text.contains("\\result == 42"), "{text}");
            let changed = dir.path().join(format!("changed.{ext}"));
            std::fs::write(&changed, text.replace("\\result == 42", "\\result == 43")).unwrap();
            let (status, v) = validate(&changed, &program, extra, &dir.path().join("v2"));
            assert_eq!((status, v["result"].as_str()), (0, Some("rejected")), "{v}");
        }
    }
}

#[test]
fn what_is_not_a_violation_witness_is_bad_input_naming_why() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.graphml");
    std::fs::write(&junk, "<graphml><graph>").unwrap();
    let o = common::symex()
        .args(["validate", "--witness"])
        .arg(&junk)
        .arg(pin("pin.c"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("junk.graphml") && err.contains("XML"), "{err}");
    // The witnesses of SV-COMP's format repository (in ../shared): a correctness witness and a
    // termination (lasso) witness, neither of which is a path to follow.
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/spec/witnesses");
    if !shared.is_dir() {
        eprintln!("skipped: ../shared/spec/witnesses is absent");
        return;
    }
    for (witness, program, why) in [
        (
            "simple_incorrect.yml.graphml",
            "simple_incorrect.c",
            "correctness_witness",
        ),
        (
            "Ex02_false-termination_true-no-overflow.c_witness.graphml",
            "Ex02_false-termination_true-no-overflow.c",
            "termination",
        ),
    ] {
        let o = common::symex()
            .args(["validate", "--witness"])
            .arg(shared.join(witness))
            .arg(shared.join(program))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{witness}: {err}");
        assert!(err.contains(why), "{witness}: {err}");
    }
}

/// A witness of a violation 2^16 + 2^26 loop iterations deep (`check --witness` on
/// `examples/bmc/accel_deep27_false.c`, whose FALSE only BMC's acceleration finds: natively n = 2^27 + 1
/// reaches `reach_error` after 67,141,633 iterations): `validate` runs the witness's values on the
/// native build once the interpreter has followed it for 2^22 instructions, instead of re-exploring the
/// loop symbolically, and the violation is the witness's.
#[test]
fn a_witness_deeper_than_the_interpreters_share_is_confirmed_natively() {
    let dir = tempfile::tempdir().unwrap();
    let program = common::example("bmc", "accel_deep27_false.c");
    let w = dir.path().join("w.yml");
    let (c, v) = check_then_confirm(&program, "unreach-call", &[], &w, dir.path());
    assert_eq!(v["kind"], "reach-error", "{v}");
    assert_eq!(v["file_line"], c["file_line"], "{v}");
    let native = v["native"].as_str().unwrap_or("");
    assert!(
        native.starts_with("reproduced (native outcome: reach-error; the witness's run is longer"),
        "{v}"
    );
}
