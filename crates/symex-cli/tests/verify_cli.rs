//! `symex verify`: exit statuses and the JSON shape of `spec/cli.md`.
use std::path::PathBuf;

mod common;

fn example(name: &str) -> PathBuf {
    common::example("idf", name)
}

fn symex(args: &[&str]) -> (i32, String, String) {
    let out = common::symex().args(args).output().expect("symex runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_verified_program_exits_0_with_the_json_shape_of_the_spec() {
    let file = example("cell_fig3.idf");
    let (code, stdout, _) = symex(&["verify", "--json", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(v["command"], "verify");
    assert_eq!(v["verified"], true);
    assert!(v["time_s"].as_f64().is_some());
    let members = v["members"].as_array().unwrap();
    assert!(members
        .iter()
        .any(|m| m["name"] == "Cell.swap" && m["status"] == "verified"));
}

#[test]
fn a_failing_member_exits_1_and_names_obligation_line_and_column() {
    let file = example("mutant_fig3_wrong_post.idf");
    let (code, stdout, _) = symex(&["verify", "--json", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["verified"], false);
    let swap = v["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "Cell.swap")
        .unwrap()
        .clone();
    assert_eq!(swap["status"], "failed");
    let err = &swap["errors"][0];
    assert_eq!(
        err["message"],
        "postcondition might not hold: getX() = old(getX())"
    );
    assert_eq!(
        (err["line"].as_u64(), err["column"].as_u64()),
        (Some(25), Some(13))
    );
}

#[test]
fn syntax_errors_exit_2_with_a_positioned_message() {
    let file = example("error_syntax.idf");
    let (code, _, stderr) = symex(&["verify", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("error_syntax.idf:3:3"), "{stderr}");
    let (code, _, stderr) = symex(&["verify", "/nonexistent/x.idf"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("/nonexistent/x.idf") && stderr.contains("no such file"),
        "{stderr}"
    );
}

#[test]
fn trace_prints_the_symbolic_states_of_the_failing_path() {
    let file = example("cell_fig9_no_close.idf");
    let (code, stdout, _) = symex(&["verify", "--no-infer", "--trace", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    // Figure 9's states: the opened field chunk, then its update to v.
    assert!(stdout.contains(".x ↦ toInt(s"), "{stdout}");
    // Symbolic values held by program variables go by their names; Σ is whole once, then a diff.
    assert!(
        stdout.contains("H = {this.valid[") && stdout.contains("Σ = {"),
        "{stdout}"
    );
    assert!(!stdout.contains("H = {this#"), "{stdout}");
    // The failure is in the callee's contract, and the trace says so.
    assert!(stdout.contains("[the callee's contract"), "{stdout}");
    // With inference (§4.1) the same program verifies.
    let (code, stdout, _) = symex(&["verify", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
}

#[test]
fn an_exhausted_time_budget_is_inconclusive_exit_3() {
    let file = example("cell_fig3.idf");
    let (code, stdout, _) = symex(&[
        "verify",
        "--json",
        "--max-time",
        "0.000001",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 3, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(v["members"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["status"] == "unknown"));
}

#[test]
fn a_definite_failure_exits_1_even_when_another_member_is_undecided() {
    // `B.n` fails whatever the solver says; `A.m`'s query (cubes, nonlinear) stays unanswered.
    let src = "class B { void n(int x) requires x > 0; { assert x < 0; } }\n\
               class A { void m(int x, int y, int z) requires x > 0 && y > 0 && z > 0;\n\
               { assert x * x * x + y * y * y != z * z * z; } }\n";
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = dir.path().join("mixed.idf");
    std::fs::write(&file, src).expect("written");
    // Z3's step count, not a clock, leaves `A.m` undecided: the same on a loaded machine. (2,000,000 steps
    // cost 12 s of CPU on the nonlinear query; 200,000 decide the same in 1 s.)
    let (code, stdout, _) = symex(&[
        "verify",
        "--solver-rlimit",
        "200000",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("B.n") && stdout.contains("FAILED"),
        "{stdout}"
    );
    assert!(
        stdout.contains("A.m") && stdout.contains("UNKNOWN"),
        "{stdout}"
    );
    assert!(stdout.contains("1 more undecided"), "{stdout}");
}

#[test]
fn trace_shows_the_goal_a_diff_of_sigma_and_each_source_statement_once() {
    let file = example("mutant_fig2_wrong_assert.idf");
    let (code, stdout, _) = symex(&["verify", "--trace", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    // `Cell c1 := new Cell();` is lowered to three statements: shown once.
    assert_eq!(
        stdout.matches("16:3  Cell c1 := new Cell();").count(),
        1,
        "{stdout}"
    );
    assert!(stdout.contains("Σ += {null ≠ c1, 1 = oid(c1)"), "{stdout}");
    assert!(
        stdout.contains("failed goal: Σ ⊬ 10 = toInt(s#"),
        "{stdout}"
    );
    // Inferred ghost operations are steps of their own (Figure 3's Cell needs them).
    let file = example("mutant_fig3_wrong_post.idf");
    let (code, stdout, _) = symex(&["verify", "--trace", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stdout.contains("[inferred: "), "{stdout}");
}

#[test]
fn warnings_go_to_stderr_and_into_the_json() {
    let file = example("warn_vacuous_precondition.idf");
    let (code, _, stderr) = symex(&["verify", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("warning: the precondition of `A.m` is unsatisfiable"),
        "{stderr}"
    );
    assert!(
        stderr.contains("warn_vacuous_precondition.idf:7:18"),
        "{stderr}"
    );
    let (code, stdout, _) = symex(&["verify", "--json", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let warnings = v["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 3, "{stdout}");
    assert_eq!(
        (warnings[0]["line"].as_u64(), warnings[0]["column"].as_u64()),
        (Some(7), Some(18))
    );
}

#[test]
fn json_trace_lists_each_state_of_the_failing_path() {
    let file = example("cell_fig9_no_close.idf");
    let (code, stdout, _) = symex(&[
        "verify",
        "--json",
        "--trace",
        "--no-infer",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let set_x = v["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "Cell.setX")
        .unwrap()
        .clone();
    let trace = set_x["errors"][0]["trace"].as_array().unwrap().clone();
    let statements: Vec<&str> = trace
        .iter()
        .map(|s| s["statement"].as_str().unwrap())
        .collect();
    assert_eq!(statements[..3], ["open valid();", "x := v;", "use getX();"]);
    // After `x := v` the field chunk holds v (Figure 9's third state).
    let chunk = trace[2]["heap"][0].as_str().unwrap();
    assert!(chunk.contains(".x ↦ v#"), "{chunk}");
    assert_eq!(trace[0]["path_condition"].as_array().unwrap().len(), 1);
}

/// A file of the test's own in the temporary directory.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("symex-verify-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).expect("temporary file written");
    path
}

#[test]
fn a_byte_order_mark_is_not_part_of_the_program() {
    let ok = temp_file("bom-ok.idf", "\u{feff}main { assert 1 = 1; }".as_bytes());
    let (code, _, stderr) = symex(&["verify", ok.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    // Columns on the first line count from the first character after the mark.
    let bad = temp_file("bom-bad.idf", "\u{feff}main { int x := true; }".as_bytes());
    let (code, stdout, _) = symex(&["verify", "--json", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(
        (v["error"]["line"].as_u64(), v["error"]["column"].as_u64()),
        (Some(1), Some(17)),
        "{stdout}"
    );
    let _ = std::fs::remove_file(ok);
    let _ = std::fs::remove_file(bad);
}

#[test]
fn text_that_is_not_utf8_is_bad_input_with_its_position() {
    let file = temp_file("latin1.idf", b"main {\n  int x := 1; // caf\xe9\n}");
    let (code, stdout, stderr) = symex(&["verify", "--json", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("line 2, column 21"), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(
        (v["error"]["line"].as_u64(), v["error"]["column"].as_u64()),
        (Some(2), Some(21)),
        "{stdout}"
    );
    let _ = std::fs::remove_file(file);
}

/// `symex verify --run`: exit 0 when `main` completes, 1 on a violation (member, check, line),
/// 2 on bad input, 3 at a limit of the run.
#[test]
fn run_mode_exit_statuses_and_json() {
    let file = example("cell_fig3.idf");
    let (code, stdout, _) = symex(&["verify", "--run", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("RUN COMPLETED"), "{stdout}");

    let file = example("mutant_fig2_wrong_assert.idf");
    let (code, stdout, _) = symex(&["verify", "--run", "--json", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["mode"], "run");
    assert_eq!(v["outcome"]["kind"], "violation");
    assert_eq!(v["outcome"]["member"], "main");
    assert_eq!(v["outcome"]["check"], "assertion");
    assert_eq!(v["outcome"]["line"], 22);

    let file = example("error_syntax.idf");
    let (code, _, stderr) = symex(&["verify", "--run", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");

    let dir = tempfile::tempdir().unwrap();
    let looping = dir.path().join("loop.idf");
    std::fs::write(
        &looping,
        "main { int i := 0; while (true) invariant true; { i := i + 1; } }",
    )
    .unwrap();
    let (code, stdout, _) = symex(&["verify", "--run", looping.to_str().unwrap()]);
    assert_eq!(code, 3, "{stdout}");
    assert!(stdout.contains("RUN UNKNOWN: step limit"), "{stdout}");
}
