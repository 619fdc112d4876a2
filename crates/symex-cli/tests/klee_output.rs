//! Halting and output as KLEE users expect them (`examples/klee/halt/`, each with its `.expected` written
//! from KLEE's behaviour): Ctrl-C halts with tests for the live states, error files with stacks, the
//! `info` file, an existing output directory refused, --exit-on-error, --emit-all-errors, --max-forks.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn dir() -> PathBuf {
    common::examples("klee/halt")
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).expect("the expectation file")
}

/// `symex run NAME --out OUT FLAGS` in `examples/klee/halt`.
fn run(name: &str, out: &Path, flags: &[&str]) -> Command {
    let mut c = common::symex();
    c.current_dir(dir())
        .args(["run", name, "--out"])
        .arg(out)
        .args(flags);
    c
}

/// Names of the files in `dir` ending with `suffix`, sorted.
fn files_ending(dir: &Path, suffix: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("the output directory")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(suffix))
        .collect();
    v.sort();
    v
}

/// An error file as the expectation shows it: without the `Error:` line (symex words messages its own
/// way) and with the stack lines' instruction positions (lines of KLEE's assembly.ll) left out.
fn normalise_err(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("Error: "))
        .map(|l| match l.strip_prefix("\t#") {
            Some(rest) => {
                let (index, rest) = rest.split_at(rest.find(" in ").unwrap_or(0));
                // `#<index><8-digit position>`
                let index = &index[..index.len().saturating_sub(8)];
                format!("\t#{index}{rest}\n")
            }
            None => format!("{l}\n"),
        })
        .collect()
}

#[test]
fn the_first_sigint_halts_with_a_test_for_every_live_state() {
    let tmp = tempfile::tempdir().expect("a scratch directory");
    let out = tmp.path().join("out");
    let child = run("halt.c", &out, &["--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("symex starts");
    // The two finite paths end; the three states left spin forever. (The bound only keeps a broken build
    // from hanging the suite; the signal is sent on an observed event, not after a delay.)
    let started = std::time::Instant::now();
    while !out.join("test000002.json").exists() {
        assert!(
            started.elapsed().as_secs() < 600,
            "the finite paths never ended"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let o = child.wait_with_output().expect("symex ends");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "an error was found: {stderr}");
    assert!(stderr.contains("SIGINT received, halting"), "{stderr}");
    let r: Value = serde_json::from_slice(&o.stdout).expect("the report on stdout");
    assert_eq!(r["complete"], false);
    assert!(
        r["incomplete_reasons"].to_string().contains("SIGINT"),
        "{r}"
    );
    let saved: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("report.json")).expect("report.json written"),
    )
    .expect("report.json is JSON");
    assert_eq!(saved, r);
    assert!(std::fs::read_to_string(out.join("coverage.info"))
        .expect("coverage.info written")
        .contains("end_of_record"));
    let tests = files_ending(&out, ".json").len() - 1;
    let early = files_ending(&out, ".early");
    let errs = files_ending(&out, ".ptr.err");
    assert_eq!(errs.len(), 1, "{errs:?}");
    let err = std::fs::read_to_string(out.join(&errs[0])).expect("the error file");
    let got = format!(
        "tests: {tests}\nearly: {}\nptr.err:\n{}",
        early.len(),
        normalise_err(&err)
    );
    assert_eq!(got, expected("halt.expected"));
    for e in &early {
        assert_eq!(
            std::fs::read_to_string(out.join(e)).unwrap(),
            "Execution halting.\n"
        );
    }
    let info = std::fs::read_to_string(out.join("info")).expect("the info file");
    assert!(info.contains("KLEE: done: generated tests = 5"), "{info}");
    assert!(info.contains("KLEE: done: completed paths = 1"), "{info}");
}

/// A pipe whose buffer is already full: the read end, and the write end to give a child as its stdout.
/// Every write the child makes to it blocks until the read end is drained.
fn full_pipe() -> (std::fs::File, Stdio) {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills `fds` with two new descriptors, which the OwnedFds then own; fcntl(2) and
    // write(2) act on the write end only, from a static buffer.
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0, "pipe(2)");
        let flags = libc::fcntl(fds[1], libc::F_GETFL);
        libc::fcntl(fds[1], libc::F_SETFL, flags | libc::O_NONBLOCK);
        static FILL: [u8; 4096] = [b'.'; 4096];
        while libc::write(fds[1], FILL.as_ptr().cast(), FILL.len()) > 0 {}
        // The last write may have taken part of the buffer: fill the remaining bytes one by one.
        while libc::write(fds[1], FILL.as_ptr().cast(), 1) > 0 {}
        libc::fcntl(fds[1], libc::F_SETFL, flags);
        (
            std::fs::File::from(OwnedFd::from_raw_fd(fds[0])),
            Stdio::from(OwnedFd::from_raw_fd(fds[1])),
        )
    }
}

#[test]
fn a_second_sigint_ends_the_run_during_the_halt() {
    use std::io::BufRead;
    let tmp = tempfile::tempdir().expect("a scratch directory");
    let out = tmp.path().join("out");
    // halt.c never ends by itself, and its halt cannot end either: the report it writes last goes to a
    // stdout this test keeps full (a terminal the user paused, say). So the second SIGINT always finds the
    // halt under way, whatever the machine's load; only the signal can end the process.
    let (stdout, full) = full_pipe();
    let mut child = run("halt.c", &out, &["--json"])
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .expect("symex starts");
    // The bounds below only keep a broken build from hanging the suite: every signal is sent on an
    // observed event, not after a delay.
    let backstop = std::time::Duration::from_secs(600);
    let started = std::time::Instant::now();
    while !out.join("test000002.json").exists() {
        assert!(started.elapsed() < backstop, "the finite paths never ended");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let pid = child.id() as libc::pid_t;
    // SAFETY: kill(2) on our own child.
    unsafe { libc::kill(pid, libc::SIGINT) };
    let mut stderr = std::io::BufReader::new(child.stderr.take().expect("stderr piped"));
    let mut log = String::new();
    while !log.contains("SIGINT received, halting") {
        let n = stderr.read_line(&mut log).expect("stderr readable");
        assert!(n > 0, "symex ended before its halt began: {log}");
    }
    // The halt has begun: the second signal.
    // SAFETY: as above; the child has not been waited for, so the pid is still its own.
    unsafe { libc::kill(pid, libc::SIGINT) };
    let ended = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("waitpid") {
            break s;
        }
        if ended.elapsed() > backstop {
            child.kill().ok();
            panic!("the second SIGINT did not end symex: {log}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    std::io::Read::read_to_string(&mut stderr, &mut log).expect("stderr readable");
    assert_eq!(status.code(), Some(130), "{log}");
    assert!(log.contains("second SIGINT, exiting"), "{log}");
    drop(stdout);
}

/// The error files of a run of `errors.c` with `flags`.
fn error_files(flags: &[&str]) -> Vec<String> {
    let tmp = tempfile::tempdir().expect("a scratch directory");
    let out = tmp.path().join("out");
    let o = run("errors.c", &out, flags).output().expect("symex runs");
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    files_ending(&out, ".err")
        .iter()
        .map(|n| n.split_once('.').map_or("", |(_, ext)| ext).to_string())
        .collect()
}

#[test]
fn an_error_file_per_place_unless_all_are_asked_for() {
    let mut default = error_files(&["--quiet"]);
    default.sort();
    let mut all = error_files(&["--quiet", "--emit-all-errors"]);
    all.sort();
    let first = error_files(&["--quiet", "--exit-on-error"]);
    let got = format!(
        "default: {}\n--emit-all-errors: {}\n--exit-on-error: {} error file\n",
        default.join(" "),
        all.join(" "),
        first.len()
    );
    assert_eq!(got, expected("errors.expected"));
}

#[test]
fn max_forks_limits_the_paths() {
    let tmp = tempfile::tempdir().expect("a scratch directory");
    let out = tmp.path().join("out");
    let o = run("forks.c", &out, &["--json", "--max-forks", "2"])
        .output()
        .expect("symex runs");
    let r: Value = serde_json::from_slice(&o.stdout).expect("a report");
    assert_eq!(r["complete"], false, "{r}");
    let got = format!(
        "--max-forks 2: {} tests\n",
        r["tests"].as_array().map_or(0, Vec::len)
    );
    assert_eq!(got, expected("forks.expected"));
}

#[test]
fn an_existing_output_directory_is_refused_unless_overwritten() {
    let tmp = tempfile::tempdir().expect("a scratch directory");
    let out = tmp.path().join("out");
    let first = run("forks.c", &out, &["--quiet"])
        .output()
        .expect("symex runs");
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    let again = run("forks.c", &out, &["--quiet"])
        .output()
        .expect("symex runs");
    assert_eq!(again.status.code(), Some(2));
    let msg = String::from_utf8_lossy(&again.stderr);
    assert!(msg.contains("File exists"), "{msg}");
    std::fs::write(out.join("stale.txt"), "from before").unwrap();
    let over = run("forks.c", &out, &["--quiet", "--out-overwrite"])
        .output()
        .expect("symex runs");
    assert_eq!(over.status.code(), Some(0), "{over:?}");
    assert!(!out.join("stale.txt").exists());
    assert!(out.join("report.json").exists());
    // A directory that is not an earlier output is never emptied.
    let other = tmp.path().join("mine");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "keep").unwrap();
    let refused = run("forks.c", &other, &["--quiet", "--out-overwrite"])
        .output()
        .expect("symex runs");
    assert_eq!(refused.status.code(), Some(2));
    assert!(other.join("notes.txt").exists());
}

#[test]
fn ktest_files_replay() {
    let tmp = tempfile::tempdir().expect("a scratch directory");
    let out = tmp.path().join("out");
    let klee = common::examples("klee");
    let o = common::symex()
        .current_dir(&klee)
        .args([
            "run",
            "sym_arg.c",
            "--sym-arg",
            "2",
            "--ktest",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("symex runs");
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    // Each .ktest replays to the ending its JSON twin records.
    let mut statuses = Vec::new();
    for k in files_ending(&out, ".ktest") {
        let r = common::symex()
            .current_dir(&klee)
            .args(["replay", "sym_arg.c", "--quiet"])
            .arg(out.join(&k))
            .output()
            .expect("symex replays");
        let json = out.join(k.replace(".ktest", ".json"));
        let want = if std::fs::read_to_string(json)
            .unwrap()
            .contains("\"reported\"")
        {
            1
        } else {
            0
        };
        statuses.push((r.status.code(), want));
    }
    assert_eq!(statuses.len(), 3);
    for (got, want) in statuses {
        assert_eq!(got, Some(want));
    }
}

#[test]
fn check_answering_true_leaves_no_output_directory() {
    let tmp = tempfile::tempdir().expect("a scratch directory");
    let out = tmp.path().join("out");
    let o = common::symex()
        .args(["check", "--no-bmc", "--property", "unreach-call"])
        .arg(common::example("check", "argc_nonnegative_true.c"))
        .arg("--out")
        .arg(&out)
        .output()
        .expect("symex runs");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.lines().any(|l| l == "TRUE"), "{stdout}");
    assert!(!out.exists());
}

#[test]
fn stats_prints_klee_stats_table_from_run_stats() {
    let tmp = tempfile::tempdir().expect("a scratch directory");
    let out = tmp.path().join("out");
    let o = run("forks.c", &out, &["--json"])
        .output()
        .expect("symex runs");
    let r: Value = serde_json::from_slice(&o.stdout).expect("a report");
    let s = common::symex()
        .current_dir(tmp.path())
        .args(["stats", "out"])
        .output()
        .expect("symex stats runs");
    assert_eq!(s.status.code(), Some(0), "{s:?}");
    let text = String::from_utf8_lossy(&s.stdout);
    let lines: Vec<&str> = text.lines().collect();
    // klee-stats' layout: rule, header, rule, one row, rule.
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(
        lines[1],
        "| Path |  Instrs|  Time(s)|  ICov(%)|  BCov(%)|  ICount|  TSolver(%)|"
    );
    let cells: Vec<&str> = lines[3].split('|').map(str::trim).collect();
    assert_eq!(cells[1], "out");
    assert_eq!(cells[2], r["instructions"].to_string());
    // Every block of forks.c is covered, both sides of each of its three branches.
    assert_eq!(cells[4], "100.00");
    assert_eq!(cells[5], "100.00");
    // KLEE's own klee-stats reads the same run.stats (when a checkout and Python's tabulate are there).
    let klee_stats = std::env::var("KLEE_STATS").ok();
    match klee_stats {
        Some(script) => {
            let k = Command::new("python3")
                .current_dir(tmp.path())
                .args([&script, "out"])
                .output()
                .expect("python3 runs");
            assert_eq!(String::from_utf8_lossy(&k.stdout), text);
        }
        None => eprintln!("KLEE_STATS (KLEE's tools/klee-stats/klee-stats) not set: not compared"),
    }
}
