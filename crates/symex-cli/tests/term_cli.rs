//! `symex term` and `symex check --property termination` on the paper's examples: the answer
//! line, the exit status of `spec/cli.md`, the JSON fields and the DOT file.

mod common;

use std::path::PathBuf;
use std::process::Command;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/term")
        .join(name)
}

fn symex(args: &[&str]) -> (i32, String) {
    let out = common::symex().args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn answers_exit_codes_json_and_dot() {
    let g = example("g.c");
    let f = example("f.c");
    let (code, out) = symex(&["term", g.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().next(), Some("YES"));
    assert!(out.contains("memory_safe: true"), "{out}");
    assert!(out.contains("(GOAL TERMINATION)"), "{out}");
    let (code, out) = symex(&["term", "--quiet", f.to_str().unwrap()]);
    assert_eq!((code, out.trim()), (1, "NO"));
    let (code, out) = symex(&["term", "--quiet", "--math-int", g.to_str().unwrap()]);
    assert_eq!((code, out.trim()), (3, "MAYBE"));
    let (_, out) = symex(&["term", "--json", f.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(v["command"], "term");
    assert_eq!(v["answer"], "NO");
    assert_eq!(v["memory_safe"], true);
    assert_eq!(v["witness"]["inputs"][0]["value"], "4294967295");
    let dir = tempfile::tempdir().unwrap();
    let dot = dir.path().join("seg.dot");
    let (code, _) = symex(&[
        "term",
        "--quiet",
        "--dot",
        dot.to_str().unwrap(),
        g.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(std::fs::read_to_string(&dot)
        .unwrap()
        .starts_with("digraph seg"));
}

#[test]
fn check_property_termination() {
    let (code, out) = symex(&[
        "check",
        "--property",
        "termination",
        example("h.c").to_str().unwrap(),
    ]);
    assert_eq!(out.lines().last(), Some("TRUE"), "{out}");
    assert_eq!(code, 0);
    let (_, out) = symex(&[
        "check",
        "--property",
        "termination",
        example("f.c").to_str().unwrap(),
    ]);
    assert_eq!(out.lines().last(), Some("FALSE"), "{out}");
}

/// `__VERIFIER_*` declared `noreturn` still return (SV-COMP's rules): the loop after them is
/// analysed and proved, not cut off as undefined behaviour; positions stay the source's.
#[test]
fn noreturn_verifier_declarations_return() {
    let file = example("noreturn_assume.c");
    let (code, out) = symex(&["term", file.to_str().unwrap()]);
    assert_eq!((code, out.lines().next()), (0, Some("YES")), "{out}");
    assert!(out.contains("memory_safe: true"), "{out}");
}

/// Loops that end because of the word size (shifting or multiplying by an even number until zero) are
/// YES, and every input ends natively: each example, compiled by clang-14 with `main` renamed, is run on
/// every value of its one input by a harness (brute force over the 8- and 16-bit domains).
#[test]
fn loops_that_end_by_the_word_size_are_yes_and_end_natively_for_every_input() {
    for (name, ty, count) in [
        ("word_size_shift.c", "unsigned char", 256u32),
        ("word_size_times6.c", "unsigned short", 65536),
    ] {
        let path = example(name);
        let (code, out) = symex(&["term", path.to_str().unwrap()]);
        assert_eq!(
            (code, out.lines().next()),
            (0, Some("YES")),
            "{name}: {out}"
        );
        assert!(out.contains("word size:"), "{name}: {out}");
        let suffix = if ty == "unsigned char" {
            "uchar"
        } else {
            "ushort"
        };
        let harness = format!(
            "#include <stdio.h>\n#include <unistd.h>\nstatic unsigned next;\n\
             {ty} __VERIFIER_nondet_{suffix}(void) {{ return ({ty})next; }}\n\
             int main(void) {{ alarm(60); for (next = 0; next < {count}u; next++) program_main(); puts(\"all ended\"); return 0; }}\n"
        );
        every_native_run_ends(&path, &harness, name);
    }
}

/// NO without a repeating state: `alternating_residues.c` moves an even `x` up and an odd one down
/// while `y` counts on, so no state repeats; from every `x >= 2` it runs forever (derived by hand:
/// `{x >= 2}` is closed under both branches and excludes the exit). The witness's input must lie in
/// that set, and the native build run on it must not end: it is stopped by `alarm` (a slow machine
/// only makes that likelier), while the same build on `x = 1` ends at once.
#[test]
fn a_recurrent_set_without_a_repeating_state_is_no_and_runs_forever_natively() {
    let path = example("alternating_residues.c");
    let (code, out) = symex(&["term", "--json", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["answer"], "NO", "{v}");
    let x: i64 = v["witness"]["inputs"][0]["value"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        x >= 2,
        "the witness's x = {x} is not in the non-terminating set: {v}"
    );
    let harness = "#include <stdlib.h>\n#include <unistd.h>\n\
         int __VERIFIER_nondet_int(void) { return atoi(getenv(\"X\")); }\n\
         int main(void) { alarm(2); program_main(); return 0; }\n";
    let Some((_dir, exe)) = native_build(&path, harness) else {
        eprintln!("skipped the native run: clang-14 failed");
        return;
    };
    let ends = |x: i64| {
        use std::os::unix::process::ExitStatusExt;
        let s = Command::new(&exe).env("X", x.to_string()).status().unwrap();
        (s.code(), s.signal())
    };
    assert_eq!(ends(1), (Some(0), None), "x = 1 ends natively");
    assert_eq!(
        ends(x).1,
        Some(14),
        "x = {x} must still run at the alarm (SIGALRM)"
    );
}

/// Without a `main`, `term` picks the entry as `cost` does: the only function nothing calls
/// (`uncalled_one.c`: `count`, not the `step` it calls); with two such functions it exits 2 naming
/// both and `--entry`, which then chooses. Each YES is brute-forced natively: a harness calls the
/// chosen function on all 256 values of its `unsigned char` parameter and must end.
#[test]
fn without_main_the_only_uncalled_function_is_the_entry_or_entry_chooses() {
    let one = example("uncalled_one.c");
    let (code, out) = symex(&["term", "--json", one.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!((code, v["answer"].as_str()), (0, Some("YES")), "{v}");
    assert!(v["its"].as_str().unwrap().contains("count"), "{v}");
    let two = example("uncalled_two.c");
    let out = common::symex()
        .args(["term", two.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty(), "no answer line on an error");
    for word in ["count", "halve", "--entry"] {
        assert!(err.contains(word), "{word} missing: {err}");
    }
    let (code, out) = symex(&["term", "--entry", "halve", two.to_str().unwrap()]);
    assert_eq!((code, out.lines().next()), (0, Some("YES")), "{out}");
    assert!(out.contains("halve"), "{out}");
    let (code, _) = symex(&["term", "--entry", "nothing", two.to_str().unwrap()]);
    assert_eq!(code, 2, "an unknown --entry is an error");
    for (path, f) in [(&one, "count"), (&two, "halve")] {
        let harness = format!(
            "#include <stdio.h>\n#include <unistd.h>\nvoid {f}(unsigned char);\n\
             int main(void) {{ alarm(60); for (unsigned v = 0; v < 256; v++) {f}(v); puts(\"all ended\"); return 0; }}\n"
        );
        every_native_run_ends(path, &harness, f);
    }
}

/// The brute force of a YES: `program` linked with `harness`, whose `main` runs it on every value of
/// the small domain and then prints "all ended", exits 0 within the harness's alarm (skipped with a
/// message when clang-14 fails).
fn every_native_run_ends(program: &std::path::Path, harness: &str, name: &str) {
    let Some((_dir, exe)) = native_build(program, harness) else {
        eprintln!("skipped the native brute force of {name}: clang-14 failed");
        return;
    };
    let run = Command::new(&exe).output().unwrap();
    assert_eq!(
        (
            run.status.code(),
            String::from_utf8_lossy(&run.stdout).trim()
        ),
        (Some(0), "all ended"),
        "{name}: a native run did not end"
    );
}

/// `program` built by clang-14 with its `main` renamed `program_main`, linked with `harness` (C that
/// defines the nondet functions and a `main` calling `program_main`); `None` when clang-14 fails.
/// The folder holding the executable comes with it.
fn native_build(program: &std::path::Path, harness: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("harness.c");
    std::fs::write(
        &file,
        format!("#undef main\nint program_main(void);\n{harness}"),
    )
    .unwrap();
    let exe = dir.path().join("native");
    let built = Command::new("clang-14")
        .args(["-O0", "-w", "-Dmain=program_main"])
        .arg(program)
        .arg(&file)
        .arg("-o")
        .arg(&exe)
        .status();
    built.is_ok_and(|s| s.success()).then_some((dir, exe))
}
