//! `symex fuzz` end to end: the JSON summary of `spec/cli.md`, the crash and queue files, and every crash
//! reproduced by `symex replay` and by a native clang-14 build (`symex replay --native`, and the plain
//! native program fed the crash file on stdin).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;
use common::{example, symex};

/// `symex fuzz FILE ARGS --json --out OUT`: exit status and report.
fn fuzz(file: &Path, args: &[&str], out: &Path) -> (Option<i32>, Value) {
    let o = symex()
        .arg("fuzz")
        .arg(file)
        .args(args)
        .args(["--json", "--out"])
        .arg(out)
        .output()
        .unwrap();
    let r = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code(), r)
}

/// Replays every crash of `r` with `symex replay` and `symex replay --native`; both must end as reported.
fn replay_crashes(file: &Path, r: &Value) -> Vec<PathBuf> {
    let mut bins = Vec::new();
    for c in r["crashes"].as_array().unwrap() {
        common::crash_replays(file, c);
        bins.push(PathBuf::from(c["input"].as_str().unwrap()));
    }
    bins
}

#[test]
fn fuzz_top_from_good_reports_the_abort_in_sixteen_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let seed = example("fuzz", "top.seed");
    let file = example("run", "top.c");
    let (code, r) = fuzz(&file, &["--seed", seed.to_str().unwrap()], &out);
    assert_eq!(code, Some(1), "{r}");
    assert_eq!(r["command"], "fuzz");
    assert_eq!(r["runs"], 16);
    assert_eq!(r["complete"], true);
    assert_eq!(
        r["coverage"]["blocks_covered"],
        r["coverage"]["blocks_total"]
    );
    let crashes = r["crashes"].as_array().unwrap();
    assert_eq!(crashes.len(), 1);
    assert_eq!(crashes[0]["kind"], "abort");
    let bins = replay_crashes(&file, &r);
    let b = std::fs::read(&bins[0]).unwrap();
    // At least three of the letters of "bad!": the table's condition, checked on the bytes.
    let hits = b.iter().zip(b"bad!").filter(|(x, y)| x == y).count();
    assert!(hits >= 3, "{b:?}");
    assert!(std::fs::read_dir(out.join("queue")).unwrap().count() > 0);
}

#[test]
fn fuzz_magic_parser_crash_replays_and_crashes_the_native_program_on_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let seed = example("fuzz", "magic.seed");
    let file = example("fuzz", "magic.c");
    let (code, r) = fuzz(
        &file,
        &[
            "--stdin",
            "--max-runs",
            "300",
            "--seed",
            seed.to_str().unwrap(),
        ],
        &out,
    );
    assert_eq!(code, Some(1), "{r}");
    let bins = replay_crashes(&file, &r);
    assert_eq!(bins.len(), 1);
    // The plain native program, fed the crash file on stdin, aborts.
    let exe = dir.path().join("magic");
    let ok = Command::new("clang-14")
        .arg(&file)
        .arg("-o")
        .arg(&exe)
        .status();
    match ok {
        Ok(s) if s.success() => {
            let st = Command::new(&exe)
                .stdin(Stdio::from(std::fs::File::open(&bins[0]).unwrap()))
                .status()
                .unwrap();
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(st.signal(), Some(libc::SIGABRT), "{st:?}");
        }
        _ => eprintln!("skipped: clang-14 is not available"),
    }
}

#[test]
fn fuzz_stops_at_the_run_limit_with_status_3() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let seed = example("fuzz", "magic.seed");
    let file = example("fuzz", "magic.c");
    let (code, r) = fuzz(
        &file,
        &[
            "--stdin",
            "--max-runs",
            "3",
            "--seed",
            seed.to_str().unwrap(),
        ],
        &out,
    );
    assert_eq!(code, Some(3), "{r}");
    assert_eq!(r["runs"], 3);
    assert_eq!(r["complete"], false);
    assert!(r["stopped"].as_str().unwrap().contains("run limit"));
}

#[test]
fn fuzz_with_an_unreadable_seed_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let o = symex()
        .arg("fuzz")
        .arg(example("run", "top.c"))
        .arg("--seed")
        .arg(dir.path().join("missing"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read seed"));
}

/// Hybrid mode without AFL++ itself: an AFL++ instance's queue entry in the sync directory is run (and
/// here crashes at once), and symex's own new-coverage inputs appear under `symex/queue/` in AFL++'s
/// naming. Two runs: the seed, then the partner's input (without it the second run is `bood`).
#[test]
fn fuzz_with_a_sync_dir_runs_the_partners_inputs_and_publishes_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let sync = dir.path().join("sync");
    let afl_queue = sync.join("main").join("queue");
    std::fs::create_dir_all(&afl_queue).unwrap();
    std::fs::write(afl_queue.join("id:000000,time:0,execs:0,orig:bad"), b"bad!").unwrap();
    let seed = example("fuzz", "top.seed");
    let (code, r) = fuzz(
        &example("run", "top.c"),
        &[
            "--max-runs",
            "2",
            "--seed",
            seed.to_str().unwrap(),
            "--sync-dir",
            sync.to_str().unwrap(),
        ],
        &dir.path().join("out"),
    );
    assert_eq!(code, Some(1), "{r}");
    assert_eq!(r["runs"], 2);
    let crash = std::fs::read(r["crashes"][0]["input"].as_str().unwrap()).unwrap();
    assert_eq!(crash, b"bad!");
    let own: Vec<String> = std::fs::read_dir(sync.join("symex").join("queue"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        own.iter().any(|n| n.starts_with("id:000000,src:symex")),
        "{own:?}"
    );
}

/// Every crash `symex fuzz` reports on the `run` examples (from zero bytes; stdin examples with 3 bytes on
/// stdin, as `run --stdin 3`) replays with `symex replay` and with the native sanitizer build.
#[test]
fn every_crash_fuzz_finds_in_the_run_examples_replays_and_replays_natively() {
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(common::examples("run"))
        .unwrap()
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    let crashes = common::map_in_pairs(&files, |f| {
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        let out = dir.path().join(&name);
        // The run count is the budget; the time limit only guards against a hang.
        let mut args = vec!["--max-runs", "64", "--max-time", "600"];
        if name.starts_with("stdin_") {
            args.extend(["--stdin", "--input-size", "3"]);
        }
        let o = symex()
            .arg("fuzz")
            .arg(f)
            .args(&args)
            .args(["--json", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        if o.status.code() == Some(2) {
            // An unsupported construct on the first run (named on stderr), as `run` reports it.
            eprintln!("{name}: {}", String::from_utf8_lossy(&o.stderr).trim());
            return 0;
        }
        let r: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(matches!(o.status.code(), Some(0 | 1 | 3)), "{name}: {r}");
        replay_crashes(f, &r).len()
    });
    let total: usize = crashes.iter().sum();
    eprintln!("{total} crashes replayed over {} examples", files.len());
    assert!(total >= 5, "only {total} crashes found");
}

/// `--jobs 2`: the guarded parser's crash is found once (one `crash000001`), replays with `symex replay` and
/// natively, and the queue holds the report's count; `--jobs 0` is bad input.
#[test]
fn fuzz_with_two_workers_writes_each_distinct_crash_once_and_it_replays() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let seed = example("fuzz", "magic.seed");
    let file = example("fuzz", "magic.c");
    let seed = seed.to_str().unwrap();
    let args = [
        "--stdin",
        "--max-runs",
        "300",
        "--jobs",
        "2",
        "--seed",
        seed,
    ];
    let (code, r) = fuzz(&file, &args, &out);
    assert_eq!(code, Some(1), "{r}");
    assert_eq!(r["jobs"], 2);
    assert_eq!(r["complete"], true, "{r}");
    let crashes = r["crashes"].as_array().unwrap();
    assert_eq!(crashes.len(), 1, "{r}");
    assert_eq!(crashes[0]["kind"], "abort");
    let bins = replay_crashes(&file, &r);
    assert!(bins[0].ends_with("crash000001.bin"), "{bins:?}");
    let queued = std::fs::read_dir(out.join("queue")).unwrap().count();
    assert_eq!(r["queue"].as_u64(), Some(queued as u64));
    let o = symex()
        .arg("fuzz")
        .arg(&file)
        .args(["--jobs", "0", "--seed", seed])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--jobs"));
}

/// Hybrid mode scores a partner's queue entry by a concrete run before spending solver time on it: an
/// entry that covers no new block (`gooX` takes `good`'s branches in `top()`) is run and dropped, and
/// the search goes on with its own work list (16 runs as alone, plus the import).
#[test]
fn fuzz_drops_a_partner_input_that_covers_nothing_new() {
    let dir = tempfile::tempdir().unwrap();
    let sync = dir.path().join("sync");
    let afl_queue = sync.join("main").join("queue");
    std::fs::create_dir_all(&afl_queue).unwrap();
    std::fs::write(afl_queue.join("id:000000,time:0,execs:0,orig:x"), b"gooX").unwrap();
    let seed = example("fuzz", "top.seed");
    let (code, r) = fuzz(
        &example("run", "top.c"),
        &[
            "--max-runs",
            "100",
            "--seed",
            seed.to_str().unwrap(),
            "--sync-dir",
            sync.to_str().unwrap(),
        ],
        &dir.path().join("out"),
    );
    assert_eq!(code, Some(1), "{r}");
    assert_eq!(r["search"]["imports_dropped"], 1, "{r}");
    assert_eq!(r["runs"], 17, "{r}");
}
