//! What the CLI test binaries share: the `symex` binary, the repository's examples, and running
//! independent checks two at a time (the machines have two cores).
#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `symex` binary under test.
pub fn symex() -> Command {
    Command::new(env!("CARGO_BIN_EXE_symex"))
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
