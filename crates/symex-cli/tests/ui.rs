//! UI tests in rustc's style: every `examples/ui/NAME.c` runs under the real `symex replay` with the
//! test `NAME.json` (no inputs when absent) and the flags of its `// symex-flags:` line; the exit status
//! and the whole standard output must equal `NAME.expected`. `SYMEX_BLESS=1 cargo test` rewrites the
//! expectations (review the diff before committing it).
//!
//! Blessing copies symex's own output, so it is no oracle: an expectation must be what the native build
//! prints (the `libc_*` and `feature_*` examples are plain C whose output clang-14 reproduces), or, where
//! it encodes a choice of symex's model rather than C's semantics (e.g. `malloc` refusing 1 TiB, zero for
//! a missing input), the example's comment must say which choice and why.

mod common;

use std::path::{Path, PathBuf};

fn examples_dir() -> PathBuf {
    common::examples("ui")
}

fn programs() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(examples_dir())
        .expect("examples/ui exists")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "c").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    names
}

/// The expectation text of one run: `status: N` then the standard output.
fn run(name: &str, empty_test: &Path) -> String {
    let dir = examples_dir();
    let src = std::fs::read_to_string(dir.join(format!("{name}.c"))).expect("readable example");
    let flags: Vec<String> = src
        .lines()
        .find_map(|l| l.strip_prefix("// symex-flags:"))
        .map(|f| f.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let test = dir.join(format!("{name}.json"));
    let test = if test.exists() {
        test
    } else {
        empty_test.to_path_buf()
    };
    let out = common::symex()
        .current_dir(&dir)
        .arg("replay")
        .arg(format!("{name}.c"))
        .arg(&test)
        .args(&flags)
        .output()
        .expect("symex runs");
    format!(
        "status: {}\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout)
    )
}

#[test]
fn examples_match_their_expectations() {
    let tmp = std::env::temp_dir().join(format!("symex-ui-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let empty = tmp.join("empty.json");
    std::fs::write(&empty, "{\"inputs\":[]}").unwrap();
    let bless = std::env::var_os("SYMEX_BLESS").is_some();
    let names = programs();
    let results = common::map_in_pairs(&names, |n| (n.clone(), run(n, &empty)));
    let mut failures = Vec::new();
    for (name, got) in results {
        let path = examples_dir().join(format!("{name}.expected"));
        if bless {
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want =
            std::fs::read_to_string(&path).unwrap_or_else(|_| format!("<missing {name}.expected>"));
        if want != got {
            failures.push(format!("--- {name}: expected\n{want}--- got\n{got}"));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        failures.is_empty(),
        "{} example(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every bug kind of `spec/cli.md` has an example whose expected outcome is that kind. The kinds of
/// KLEE's intrinsics (`user`, `reported`) have theirs in `examples/klee` (`klee_cli.rs`): the native
/// build has no KLEE runtime to compare them with.
#[test]
fn every_bug_kind_has_an_example() {
    let all: String = programs()
        .iter()
        .filter_map(|n| std::fs::read_to_string(examples_dir().join(format!("{n}.expected"))).ok())
        .collect();
    let klee: String = ["misuse", "intrinsics"]
        .iter()
        .map(|n| {
            std::fs::read_to_string(common::example("klee", &format!("{n}.expected")))
                .expect("examples/klee expectation")
        })
        .collect();
    assert!(klee.contains("error: user ") && klee.contains("error: my.err "));
    use symex_engine::BugKind;
    for kind in BugKind::ALL {
        if matches!(kind, BugKind::User | BugKind::Reported) {
            continue;
        }
        assert!(
            all.contains(&format!("outcome: {kind} at ")),
            "no example ends in `{kind}`"
        );
    }
}

/// Every library model has its `libc_NAME.c` example.
#[test]
fn every_libc_model_has_an_example() {
    let names = programs();
    let models = [
        "malloc", "calloc", "realloc", "free", "memcpy", "memmove", "memset", "memcmp", "strlen",
        "strnlen", "strcmp", "strncmp", "strcpy", "strncpy", "strcat", "strchr", "strrchr",
        "strstr", "abs", "atoi", "exit", "printf", "puts", "putchar",
    ];
    for m in models {
        assert!(
            names.iter().any(|n| n == &format!("libc_{m}")),
            "no example for `{m}`"
        );
    }
    // abort, __assert_fail and labs are covered by abort.c, assert_fail.c and libc_abs.c.
    for n in ["abort", "assert_fail"] {
        assert!(names.iter().any(|x| x == n), "no example {n}.c");
    }
}
