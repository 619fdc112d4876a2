//! `symex check TASK.yml`: SV-COMP task-definition files. Each property's verdict is the one
//! `symex check --property` gives on the input file, the expected verdicts are the task's, and a property
//! file symex does not know is bad input naming it.

use serde_json::Value;
use std::path::PathBuf;

mod common;

fn task(name: &str) -> PathBuf {
    common::example("check/tasks", name)
}

fn json_of(args: &[&str], file: &std::path::Path) -> (Option<i32>, Value) {
    json_in(&tempfile::tempdir().unwrap(), args, file)
}

/// `symex check ARGS FILE --json --out DIR`: the exit status and the JSON object.
fn json_in(dir: &tempfile::TempDir, args: &[&str], file: &std::path::Path) -> (Option<i32>, Value) {
    let o = common::symex()
        .arg("check")
        .args(args)
        .arg(file)
        .arg("--json")
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let v = serde_json::from_str(stdout.lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {stdout} {}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code(), v)
}

/// One verdict per property, equal to the `--property` run's, with the expected verdicts of the task;
/// the Test-Comp coverage goal is listed as skipped.
#[test]
fn a_task_file_checks_each_property_as_property_runs_do() {
    let (code, v) = json_of(&[], &task("leak_after_error.yml"));
    let results = v["results"].as_array().unwrap();
    let got: Vec<(&str, &str, Option<&str>)> = results
        .iter()
        .map(|r| {
            (
                r["property"].as_str().unwrap(),
                r["verdict"].as_str().unwrap(),
                r["subproperty"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("unreach-call", "false", None),
            ("valid-memsafety", "false", Some("valid-memtrack")),
            ("no-overflow", "true", None),
        ]
    );
    assert!(results.iter().all(|r| r["agrees"] == Value::Bool(true)));
    assert_eq!(code, Some(1), "a FALSE among several: exit 1");
    assert_eq!(
        v["skipped"][0]["property_file"],
        "properties/coverage-branches.prp"
    );
    let input = task("leak_after_error.c");
    for r in results {
        let prp = task(r["property_file"].as_str().unwrap());
        let (_, alone) = json_of(
            &["--property", prp.to_str().unwrap(), "--data-model", "ILP32"],
            &input,
        );
        assert_eq!(alone["verdict"], r["verdict"], "{r}");
        assert_eq!(alone["subproperty"], r["subproperty"], "{r}");
    }
}

/// The unreach-call FALSE of the task reproduces on the native build (`symex replay --native`), which
/// shares nothing with the symbolic engine but the test's input values.
#[test]
fn a_task_files_violation_replays_natively() {
    let dir = tempfile::tempdir().unwrap();
    let (_, v) = json_in(
        &dir,
        &["--property", "unreach-call"],
        &task("leak_after_error.yml"),
    );
    let r = &v["results"][0];
    assert_eq!(r["verdict"], "false");
    let test = r["test"].as_str().unwrap();
    let o = common::symex()
        .args(["replay", "--native", "--json", "--cflags=-m32"])
        .arg(task("leak_after_error.c"))
        .arg(test)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    if out.contains("clang-14") && !o.status.success() {
        eprintln!("skipped: no native build ({out})");
        return;
    }
    let replay: Value = serde_json::from_str(out.lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {out} {}", String::from_utf8_lossy(&o.stderr)));
    assert_eq!(replay["agrees"], true, "{replay}");
}

/// Format 1.0 (no `options`): `--property` selects one property and the last line is its verdict alone.
#[test]
fn format_1_0_and_one_selected_property() {
    let o = common::symex()
        .args(["check", "--property", "unreach-call"])
        .arg(task("count_down.yml"))
        .arg("--out")
        .arg(tempfile::tempdir().unwrap().path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(stdout.lines().last(), Some("TRUE"), "{stdout}");
    assert!(
        stdout.contains("unreach-call: TRUE (expected TRUE: agrees)"),
        "{stdout}"
    );
    assert_eq!(o.status.code(), Some(0));
    // termination is decided by `symex term`; whatever it answers, it never disagrees.
    let (_, v) = json_of(&[], &task("count_down.yml"));
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert!(
        results.iter().all(|r| r["agrees"] != Value::Bool(false)),
        "{v}"
    );
}

/// A property file that names nothing symex checks is bad input (exit 2) naming the file and its line.
#[test]
fn an_unknown_property_file_is_exit_2_naming_it() {
    let o = common::symex()
        .arg("check")
        .arg(task("unknown_property.yml"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("unknown_property.yml:6: property properties/no-data-race.prp"),
        "{stderr}"
    );
    // a property the task does not name
    let o = common::symex()
        .args(["check", "--property", "no-overflow"])
        .arg(task("count_down.yml"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("names no property no-overflow"));
}
