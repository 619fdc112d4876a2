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

const MC91: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f0))\n(VAR A B C)\n(RULES\n  f0(A,B) -> Com_1(f1(C,1))\n  f1(A,B) -> Com_1(f1(A - 10,B - 1)) :|: B >= 1 && A >= 101\n  f1(A,B) -> Com_1(f1(A + 11,B + 1)) :|: B >= 1 && 100 >= A\n)\n";

const LOOP: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR X Y)\n(RULES\n  l0(X,Y) -> l1(X,Y)\n  l1(X,Y) -> l1(X + 1,Y) :|: X >= Y\n)\n";

#[test]
fn unbounded_runtime_is_non_poly_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    // A temporary sets the counter (T2's mc91), and a loop that never stops.
    for (file, text, kind) in [
        ("mc91.koat", MC91, "runs of every length"),
        ("loop.koat", LOOP, "non-terminating"),
    ] {
        let f = koat(&dir, file, text);
        let out = symex().args(["its"]).arg(&f).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        let mut lines = stdout.lines();
        assert_eq!(lines.next(), Some("WORST_CASE(NON_POLY, ?)"));
        let second = lines.next().unwrap();
        assert!(
            second.starts_with("lower bound: unbounded") && second.contains(kind),
            "{stdout}"
        );
        assert!(
            stdout.contains("replayed: the run reaches cost >= n"),
            "{stdout}"
        );

        let out = symex().args(["its", "--json"]).arg(&f).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v["bound"].is_null(), "{v}");
        assert_eq!(v["lower_bound"], "INF");
        assert!(v["witness"]["start"].is_object(), "{v}");
    }
    // mc91's witness names the temporary and the loop counting up from it.
    let f = koat(&dir, "mc91.koat", MC91);
    let out = symex().args(["its", "--json"]).arg(&f).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["witness"]["parameter"]
            .as_str()
            .unwrap()
            .starts_with("C of t0 := -"),
        "{v}"
    );
}
