//! Campaigns over Redis (`symex run --redis URL --campaign NAME`, `symex campaign`): a local
//! `redis-server` on a free port, several workers on one program, and the oracle a one-process run's
//! path signatures (`--paths-out`): the campaign records each of its paths once, whatever worker
//! died or whether the server restarted. Skipped, saying so, where `redis-server` is not installed
//! (`scripts/ensure-deps.sh` installs it).

mod common;

use common::{example, symex};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A `redis-server` of this test, on a port that was free, with its files in a scratch directory.
struct Redis {
    child: Child,
    port: u16,
    dir: PathBuf,
    append_only: bool,
}

fn redis_installed() -> bool {
    let found = Command::new("redis-server")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        eprintln!("skipped: redis-server is not installed (scripts/ensure-deps.sh installs it)");
    }
    found
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Redis {
    fn start(dir: &Path, append_only: bool) -> Redis {
        let mut r = Redis {
            child: Command::new("true").spawn().unwrap(),
            port: free_port(),
            dir: dir.to_path_buf(),
            append_only,
        };
        r.launch();
        r
    }

    fn launch(&mut self) {
        let aof = if self.append_only { "yes" } else { "no" };
        self.child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .args(["--save", "", "--appendonly", aof, "--appendfsync", "always"])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        // Ready when it answers PING (with or without its append-only file loaded).
        for _ in 0..200 {
            if ping(self.port) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("redis-server did not start on port {}", self.port);
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// SIGKILL, then a new server on the same port and directory (its append-only file).
    fn restart(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        self.launch();
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ping(port: u16) -> bool {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let mut buf = [0u8; 64];
    s.write_all(b"PING\r\n").is_ok()
        && s.read(&mut buf)
            .is_ok_and(|n| buf[..n].starts_with(b"+PONG"))
}

/// A worker of campaign `name` on `file`, writing into `out`.
fn worker(url: &str, name: &str, file: &Path, out: &Path) -> Child {
    symex()
        .arg("run")
        .arg(file)
        .args(["--redis", url, "--campaign", name, "--claim-after", "1"])
        .arg("--out")
        .arg(out)
        .arg("--paths-out")
        .arg(out.with_extension("paths"))
        .arg("--quiet")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The signatures of a one-process run of `file`.
fn one_process(file: &Path, dir: &Path) -> Vec<String> {
    let list = dir.join("one.paths");
    let out = symex()
        .arg("run")
        .arg(file)
        .arg("--out")
        .arg(dir.join("one"))
        .arg("--paths-out")
        .arg(&list)
        .arg("--quiet")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    lines(&list)
}

fn lines(f: &Path) -> Vec<String> {
    std::fs::read_to_string(f)
        .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// The first of `outs` in which a worker wrote a test (`wN-test000001.json`), waiting for one.
fn first_with_a_test(outs: &[PathBuf], workers: &mut [Child]) -> usize {
    loop {
        for (i, d) in outs.iter().enumerate() {
            let wrote = std::fs::read_dir(d).is_ok_and(|mut es| {
                es.any(|e| {
                    e.is_ok_and(|e| {
                        let n = e.file_name().to_string_lossy().to_string();
                        n.starts_with('w') && n.ends_with(".json")
                    })
                })
            });
            if wrote {
                return i;
            }
        }
        assert!(
            workers.iter_mut().any(|w| w.try_wait().unwrap().is_none()),
            "every worker ended and none wrote a test"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// `symex campaign collect`: the recorded signatures (sorted, duplicates kept) and the JSON.
fn collect(url: &str, name: &str, dir: &Path) -> (Vec<String>, serde_json::Value) {
    let list = dir.join(format!("{name}.collected"));
    let out = symex()
        .args([
            "campaign",
            "collect",
            "--redis",
            url,
            "--campaign",
            name,
            "--json",
        ])
        .arg("--paths-out")
        .arg(&list)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    (lines(&list), v)
}

/// Waits for worker `w`, which must exit with `code`.
fn finish(w: Child, code: i32) {
    let out = w.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The campaign is over, recorded each path of the one-process run once, and every test it lists
/// exists in its worker's directory.
fn check_campaign(url: &str, name: &str, dir: &Path, expected: &[String]) {
    let (recorded, v) = collect(url, name, dir);
    assert_eq!(recorded, expected, "{v}");
    assert_eq!(v["over"], true, "{v}");
    assert_eq!(v["paths"]["total"], expected.len(), "{v}");
    for r in v["records"].as_array().unwrap() {
        let test = r["test"].as_str().unwrap();
        assert!(Path::new(test).is_file(), "{test} is missing");
        let worker = r["worker"].as_str().unwrap();
        assert!(
            Path::new(test)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("{worker}-test")),
            "{test}"
        );
    }
}

#[test]
fn a_killed_worker_loses_no_path_and_none_is_recorded_twice() {
    if !redis_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let redis = Redis::start(dir.path(), false);
    let file = example("campaign", "bits.c");
    let expected = one_process(&file, dir.path());
    assert_eq!(expected.len(), 128);
    let outs: Vec<PathBuf> = (0..3).map(|i| dir.path().join(format!("w{i}"))).collect();
    let mut workers: Vec<Child> = outs
        .iter()
        .map(|o| worker(&redis.url(), "bits", &file, o))
        .collect();
    let victim = first_with_a_test(&outs, &mut workers);
    let mut killed = workers.remove(victim);
    // (It may have ended meanwhile: then the others did all the work.)
    let _ = killed.kill();
    killed.wait().unwrap();
    for w in workers {
        finish(w, 0);
    }
    check_campaign(&redis.url(), "bits", dir.path(), &expected);
    // The survivors' own lists are theirs of the record: disjoint, within the campaign's.
    let mut theirs: Vec<String> = outs
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != victim)
        .flat_map(|(_, o)| lines(&o.with_extension("paths")))
        .collect();
    theirs.sort();
    let mut unique = theirs.clone();
    unique.dedup();
    assert_eq!(unique, theirs);
    assert!(theirs.iter().all(|s| expected.contains(s)));
}

#[test]
fn a_campaign_completes_across_a_restart_of_its_server() {
    if !redis_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut redis = Redis::start(dir.path(), true);
    let file = example("campaign", "bits.c");
    let expected = one_process(&file, dir.path());
    let outs: Vec<PathBuf> = (0..2).map(|i| dir.path().join(format!("w{i}"))).collect();
    let mut workers: Vec<Child> = outs
        .iter()
        .map(|o| worker(&redis.url(), "restart", &file, o))
        .collect();
    first_with_a_test(&outs, &mut workers);
    redis.restart();
    for w in workers {
        finish(w, 0);
    }
    check_campaign(&redis.url(), "restart", dir.path(), &expected);
}

#[test]
fn a_worker_of_another_program_is_refused() {
    if !redis_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let redis = Redis::start(dir.path(), false);
    let top = example("run", "top.c");
    // SAGE's top(): its worker found the abort (exit status 1).
    finish(worker(&redis.url(), "top", &top, &dir.path().join("a")), 1);
    let (recorded, _) = collect(&redis.url(), "top", dir.path());
    assert_eq!(recorded.len(), 16);
    // Another program, then the same program with other semantics (a check more).
    for (file, extra) in [
        (example("run", "switch.c"), None),
        (top.clone(), Some("--check-overflow")),
    ] {
        let out = symex()
            .arg("run")
            .arg(&file)
            .args(["--redis", &redis.url(), "--campaign", "top", "--quiet"])
            .args(extra)
            .arg("--out")
            .arg(dir.path().join(format!("b{}", extra.is_some())))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("explores another program"), "{err}");
    }
    let status = symex()
        .args([
            "campaign",
            "status",
            "--redis",
            &redis.url(),
            "--campaign",
            "top",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(text.contains("campaign top: over"), "{text}");
    assert!(
        text.contains("paths: 16 (11 completed, 5 errors, 0 cut)"),
        "{text}"
    );
}

#[test]
fn an_unreachable_server_is_an_error() {
    // Nothing listens on a port just released; no server is needed for this one.
    let url = format!("redis://127.0.0.1:{}/", free_port());
    let dir = tempfile::tempdir().unwrap();
    let out = symex()
        .arg("run")
        .arg(example("run", "top.c"))
        .args(["--redis", &url, "--campaign", "x", "--quiet"])
        .arg("--out")
        .arg(dir.path().join("o"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot reach the Redis server"), "{err}");
    let out = symex()
        .args(["campaign", "status", "--redis", &url, "--campaign", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A `symex fuzz` worker of campaign `name` on SAGE's `top()` from the seed `good`, writing into `out`.
fn fuzz_worker(url: &str, name: &str, out: &Path) -> Child {
    symex()
        .arg("fuzz")
        .arg(example("run", "top.c"))
        .arg("--seed")
        .arg(example("fuzz", "top.seed"))
        .args(["--redis", url, "--campaign", name, "--claim-after", "1"])
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The first of `outs` in which a fuzz worker wrote a file (an input of its `queue/`, a crash).
fn first_with_a_file(outs: &[PathBuf], workers: &mut [Child]) -> usize {
    let wrote = |d: &Path| {
        let files = |d: &Path| std::fs::read_dir(d).map_or(0, |es| es.count());
        files(&d.join("queue")) > 0 || files(d) > 1
    };
    loop {
        if let Some(i) = outs.iter().position(|d| wrote(d)) {
            return i;
        }
        assert!(
            workers.iter_mut().any(|w| w.try_wait().unwrap().is_none()),
            "every worker ended and none wrote a file"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// SAGE's `top()` from `good` (its 16 inputs, the abort on three letters of `bad!`) with three fuzz
/// workers, one SIGKILLed after its first file appeared. The oracle is one `symex fuzz` process with
/// a run budget (64) above what it needs: the set of inputs the campaign ran equals the one process's.
/// This cannot fail by the order of the runs: every child in `top()` is the unique model of one
/// byte's equality, and both searches run until their work list is empty, so they close the same
/// set whatever order the scores and the workers take. Nor by the kill's moment: a killed worker's
/// item was not recorded (its runs are run again by the worker that claims it), a recorded item's
/// were; a worker too slow to beat within the claim time has its item's end refused. The totals
/// show no input was recorded twice (runs recorded = distinct inputs).
#[test]
fn a_fuzz_campaign_with_a_killed_worker_runs_the_inputs_of_one_process() {
    if !redis_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let redis = Redis::start(dir.path(), false);
    let one = dir.path().join("one.inputs");
    let out = symex()
        .arg("fuzz")
        .arg(example("run", "top.c"))
        .arg("--seed")
        .arg(example("fuzz", "top.seed"))
        .args(["--max-runs", "64", "--quiet", "--out"])
        .arg(dir.path().join("one"))
        .arg("--inputs-out")
        .arg(&one)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let expected = lines(&one);
    assert_eq!(expected.len(), 16);
    let outs: Vec<PathBuf> = (0..3).map(|i| dir.path().join(format!("f{i}"))).collect();
    let mut workers: Vec<Child> = outs
        .iter()
        .map(|o| fuzz_worker(&redis.url(), "top", o))
        .collect();
    let victim = first_with_a_file(&outs, &mut workers);
    let mut killed = workers.remove(victim);
    let _ = killed.kill();
    killed.wait().unwrap();
    for w in workers {
        // 1 when this worker found the crash itself, 0 when another did.
        let out = w.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{err}");
    }
    let list = dir.path().join("top.collected");
    let out = symex()
        .args(["campaign", "collect", "--json", "--redis", &redis.url()])
        .args(["--campaign", "top", "--inputs-out"])
        .arg(&list)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(lines(&list), expected, "{v}");
    assert_eq!(v["kind"], "fuzz", "{v}");
    assert_eq!(v["over"], true, "{v}");
    assert_eq!(v["runs"], 16, "{v}");
    assert_eq!(v["inputs"], 16, "{v}");
    assert_eq!(v["workers"]["joined"], 3, "{v}");
    // The survivors saw the end and left; only the victim may still count as live.
    assert!(v["workers"]["live"].as_u64().unwrap() <= 1, "{v}");
    let crashes = v["crash_records"].as_array().unwrap();
    assert_eq!(crashes.len(), 1, "{v}");
    assert!(crashes[0]["what"].as_str().unwrap().starts_with("abort"));
    let input = crashes[0]["input"].as_str().unwrap();
    let hits = input
        .as_bytes()
        .chunks(2)
        .zip(b"bad!")
        .filter(|(h, c)| u8::from_str_radix(std::str::from_utf8(h).unwrap(), 16).unwrap() == **c)
        .count();
    assert!(hits >= 3, "{input}");
    // A worker with another seed fuzzes from elsewhere: refused, as is `run` on this campaign.
    let other_seed = dir.path().join("other.seed");
    std::fs::write(&other_seed, b"bado").unwrap();
    for cmd in [
        vec!["fuzz", "--seed", other_seed.to_str().unwrap()],
        vec!["run"],
    ] {
        let out = symex()
            .arg(cmd[0])
            .arg(example("run", "top.c"))
            .args(&cmd[1..])
            .args(["--redis", &redis.url(), "--campaign", "top", "--quiet"])
            .arg("--out")
            .arg(dir.path().join(format!("refused-{}", cmd[0])))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("explores another program"), "{err}");
    }
}
