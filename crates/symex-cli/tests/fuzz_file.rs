//! `symex fuzz --file NAME` and `--arg N`: the fuzzed bytes are the file the program opens by NAME, or
//! its argv strings. The models are checked against the native program (clang-14, the oracle) run beside
//! that file or with those arguments, and the crashes fuzz finds in a file parser and in an option parser
//! replay with `symex replay`, `symex replay --native`, and the plain native program.

use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

mod common;
use common::{example, symex};

/// Compiles `source` with plain clang-14 into `dir`; `None` (with a message) when clang-14 is missing.
fn native_build(source: &Path, dir: &Path) -> Option<std::path::PathBuf> {
    let exe = dir.join("program");
    match Command::new("clang-14")
        .arg("-w")
        .arg(source)
        .arg("-o")
        .arg(&exe)
        .status()
    {
        Ok(s) if s.success() => Some(exe),
        _ => {
            eprintln!("skipped the native part: clang-14 is not available");
            None
        }
    }
}

/// Runs the native program in a fresh directory holding `bytes` as `input.bin`.
fn run_native_beside(exe: &Path, bytes: &[u8]) -> std::process::Output {
    let cwd = tempfile::tempdir().unwrap();
    std::fs::write(cwd.path().join("input.bin"), bytes).unwrap();
    Command::new(exe).current_dir(cwd.path()).output().unwrap()
}

#[test]
fn the_stream_models_print_what_the_native_program_prints_beside_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let source = example("fuzz", "fileops.c");
    let Some(exe) = native_build(&source, dir.path()) else {
        return;
    };
    let contents: [&[u8]; 7] = [
        b"",
        b"a",
        b"ab",
        b"abc\nde\nfghijkl\n",
        b"xyz123456789",
        b"\n\n\n\n\n\n\n",
        &[0, 255, 10, 13, 128, 1, 2, 3, 4, 5, 6],
    ];
    for bytes in contents {
        let native = run_native_beside(&exe, bytes);
        assert!(native.status.success(), "{native:?}");
        let test = dir.path().join("t.json");
        let t = json!({"program": "fileops.c", "entry": "main",
                       "inputs": [{"name": "file:input.bin", "bytes": bytes}]});
        std::fs::write(&test, t.to_string()).unwrap();
        let o = symex()
            .arg("replay")
            .arg(&source)
            .arg(&test)
            .arg("--json")
            .output()
            .unwrap();
        let r: Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
        assert_eq!(r["outcome"]["kind"], "exit", "{r}");
        assert_eq!(
            r["stdout"].as_str().unwrap(),
            String::from_utf8_lossy(&native.stdout),
            "file {bytes:?}"
        );
        assert!(
            o.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn fuzz_file_parser_crash_replays_and_aborts_the_native_program_beside_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let source = example("fuzz", "filemagic.c");
    let seed = example("fuzz", "filemagic.seed");
    let o = symex()
        .arg("fuzz")
        .arg(&source)
        .args(["--file", "input.bin", "--max-runs", "100", "--seed"])
        .arg(&seed)
        .args(["--json", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    assert_eq!(o.status.code(), Some(1), "{r}");
    let crashes = r["crashes"].as_array().unwrap();
    assert_eq!(crashes.len(), 1, "{r}");
    assert_eq!(crashes[0]["kind"], "abort");
    let test = crashes[0]["test"].as_str().unwrap();
    let t: Value = serde_json::from_str(&std::fs::read_to_string(test).unwrap()).unwrap();
    assert_eq!(t["inputs"][0]["name"], "file:input.bin", "{t}");
    for native in [false, true] {
        let mut cmd = symex();
        cmd.arg("replay");
        if native {
            cmd.arg("--native");
        }
        let o = cmd.arg(&source).arg(test).arg("--json").output().unwrap();
        let rep: Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
        if native {
            assert_eq!(rep["agrees"], true, "{rep}");
        } else {
            assert_eq!(rep["outcome"]["kind"], "abort", "{rep}");
            assert_eq!(rep["outcome"]["line"], crashes[0]["line"]);
        }
    }
    let Some(exe) = native_build(&source, dir.path()) else {
        return;
    };
    let bytes = std::fs::read(crashes[0]["input"].as_str().unwrap()).unwrap();
    let st = run_native_beside(&exe, &bytes).status;
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(st.signal(), Some(libc::SIGABRT), "{st:?}");
    // The seed itself does not crash natively: the bug needed the fuzzed file.
    let seed_bytes = std::fs::read(&seed).unwrap();
    assert_eq!(run_native_beside(&exe, &seed_bytes).status.code(), Some(1));
}

#[test]
fn fuzz_file_with_an_absolute_path_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let o = symex()
        .arg("fuzz")
        .arg(example("fuzz", "filemagic.c"))
        .args(["--file", "/etc/passwd", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--file /etc/passwd"));
}

#[test]
fn without_a_fuzzed_file_an_open_is_unmodelled_not_assumed_to_fail() {
    let dir = tempfile::tempdir().unwrap();
    let o = symex()
        .arg("run")
        .arg(example("fuzz", "filemagic.c"))
        .arg("--out")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout) + String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains("files are modelled only for `symex fuzz --file NAME`"),
        "{text}"
    );
}

/// `symex replay FILE TEST --json` of a test with `inputs`: the report.
fn replay_inputs(source: &Path, dir: &Path, inputs: Value) -> Value {
    let test = dir.join("t.json");
    let t = json!({"program": "p.c", "entry": "main", "inputs": inputs});
    std::fs::write(&test, t.to_string()).unwrap();
    let o = symex()
        .arg("replay")
        .arg(source)
        .arg(&test)
        .arg("--json")
        .output()
        .unwrap();
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)))
}

#[test]
fn fuzzed_arguments_are_the_argv_the_native_program_gets() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("echo.c");
    std::fs::write(
        &source,
        "#include <stdio.h>\n#include <string.h>\nint main(int argc, char **argv) {\n  printf(\"%d\\n\", argc);\n  \
         for (int i = 1; i < argc; i++) printf(\"%zu [%s]\\n\", strlen(argv[i]), argv[i]);\n  \
         return argv[argc] != 0;\n}\n",
    )
    .unwrap();
    let Some(exe) = native_build(&source, dir.path()) else {
        return;
    };
    let cases: [&[&[u8]]; 4] = [
        &[],
        &[b"abc"],
        &[b"-n\0", b"42", b"\0\0"],
        &[b"x y", b"\x7f~!"],
    ];
    for args in cases {
        let inputs: Vec<Value> = args
            .iter()
            .enumerate()
            .map(|(k, a)| json!({"name": format!("argv[{}]", k + 1), "bytes": a}))
            .collect();
        let r = replay_inputs(&source, dir.path(), Value::Array(inputs));
        assert_eq!(r["outcome"]["kind"], "exit", "{r}");
        let native_args: Vec<std::ffi::OsString> = args
            .iter()
            .map(|a| {
                use std::os::unix::ffi::OsStringExt;
                std::ffi::OsString::from_vec(a.split(|&b| b == 0).next().unwrap().to_vec())
            })
            .collect();
        let native = Command::new(&exe).args(&native_args).output().unwrap();
        assert!(native.status.success());
        assert_eq!(
            r["stdout"].as_str().unwrap(),
            String::from_utf8_lossy(&native.stdout),
            "{args:?}"
        );
    }
}

#[test]
fn fuzz_args_option_parser_crash_replays_and_aborts_the_native_program() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let source = example("fuzz", "args.c");
    let o = symex()
        .arg("fuzz")
        .arg(&source)
        .args(["--arg", "3", "--arg", "2", "--input-size", "5"])
        .args(["--max-runs", "100", "--json", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    assert_eq!(o.status.code(), Some(1), "{r}");
    let crashes = r["crashes"].as_array().unwrap();
    assert_eq!(crashes.len(), 1, "{r}");
    let test = crashes[0]["test"].as_str().unwrap();
    let t: Value = serde_json::from_str(&std::fs::read_to_string(test).unwrap()).unwrap();
    let nat = common::native_replay_agrees(&source, test);
    assert_eq!(nat["outcome"]["kind"], "abort", "{nat}");
    let Some(exe) = native_build(&source, dir.path()) else {
        return;
    };
    // The plain native program, given the crash's argument strings, aborts.
    let args: Vec<String> = (0..2)
        .map(|k| {
            let b: Vec<u8> = t["inputs"][k]["bytes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as u8)
                .take_while(|&b| b != 0)
                .collect();
            String::from_utf8(b).unwrap()
        })
        .collect();
    assert_eq!(args[0], "-n");
    let st = Command::new(&exe).args(&args).status().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(st.signal(), Some(libc::SIGABRT), "{st:?} {args:?}");
}
