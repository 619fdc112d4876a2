//! `symex its`: answers, exit statuses and output formats of `spec/cli.md`.
mod common;

use common::symex;
use std::io::Write;

fn koat(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::File::create(&p)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    p
}

const COUNT: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR X N)\n(RULES\n  l0(X,N) -> l1(X,N)\n  l1(X,N) -> l1(X + 1,N) :|: X < N\n)\n";

#[test]
fn bound_termination_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let f = koat(&dir, "count.koat", COUNT);
    let out = symex().args(["its", "--quiet"]).arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "WORST_CASE(?, O(n))"
    );

    let out = symex()
        .args(["its", "--goal", "termination", "--json"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["answer"], "YES");
    assert!(v["proof"][0]["ranking_functions"][0]["function"]["l1"].is_string());

    let out = symex().args(["its", "--json"]).arg(&f).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["bound"], "O(n)");
    assert!(v["expression"].as_str().unwrap().contains("|N|"));
}

#[test]
fn syntax_error_names_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let f = koat(&dir, "bad.koat", &COUNT.replace("X + 1,N)", "X + ,N)"));
    let out = symex().arg("its").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.koat:6:21"), "{err}");
}

#[test]
fn print_and_dot() {
    let dir = tempfile::tempdir().unwrap();
    let f = koat(&dir, "count.koat", COUNT);
    let out = symex()
        .args(["its", "--print-koat"])
        .arg(&f)
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        printed.contains("l1(X,N) -> l1(X + 1,N) :|: N >= X + 1"),
        "{printed}"
    );
    let out = symex().args(["its", "--dot"]).arg(&f).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("digraph"));
}

#[test]
fn out_of_time_is_maybe_with_reason_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let f = koat(&dir, "count.koat", COUNT);
    // A budget of a microsecond has passed before the first solver query.
    for goal in ["complexity", "termination"] {
        let out = symex()
            .args(["its", "--goal", goal, "--max-time", "0.000001"])
            .arg(&f)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{goal}");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("MAYBE"));
        assert!(
            lines.next().unwrap().starts_with("reason: timeout"),
            "{text}"
        );
    }
    // `--timeout` is the same budget; a sufficient one changes nothing.
    let out = symex()
        .args(["its", "--quiet", "--timeout", "60"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "WORST_CASE(?, O(n))"
    );
}
