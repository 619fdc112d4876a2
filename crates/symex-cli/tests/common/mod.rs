//! What the CLI test binaries share: the `symex` binary, the repository's examples, and running
//! independent checks two at a time (the machines have two cores).
#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};
use std::process::Command;

/// Z3's resource limit per solver call of every test's `symex` (`SYMEX_SOLVER_RLIMIT`, the default of
/// `--solver-rlimit` for every subcommand that asks a solver). With it and without `--solver-timeout`
/// no query has a clock, and `check`'s BMC and Horn-clause engines have no time budget without
/// `--max-time`: a verdict depends on counts, not on the machine's load. It decides every example
/// with slack (the largest count one query of the test suite needs is in `docs/src/measurements.md`).
pub const TEST_RLIMIT: &str = "50000000";

/// The `symex` binary under test, under [`TEST_RLIMIT`], on one thread unless a test passes
/// `--jobs` (`SYMEX_JOBS`: the tests' expected test numbering and counts are those of one thread).
pub fn symex() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_symex"));
    c.env("SYMEX_SOLVER_RLIMIT", TEST_RLIMIT);
    c.env("SYMEX_JOBS", "1");
    c
}

/// `examples/<dir>` of the repository.
pub fn examples(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(dir)
}

/// `examples/<dir>/<name>` of the repository.
pub fn example(dir: &str, name: &str) -> PathBuf {
    examples(dir).join(name)
}

/// `f` applied to every item, on two threads, in the items' order.
pub fn map_in_pairs<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.is_empty() {
        return Vec::new();
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(items.len().div_ceil(2))
            .map(|chunk| s.spawn(|| chunk.iter().map(&f).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

/// The independent oracle: `example` built natively by clang-14 (with `flags`), linked with a runtime whose
/// `__VERIFIER_nondet_*` return the value of the environment variable `NONDET` (0 when unset). `None`, with
/// a message, when clang-14 is missing (outside CI); on CI (`CI=true`) a missing clang-14 fails.
pub fn native_build(example: &Path, dir: &Path, flags: &[&str]) -> Option<PathBuf> {
    const RUNTIME: &str = r#"#include <stdlib.h>
static long long nondet(void) { const char *s = getenv("NONDET"); return s ? strtoll(s, 0, 0) : 0; }
int __VERIFIER_nondet_int(void) { return (int)nondet(); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)nondet(); }
long __VERIFIER_nondet_long(void) { return (long)nondet(); }
"#;
    let rt = dir.join("nondet_runtime.c");
    std::fs::write(&rt, RUNTIME).unwrap();
    let exe = dir.join("native");
    let o = match Command::new("clang-14")
        .args(flags)
        .arg(example)
        .arg(&rt)
        .arg("-o")
        .arg(&exe)
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "clang-14 is required on CI: {e}"
            );
            eprintln!("skipped: no clang-14 for the native oracle ({e})");
            return None;
        }
    };
    assert!(
        o.status.success(),
        "native build of {}: {}",
        example.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    Some(exe)
}

/// `symex replay --native FILE TEST --json`: the report, asserting that the native sanitizer build
/// ends as the test records.
pub fn native_replay_agrees(file: &Path, test: &str) -> serde_json::Value {
    let o = symex()
        .args(["replay", "--native"])
        .arg(file)
        .arg(test)
        .arg("--json")
        .output()
        .unwrap();
    let nat: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    assert_eq!(nat["agrees"], true, "{nat}");
    nat
}

/// A crash `symex fuzz` reported: its test replays in symex's interpreter to the same bug (kind and
/// line, exit status 1) and agrees with the native sanitizer build.
pub fn crash_replays(file: &Path, crash: &serde_json::Value) {
    let test = crash["test"].as_str().unwrap();
    let o = symex()
        .arg("replay")
        .arg(file)
        .arg(test)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let rep: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rep["outcome"]["kind"], crash["kind"], "{rep}");
    assert_eq!(rep["outcome"]["line"], crash["line"], "{rep}");
    native_replay_agrees(file, test);
}
