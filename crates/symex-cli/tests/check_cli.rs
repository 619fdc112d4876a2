//! `symex check`: verdict lines, exit statuses, `.prp` files, JSON, and the violation's test replaying to
//! the violation.

use serde_json::Value;
use std::path::PathBuf;

mod common;

fn example(name: &str) -> PathBuf {
    common::example("check", name)
}

fn check(property: &str, file: &str, extra: &[&str]) -> (Option<i32>, String) {
    check_in(&tempfile::tempdir().unwrap(), property, file, extra)
}

fn check_in(
    dir: &tempfile::TempDir,
    property: &str,
    file: &str,
    extra: &[&str],
) -> (Option<i32>, String) {
    let o = common::symex()
        .args(["check", "--property", property])
        .arg(example(file))
        .arg("--out")
        .arg(dir.path())
        .args(extra)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

#[test]
fn verdicts_and_exit_statuses() {
    let cases = [
        ("unreach-call", "unreach_true.c", "TRUE", 0),
        ("unreach-call", "unreach_false.c", "FALSE", 1),
        (
            "valid-memsafety",
            "memsafety_false.c",
            "FALSE(valid-deref)",
            1,
        ),
        (
            "valid-memsafety",
            "leak_false.c",
            "FALSE(valid-memtrack)",
            1,
        ),
        ("valid-memsafety", "unreach_true.c", "TRUE", 0),
        ("no-overflow", "overflow_false.c", "FALSE", 1),
        ("no-overflow", "overflow_true.c", "TRUE", 0),
        // Large numbers in comments and literals are not the program's (its lexer skips them).
        ("no-overflow", "overflow_comment_true.c", "TRUE", 0),
        // `1 << n` with n from 32 up: 2^n is no int (the native build's exponent check says so).
        ("no-overflow", "shift_exponent_width_false.c", "FALSE", 1),
    ];
    for (prop, file, verdict, status) in cases {
        let (code, out) = check(prop, file, &[]);
        assert_eq!(last_line(&out), verdict, "{prop} {file}: {out}");
        assert_eq!(code, Some(status), "{prop} {file}");
    }
}

/// Issue 8's adversarial programs about the memory model, with the verdict each one's comment argues from
/// the C standard and confirms with a native run (clang-14 -fsanitize=address,undefined).
#[test]
fn memory_model_adversarial_examples() {
    let cases = [
        (
            "valid-memsafety",
            "mem_index_4gib_false.c",
            "FALSE(valid-deref)",
            1,
        ),
        ("unreach-call", "mem_uninit_copy_true.c", "TRUE", 0),
        (
            "valid-memsafety",
            "mem_scope_end_false.c",
            "FALSE(valid-deref)",
            1,
        ),
        ("unreach-call", "mem_loop_local_fresh_false.c", "FALSE", 1),
        ("unreach-call", "mem_malloc_4gib_true.c", "TRUE", 0),
        // The platform decides these (see each example): no verdict from the model's addresses.
        ("unreach-call", "mem_address_reuse_unknown.c", "UNKNOWN", 3),
        ("unreach-call", "mem_address_bits_unknown.c", "UNKNOWN", 3),
        (
            "unreach-call",
            "mem_stack_below_heap_unknown.c",
            "UNKNOWN",
            3,
        ),
        // Addresses observed as integers through memory, printed by `%p`, or compared one past the end:
        // the platform decides (each example's native runs reach the error), symex says UNKNOWN.
        (
            "unreach-call",
            "mem_union_pointer_bits_unknown.c",
            "UNKNOWN",
            3,
        ),
        (
            "unreach-call",
            "mem_memcpy_pointer_bits_unknown.c",
            "UNKNOWN",
            3,
        ),
        ("unreach-call", "mem_printf_pointer_unknown.c", "UNKNOWN", 3),
        ("unreach-call", "mem_one_past_equal_unknown.c", "UNKNOWN", 3),
        // A global's address as a constant integer, and read from its initial image through a union.
        (
            "unreach-call",
            "mem_global_address_cast_unknown.c",
            "UNKNOWN",
            3,
        ),
        (
            "unreach-call",
            "mem_global_union_pointer_unknown.c",
            "UNKNOWN",
            3,
        ),
        // ... while pointers into one object stay decided.
        ("unreach-call", "mem_pointer_difference_true.c", "TRUE", 0),
        ("unreach-call", "mem_integer_round_trip_true.c", "TRUE", 0),
    ];
    for (prop, file, verdict, status) in cases {
        let (code, out) = check(prop, file, &[]);
        assert_eq!(last_line(&out), verdict, "{prop} {file}: {out}");
        assert_eq!(code, Some(status), "{prop} {file}");
    }
}

/// Issue 8's large objects (defect 8): each example's verdict is confirmed by its native build (see its
/// comment), and symex reaches it with its address space limited to 3 GiB (`ulimit -v`), so host memory
/// stays bounded whatever the program allocates: a 4 GiB or 3.75 GiB `malloc`, 400 MB and 200 MB
/// globals, `realloc` to 1 GiB, a 2 GiB `calloc` filled by `memset` and copied into by `memcpy`. Before
/// contents were stored lazily these were a wrong FALSE, an abort (exit 134), or UNKNOWN.
#[test]
fn large_objects_cost_bounded_host_memory() {
    let cases = [
        ("unreach-call", "mem_malloc_4gib_true.c", "TRUE", 0),
        ("unreach-call", "mem_malloc_3_75gib_true.c", "TRUE", 0),
        ("unreach-call", "mem_global_400mb_true.c", "TRUE", 0),
        ("unreach-call", "mem_realloc_1gib_true.c", "TRUE", 0),
        (
            "valid-memsafety",
            "mem_malloc_4gib_overflow_false.c",
            "FALSE(valid-deref)",
            1,
        ),
    ];
    for (prop, file, verdict, status) in cases {
        let dir = tempfile::tempdir().unwrap();
        let o = std::process::Command::new("bash")
            .arg("-c")
            .arg("ulimit -v 3145728 && exec \"$@\"")
            .arg("bash")
            .env("SYMEX_SOLVER_RLIMIT", common::TEST_RLIMIT)
            .arg(common::symex().get_program())
            .args(["check", "--property", prop])
            .arg(example(file))
            .arg("--out")
            .arg(dir.path())
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(last_line(&out), verdict, "{prop} {file}: {out}{err}");
        assert_eq!(o.status.code(), Some(status), "{prop} {file}: {err}");
    }
}

/// `main(argc, argv)` under `check` (issue 8, defect 10): the verdicts on the argc examples agree with native
/// runs (clang-14) of each program with 0 to 8 arguments — FALSE exactly when some run reaches
/// `reach_error` (it aborts), TRUE only when none does — also with clang's `-O2` lowering of the parameters
/// (the use analysis sees SSA uses, not only `-O0`'s spills; `-fno-inline` keeps the calls of
/// `reach_error`, whose body clang would otherwise inline into a bare `abort()`). `argc_argv_unknown.c` reads `argv`'s strings,
/// which symex does not model: UNKNOWN although a native run reaches the error.
#[test]
fn argc_verdicts_agree_with_native_runs() {
    let dir = tempfile::tempdir().unwrap();
    for (file, verdict) in [
        ("argc_read.c", "FALSE"),
        ("argc_nonnegative_true.c", "TRUE"),
        ("unreach_argc_three_false.c", "FALSE"),
        ("argv_passed_unread_false.c", "FALSE"),
    ] {
        let exe = dir.path().join(file.trim_end_matches(".c"));
        // Each example defines reach_error as abort().
        let built = std::process::Command::new("clang-14")
            .arg("-w")
            .arg(example(file))
            .arg("-o")
            .arg(&exe)
            .status();
        if !built.is_ok_and(|s| s.success()) {
            eprintln!("skipped: clang-14 cannot build {file}");
            return;
        }
        let reached = (0..=8).any(|k| {
            let s = std::process::Command::new(&exe)
                .args((0..k).map(|i| format!("a{i}")))
                .output()
                .unwrap();
            s.status.code() != Some(0)
        });
        assert_eq!(reached, verdict == "FALSE", "{file}: native runs");
        for flags in [&[][..], &["--cflags=-O2 -fno-inline"][..]] {
            let (_, out) = check("unreach-call", file, flags);
            // An optimised build never gets TRUE (see `optimised_builds_never_get_true`).
            let want = if flags.is_empty() || verdict != "TRUE" {
                verdict
            } else {
                "UNKNOWN"
            };
            assert_eq!(last_line(&out), want, "{file} {flags:?}: {out}");
        }
    }
    let (code, out) = check(
        "unreach-call",
        "argc_argv_unknown.c",
        &["--cflags=-O2 -fno-inline"],
    );
    assert_eq!((last_line(&out), code), ("UNKNOWN", Some(3)), "{out}");
    assert!(out.contains("argv"), "{out}");
    let (code, out) = check("unreach-call", "argv_passed_read_unknown.c", &[]);
    assert_eq!((last_line(&out), code), ("UNKNOWN", Some(3)), "{out}");
    assert!(out.contains("argv"), "{out}");
}

/// With optimisation (`--cflags=-O2`), clang inlines a `reach_error` defined as `{ abort(); }` and deletes
/// the calls of one defined as `{}` (it has no effect): both programs reach the error (FALSE at -O0, as the
/// native -O0 build shows by aborting / as C says), and the optimised module no longer calls it. So TRUE is
/// never answered for an optimised build (UNKNOWN with the reason), while FALSE still is.
#[test]
fn optimised_builds_never_get_true() {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in [("inlined.c", "abort();"), ("deleted.c", "")] {
        let src = dir.path().join(name);
        std::fs::write(
            &src,
            format!(
                "extern int __VERIFIER_nondet_int(void);\nvoid abort(void);\n\
                 void reach_error(void) {{ {body} }}\n\
                 int main(void) {{ if (__VERIFIER_nondet_int() == 42) reach_error(); return 0; }}\n"
            ),
        )
        .unwrap();
        for (flags, want) in [("", "FALSE"), ("-O2", "UNKNOWN"), ("-O2 -O0", "FALSE")] {
            let out = common::symex()
                .args(["check", "--property", "unreach-call"])
                .arg(&src)
                .arg("--out")
                .arg(
                    dir.path()
                        .join(format!("out-{name}{}", flags.replace(' ', ""))),
                )
                .args((!flags.is_empty()).then(|| format!("--cflags={flags}")))
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            assert_eq!(last_line(&text), want, "{name} {flags}: {text}");
            if want == "UNKNOWN" {
                assert!(text.contains("compiled with `-O2`"), "{text}");
            }
        }
    }
}

/// `--max-time` covers building a deep Z3 query (issue 8, defect 10: `--max-time 20` once ran past 200 s
/// there). Without a limit the one query of `deep_query_timeout.c` takes about 30 s to build and solve; with
/// `--max-time 3` the run must end UNKNOWN for the time limit. Asserted on the outcome, not the clock; the
/// outer `timeout 600` only keeps a regression from hanging the suite (it would fail the assertions).
#[test]
fn the_time_limit_covers_building_a_deep_query() {
    let dir = tempfile::tempdir().unwrap();
    let o = std::process::Command::new("timeout")
        .arg("600")
        .arg(common::symex().get_program())
        .args(["check", "--property", "unreach-call", "--max-time", "3"])
        .arg(example("deep_query_timeout.c"))
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(last_line(&out), "UNKNOWN", "{out}");
    assert_eq!(o.status.code(), Some(3), "{out}");
    assert!(
        out.contains("time"),
        "the reason names the time limit: {out}"
    );
}

#[test]
fn a_cut_exploration_is_unknown_never_true() {
    let (code, out) = check(
        "unreach-call",
        "unreach_true.c",
        &["--max-depth", "0", "--no-bmc"],
    );
    assert_eq!(last_line(&out), "UNKNOWN", "{out}");
    assert_eq!(code, Some(3));
}

#[test]
fn prp_files_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let prp = dir.path().join("unreach-call.prp");
    std::fs::write(
        &prp,
        "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
    )
    .unwrap();
    let (code, out) = check_in(&dir, prp.to_str().unwrap(), "unreach_false.c", &["--json"]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["command"], "check");
    assert_eq!(v["property"], "unreach-call");
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["kind"], "reach-error");
    // The violation's test replays to the same error.
    let test = v["test"].as_str().unwrap();
    let rep = common::symex()
        .arg("replay")
        .arg(example("unreach_false.c"))
        .arg(test)
        .arg("--json")
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&rep.stdout).unwrap();
    assert_eq!(r["outcome"]["kind"], "reach-error");
}

/// The ILP32 examples and their verdicts under `--data-model ILP32` (each file's first line says why).
const ILP32_EXAMPLES: &[(&str, &str, &str)] = &[
    ("ilp32_union_pointer_int.c", "unreach-call", "TRUE"),
    ("ilp32_union_pointer_alias.c", "unreach-call", "FALSE"),
    ("ilp32_sizeof_pointer.c", "unreach-call", "FALSE"),
    ("ilp32_struct_size.c", "valid-memsafety", "TRUE"),
    ("ilp32_size_t_wrap.c", "unreach-call", "TRUE"),
    ("ilp32_pointer_wrap.c", "valid-memsafety", "TRUE"),
    ("ilp32_pointer_diff_wrap.c", "unreach-call", "TRUE"),
    ("ilp32_long_overflow.c", "no-overflow", "FALSE"),
    ("ilp32_struct_offsets.c", "unreach-call", "TRUE"),
    ("ilp32_use_after_return.c", "valid-memsafety", "FALSE"),
    ("ilp32_many_calls.c", "unreach-call", "TRUE"),
    (
        "ilp32_escaped_locals_many_calls.c",
        "valid-memsafety",
        "TRUE",
    ),
    (
        "ilp32_dangling_after_many_calls.c",
        "valid-memsafety",
        "FALSE",
    ),
    ("mem_ilp32_global_1mib_true.c", "unreach-call", "TRUE"),
    ("ilp32_global_1mib_overflow.c", "valid-memsafety", "FALSE"),
];

/// The verdict of a native i386 run of an input-free example: `clang-14 -m32` with AddressSanitizer and
/// UndefinedBehaviorSanitizer (aborting on the first report, stack use after return included), `reach_error`
/// exiting with 77.
fn native_m32_verdict(file: &str, dir: &std::path::Path) -> String {
    let stub = dir.join("stub.c");
    std::fs::write(
        &stub,
        "#include <unistd.h>\nvoid reach_error(void) { _exit(77); }\n",
    )
    .unwrap();
    let exe = dir.join(file.trim_end_matches(".c"));
    let cc = std::process::Command::new("clang-14")
        .args(["-m32", "-g", "-w", "-fsanitize=address,undefined"])
        .arg("-fno-sanitize-recover=all")
        .arg(example(file))
        .arg(&stub)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("clang-14 (scripts/ensure-deps.sh installs it)");
    assert!(
        cc.status.success(),
        "clang-14 -m32 failed on {file} (scripts/ensure-deps.sh installs libc6-dev-i386): {}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = std::process::Command::new(&exe)
        .env("ASAN_OPTIONS", "detect_stack_use_after_return=1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    match run.status.code() {
        Some(0) => "TRUE".into(),
        Some(77) => "FALSE".into(),
        _ if stderr.contains("runtime error") || stderr.contains("AddressSanitizer") => {
            "FALSE".into()
        }
        other => format!("native run of {file} ended with {other:?}: {stderr}"),
    }
}

/// The oracle is the native 32-bit build, not symex: each example's verdict is first confirmed by running
/// it compiled with `clang-14 -m32` and sanitizers, then `symex check --data-model ILP32` must agree.
#[test]
fn ilp32_verdicts_agree_with_the_native_32_bit_build() {
    let results = common::map_in_pairs(ILP32_EXAMPLES, |&(file, prop, want)| {
        let dir = tempfile::tempdir().unwrap();
        let native = native_m32_verdict(file, dir.path());
        let (code, out) = check(prop, file, &["--data-model", "ILP32"]);
        (file, want, native, code, out)
    });
    for (file, want, native, code, out) in results {
        assert_eq!(
            native, want,
            "{file}: the native -m32 run disagrees with the table"
        );
        let got = last_line(&out);
        assert!(
            got == want || got.starts_with(&format!("{want}(")),
            "{file}: symex says {got}, the native -m32 run {want}: {out}"
        );
        assert_eq!(code, Some(if want == "TRUE" { 0 } else { 1 }), "{file}");
    }
}

/// A FALSE under ILP32 comes with a test that replays to the same violation when replay compiles for
/// i386 too (`--cflags -m32`), and the program's `sizeof` shows the 32-bit layout in `symex run`.
#[test]
fn ilp32_violation_replays_with_m32() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out) = check_in(
        &dir,
        "unreach-call",
        "ilp32_sizeof_pointer.c",
        &["--data-model", "ILP32", "--json"],
    );
    assert_eq!(code, Some(1), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let test = v["test"].as_str().unwrap();
    let rep = common::symex()
        .arg("replay")
        .arg(example("ilp32_sizeof_pointer.c"))
        .arg(test)
        .args(["--cflags", "-m32", "--json"])
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&rep.stdout).unwrap();
    assert_eq!(r["outcome"]["kind"], "reach-error");
    // Without -m32 the same program reaches no error: the verdict came from the 32-bit layout.
    let rep64 = common::symex()
        .arg("replay")
        .arg(example("ilp32_sizeof_pointer.c"))
        .arg(test)
        .arg("--json")
        .output()
        .unwrap();
    let r64: Value = serde_json::from_slice(&rep64.stdout).unwrap();
    assert_ne!(r64["outcome"]["kind"], "reach-error", "{r64}");
}

/// An index 1 MiB past a 32-bit array lands on the next object's address (`id << 20`): the write is out of
/// bounds in C, and the poison of pointer arithmetic that leaves its object reports it; the violation's
/// test replays to the same error on a native `-m32` build with the sanitizers (the oracle).
#[test]
fn ilp32_arithmetic_into_another_object_is_out_of_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let file = "ilp32_index_into_next_object.c";
    let (code, out) = check_in(
        &dir,
        "valid-memsafety",
        file,
        &["--data-model", "ILP32", "--json"],
    );
    assert_eq!(code, Some(1), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "false", "{out}");
    assert_eq!(v["kind"], "out-of-bounds", "{out}");
    let rep = common::symex()
        .args(["replay", "--native"])
        .arg(example(file))
        .arg(v["test"].as_str().unwrap())
        .args(["--cflags", "-m32", "--json"])
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&rep.stdout).unwrap();
    assert_eq!(r["agrees"], true, "{r}");
}

/// The adversarial programs of issue 8 this branch fixes, each with the verdict its comment argues and a
/// native build (clang-14 with the sanitizers) confirms.
#[test]
fn adversarial_examples_get_their_right_verdicts() {
    let cases: &[(&str, &str, &str)] = &[
        ("no-overflow", "reach_error_returns_overflow.c", "FALSE"),
        (
            "valid-memsafety",
            "reach_error_returns_memsafety.c",
            "FALSE(valid-deref)",
        ),
        ("unreach-call", "reach_error_returns_overflow.c", "FALSE"),
        (
            "valid-memsafety",
            "leak_before_abort.c",
            "FALSE(valid-memtrack)",
        ),
        (
            "valid-memsafety",
            "leak_before_assert.c",
            "FALSE(valid-memtrack)",
        ),
        ("valid-memsafety", "leak_symbolic_index.c", "TRUE"),
        (
            "valid-memsafety",
            "leak_integer_equal_address.c",
            "FALSE(valid-memtrack)",
        ),
        ("no-overflow", "signed_shift_overflow.c", "FALSE"),
        ("no-overflow", "signed_shift_true.c", "TRUE"),
        ("unreach-call", "nondet_types.c", "TRUE"),
        ("unreach-call", "argc_read.c", "FALSE"),
        ("unreach-call", "argc_unused.c", "TRUE"),
        ("unreach-call", "argc_nonnegative_true.c", "TRUE"),
        ("unreach-call", "unreach_argc_three_false.c", "FALSE"),
        ("unreach-call", "argc_argv_unknown.c", "UNKNOWN"),
        ("unreach-call", "argv_passed_unread_false.c", "FALSE"),
        ("no-overflow", "folded_overflow.c", "FALSE"),
        ("no-overflow", "folded_overflow_add.c", "FALSE"),
    ];
    let got = common::map_in_pairs(cases, |(prop, file, _)| check(prop, file, &[]));
    for ((prop, file, verdict), (code, out)) in cases.iter().zip(got) {
        assert_eq!(last_line(&out), *verdict, "{prop} {file}: {out}");
        let status = match *verdict {
            "TRUE" => 0,
            "UNKNOWN" => 3,
            _ => 1,
        };
        assert_eq!(code, Some(status), "{prop} {file}");
    }
}

/// Pointer bytes read back as integers after a library model or an aggregate moved them (issue 8): a
/// pointer read by `va_arg` as an `unsigned long`, `getline`'s buffer pointer copied into an integer, a
/// union copied by one aggregate `load`/`store` (LLVM input), an integer `extractvalue` of an aggregate
/// loaded from pointer bytes, a pointer moved by `realloc`, a union passed and returned by value. Each
/// program's native build (clang-14 with and without -fsanitize=address,undefined, see its comment) reaches
/// the error from the platform's address bits; symex's synthetic addresses would say it cannot (the first
/// four were wrong TRUE answers): the answer is UNKNOWN.
#[test]
fn pointer_bytes_read_as_integers_are_unknown() {
    let files = [
        "mem_va_arg_pointer_as_integer_unknown.c",
        "mem_getline_pointer_bits_unknown.c",
        "mem_aggregate_copy_pointer_bits_unknown.ll",
        "mem_aggregate_extract_pointer_bits_unknown.ll",
        "mem_realloc_pointer_bits_unknown.c",
        "mem_union_by_value_pointer_bits_unknown.c",
    ];
    let got = common::map_in_pairs(&files, |file| check("unreach-call", file, &[]));
    for (file, (code, out)) in files.iter().zip(got) {
        assert_eq!(last_line(&out), "UNKNOWN", "{file}: {out}");
        assert!(out.contains("numeric address"), "{file}: {out}");
        assert_eq!(code, Some(3), "{file}");
    }
}

/// `check` never aborts on host memory (issue 8, defect 8): eight 64 MiB copies that cannot share pages
/// (each byte copied costs host memory) died with "memory allocation failed" under `ulimit -v 3 GiB`;
/// the default budget (half of `ulimit -v` here) now ends the run as UNKNOWN with the reason. The
/// program's native build exits 0 (see its comment): UNKNOWN, not a wrong verdict.
#[test]
fn unbounded_host_memory_ends_unknown_never_aborts() {
    let dir = tempfile::tempdir().unwrap();
    let o = std::process::Command::new("bash")
        .arg("-c")
        .arg("ulimit -v 3145728 && exec \"$@\"")
        .arg("bash")
        .env("SYMEX_SOLVER_RLIMIT", common::TEST_RLIMIT)
        .arg(common::symex().get_program())
        .args(["check", "--property", "unreach-call"])
        .arg(example("mem_copy_memory_limit_unknown.c"))
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(last_line(&out), "UNKNOWN", "{out}{err}");
    assert!(out.contains("memory limit of 1536 MiB"), "{out}{err}");
    assert_eq!(o.status.code(), Some(3), "{err}");
}

/// A valid i386 program with a global the 32-bit address model cannot place (objects below 8 MiB with
/// the widest offset; 1 MiB globals, the SV-COMP loops/heavy-2 pattern, are placed and decided, see
/// `ILP32_EXAMPLES`): UNKNOWN with the reason, not exit 2 (bad input). Its native `-m32` build exits 0.
#[test]
fn ilp32_global_beyond_the_object_limit_is_unknown() {
    let (code, out) = check(
        "unreach-call",
        "mem_ilp32_global_16mib_unknown.c",
        &["--data-model", "ILP32"],
    );
    assert_eq!(last_line(&out), "UNKNOWN", "{out}");
    assert!(
        out.contains("objects must be smaller than 8388608 bytes"),
        "{out}"
    );
    assert_eq!(code, Some(3));
}

/// `strlen` over a 200 MiB string of two alternating input bytes (natively TRUE, see the example's
/// comment and `memory_native_cli`) walks its bytes in one library call: no range of it is uniform.
/// Under `--max-time 5` that call stops at the deadline and the verdict is UNKNOWN — both engines, alone
/// and together. A limit test: more load only makes the UNKNOWN likelier; without the deadline inside
/// the call the loop runs for minutes and the verdict would be TRUE.
#[test]
fn library_loops_over_large_buffers_stop_at_the_time_limit() {
    {
        let file = "limits/mem_strlen_200mib_pattern_time_limit.c";
        for engines in [&["--no-bmc"][..], &[]] {
            let mut extra = vec!["--max-time", "5"];
            extra.extend(engines);
            let (code, out) = check("unreach-call", file, &extra);
            assert_eq!(last_line(&out), "UNKNOWN", "{file} {engines:?}: {out}");
            assert_eq!(code, Some(3), "{file} {engines:?}");
        }
        let dir = tempfile::tempdir().unwrap();
        let o = common::symex()
            .args(["bmc", "--property", "unreach-call", "--max-time", "5"])
            .arg(example(file))
            .arg("--out")
            .arg(dir.path())
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(3), "bmc {file}: {out}");
    }
}
