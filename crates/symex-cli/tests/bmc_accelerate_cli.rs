//! `symex bmc --accelerate` (BMC alone, no portfolio race) on a bug 2^16 + 2^26 iterations deep: the
//! counterexample runs longer than the interpreter's share of instructions, so BMC confirms it on the
//! native build and says so (JSON `replay`, the `replay:` line); the test it writes is replayed once
//! more by `symex replay --native` (clang-14 with sanitizers, not symex's interpreter).

use serde_json::Value;
use std::path::Path;

mod common;

/// `symex bmc --accelerate --property unreach-call --unwind 2 [--json]`: stdout.
fn bmc(dir: &Path, name: &str, json: bool) -> String {
    let mut c = common::symex();
    c.args(["bmc", "--accelerate", "--property", "unreach-call"])
        .args(["--unwind", "2", "--out"])
        .arg(dir)
        .arg(common::example("bmc", name));
    if json {
        c.arg("--json");
    }
    let o = c.output().unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_counterexample_beyond_the_interpreters_share_is_confirmed_natively() {
    let dir = tempfile::tempdir().unwrap();
    let out = bmc(dir.path(), "accel_deep27_false.c", true);
    let v: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["accelerated"], true, "{v}");
    assert_eq!(v["replay"], "native", "{v}");
    let test = v["errors"][0]["test"].as_str().expect("a test").to_string();
    let o = common::symex()
        .args(["replay", "--native", "--json"])
        .arg(common::example("bmc", "accel_deep27_false.c"))
        .arg(&test)
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["outcome"]["kind"], "reach-error", "{r}");
    assert_eq!(r["agrees"], true, "{r}");

    let text = bmc(dir.path(), "accel_deep27_false.c", false);
    assert!(
        text.contains("replay: the counterexample runs over"),
        "{text}"
    );
    assert!(text.ends_with("FALSE\n"), "{text}");
}

#[test]
fn a_short_counterexample_is_replayed_by_the_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let out = bmc(dir.path(), "accel_deep16_false.c", true);
    let v: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["replay"], "interpreter", "{v}");
}
