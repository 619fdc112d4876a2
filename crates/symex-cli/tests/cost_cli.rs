//! `symex cost` on the examples: the answer line, the bound line, the exit status, the JSON
//! fields, and the entry-function choice.

mod common;

use std::path::PathBuf;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/cost")
        .join(name)
}

fn symex(args: &[&str]) -> (i32, String, String) {
    let out = common::symex().args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bound_lines_json_and_exit_codes() {
    let h = example("h.c");
    let (code, out, _) = symex(&["cost", "--check-runs", "5", h.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("WORST_CASE(?, O(n^1))"));
    assert!(
        lines.next().unwrap().starts_with("bound: 4*|j| + "),
        "{out}"
    );
    assert!(out.contains("(GOAL COMPLEXITY)"), "{out}");
    assert!(out.contains("check by measurement: 5 runs"), "{out}");
    assert!(out.contains(" 0 violated"), "{out}");

    let g = example("g.c");
    let (code, out, _) = symex(&["cost", "--json", "--check-runs", "5", g.to_str().unwrap()]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(v["command"], "cost");
    assert_eq!(v["entry"], "g");
    assert_eq!(v["answer"], "WORST_CASE(?, O(n^1))");
    assert_eq!(v["bound"], "O(n)");
    assert_eq!(v["size_variables_as_inputs"], true);
    assert_eq!(v["bound_variables"], serde_json::json!(["j", "b_umax32"]));
    assert_eq!(v["check"]["violated"], 0);

    // An unsigned loop that does not end for odd x (it wraps): no bound, exit status 3 with the reason.
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("odd.c");
    std::fs::write(&odd, "void odd(unsigned x) { while (x != 0) x = x - 2; }\n").unwrap();
    let (code, out, _) = symex(&["cost", odd.to_str().unwrap()]);
    assert_eq!(code, 3, "{out}");
    assert_eq!(out.lines().next(), Some("MAYBE"));
    assert!(out.contains("reason: "), "{out}");
}

#[test]
fn the_entry_is_main_or_the_only_uncalled_function() {
    let dir = tempfile::tempdir().unwrap();
    let two = dir.path().join("two.c");
    std::fs::write(
        &two,
        "void a(unsigned n) { while (n > 0) n--; }\nvoid b(unsigned n) { a(n); a(n); }\nvoid c(unsigned n) { }\n",
    )
    .unwrap();
    let (code, _, err) = symex(&["cost", two.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("choose one with --entry") && err.contains("b, c"),
        "{err}"
    );
    // b calls a twice: 2 · 4 per iteration.
    let (code, out, _) = symex(&["cost", "--quiet", "--entry", "b", two.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("bound: 8*|n| + "), "{out}");
    let (code, _, err) = symex(&["cost", "--entry", "nope", two.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("no function `nope`"), "{err}");
}

/// A recursive program's run is a tree of frames, each costing its instructions before and
/// after its inner calls: the bound counts them all (the ITS's `Com_k` transitions), so runs
/// on the reference interpreter never exceed it. A bound that counted only the path of
/// calls (the frames' instructions before the call) is exceeded by every run with n ≥ 1.
#[test]
fn recursive_functions_are_bounded_as_computation_trees() {
    for (file, class) in [
        ("recursive_sum.c", "O(n^1)"),
        ("recursive_loops.c", "O(n^2)"),
        ("parity.c", "O(n^1)"),
    ] {
        let path = example(file);
        let (code, out, err) = symex(&[
            "cost",
            "--json",
            "--check-runs",
            "60",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{file}: {out}{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
        assert_eq!(v["answer"], format!("WORST_CASE(?, {class})"), "{file}");
        assert!(
            v["its"].as_str().unwrap().contains("Com_2("),
            "{file}: {out}"
        );
        assert_eq!(v["check"]["violated"], 0, "{file}: {out}");
        // Small inputs end within the cap: some runs are judged, not only capped.
        assert!(v["check"]["within"].as_u64().unwrap() >= 5, "{file}: {out}");
    }
    // Two inner calls per frame: about fib(n) frames, no polynomial bound.
    let fib = example("fib.c");
    let (code, out, _) = symex(&["cost", fib.to_str().unwrap()]);
    assert_eq!(code, 3, "{out}");
    assert_eq!(out.lines().next(), Some("MAYBE"));
    assert!(out.contains("branching recursion"), "{out}");
}
