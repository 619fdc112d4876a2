//! The fast subset of the csmith differential test (the full run is `scripts/csmith-diff.sh`): for fixed
//! seeds that are free of undefined behaviour and quick natively, the standard output of `symex replay`
//! must equal the native build's (gcc). Skipped, with a message, when csmith or gcc is missing.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Seeds checked by `scripts/csmith-diff.sh` (UB-free under -fsanitize=undefined, under 5 s natively).
const SEEDS: [u32; 10] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn runtime_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/csmith")
}

/// Native and symex standard output of one seed.
fn outputs(seed: u32, dir: &Path) -> (Vec<u8>, Vec<u8>, String) {
    let src = dir.join(format!("p{seed}.c"));
    // csmith is the generator, not the code under test: on a loaded machine it once ended without a
    // message, so a failed run is retried (the same seed gives the same program) before the test fails.
    let generate = || {
        Command::new("csmith")
            .current_dir(dir)
            .args(["--no-packed-struct", "--seed", &seed.to_string()])
            .output()
            .unwrap()
    };
    let mut gen = generate();
    for _ in 0..2 {
        if gen.status.success() {
            break;
        }
        gen = generate();
    }
    assert!(
        gen.status.success(),
        "csmith failed for seed {seed} ({}): {}",
        gen.status,
        String::from_utf8_lossy(&gen.stderr)
    );
    std::fs::write(&src, &gen.stdout).unwrap();
    let exe = dir.join(format!("p{seed}"));
    let cc = Command::new("gcc")
        .arg("-w")
        .arg("-I")
        .arg(runtime_dir())
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        cc.status.success(),
        "gcc failed for seed {seed}: {}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let native = Command::new(&exe).output().unwrap();
    assert!(native.status.success(), "seed {seed} fails natively");
    let empty = dir.join("empty.json");
    let symex = common::symex()
        .arg("replay")
        .arg(&src)
        .arg(&empty)
        .arg("--quiet")
        .arg("-I")
        .arg(runtime_dir())
        .output()
        .unwrap();
    (
        native.stdout,
        symex.stdout,
        String::from_utf8_lossy(&symex.stderr).into_owned(),
    )
}

#[test]
fn csmith_programs_print_what_the_native_build_prints() {
    if !have("csmith") || !have("gcc") {
        // CI installs both (scripts/ensure-deps.sh): there a missing tool is a failure, not a pass.
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "csmith and gcc are required on CI (scripts/ensure-deps.sh installs them)"
        );
        eprintln!(
            "SKIPPED csmith_programs_print_what_the_native_build_prints: csmith or gcc is not installed (bash scripts/ensure-deps.sh installs them); nothing was compared"
        );
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    std::fs::write(dir.join("empty.json"), "{\"inputs\":[]}").unwrap();
    let failures: Vec<String> = common::map_in_pairs(&SEEDS, |&seed| {
        let (native, symex, err) = outputs(seed, &dir);
        (native != symex).then(|| format!("seed {seed}: outputs differ; symex stderr: {err}"))
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
