//! `symex fuzz` on the examples of each kind of guard (`examples/fuzz`: a failing assumption, a checksum,
//! keywords, a tree of branches over a hash, a 4 KB input, a magic header), each with a budget in runs
//! (and a solver rlimit where the solver must stall): the crash is found, `symex replay` and
//! `symex replay --native` reproduce it, and the plain clang-14 build fed the crash file dies of SIGABRT
//! (and runs the seed without crashing) — ground that is not symex.

use serde_json::Value;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;
use common::{example, symex};

/// `symex fuzz examples/fuzz/NAME.c --seed NAME.seed ARGS --json`: exit status and report.
fn fuzz(name: &str, args: &[&str], out: &Path) -> (Option<i32>, Value) {
    let o = symex()
        .arg("fuzz")
        .arg(example("fuzz", &format!("{name}.c")))
        .arg("--seed")
        .arg(example("fuzz", &format!("{name}.seed")))
        .args(args)
        .args(["--json", "--out"])
        .arg(out)
        .output()
        .unwrap();
    let r = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code(), r)
}

/// The plain native build of `file` with `stdin` as its standard input and `env` set; `None` without
/// clang-14 (outside CI).
fn native(
    file: &Path,
    dir: &Path,
    extra: &[&Path],
    stdin: &Path,
    env: &[(&str, String)],
) -> Option<std::process::ExitStatus> {
    let exe = dir.join("native-prog");
    let built = Command::new("clang-14")
        .arg(file)
        .args(extra)
        .arg("-o")
        .arg(&exe)
        .status();
    match built {
        Ok(s) if s.success() => {}
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "clang-14 is required on CI"
            );
            eprintln!("skipped: clang-14 is not available");
            return None;
        }
    }
    let mut c = Command::new(&exe);
    c.stdin(Stdio::from(std::fs::File::open(stdin).unwrap()));
    for (k, v) in env {
        c.env(k, v);
    }
    Some(c.status().unwrap())
}

/// A stdin example: the crash is found within `args`' budget; it replays; natively the crash file aborts
/// and the seed does not. Returns the report and the crash's bytes.
fn stdin_example(name: &str, args: &[&str]) -> (Value, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["--stdin"];
    all.extend(args);
    let (code, r) = fuzz(name, &all, &dir.path().join("out"));
    assert_eq!(code, Some(1), "{name}: {r}");
    let file = example("fuzz", &format!("{name}.c"));
    let crash = &r["crashes"][0];
    assert_eq!(crash["kind"], "abort", "{r}");
    common::crash_replays(&file, crash);
    let bin = PathBuf::from(crash["input"].as_str().unwrap());
    let seed = example("fuzz", &format!("{name}.seed"));
    if let Some(st) = native(&file, dir.path(), &[], &bin, &[]) {
        assert_eq!(st.signal(), Some(libc::SIGABRT), "{name}: {st:?}");
        let st = native(&file, dir.path(), &[], &seed, &[]).unwrap();
        assert_eq!(st.signal(), None, "{name}: the seed crashes natively");
    }
    let bytes = std::fs::read(bin).unwrap();
    (r, bytes)
}

/// A failing `__VERIFIER_assume` is a branch whose other side is a child: from n = 0 every block is
/// covered and the abort (n > 1000, n % 7 == 3) found; the native build with the crash's n aborts.
#[test]
fn a_failing_assumption_is_negated_and_every_block_is_explored() {
    let dir = tempfile::tempdir().unwrap();
    let (code, r) = fuzz("assume", &["--max-runs", "50"], &dir.path().join("out"));
    assert_eq!(code, Some(1), "{r}");
    assert_eq!(
        r["coverage"]["blocks_covered"], r["coverage"]["blocks_total"],
        "{r}"
    );
    let file = example("fuzz", "assume.c");
    let crash = &r["crashes"][0];
    common::crash_replays(&file, crash);
    let bytes = std::fs::read(crash["input"].as_str().unwrap()).unwrap();
    let n = i32::from_le_bytes(bytes[..4].try_into().unwrap());
    assert!(n > 1000 && n % 7 == 3, "{n}");
    let rt = dir.path().join("rt.c");
    std::fs::write(
        &rt,
        "#include <stdlib.h>\nint __VERIFIER_nondet_int(void) { return atoi(getenv(\"NONDET\")); }\n\
         void __VERIFIER_assume(int c) { if (!c) exit(0); }\n",
    )
    .unwrap();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, b"").unwrap();
    if let Some(st) = native(
        &file,
        dir.path(),
        &[&rt],
        &empty,
        &[("NONDET", n.to_string())],
    ) {
        assert_eq!(st.signal(), Some(libc::SIGABRT), "{st:?}");
    }
}

/// The hash tree: with an rlimit the solver cannot answer the hash's bits, the search mutates and
/// finds the 1-in-4096 crash.
#[test]
fn the_hash_tree_crash_is_found_by_mutation_when_the_solver_stalls() {
    let (r, _) = stdin_example(
        "hashtree",
        &[
            "--max-runs",
            "3000",
            "--solver-rlimit",
            "200000",
            "--solver-timeout",
            "600",
        ],
    );
    assert!(r["search"]["unknown"].as_u64().unwrap() > 0, "{r}");
    assert!(r["search"]["mutants"].as_u64().unwrap() > 0, "{r}");
}

#[test]
fn the_checksum_crash_is_found() {
    stdin_example("checksum", &["--max-runs", "100"]);
}

/// The keywords come from the dictionary of the program's constants (its string literals), placed at
/// word boundaries in place of the seed's words of other lengths: strcmp's byte-by-byte decisions cover
/// no new block, so the solver's children alone do not lead there.
#[test]
fn the_keywords_crash_is_found() {
    stdin_example("keywords", &["--max-runs", "12000"]);
}

/// 4 KB of input, 40 lines to tag: the branch on the tag count is negated first among the path's
/// thousands of newline tests, with a query over its own bytes only.
#[test]
fn the_four_kilobyte_input_crash_is_found() {
    let (_, bin) = stdin_example("longlines", &["--max-runs", "50"]);
    assert_eq!(bin.len(), 4096);
}

#[test]
fn the_magic_header_crash_is_found() {
    stdin_example("magic", &["--max-runs", "300"]);
}
