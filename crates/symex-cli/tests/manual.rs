//! The manual (`docs/src/`) against the binary: every command shown in a ```` ```console ```` block prints
//! what the manual shows (trycmd; `[..]` elides part of a line, `...` whole lines: times, paths), and every
//! flag of every subcommand's `--help` appears in that subcommand's chapter.
//!
//! `TRYCMD=overwrite cargo test -p symex-cli --test manual` rewrites the blocks with what symex prints now
//! (then put the elisions back where a time or a path appears).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The chapters that document each subcommand's flags.
const CHAPTERS: &[(&str, &[&str])] = &[
    ("run", &["run.md"]),
    ("stats", &["run.md"]),
    ("campaign", &["campaign.md"]),
    ("replay", &["replay.md", "replay-native.md"]),
    ("check", &["check.md"]),
    ("validate", &["validate.md"]),
    ("bmc", &["bmc.md"]),
    ("fuzz", &["fuzz.md"]),
    ("term", &["term.md"]),
    ("its", &["its.md"]),
    ("cost", &["cost.md"]),
    ("verify", &["verify.md"]),
    ("completions", &["completions.md"]),
    ("man", &["completions.md"]),
];

/// The flags `symex SUB --help` lists (`--long` and `-X` short ones), without `--help`/`--version`.
fn help_flags(sub: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args([sub, "--help"])
        .output()
        .unwrap();
    assert!(out.status.success(), "symex {sub} --help failed");
    let help = String::from_utf8(out.stdout).unwrap();
    let mut flags = Vec::new();
    let options = help.split("Options:").nth(1).unwrap_or("");
    let options = options.split("\nExamples:").next().unwrap_or("");
    for line in options.lines() {
        let line = line.trim_start();
        if !line.starts_with('-') {
            continue;
        }
        for word in line.split([' ', ',', '=']).take(3) {
            let flag = word.trim_end_matches(['[', '<']);
            let is_flag = (flag.starts_with("--") && flag.len() > 2)
                || (flag.len() == 2 && flag.starts_with('-') && flag != "--");
            if is_flag && flag != "--help" && flag != "-h" && flag != "--version" && flag != "-V" {
                flags.push(flag.to_string());
            }
        }
    }
    flags.sort();
    flags.dedup();
    flags
}

/// Whether `text` names `flag` as a whole word (`--max-time`, not only `--max-time-ms`).
fn mentions(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(i, _)| {
        let after = text[i + flag.len()..].chars().next();
        let before = text[..i].chars().next_back();
        !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

#[test]
fn every_flag_of_every_subcommand_is_in_its_chapter() {
    let docs = root().join("docs/src");
    let mut missing = Vec::new();
    for (sub, files) in CHAPTERS {
        let text: String = files
            .iter()
            .map(|f| std::fs::read_to_string(docs.join(f)).unwrap_or_default())
            .collect();
        let absent: Vec<String> = help_flags(sub)
            .into_iter()
            .filter(|f| !mentions(&text, f))
            .collect();
        if !absent.is_empty() {
            missing.push(format!(
                "  docs/src/{} lacks {} (listed by `symex {sub} --help`)",
                files[0],
                absent.join(", ")
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "flags missing from the manual — add each to the chapter's \"Flags\" table with what it does:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_subcommand_has_a_chapter_and_the_book_lists_it() {
    let docs = root().join("docs/src");
    let summary = std::fs::read_to_string(docs.join("SUMMARY.md")).unwrap();
    for (_, files) in CHAPTERS {
        for f in *files {
            assert!(docs.join(f).exists(), "docs/src/{f} is missing");
            assert!(
                summary.contains(&format!("({f})")),
                "SUMMARY.md does not list {f}"
            );
        }
    }
}

#[test]
fn documented_commands_print_what_the_manual_shows() {
    // The manual's commands run from the repository's root (`examples/...`); they run in a scratch
    // directory holding a link to `examples/`, so that the output directories they create stay there.
    let root = root();
    let scratch = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root.join("examples"), scratch.path().join("examples")).unwrap();
    std::env::set_current_dir(scratch.path()).unwrap();
    let cases = trycmd::TestCases::new();
    cases.register_bin("symex", Path::new(env!("CARGO_BIN_EXE_symex")));
    // On counts, as every test's `symex`: the shown verdicts must not depend on the load.
    cases.env("SYMEX_SOLVER_RLIMIT", common::TEST_RLIMIT);
    // The shown test names and counts are one thread's (the order of a parallel run's tests varies).
    cases.env("SYMEX_JOBS", "1");
    // Only pages with a console block: trycmd would also run a fence without a language.
    for page in pages(&root.join("docs/src")) {
        if std::fs::read_to_string(&page)
            .unwrap()
            .contains("```console")
        {
            cases.case(page);
        }
    }
    cases.run();
}

/// The Markdown pages under `dir`, recursively.
fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(pages(&path));
        } else if path.extension().is_some_and(|e| e == "md") {
            found.push(path);
        }
    }
    found.sort();
    found
}
