//! `symex run --paths-out` and `--jobs`: the set of explored paths, by signature, is the check that
//! explorations in other orders and on several threads explored the same paths.

mod common;

use common::{example, symex};
use std::path::Path;

/// The sorted signatures `symex run FILE ARGS` wrote, one per finished path, and its stdout.
fn paths(file: &Path, args: &[&str], dir: &Path, name: &str) -> (Vec<String>, String) {
    let list = dir.join(format!("{name}.txt"));
    let out = symex()
        .arg("run")
        .arg(file)
        .args(args)
        .arg("--paths-out")
        .arg(&list)
        .arg("--out")
        .arg(dir.join(name))
        .arg("--no-program-output")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let text = std::fs::read_to_string(&list).unwrap_or_else(|e| panic!("{stdout}: {e}"));
    (text.lines().map(str::to_string).collect(), stdout)
}

#[test]
fn the_paths_of_an_exhaustive_run_do_not_depend_on_the_search_order() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["top.c", "switch.c", "arrays.c"] {
        let file = example("run", name);
        let (dfs, out) = paths(
            &file,
            &["--search", "dfs"],
            dir.path(),
            &format!("{name}-dfs"),
        );
        let (bfs, _) = paths(
            &file,
            &["--search", "bfs"],
            dir.path(),
            &format!("{name}-bfs"),
        );
        assert_eq!(dfs, bfs, "{name}");
        // One line per path of the summary, none twice.
        let n: usize = out
            .split(": ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no path count in {out}"));
        let mut unique = dfs.clone();
        unique.dedup();
        assert_eq!((unique.len(), dfs.len()), (n, n), "{name}: {out}");
    }
    // top.c: SAGE's top(), four symbolic branches, every combination feasible.
    let (top, _) = paths(&example("run", "top.c"), &[], dir.path(), "top-default");
    let all: Vec<String> = (0..16).map(|k| format!("0:{k:04b}")).collect();
    assert_eq!(top, all);
}

#[test]
fn an_unwritable_paths_file_is_an_error() {
    let out = symex()
        .arg("run")
        .arg(example("run", "top.c"))
        .args(["--paths-out", "/nonexistent/dir/paths.txt", "--out"])
        .arg(tempfile::tempdir().unwrap().path().join("o"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write --paths-out"));
}

fn report(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("report.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The figures of `report.json` that must not depend on the number of threads.
fn report_figures(dir: &Path) -> String {
    let r = report(dir);
    let mut errors: Vec<String> = r["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| format!("{}@{}", e["kind"], e["line"]))
        .collect();
    errors.sort();
    format!(
        "paths {} coverage {} complete {} tests {} errors {errors:?}",
        r["paths"],
        r["coverage"],
        r["complete"],
        r["tests"].as_array().unwrap().len()
    )
}

/// Every thread explores the top of the tree and keeps its share of the subtrees below (a split that
/// `symex-explore`'s partition tests check); the small examples lie within that top, `bits.c`'s 128
/// paths reach below it, where states may also move between threads.
#[test]
fn two_threads_explore_the_paths_of_one() {
    let dir = tempfile::tempdir().unwrap();
    let files = ["top.c", "switch.c", "arrays.c", "buffer.c", "power.c"].map(|n| example("run", n));
    for file in files.iter().chain([&example("campaign", "bits.c")]) {
        let name = file.file_name().unwrap().to_string_lossy();
        for search in ["dfs", "bfs", "default"] {
            let one = format!("{name}-{search}-1");
            let two = format!("{name}-{search}-2");
            let (a, _) = paths(file, &["--search", search], dir.path(), &one);
            let args = ["--search", search, "--jobs", "2"];
            let (b, out) = paths(file, &args, dir.path(), &two);
            assert_eq!(a, b, "{name} --search {search}: {out}");
            assert_eq!(
                report_figures(&dir.path().join(&one)),
                report_figures(&dir.path().join(&two)),
                "{name} --search {search}"
            );
        }
    }
}

#[test]
fn two_threads_stop_at_the_first_error_and_refuse_whole_run_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let out = symex()
        .arg("run")
        .arg(example("run", "top.c"))
        .args(["--jobs", "2", "--exit-on-error", "--json", "--out"])
        .arg(dir.path().join("stop"))
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["errors"].as_array().unwrap().len(), 1, "{r}");
    assert_eq!(r["complete"], false);
    let out = symex()
        .arg("run")
        .arg(example("run", "top.c"))
        .args(["--jobs", "2", "--max-forks", "3", "--out"])
        .arg(dir.path().join("forks"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--jobs above 1"));
}
