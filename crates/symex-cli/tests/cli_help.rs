//! The CLI explains itself: every subcommand's `--help` ends with two or three examples whose files exist,
//! no help names a file outside the repository, and completion scripts and man pages are produced.

use std::path::Path;
use std::process::{Command, Output};

const SUBCOMMANDS: &[&str] = &[
    "run",
    "stats",
    "campaign",
    "replay",
    "check",
    "bmc",
    "fuzz",
    "its",
    "term",
    "cost",
    "verify",
    "completions",
    "man",
];

fn symex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .output()
        .unwrap()
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn every_help_ends_with_examples_whose_files_exist() {
    for sub in SUBCOMMANDS {
        let out = symex(&[sub, "--help"]);
        assert!(out.status.success());
        let help = String::from_utf8(out.stdout).unwrap();
        let examples = help
            .split("\nExamples:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("`symex {sub} --help` has no Examples section"));
        let commands: Vec<&str> = examples
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("symex "))
            .collect();
        assert!(
            (2..=3).contains(&commands.len()),
            "`symex {sub} --help` shows {} examples, not 2 or 3",
            commands.len()
        );
        for word in commands.iter().flat_map(|c| c.split_whitespace()) {
            if word.starts_with("examples/") {
                assert!(
                    root().join(word).exists(),
                    "`symex {sub} --help` names {word}, which does not exist"
                );
            }
        }
        for chapter in examples
            .split_whitespace()
            .filter(|w| w.starts_with("docs/src/"))
        {
            let chapter = chapter.trim_end_matches([',', ';', '.']);
            assert!(
                root().join(chapter).exists(),
                "`symex {sub} --help` points to {chapter}, which does not exist"
            );
        }
    }
}

#[test]
fn no_help_names_a_file_outside_the_repository() {
    let mut helps = vec![String::from_utf8(symex(&["--help"]).stdout).unwrap()];
    for sub in SUBCOMMANDS {
        helps.push(String::from_utf8(symex(&[sub, "--help"]).stdout).unwrap());
    }
    for h in &helps {
        assert!(!h.contains("spec/"), "a help text names spec/: {h}");
        assert!(!h.contains("../shared"), "a help text names ../shared: {h}");
    }
}

#[test]
fn completion_scripts_for_bash_zsh_and_fish() {
    for (shell, marker) in [
        ("bash", "complete -F _symex"),
        ("zsh", "#compdef symex"),
        ("fish", "complete -c symex"),
    ] {
        let out = symex(&["completions", shell]);
        assert!(out.status.success());
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains(marker), "{shell}: no `{marker}`");
        assert!(
            script.contains("--max-time"),
            "{shell}: the flags are missing"
        );
    }
}

#[test]
fn man_pages_for_symex_and_each_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let out = symex(&["man", pages.to_str().unwrap()]);
    assert!(out.status.success());
    for page in ["symex.1", "symex-run.1", "symex-check.1", "symex-verify.1"] {
        let text = std::fs::read_to_string(pages.join(page)).unwrap();
        assert!(text.starts_with(".ie") || text.contains(".TH"), "{page}");
    }
    let run = std::fs::read_to_string(pages.join("symex-run.1")).unwrap();
    assert!(run.contains("max\\-time"), "symex-run.1 lacks the flags");
    assert!(run.contains("Examples:"), "symex-run.1 lacks the examples");
}
