//! A few csmith programs lowered at -O0, at -O2 and with mem2reg/simplifycfg (skipped, with a
//! message, when `csmith` is not installed). `examples/lower.rs` runs the same over many seeds.

use super::common::*;
use std::path::Path;
use std::process::Command;
use symex_ir::*;

fn generate(seed: u32) -> Option<std::path::PathBuf> {
    let out = Command::new("csmith")
        .args(["--no-packed-struct", "--seed", &seed.to_string()])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(scratch(
        &format!("csmith{seed}.c"),
        &String::from_utf8_lossy(&out.stdout),
    ))
}

#[test]
fn csmith_programs_lower_at_every_optimisation_level() {
    // The same csmith runtime as the differential tests (`tests/csmith` at the repository root).
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/csmith");
    let variants = [
        FrontendOptions::default(),
        FrontendOptions {
            cflags: vec!["-O2".into()],
            ..FrontendOptions::default()
        },
        FrontendOptions::default().with_simplify(),
    ];
    for seed in [1, 2, 3] {
        let Some(prog) = generate(seed) else {
            eprintln!("skipped: csmith is not installed");
            return;
        };
        for opts in &variants {
            let opts = FrontendOptions {
                include_dirs: vec![runtime.clone()],
                ..opts.clone()
            };
            let m = load(&prog, &opts).unwrap_or_else(|e| panic!("seed {seed} {opts:?}: {e}"));
            assert!(m
                .function_by_name("main")
                .is_some_and(|f| !m.func(f).is_declaration()));
        }
    }
}
