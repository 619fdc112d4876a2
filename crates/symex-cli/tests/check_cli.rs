//! `symex check`: verdict lines, exit statuses, `.prp` files, JSON, and the violation's test replaying to
//! the violation.

use serde_json::Value;
use std::path::PathBuf;

mod common;

fn example(name: &str) -> PathBuf {
    common::example("check", name)
}

fn check(property: &str, file: &str, extra: &[&str]) -> (Option<i32>, String) {
    check_in(&tempfile::tempdir().unwrap(), property, file, extra)
}

fn check_in(
    dir: &tempfile::TempDir,
    property: &str,
    file: &str,
    extra: &[&str],
) -> (Option<i32>, String) {
    let o = common::symex()
        .args(["check", "--property", property])
        .arg(example(file))
        .arg("--out")
        .arg(dir.path())
        .args(extra)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

#[test]
fn verdicts_and_exit_statuses() {
    let cases = [
        ("unreach-call", "unreach_true.c", "TRUE", 0),
        ("unreach-call", "unreach_false.c", "FALSE", 1),
        (
            "valid-memsafety",
            "memsafety_false.c",
            "FALSE(valid-deref)",
            1,
        ),
        (
            "valid-memsafety",
            "leak_false.c",
            "FALSE(valid-memtrack)",
            1,
        ),
        ("valid-memsafety", "unreach_true.c", "TRUE", 0),
        ("no-overflow", "overflow_false.c", "FALSE", 1),
        ("no-overflow", "overflow_true.c", "TRUE", 0),
    ];
    for (prop, file, verdict, status) in cases {
        let (code, out) = check(prop, file, &[]);
        assert_eq!(last_line(&out), verdict, "{prop} {file}: {out}");
        assert_eq!(code, Some(status), "{prop} {file}");
    }
}

#[test]
fn a_cut_exploration_is_unknown_never_true() {
    let (code, out) = check("unreach-call", "unreach_true.c", &["--max-depth", "0"]);
    assert_eq!(last_line(&out), "UNKNOWN", "{out}");
    assert_eq!(code, Some(3));
}

#[test]
fn prp_files_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let prp = dir.path().join("unreach-call.prp");
    std::fs::write(
        &prp,
        "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
    )
    .unwrap();
    let (code, out) = check_in(&dir, prp.to_str().unwrap(), "unreach_false.c", &["--json"]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["command"], "check");
    assert_eq!(v["property"], "unreach-call");
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["kind"], "reach-error");
    // The violation's test replays to the same error.
    let test = v["test"].as_str().unwrap();
    let rep = common::symex()
        .arg("replay")
        .arg(example("unreach_false.c"))
        .arg(test)
        .arg("--json")
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&rep.stdout).unwrap();
    assert_eq!(r["outcome"]["kind"], "reach-error");
}

/// The adversarial programs of issue 8 this branch fixes, each with the verdict its comment argues and a
/// native build (clang-14 with the sanitizers) confirms.
#[test]
fn adversarial_examples_get_their_right_verdicts() {
    let cases: &[(&str, &str, &str)] = &[
        ("no-overflow", "reach_error_returns_overflow.c", "FALSE"),
        (
            "valid-memsafety",
            "reach_error_returns_memsafety.c",
            "FALSE(valid-deref)",
        ),
        ("unreach-call", "reach_error_returns_overflow.c", "FALSE"),
        (
            "valid-memsafety",
            "leak_before_abort.c",
            "FALSE(valid-memtrack)",
        ),
        (
            "valid-memsafety",
            "leak_before_assert.c",
            "FALSE(valid-memtrack)",
        ),
        ("valid-memsafety", "leak_symbolic_index.c", "TRUE"),
        ("no-overflow", "signed_shift_overflow.c", "FALSE"),
        ("no-overflow", "signed_shift_true.c", "TRUE"),
        ("unreach-call", "nondet_types.c", "TRUE"),
        ("unreach-call", "argc_read.c", "UNKNOWN"),
        ("unreach-call", "argc_unused.c", "TRUE"),
        ("no-overflow", "folded_overflow.c", "FALSE"),
        ("no-overflow", "folded_overflow_add.c", "FALSE"),
    ];
    let got = common::map_in_pairs(cases, |(prop, file, _)| check(prop, file, &[]));
    for ((prop, file, verdict), (code, out)) in cases.iter().zip(got) {
        assert_eq!(last_line(&out), *verdict, "{prop} {file}: {out}");
        let status = match *verdict {
            "TRUE" => 0,
            "UNKNOWN" => 3,
            _ => 1,
        };
        assert_eq!(code, Some(status), "{prop} {file}");
    }
}
