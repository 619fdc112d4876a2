//! `--stdin N` end to end: the paths `symex run` finds over N symbolic bytes of standard input (counted
//! by hand in each test), the `stdin` input of every test, the replay of the bugs' tests, and `check`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::symex;

fn example(name: &str) -> PathBuf {
    common::example("run", name)
}

/// `symex run FILE --stdin N` (no flag when `n` is `None`) with test validation; the report.
fn run(file: &str, n: Option<usize>, out: &Path) -> Value {
    let mut cmd = symex();
    cmd.arg("run")
        .arg(example(file))
        .args(["--json", "--validate-tests", "--search", "dfs", "--out"])
        .arg(out);
    if let Some(n) = n {
        cmd.args(["--stdin", &n.to_string()]);
    }
    let o = cmd.output().unwrap();
    let r: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    assert_eq!(r["complete"], true, "{r}");
    assert_eq!(r["validation_failures"].as_array().unwrap().len(), 0, "{r}");
    assert_eq!(r["paths"]["cut"], 0);
    assert_eq!(r["paths"]["unsupported"], 0);
    r
}

fn paths(r: &Value) -> (u64, u64) {
    (
        r["paths"]["completed"].as_u64().unwrap(),
        r["paths"]["errors"].as_u64().unwrap(),
    )
}

fn tests(r: &Value) -> Vec<Value> {
    r["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            serde_json::from_str(&std::fs::read_to_string(t.as_str().unwrap()).unwrap()).unwrap()
        })
        .collect()
}

/// The bytes of a test's `stdin` input, `None` without one.
fn stdin_bytes(test: &Value) -> Option<Vec<u8>> {
    let input = test["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "stdin")?;
    Some(
        input["bytes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_u64().unwrap() as u8)
            .collect(),
    )
}

/// The exit codes of the tests that exited, sorted.
fn exit_codes(r: &Value) -> Vec<i64> {
    let mut codes: Vec<i64> = tests(r)
        .iter()
        .filter(|t| t["outcome"]["kind"] == "exit")
        .map(|t| t["outcome"]["code"].as_i64().unwrap())
        .collect();
    codes.sort();
    codes
}

fn replay(file: &str, test: &str) -> (Option<i32>, Value) {
    let o: Output = symex()
        .arg("replay")
        .arg(example(file))
        .arg(test)
        .arg("--json")
        .output()
        .unwrap();
    (o.status.code(), serde_json::from_slice(&o.stdout).unwrap())
}

/// How many of the first four bytes match "bad!" (top() aborts from three on).
fn bad_matches(b: &[u8]) -> usize {
    b.iter().zip(b"bad!").filter(|(x, y)| x == y).count()
}

#[test]
fn getchar_top_finds_the_16_paths_and_its_abort_test_replays_to_abort() {
    let dir = tempfile::tempdir().unwrap();
    let r = run("stdin_top.c", Some(4), &dir.path().join("a"));
    // 2^4 combinations of the four comparisons; cnt >= 3 in 1 + 4 of them.
    assert_eq!(paths(&r), (11, 5));
    let all = tests(&r);
    assert_eq!(all.len(), 16);
    for t in &all {
        let b = stdin_bytes(t).expect("every path read stdin");
        assert_eq!(b.len(), 4);
        let aborts = t["outcome"]["kind"] == "abort";
        assert_eq!(aborts, bad_matches(&b) >= 3, "{t}");
    }
    let errs = r["errors"].as_array().unwrap();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0]["kind"], "abort");
    assert_eq!(errs[0]["line"], 12);
    let (status, rep) = replay("stdin_top.c", errs[0]["test"].as_str().unwrap());
    assert_eq!(status, Some(1));
    assert_eq!(rep["outcome"]["kind"], "abort");
    assert_eq!(rep["outcome"]["line"], 12);
}

#[test]
fn short_or_absent_stdin_ends_the_read_loop_at_eof() {
    let dir = tempfile::tempdir().unwrap();
    // Three bytes: the fourth getchar is EOF, on the one path there is.
    let r = run("stdin_top.c", Some(3), &dir.path().join("a"));
    assert_eq!(paths(&r), (1, 0));
    assert_eq!(exit_codes(&r), [1]);
    assert_eq!(stdin_bytes(&tests(&r)[0]).unwrap().len(), 3);
    // More bytes than the program reads: the same 16 paths.
    let r = run("stdin_top.c", Some(5), &dir.path().join("b"));
    assert_eq!(paths(&r), (11, 5));
    // No --stdin: stdin is empty and the test has no stdin input.
    let r = run("stdin_top.c", None, &dir.path().join("c"));
    assert_eq!(paths(&r), (1, 0));
    assert_eq!(exit_codes(&r), [1]);
    assert_eq!(stdin_bytes(&tests(&r)[0]), None);
}

#[test]
fn fread_and_read_take_whole_items_and_short_counts() {
    let dir = tempfile::tempdir().unwrap();
    for file in ["stdin_fread.c", "stdin_read.c"] {
        let r = run(file, Some(4), &dir.path().join(file));
        assert_eq!(paths(&r), (11, 5), "{file}");
        let abort = r["errors"][0]["test"].as_str().unwrap().to_string();
        let (status, rep) = replay(file, &abort);
        assert_eq!(
            (status, &rep["outcome"]["kind"]),
            (Some(1), &"abort".into())
        );
    }
    // fread(buf, 2, 2) of 3 bytes: one whole item; read(0, buf, 4) of 2 bytes: 2.
    let r = run("stdin_fread.c", Some(3), &dir.path().join("f3"));
    assert_eq!(exit_codes(&r), [11]);
    let r = run("stdin_read.c", Some(2), &dir.path().join("r2"));
    assert_eq!(exit_codes(&r), [12]);
}

#[test]
fn a_loop_to_eof_over_3_bytes_has_8_paths() {
    let dir = tempfile::tempdir().unwrap();
    let r = run("stdin_eof.c", Some(3), &dir.path().join("a"));
    // Each byte is a newline or not; the exit code counts them (feof holds after the loop).
    assert_eq!(paths(&r), (8, 0));
    assert_eq!(exit_codes(&r), [0, 1, 1, 1, 2, 2, 2, 3]);
}

#[test]
fn fgets_splits_at_newlines() {
    let dir = tempfile::tempdir().unwrap();
    let r = run("stdin_fgets.c", Some(3), &dir.path().join("a"));
    // Lines "\n" (1 path), "X\n" (2: X is 'h' or not), "XY\n" (3: "hi\n" aborts) and "XYZ" (4: "hi\0"
    // aborts through the second strcmp).
    assert_eq!(paths(&r), (8, 2));
    let mut aborting: Vec<Vec<u8>> = tests(&r)
        .iter()
        .filter(|t| t["outcome"]["kind"] == "abort")
        .map(|t| stdin_bytes(t).unwrap())
        .collect();
    aborting.sort();
    assert_eq!(aborting, [b"hi\0".to_vec(), b"hi\n".to_vec()]);
}

#[test]
fn ungetc_puts_the_byte_back_for_the_next_read() {
    let dir = tempfile::tempdir().unwrap();
    let r = run("stdin_ungetc.c", Some(3), &dir.path().join("a"));
    // The loop leaves after k digits on a byte below '0' or above '9' (k < 3) or at EOF (k = 3);
    // then n == 4 forks when a digit made n, and next == '+' only below '0': k = 0: 2 paths;
    // k = 1 and k = 2: 3 below '0' (one aborts on "4+", "04+") and 2 above '9'; k = 3: 2.
    assert_eq!(paths(&r), (12, 2));
    let mut aborting: Vec<Vec<u8>> = tests(&r)
        .iter()
        .filter(|t| t["outcome"]["kind"] == "abort")
        .map(|t| stdin_bytes(t).unwrap()[..3].to_vec())
        .collect();
    aborting.sort();
    assert_eq!(aborting.len(), 2);
    assert!(aborting[0].starts_with(b"04+"), "{aborting:?}");
    assert!(aborting[1].starts_with(b"4+"), "{aborting:?}");
    // The byte read again is the byte put back: no path returns 3 or 4.
    assert!(
        exit_codes(&r).iter().all(|&c| c == 0),
        "{:?}",
        exit_codes(&r)
    );
}

#[test]
fn getline_reads_through_the_newline_into_a_block_it_allocates() {
    let dir = tempfile::tempdir().unwrap();
    let r = run("stdin_getline.c", Some(3), &dir.path().join("a"));
    // Lines of 1, 2 or 3 bytes ending in a newline, or 3 bytes without one; of the 3-byte lines
    // strcmp tells apart a first byte other than 'o', then a second other than 'k', then "ok\n".
    assert_eq!(paths(&r), (7, 1));
    let abort: Vec<Vec<u8>> = tests(&r)
        .iter()
        .filter(|t| t["outcome"]["kind"] == "abort")
        .map(|t| stdin_bytes(t).unwrap())
        .collect();
    assert_eq!(abort, [b"ok\n".to_vec()]);
    // An empty stdin: -1 before any byte.
    let r = run("stdin_getline.c", None, &dir.path().join("b"));
    assert_eq!(paths(&r), (1, 0));
    assert_eq!(exit_codes(&r), [1]);
}

#[test]
fn scanf_d_parses_white_space_sign_and_digits() {
    let dir = tempfile::tempdir().unwrap();
    let r = run("stdin_scanf.c", Some(3), &dir.path().join("a"));
    // No sign 12 paths (3 abort: "42X", "042", " 42"), '-' 6, '+' 7 (1 aborts: "+42"), all blank 1.
    assert_eq!(paths(&r), (22, 4));
    for t in tests(&r) {
        let text = String::from_utf8_lossy(&stdin_bytes(&t).unwrap()).into_owned();
        assert_eq!(t["outcome"]["kind"] == "abort", reads_42(&text), "{text:?}");
    }
}

/// Whether `%d` (and `atoi`) read 42 from the start of `text`: white space, an optional '+', digits.
fn reads_42(text: &str) -> bool {
    let unsigned = text.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let unsigned = unsigned.strip_prefix('+').unwrap_or(unsigned);
    let digits: String = unsigned.chars().take_while(char::is_ascii_digit).collect();
    digits.parse::<i64>().ok() == Some(42)
}

#[test]
fn atoi_of_symbolic_bytes_follows_them() {
    let dir = tempfile::tempdir().unwrap();
    let r = run("stdin_atoi.c", Some(3), &dir.path().join("a"));
    // atoi once read the string as printed output (one value, unconstrained): "7" could read as 0.
    assert_eq!(paths(&r), (25, 4));
    assert!(!exit_codes(&r).contains(&3), "{:?}", exit_codes(&r));
    for t in tests(&r) {
        let b = stdin_bytes(&t).unwrap_or_default();
        let text: String = String::from_utf8_lossy(&b)
            .chars()
            .take_while(|&c| c != '\0')
            .collect();
        assert_eq!(t["outcome"]["kind"] == "abort", reads_42(&text), "{text:?}");
    }
}

#[test]
fn check_reaches_an_error_through_stdin_only_with_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let check = |extra: &[&str], out: &str| {
        let o = symex()
            .args(["check", "--property", "unreach-call"])
            .arg(example("stdin_reach.c"))
            .arg("--out")
            .arg(dir.path().join(out))
            .args(extra)
            .output()
            .unwrap();
        let s = String::from_utf8_lossy(&o.stdout).into_owned();
        (o.status.code(), s.lines().last().unwrap_or("").to_string())
    };
    assert_eq!(
        check(&["--stdin", "2"], "a"),
        (Some(1), "FALSE".to_string())
    );
    assert_eq!(check(&[], "b"), (Some(0), "TRUE".to_string()));
}

/// Runs the natively compiled `exe` on `stdin`; the outcome kind and exit code it ends with.
fn run_native(exe: &Path, stdin: &[u8]) -> (String, Option<i32>) {
    use std::io::Write;
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let status = child.wait().unwrap();
    match status.signal() {
        Some(6) => ("abort".into(), None),
        Some(s) => (format!("signal {s}"), None),
        None => ("exit".into(), status.code()),
    }
}

#[test]
fn every_test_run_natively_on_its_stdin_ends_as_its_outcome_says() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("stdin_top.c", 4),
        ("stdin_fread.c", 4),
        ("stdin_read.c", 4),
        ("stdin_eof.c", 3),
        ("stdin_fgets.c", 3),
        ("stdin_scanf.c", 3),
        ("stdin_ungetc.c", 3),
        ("stdin_getline.c", 3),
        ("stdin_atoi.c", 3),
    ];
    for (file, n) in cases {
        let exe = dir.path().join(file.trim_end_matches(".c"));
        let cc = Command::new("clang-14")
            .arg("-o")
            .arg(&exe)
            .arg(example(file))
            .status()
            .expect("clang-14 runs");
        assert!(cc.success(), "{file} compiles natively");
        let r = run(file, Some(n), &dir.path().join(format!("{file}.out")));
        for t in tests(&r) {
            let bytes = stdin_bytes(&t).unwrap_or_default();
            let kind = t["outcome"]["kind"].as_str().unwrap().to_string();
            let code = t["outcome"]["code"].as_i64().map(|c| (c & 0xff) as i32);
            assert_eq!(
                run_native(&exe, &bytes),
                (kind, code),
                "{file} on {bytes:?}"
            );
        }
    }
}
