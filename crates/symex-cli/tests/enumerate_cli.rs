//! `check`'s exhaustive concrete runs (`crates/symex-cli/src/enumerate.rs`) on two `signed char` inputs,
//! BMC and the Horn-clause engine left out (`--no-bmc`). The oracles are not symex: Euclid's algorithm
//! with C's `signed char` arithmetic in Rust over all 65,536 pairs, and the native sanitizer build.

use serde_json::Value;
use std::path::Path;
use symex_engine::{TestFile, TestInput};
use symex_native::{BuildOptions, RunOptions};

mod common;

/// `symex check --property unreach-call --no-bmc --json`: the JSON answer.
fn check(dir: &Path, name: &str) -> Value {
    let o = common::symex()
        .args([
            "check",
            "--property",
            "unreach-call",
            "--no-bmc",
            "--json",
            "--out",
        ])
        .arg(dir)
        .arg(common::example("check", name))
        .output()
        .unwrap();
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The examples' `gcd` as C computes it on `signed char`s (`-a` and `a % b` in `int`, then truncated).
fn gcd(a: i8, b: i8) -> i8 {
    let (mut a, mut b) = (a, b);
    if a < 0 {
        a = (-i32::from(a)) as i8;
    }
    if b < 0 {
        b = (-i32::from(b)) as i8;
    }
    while b != 0 {
        let t = b;
        b = (i32::from(a) % i32::from(b)) as i8;
        a = t;
    }
    a
}

fn pairs() -> impl Iterator<Item = (i8, i8)> {
    (i8::MIN..=i8::MAX).flat_map(|x| (i8::MIN..=i8::MAX).map(move |y| (x, y)))
}

fn chars(x: i8, y: i8) -> TestFile {
    let c = |v: i8| TestInput {
        name: "__VERIFIER_nondet_char".into(),
        bytes: vec![v as u8],
    };
    TestFile {
        inputs: vec![c(x), c(y)],
        ..TestFile::default()
    }
}

#[test]
fn every_pair_of_two_chars_is_run_for_true() {
    assert!(pairs().all(|(x, y)| !(y > 0 && gcd(x, y) > y)));
    let dir = tempfile::tempdir().unwrap();
    let v = check(dir.path(), "enum_gcd_true.c");
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["engine"], "enumeration", "{v}");
}

#[test]
fn the_first_violating_pair_is_false_and_reaches_the_error_natively() {
    let violating: Vec<(i8, i8)> = pairs().filter(|&(x, y)| gcd(x, y) == -128).collect();
    assert_eq!(violating, [(-128, -128), (-128, 0), (0, -128)]);
    let dir = tempfile::tempdir().unwrap();
    let v = check(dir.path(), "enum_gcd_false.c");
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["engine"], "enumeration", "{v}");
    let test = TestFile::load(Path::new(v["test"].as_str().expect("a test"))).unwrap();
    let xy: Vec<i8> = test.inputs.iter().map(|i| i.bytes[0] as i8).collect();
    assert!(violating.contains(&(xy[0], xy[1])), "{xy:?}");
    let program = common::example("check", "enum_gcd_false.c");
    let build =
        symex_native::build(&program, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let run = |t: &TestFile| {
        symex_native::run(&build, t, &RunOptions::default())
            .outcome
            .kind
    };
    assert_eq!(run(&test), "reach-error");
    assert_eq!(run(&chars(1, 1)), "exit");
}
