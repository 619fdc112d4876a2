//! Programs written for KLEE: every `examples/klee/NAME.c` runs under `symex run` (with the flags of
//! its `// symex-flags:` line) and what KLEE users look at must equal `NAME.expected`, written from
//! KLEE's documentation and behaviour (each example's comment says what KLEE does and why): the
//! number of tests, each error as KLEE names its file (`ptr`, `assert`, `user`, a `klee_report_error`
//! suffix, ...) with its line and message, and the lines KLEE's intrinsics print. Each run has
//! `EXAMPLE_ENV=42` in its environment (for `envp.c`, run with `--env`).

mod common;

use serde_json::Value;

/// The extension KLEE gives the error file of a symex bug kind (`testN.<ext>.err`), without `.err`.
fn klee_error_kind(e: &Value) -> String {
    if let Some(s) = e["suffix"].as_str() {
        return s.to_string();
    }
    match e["kind"].as_str().unwrap_or("") {
        "assertion" => "assert",
        "null-deref" | "out-of-bounds" | "use-after-free" => "ptr",
        "double-free" | "invalid-free" => "free",
        "div-by-zero" => "div",
        "signed-overflow" => "overflow",
        other => other,
    }
    .to_string()
}

/// The expectation text of one run.
fn run(name: &str) -> String {
    let dir = common::examples("klee");
    let src = std::fs::read_to_string(dir.join(format!("{name}.c"))).expect("readable example");
    let flags: Vec<String> = src
        .lines()
        .find_map(|l| l.strip_prefix("// symex-flags:"))
        .map(|f| f.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let out = tempfile::tempdir().expect("a scratch directory");
    let o = common::symex()
        .current_dir(&dir)
        .env("EXAMPLE_ENV", "42")
        .env_remove("EXAMPLE_ENV_UNSET")
        .args(["run", &format!("{name}.c"), "--json", "--out"])
        .arg(out.path().join("out"))
        .args(&flags)
        .output()
        .expect("symex runs");
    let r: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{name}: no report ({e}): {}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    let mut text = format!("tests: {}\n", r["tests"].as_array().map_or(0, Vec::len));
    let mut errors: Vec<&Value> = r["errors"].as_array().into_iter().flatten().collect();
    errors.sort_by_key(|e| e["line"].as_u64());
    for e in errors {
        text += &format!(
            "error: {} {}: {}\n",
            klee_error_kind(e),
            e["line"],
            e["message"].as_str().unwrap_or("")
        );
    }
    text += &early_tests(&r);
    for m in r["messages"].as_array().into_iter().flatten() {
        text += &format!("stderr: {}\n", m.as_str().unwrap_or(""));
    }
    for u in r["unsupported"].as_array().into_iter().flatten() {
        text += &format!("unsupported: {}\n", u.as_str().unwrap_or(""));
    }
    text
}

/// A line per test with a `.early` file (a path KLEE ends early): the line of its outcome, if it has
/// one, and the file's message.
fn early_tests(r: &Value) -> String {
    let mut text = String::new();
    for t in r["tests"].as_array().into_iter().flatten() {
        let json = std::path::PathBuf::from(t.as_str().unwrap_or(""));
        let Ok(message) = std::fs::read_to_string(json.with_extension("early")) else {
            continue;
        };
        let test: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap_or_default())
            .unwrap_or_default();
        let line = test["outcome"]["line"]
            .as_u64()
            .map_or(String::new(), |l| format!(" {l}"));
        text += &format!("early{line}: {}\n", message.trim_end());
    }
    text
}

#[test]
fn klee_programs_behave_as_under_klee() {
    let dir = common::examples("klee");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("examples/klee exists")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "c").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    let got = common::map_in_pairs(&names, |n| run(n));
    let mut failures = Vec::new();
    for (name, got) in names.iter().zip(got) {
        let want = std::fs::read_to_string(dir.join(format!("{name}.expected")))
            .unwrap_or_else(|_| format!("(no {name}.expected)"));
        if got != want {
            failures.push(format!("{name}:\n--- expected\n{want}--- got\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `symex run` of `examples/klee/program_output.c` with `extra` flags: its standard output.
fn run_printing(extra: &[&str]) -> String {
    let out = tempfile::tempdir().expect("a scratch directory");
    let o = common::symex()
        .current_dir(common::examples("klee"))
        .args(["run", "program_output.c", "--out"])
        .arg(out.path().join("out"))
        .args(extra)
        .output()
        .expect("symex runs");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The program's standard output is printed as the paths execute it, before the summary, as KLEE prints
/// it: a line written before a fork once, a line after it once per path (`program_output.stdout`, the
/// lines KLEE prints, sorted: the order between paths is the searcher's).
#[test]
fn program_output_is_printed_as_the_paths_run() {
    let want = std::fs::read_to_string(common::examples("klee").join("program_output.stdout"))
        .expect("program_output.stdout");
    for search in ["dfs", "bfs", "random-path"] {
        let out = run_printing(&["--search", search]);
        let (program, summary) = out
            .split_once("symex run program_output.c: ")
            .unwrap_or_else(|| panic!("--search {search}: no summary in {out:?}"));
        assert!(summary.contains("3 paths"), "{summary}");
        assert!(
            program.starts_with("before the branch\n"),
            "--search {search}: the line before the fork comes first: {program:?}"
        );
        let mut lines: Vec<&str> = program.lines().collect();
        lines.sort_unstable();
        let got: String = lines.iter().map(|l| format!("{l}\n")).collect();
        assert_eq!(got, want, "--search {search}: {program:?}");
    }
    let quiet = run_printing(&["--no-program-output"]);
    assert!(
        quiet.starts_with("symex run program_output.c: "),
        "{quiet:?}"
    );
    let json = run_printing(&["--json"]);
    let report: Value = serde_json::from_str(&json).expect("--json prints the report alone");
    assert_eq!(report["tests"].as_array().map(Vec::len), Some(3));
}
