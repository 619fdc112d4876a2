//! `symex check --witness FILE` on a TRUE: the correctness witness. Its invariants are checked by
//! `scripts/check_invariants.py`, which shares nothing with symex: PyYAML, the metadata and the program's
//! SHA-256, each invariant placed at a `while`/`for` keyword, and each invariant evaluated by the native
//! build (clang-14 under ASan/UBSan) every time control reaches its loop head, on every input of the
//! example (brute force over its small input space).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `check --json --property unreach-call --witness W` on `program`: the JSON object.
fn check(program: &Path, witness: &Path, extra: &[&str]) -> Value {
    let o = common::symex()
        .args(["check", "--json", "--property", "unreach-call"])
        .arg(program)
        .arg("--witness")
        .arg(witness)
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    serde_json::from_str(stdout.lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {stdout} {}", String::from_utf8_lossy(&o.stderr)))
}

/// `scripts/check_invariants.py`'s verdict (None, with a message, without python3 or PyYAML).
fn independent_check(witness: &Path, program: &Path, extra: &[&str]) -> Option<(bool, String)> {
    let o = match Command::new("python3")
        .arg(root().join("scripts/check_invariants.py"))
        .arg(witness)
        .arg(program)
        .args(extra)
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            eprintln!("skipped: no python3 ({e})");
            return None;
        }
    };
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    if out.contains("No module named 'yaml'") {
        eprintln!("skipped: no PyYAML");
        return None;
    }
    Some((o.status.success(), out))
}

#[test]
fn every_k_induction_proof_writes_invariants_that_hold_natively_on_every_input() {
    for name in ["inv_count_up.c", "inv_count_down.c", "inv_signed_for.c"] {
        let program = common::example("witness", name);
        let dir = tempfile::tempdir().unwrap();
        let w = dir.path().join("witness.yml");
        // The exploration alone proves `inv_count_up.c` too (each fork decided by the path's bounds),
        // so which engine answers first would be a race; with no forks allowed it cannot be complete,
        // and the TRUE must come from the engines beside it.
        let v = check(&program, &w, &["--max-forks", "0"]);
        assert_eq!(v["verdict"], "true", "{name}: {v}");
        // Spacer proves `inv_signed_for.c` too (`a <= b`), in about the time k-induction takes: either
        // engine's invariants are checked below; the other two only k-induction proves.
        let engines: &[&str] = if name == "inv_signed_for.c" {
            &["bmc", "chc"]
        } else {
            &["bmc"]
        };
        assert!(
            engines.contains(&v["engine"].as_str().unwrap_or("")),
            "{name}: the proof is k-induction's: {v}"
        );
        assert!(v.get("invariants_left_out").is_none(), "{name}: {v}");
        let Some((ok, out)) = independent_check(&w, &program, &["--min-invariants", "1"]) else {
            return;
        };
        if !ok && out.contains("clang-14") && out.contains("No such file") {
            eprintln!("skipped: no clang-14 ({out})");
            return;
        }
        assert!(
            ok,
            "{name}: {out}\n{}",
            std::fs::read_to_string(&w).unwrap()
        );
        assert!(out.contains("natively"), "{out}");
    }
}

/// A proof by the Horn-clause engine writes Spacer's invariant (re-checked by symex), which holds
/// natively at every arrival at the loop head on all 65,536 inputs.
#[test]
fn a_horn_clause_proof_writes_an_invariant_that_holds_natively_on_every_input() {
    let program = common::example("witness", "inv_chc_equal.c");
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("witness.yml");
    let v = check(&program, &w, &[]);
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["engine"], "chc", "the proof is Spacer's: {v}");
    let Some((ok, out)) = independent_check(&w, &program, &["--min-invariants", "1"]) else {
        return;
    };
    if !ok && out.contains("clang-14") && out.contains("No such file") {
        eprintln!("skipped: no clang-14 ({out})");
        return;
    }
    assert!(ok, "{out}\n{}", std::fs::read_to_string(&w).unwrap());
    assert!(out.contains("65536 inputs natively"), "{out}");
}

/// The checker is not a rubber stamp: an invariant made stronger than the truth (`<=` to `<`), or
/// moved off its loop keyword, is rejected.
#[test]
fn a_wrong_or_misplaced_invariant_is_rejected() {
    let program = common::example("witness", "inv_count_up.c");
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("witness.yml");
    // The proof with an invariant is k-induction's: the exploration (and its exhaustive runs of the
    // one `unsigned char` input, which need none) is kept from completing.
    let v = check(&program, &w, &["--max-forks", "0"]);
    assert_eq!(v["verdict"], "true", "{v}");
    let text = std::fs::read_to_string(&w).unwrap();
    let stronger = dir.path().join("stronger.yml");
    assert!(text.contains(" <= "), "{text}");
    std::fs::write(&stronger, text.replace(" <= ", " < ")).unwrap();
    let Some((ok, out)) = independent_check(&stronger, &program, &[]) else {
        return;
    };
    assert!(!ok && out.contains("invariant violated"), "{out}");
    let moved = dir.path().join("moved.yml");
    std::fs::write(&moved, text.replace("column: 3", "column: 4")).unwrap();
    let (ok, out) = independent_check(&moved, &program, &["--no-native"]).unwrap();
    assert!(!ok && out.contains("not a while/for keyword"), "{out}");
}

/// A TRUE that needs no invariant (the exploration completes) still writes a well-formed witness: an
/// empty invariant set in YAML, the entry-only automaton in GraphML.
#[test]
fn a_proof_without_loops_writes_an_empty_invariant_set_and_a_graphml_correctness_witness() {
    let program = common::example("check", "unreach_true.c");
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("witness.yml");
    let v = check(&program, &w, &[]);
    assert_eq!(v["verdict"], "true", "{v}");
    if let Some((ok, out)) = independent_check(&w, &program, &[]) {
        assert!(ok, "{out}");
    }
    let g = dir.path().join("witness.graphml");
    let v = check(&program, &g, &[]);
    assert_eq!(v["verdict"], "true", "{v}");
    let text = std::fs::read_to_string(&g).unwrap();
    assert!(
        text.contains("<data key=\"witness-type\">correctness_witness</data>"),
        "{text}"
    );
    let hash = text
        .split("<data key=\"programhash\">")
        .nth(1)
        .and_then(|s| s.split('<').next())
        .unwrap();
    use sha2::Digest;
    let want: String = sha2::Sha256::digest(std::fs::read(&program).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(hash, want);
}

/// A proof by the exploration needs no invariant; the witness gets the facts of `symex term`'s abstract
/// state at the loop head that the Horn-clause encoding shows inductive. Not every candidate is (the
/// general state's facts hold after the first lap, some not at the first arrival), and what is written
/// holds natively at every arrival at the loop head on all 256 inputs.
#[test]
fn an_exploration_proof_writes_the_inductive_facts_of_terms_abstract_states() {
    let program = common::example("witness", "inv_term_exploration.c");
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("witness.yml");
    let v = check(&program, &w, &["--no-bmc"]);
    assert_eq!(v["verdict"], "true", "{v}");
    // Its one `unsigned char` input: the exhaustive concrete runs before the exploration decide too.
    assert!(
        matches!(v["engine"].as_str(), Some("exploration" | "enumeration")),
        "{v}"
    );
    let note = v["invariants_from_term"].as_str().unwrap_or("");
    let counts: Vec<u64> = note
        .split(' ')
        .filter_map(|w| w.parse().ok())
        .take(2)
        .collect();
    assert!(
        matches!(counts[..], [kept, offered] if kept >= 1 && kept < offered),
        "{v}"
    );
    let text = std::fs::read_to_string(&w).unwrap();
    assert!(
        text.contains("(long long)(unsigned char)n - (long long)(unsigned int)x >= 0LL"),
        "{text}"
    );
    let Some((ok, out)) = independent_check(&w, &program, &["--min-invariants", "1"]) else {
        return;
    };
    if !ok && out.contains("clang-14") && out.contains("No such file") {
        eprintln!("skipped: no clang-14 ({out})");
        return;
    }
    assert!(ok, "{out}\n{text}");
    assert!(out.contains("all 256 inputs natively"), "{out}");
}
