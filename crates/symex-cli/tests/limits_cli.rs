//! Careless input never crashes symex: generated flag values (infinite, NaN, huge, negative, malformed)
//! for every subcommand's durations, and generated deep expressions (C and KoAT), end with an exit
//! status of `spec/cli.md` (0–3), never a panic (101) or an abort (134, 139). Outcomes are asserted on
//! exit statuses and messages, never on the clock.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

/// Every subcommand with an input it accepts.
fn subcommands() -> Vec<(&'static str, Vec<PathBuf>, Vec<&'static str>)> {
    let c = common::example("check", "unreach_true.c");
    vec![
        ("run", vec![c.clone()], vec![]),
        ("check", vec![c.clone()], vec!["--property", "unreach-call"]),
        ("bmc", vec![c.clone()], vec![]),
        ("fuzz", vec![c.clone()], vec!["--max-runs", "1"]),
        ("term", vec![common::example("term", "f.c")], vec![]),
        ("cost", vec![common::example("cost", "sum.c")], vec![]),
        ("its", vec![common::example("its", "nested.koat")], vec![]),
        (
            "verify",
            vec![common::example("idf", "account.idf")],
            vec![],
        ),
        (
            "replay",
            vec![
                common::examples("").join("demo.c"),
                common::examples("").join("demo.test.json"),
            ],
            vec![],
        ),
    ]
}

fn symex(cmd: &str, files: &[PathBuf], extra: &[&str], dir: &Path) -> Output {
    let mut c = common::symex();
    c.arg(cmd).args(extra).args(files).current_dir(dir);
    if matches!(cmd, "run" | "check" | "bmc" | "fuzz") {
        c.arg("--out").arg(dir.join(format!("out-{cmd}")));
    }
    if cmd == "run" {
        // The directory is reused from one call to the next; `run` refuses an existing one without this.
        c.arg("--out-overwrite");
    }
    c.output().unwrap()
}

fn status(o: &Output) -> i32 {
    // A signal (an abort) has no code: -1 is outside 0..=3.
    o.status.code().unwrap_or(-1)
}

/// The duration values a careless user gives; none may make a deadline.
const BAD_DURATIONS: &[&str] = &[
    "inf",
    "-inf",
    "nan",
    "NaN",
    "infinity",
    "1e300",
    "1e19",
    "1e10",
    "-1",
    "-0.5",
    "1e999",
    "5 parsecs",
    "",
    "s",
    "1e9h",
];

#[test]
fn bad_durations_are_usage_errors_for_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    for (cmd, files, extra) in subcommands() {
        let mut flags = vec!["--max-time"];
        if matches!(cmd, "run" | "check" | "bmc" | "fuzz") {
            flags.push("--solver-timeout");
        }
        for flag in flags {
            for value in BAD_DURATIONS {
                let arg = format!("{flag}={value}");
                let mut args = extra.clone();
                args.push(&arg);
                let o = symex(cmd, &files, &args, dir.path());
                let err = String::from_utf8_lossy(&o.stderr);
                assert_eq!(status(&o), 2, "{cmd} {arg}: {err}");
                assert!(
                    err.contains(flag),
                    "{cmd} {arg}: no message naming the flag: {err}"
                );
            }
        }
    }
}

#[test]
fn good_durations_are_accepted_by_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    for (cmd, files, extra) in subcommands() {
        for value in ["5min", "1h", "300", "2.5e2s"] {
            let arg = format!("--max-time={value}");
            let mut args = extra.clone();
            args.push(&arg);
            let o = symex(cmd, &files, &args, dir.path());
            let code = status(&o);
            assert!(
                (0..=3).contains(&code) && code != 2,
                "{cmd} {arg}: status {code}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

/// `x + x + … + x` with `n` terms, in a program that reads `x`.
fn deep_sum(n: usize) -> String {
    format!(
        "extern int __VERIFIER_nondet_int(void);\nint main(void) {{\n    int x = __VERIFIER_nondet_int();\n    int y = {};\n    return y == 3;\n}}\n",
        vec!["x"; n].join(" + ")
    )
}

#[test]
fn deep_c_expressions_end_with_a_status_of_the_spec() {
    let dir = tempfile::tempdir().unwrap();
    // 20,000 terms once built one stack frame group per term while pushing an `extract` down the
    // sum; deeper sums clang itself refuses (a compile error, status 2).
    for n in [2_000, 20_000] {
        let file = dir.path().join(format!("sum{n}.c"));
        std::fs::write(&file, deep_sum(n)).unwrap();
        for (cmd, extra) in [
            ("run", vec![]),
            ("check", vec!["--property", "unreach-call"]),
            ("bmc", vec![]),
            ("fuzz", vec!["--max-runs", "2"]),
        ] {
            let mut args = extra.clone();
            args.extend(["--max-time", "120"]);
            let o = symex(cmd, std::slice::from_ref(&file), &args, dir.path());
            let code = status(&o);
            assert!(
                (0..=3).contains(&code),
                "{cmd} on {n} terms: status {code}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

#[test]
fn deep_koat_updates_are_positioned_errors() {
    let dir = tempfile::tempdir().unwrap();
    for depth in [10, 999, 1001, 7_000, 100_000] {
        let file = dir.path().join(format!("deep{depth}.koat"));
        let text = format!(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f))\n(VAR X)\n(RULES\n  f(X) -> Com_1(f({}X - 1{})) :|: X > 0\n)\n",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        std::fs::write(&file, text).unwrap();
        let o = symex(
            "its",
            std::slice::from_ref(&file),
            // Queries end by Z3's step count; the time limit is only a guard against a hang: a depth
            // below the limit must be answered whatever the load.
            &["--solver-rlimit", "5000000", "--max-time", "600"],
            dir.path(),
        );
        let err = String::from_utf8_lossy(&o.stderr);
        if depth < 1000 {
            assert_eq!(status(&o), 0, "depth {depth}: {err}");
        } else {
            assert_eq!(status(&o), 2, "depth {depth}: {err}");
            assert!(
                err.contains(":5:") && err.contains("nested deeper"),
                "{err}"
            );
        }
    }
}

#[test]
fn solver_rlimits_are_counts_for_every_subcommand_that_asks_a_solver() {
    let dir = tempfile::tempdir().unwrap();
    for (cmd, files, extra) in subcommands() {
        if cmd == "replay" {
            continue;
        }
        for value in ["0", "-1", "abc", "2.5", "4294967296", "1e6", ""] {
            let arg = format!("--solver-rlimit={value}");
            let mut args = extra.clone();
            args.push(&arg);
            let o = symex(cmd, &files, &args, dir.path());
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(status(&o), 2, "{cmd} {arg}: {err}");
            assert!(err.contains("--solver-rlimit"), "{cmd} {arg}: {err}");
        }
        let mut args = extra.clone();
        args.push("--solver-rlimit=5000000");
        let o = symex(cmd, &files, &args, dir.path());
        let code = status(&o);
        assert!(
            (0..=3).contains(&code) && code != 2,
            "{cmd} --solver-rlimit: status {code}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Fermat's Last Theorem for cubes: no decision procedure proves the assertion, and Z3 searches on.
const FERMAT_IDF: &str = "class A {
  void m(int x, int y, int z)
    requires x > 0 && y > 0 && z > 0;
  { assert x * x * x + y * y * y != z * z * z; }
}
";

#[test]
fn a_spent_solver_rlimit_is_an_inconclusive_answer_without_a_time_limit() {
    // No --max-time: only the resource limit can end the query (before it, this ran for minutes).
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fermat.idf");
    std::fs::write(&file, FERMAT_IDF).unwrap();
    let run = || {
        symex(
            "verify",
            std::slice::from_ref(&file),
            &["--solver-rlimit", "200000"],
            dir.path(),
        )
    };
    // The verdict and the counts, without the time the run took.
    let answer = |o: &Output| {
        let out = String::from_utf8_lossy(&o.stdout).to_string();
        let lines: Vec<String> = out
            .lines()
            .map(|l| {
                l.split(" settled syntactically")
                    .next()
                    .unwrap_or(l)
                    .to_string()
            })
            .collect();
        (status(o), lines)
    };
    let first = answer(&run());
    let out = first.1.join("\n");
    assert_eq!(first.0, 3, "{out}");
    assert!(out.contains("might not hold"), "{out}");
    assert!(
        out.lines().last().unwrap_or("").starts_with("UNKNOWN"),
        "{out}"
    );
    // The same answer again: the limit is a count, not a time.
    assert_eq!(answer(&run()), first);
}

/// `--max-time` counts the validation runs of `term` and `cost` too: 2,000 runs of `g.c` / `h.c` (loops that
/// run up to 2^32 times: most runs go to the 2,000,000-instruction cap, about two minutes in all) with 3 s
/// given are cut, and the report says so — or, on a machine loaded enough, the analysis itself is cut
/// before any run (`time limit reached`). Either way all 2,000 runs never happen.
#[test]
fn check_runs_stay_inside_max_time() {
    let dir = tempfile::tempdir().unwrap();
    for (cmd, file) in [
        ("term", common::example("term", "g.c")),
        ("cost", common::example("cost", "h.c")),
    ] {
        let o = symex(
            cmd,
            &[file],
            &["--check-runs", "2000", "--max-time", "3"],
            dir.path(),
        );
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            stdout.contains("the time limit (--max-time) ended the runs early")
                || stdout.contains("time limit reached"),
            "{cmd}: {stdout}"
        );
        assert!(
            !stdout.contains("2000 runs") && !stdout.contains("2000 random runs"),
            "{cmd}: {stdout}"
        );
        assert!((0..=3).contains(&status(&o)), "{cmd}: {stdout}");
    }
}

/// A C source of about 5 MB: 70,000 small functions, `main` calling the first.
fn large_source() -> String {
    let mut src = String::from("extern int __VERIFIER_nondet_int(void);\n");
    for i in 0..70_000 {
        src.push_str(&format!(
            "int f{i}(int x) {{ if (x > {i}) return x - {i}; return x + {i}; }}\n"
        ));
    }
    src.push_str("int main(void) { return f0(__VERIFIER_nondet_int()) == 3; }\n");
    src
}

/// `--max-time` counts the C front end too: loading a 5 MB source (clang, opt and the lowering) takes far
/// longer than the 1 s given, so each subcommand ends inside the front end with the time limit's status
/// (3) and a message naming the stage it ran out in, instead of loading the whole program first. A limit
/// test: more load only makes the cut likelier.
#[test]
fn the_time_limit_covers_the_front_end() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("large.c");
    std::fs::write(&file, large_source()).unwrap();
    for (cmd, extra) in [
        ("run", vec![]),
        ("check", vec!["--property", "unreach-call"]),
        ("bmc", vec![]),
        ("fuzz", vec![]),
    ] {
        let mut args = extra.clone();
        args.extend(["--max-time", "1"]);
        let o = symex(cmd, std::slice::from_ref(&file), &args, dir.path());
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(status(&o), 3, "{cmd}: {text}");
        assert!(
            text.contains("the time limit (--max-time) ran out while"),
            "{cmd}: {text}"
        );
    }
}
