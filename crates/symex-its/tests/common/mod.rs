//! Shared helpers of the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The competition's ITS benchmarks, or `None` (with a message) when `../shared` is absent.
pub fn koat_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../../shared/benchmarks/tpdb/Complexity_ITS");
    let dir = if dir.is_dir() {
        dir
    } else {
        PathBuf::from("/work/shared/benchmarks/tpdb/Complexity_ITS")
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: ../shared/benchmarks/tpdb/Complexity_ITS is absent");
        None
    }
}

/// Every `.koat` file under `dir`, sorted.
pub fn koat_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "koat") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
