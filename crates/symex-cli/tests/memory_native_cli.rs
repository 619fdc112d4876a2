//! Memory-model examples under `check` and `bmc`, with 64-bit and 32-bit pointers, in both engines:
//! pointers that leave their object and come back (`examples/check/mem_provenance_*.c`) and structs
//! passed by value through `...` (`mem_va_arg_struct_true.c`); lists linked through the unaligned
//! pointers of packed structures under valid-memtrack (`leak_packed_list_*.c`, LeakSanitizer following
//! unaligned pointers as `symex-native` asks it to); and i386 counterexamples whose inputs have the
//! program's own widths (`ilp32_nondet_widths_false.c`).
//!
//! The oracle is the native build, not symex: each example is first run natively (clang-14 with ASan and
//! UBSan, `-m32` for the 32-bit data model, LeakSanitizer under valid-memsafety) on every input of a range
//! that covers each of its branches, and its verdict is TRUE when every run exits normally, FALSE when one
//! reports a violation. That verdict must be the table's; then the exploration (`check --no-bmc`), the
//! portfolio (`check`) and bounded model checking (`bmc`) must give it.

use symex_engine::{TestFile, TestInput};
use symex_native::{BuildOptions, RunOptions};

mod common;

/// An example, its property, the verdict the native runs give, the inputs they try (the example's one
/// `__VERIFIER_nondet_int`), and what `bmc` answers where it cannot decide pointer differences (its
/// address marks are fresh per conversion): the verdict, or UNKNOWN.
struct Case {
    file: &'static str,
    property: &'static str,
    verdict: &'static str,
    inputs: std::ops::RangeInclusive<i32>,
    bmc: &'static str,
}

const CASES: &[Case] = &[
    Case {
        file: "mem_provenance_stack_true.c",
        property: "unreach-call",
        verdict: "TRUE",
        inputs: -1..=8,
        // `a - p != k` subtracts addresses.
        bmc: "UNKNOWN",
    },
    Case {
        file: "mem_provenance_stack_true.c",
        property: "valid-memsafety",
        verdict: "TRUE",
        inputs: -1..=8,
        bmc: "TRUE",
    },
    Case {
        file: "mem_provenance_global_true.c",
        property: "unreach-call",
        verdict: "TRUE",
        inputs: -1..=42,
        bmc: "TRUE",
    },
    Case {
        file: "mem_provenance_global_true.c",
        property: "valid-memsafety",
        verdict: "TRUE",
        inputs: -1..=42,
        bmc: "TRUE",
    },
    Case {
        file: "mem_provenance_heap_true.c",
        property: "unreach-call",
        verdict: "TRUE",
        inputs: 0..=7,
        bmc: "TRUE",
    },
    Case {
        file: "mem_provenance_heap_true.c",
        property: "valid-memsafety",
        verdict: "TRUE",
        inputs: 0..=7,
        bmc: "TRUE",
    },
    Case {
        file: "mem_provenance_member_true.c",
        property: "unreach-call",
        verdict: "TRUE",
        inputs: -1..=101,
        bmc: "TRUE",
    },
    Case {
        file: "mem_provenance_member_true.c",
        property: "valid-memsafety",
        verdict: "TRUE",
        inputs: -1..=101,
        bmc: "TRUE",
    },
    Case {
        file: "mem_provenance_outside_false.c",
        property: "valid-memsafety",
        verdict: "FALSE(valid-deref)",
        inputs: 0..=7,
        bmc: "FALSE",
    },
    Case {
        file: "mem_va_arg_struct_true.c",
        property: "unreach-call",
        verdict: "TRUE",
        inputs: 0..=0,
        bmc: "TRUE",
    },
    Case {
        file: "mem_va_arg_struct_true.c",
        property: "valid-memsafety",
        verdict: "TRUE",
        inputs: 0..=0,
        bmc: "TRUE",
    },
    Case {
        file: "leak_packed_list_true.c",
        property: "valid-memsafety",
        verdict: "TRUE",
        inputs: -1..=5,
        bmc: "TRUE",
    },
    Case {
        file: "leak_packed_list_false.c",
        property: "valid-memsafety",
        verdict: "FALSE(valid-memtrack)",
        inputs: -1..=5,
        bmc: "FALSE",
    },
];

/// The verdict of the native runs of `file` on every input of `inputs`: `TRUE`, `FALSE(...)` named after
/// the first violation's kind, or a message when a run ends otherwise.
fn native_verdict(case: &Case, m32: bool) -> String {
    let memsafety = case.property == "valid-memsafety";
    let opts = BuildOptions {
        m32,
        program_error_functions: memsafety,
        ..BuildOptions::default()
    };
    let build = symex_native::build(&common::example("check", case.file), &opts)
        .unwrap_or_else(|e| panic!("{}: {e}", case.file));
    let run_opts = RunOptions {
        check_leaks: memsafety,
        // A backstop against a hang only: the 200 MiB examples take seconds under the sanitizers, and a
        // native verdict must not depend on the machine's load.
        timeout: std::time::Duration::from_secs(600),
    };
    for k in case.inputs.clone() {
        let test = TestFile {
            inputs: vec![TestInput {
                name: "__VERIFIER_nondet_int".into(),
                bytes: k.to_le_bytes().to_vec(),
            }],
            ..TestFile::default()
        };
        let o = symex_native::run(&build, &test, &run_opts).outcome;
        match (o.kind.as_str(), o.code) {
            ("exit", Some(0)) => continue,
            ("reach-error", _) if !memsafety => return "FALSE".into(),
            ("out-of-bounds" | "use-after-free" | "invalid-free", _) if memsafety => {
                return "FALSE(valid-deref)".into()
            }
            ("memory-leak", _) if memsafety => return "FALSE(valid-memtrack)".into(),
            _ => return format!("k = {k}: {o:?}"),
        }
    }
    "TRUE".into()
}

fn last_line(out: &std::process::Output) -> String {
    let s = String::from_utf8_lossy(&out.stdout);
    s.lines().last().unwrap_or("").to_string()
}

/// `symex check` (with `extra`) on `case` under `data_model`: its verdict line.
fn check(case: &Case, data_model: &str, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let o = common::symex()
        .args(["check", "--property", case.property])
        .args(["--data-model", data_model, "--out"])
        .arg(dir.path())
        .args(extra)
        .arg(common::example("check", case.file))
        .output()
        .unwrap();
    last_line(&o)
}

/// `symex bmc --property` on `case`, `-m32` for the 32-bit data model: its verdict line.
fn bmc(case: &Case, m32: bool) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = common::symex();
    cmd.args(["bmc", "--property", case.property, "--out"])
        .arg(dir.path());
    if m32 {
        cmd.args(["--cflags", "-m32"]);
    }
    last_line(
        &cmd.arg(common::example("check", case.file))
            .output()
            .unwrap(),
    )
}

#[test]
fn examples_agree_with_native_runs_in_both_engines_and_data_models() {
    let runs: Vec<(&Case, bool)> = CASES.iter().flat_map(|c| [(c, false), (c, true)]).collect();
    let results = common::map_in_pairs(&runs, |&(case, m32)| {
        let model = if m32 { "ILP32" } else { "LP64" };
        (
            native_verdict(case, m32),
            check(case, model, &["--no-bmc"]),
            check(case, model, &[]),
            bmc(case, m32),
        )
    });
    let mut wrong = Vec::new();
    for ((case, m32), (native, explored, portfolio, bounded)) in runs.iter().zip(results) {
        let what = format!(
            "{} {} ({})",
            case.file,
            case.property,
            if *m32 { "ILP32" } else { "LP64" }
        );
        assert_eq!(
            native, case.verdict,
            "{what}: the native runs disagree with the table"
        );
        if explored != case.verdict {
            wrong.push(format!("{what}: exploration says {explored}"));
        }
        if portfolio != case.verdict {
            wrong.push(format!("{what}: check says {portfolio}"));
        }
        if bounded != case.bmc {
            wrong.push(format!("{what}: bmc says {bounded}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The 32-bit case the poison of far pointer arithmetic was made for stays a violation: `a[262144]` of
/// `int a[4]` is 1 MiB past `a`, the address of the next object in symex's 32-bit layout, and natively an
/// out-of-bounds write (the table of `check_cli`'s ILP32 tests replays it on `-m32`). A pointer moved that
/// far and brought back has lost its object in the model: UNKNOWN, never a wrong FALSE.
#[test]
fn far_pointer_arithmetic_is_poisoned_and_its_return_is_undecided() {
    let case = Case {
        file: "ilp32_index_into_next_object.c",
        property: "valid-memsafety",
        verdict: "FALSE(valid-deref)",
        inputs: 262144..=262144,
        bmc: "FALSE",
    };
    assert_eq!(native_verdict(&case, true), case.verdict);
    assert_eq!(check(&case, "ILP32", &["--no-bmc"]), case.verdict);
    let back = Case {
        file: "mem_provenance_far_return_unknown.c",
        property: "valid-memsafety",
        verdict: "TRUE",
        inputs: 0..=0,
        bmc: "UNKNOWN",
    };
    assert_eq!(native_verdict(&back, true), back.verdict);
    assert_eq!(native_verdict(&back, false), back.verdict);
    assert_eq!(check(&back, "ILP32", &[]), "UNKNOWN");
    assert_eq!(check(&back, "LP64", &[]), "TRUE");
    // The same return by an input's amount: the poisoned pointer's address is symbolic.
    let symbolic = Case {
        file: "mem_provenance_far_symbolic_return_unknown.c",
        property: "valid-memsafety",
        verdict: "TRUE",
        inputs: 131_070..=131_075,
        bmc: "UNKNOWN",
    };
    for m32 in [true, false] {
        assert_eq!(
            native_verdict(&symbolic, m32),
            symbolic.verdict,
            "m32 {m32}"
        );
        let edges = Case {
            inputs: 299_999..=300_001,
            ..symbolic
        };
        assert_eq!(native_verdict(&edges, m32), symbolic.verdict, "m32 {m32}");
    }
    assert_eq!(check(&symbolic, "LP64", &["--no-bmc"]), "TRUE");
    for engines in [&["--no-bmc"][..], &[]] {
        assert_eq!(check(&symbolic, "ILP32", engines), "UNKNOWN", "{engines:?}");
    }
}

/// The bytes of each input of `ilp32_nondet_widths_false.c` on i386: a pointer, an `unsigned long` and a
/// `long` are 4 bytes, a `long long` 8.
const I386_INPUT_BYTES: &[(&str, usize)] = &[
    ("__VERIFIER_nondet_pointer", 4),
    ("__VERIFIER_nondet_ulong", 4),
    ("__VERIFIER_nondet_long", 4),
    ("__VERIFIER_nondet_longlong", 8),
];

/// A FALSE under `--data-model ILP32`, from BMC (`bmc --cflags -m32`, `check`'s portfolio) and from the
/// exploration, comes with a test whose inputs have the program's own i386 widths and which the native
/// `-m32` build replays to the violation, having read every input as the test gives it.
#[test]
fn ilp32_counterexamples_have_the_programs_widths_and_replay_natively() {
    let file = "ilp32_nondet_widths_false.c";
    let path = common::example("check", file);
    let dir = tempfile::tempdir().unwrap();
    let bmc_dir = dir.path().join("bmc");
    let o = common::symex()
        .args([
            "bmc",
            "--cflags",
            "-m32",
            "--property",
            "unreach-call",
            "--out",
        ])
        .arg(&bmc_dir)
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(
        last_line(&o),
        "FALSE",
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let mut tests = vec![bmc_dir.join("test000001.json")];
    for extra in [&[][..], &["--no-bmc"][..]] {
        let out = dir.path().join(format!("check{}", extra.len()));
        let o = common::symex()
            .args([
                "check",
                "--property",
                "unreach-call",
                "--data-model",
                "ILP32",
            ])
            .args(["--json", "--out"])
            .arg(&out)
            .args(extra)
            .arg(&path)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["verdict"], "false", "{v}");
        tests.push(v["test"].as_str().unwrap().into());
    }
    let build = symex_native::build(
        &path,
        &BuildOptions {
            m32: true,
            ..BuildOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    for t in tests {
        let test = TestFile::load(&t).unwrap_or_else(|e| panic!("{e}"));
        for input in &test.inputs {
            let want = I386_INPUT_BYTES
                .iter()
                .find(|(n, _)| *n == input.name)
                .map(|&(_, b)| b);
            assert_eq!(
                Some(input.bytes.len()),
                want,
                "{}: input {} has {} bytes",
                t.display(),
                input.name,
                input.bytes.len()
            );
        }
        let run = symex_native::run(&build, &test, &RunOptions::default());
        assert_eq!(
            run.outcome.kind,
            "reach-error",
            "{}: {:?}",
            t.display(),
            run
        );
        assert!(
            run.warnings.is_empty(),
            "{}: {:?}",
            t.display(),
            run.warnings
        );
    }
}

/// `strlen`, `strnlen`, `memchr`, `memcmp`, `strcmp` and `strncmp` over 200 MiB blocks filled by
/// `memset`: the native runs give the verdict, and the exploration must give it without any time limit
/// (its models step over a constant fill as one range; byte by byte this took minutes). 64-bit only: a
/// 200 MiB object is beyond the 32-bit model's object limit.
#[test]
fn constant_fills_of_200_mib_are_ranges_that_agree_with_native_runs() {
    for (file, verdict) in [
        ("mem_ranges_200mib_true.c", "TRUE"),
        ("mem_ranges_200mib_false.c", "FALSE"),
    ] {
        let case = Case {
            file,
            property: "unreach-call",
            verdict,
            inputs: 0..=0,
            bmc: verdict,
        };
        assert_eq!(native_verdict(&case, false), verdict, "{file} natively");
        assert_eq!(check(&case, "LP64", &["--no-bmc"]), verdict, "{file}");
    }
}

/// The copying and searching models (`strchr`, `strrchr`, `strstr`, `strcpy`, `strncpy`, `strcat`,
/// `memcpy`, `memmove`, `memset`) over 200 MiB blocks filled by `memset` with a constant, and the
/// models over a 200 MiB fill with an input byte (one range, its byte decided once): the native runs
/// give the verdicts (c = 0, 61, 122, 183), and the exploration and BMC must give them without any time
/// limit. The string of alternating input bytes that the time-limit test walks is TRUE natively too.
#[test]
fn copies_and_symbolic_fills_of_200_mib_are_ranges_that_agree_with_native_runs() {
    let cases = [
        ("mem_copies_200mib_true.c", "TRUE", 0..=0),
        ("mem_ranges_200mib_symbolic_true.c", "TRUE", 0..=3),
        ("mem_ranges_200mib_symbolic_false.c", "FALSE", 0..=3),
    ];
    for (file, verdict, inputs) in cases {
        let case = Case {
            file,
            property: "unreach-call",
            verdict,
            inputs,
            bmc: verdict,
        };
        assert_eq!(native_verdict(&case, false), verdict, "{file} natively");
        assert_eq!(check(&case, "LP64", &["--no-bmc"]), verdict, "{file}");
        assert_eq!(bmc(&case, false), verdict, "{file} bmc");
    }
    let pattern = Case {
        file: "limits/mem_strlen_200mib_pattern_time_limit.c",
        property: "unreach-call",
        verdict: "TRUE",
        inputs: 0..=3,
        bmc: "UNKNOWN",
    };
    assert_eq!(native_verdict(&pattern, false), "TRUE", "pattern natively");
}
