//! The native replay on hand-written programs whose outcome is known from the C standard and the
//! sanitizers' documentation: each bug kind, the inputs reaching the program in order, stdin, assumptions,
//! uninitialised memory, and a 32-bit build.

use std::path::PathBuf;
use symex_engine::{TestFile, TestInput};
use symex_native::{build, run, BuildOptions, NativeRun, RunOptions};

fn program(dir: &tempfile::TempDir, name: &str, src: &str) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, src).unwrap();
    p
}

fn input(name: &str, bytes: &[u8]) -> TestInput {
    TestInput {
        name: name.into(),
        bytes: bytes.to_vec(),
    }
}

fn replay(src: &str, inputs: Vec<TestInput>, build_opts: BuildOptions, leaks: bool) -> NativeRun {
    let dir = tempfile::tempdir().unwrap();
    let p = program(&dir, "prog.c", src);
    let b = build(&p, &build_opts).unwrap_or_else(|e| panic!("{e}"));
    let test = TestFile {
        inputs,
        ..TestFile::default()
    };
    run(
        &b,
        &test,
        &RunOptions {
            check_leaks: leaks,
            ..RunOptions::default()
        },
    )
}

fn kind(src: &str, inputs: Vec<TestInput>) -> String {
    replay(src, inputs, BuildOptions::default(), false)
        .outcome
        .kind
}

const BUGS: &str = r#"
#include <stdlib.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int g[4];
int *dangling(void) { int x = 1; return &x; }
int main(void) {
    int c = __VERIFIER_nondet_int();
    int *p = malloc(4 * sizeof(int));
    int *null = 0;
    volatile int zero = 0;
    switch (c) {
    case 1: p[4] = 1; break;
    case 2: free(p); return p[0];
    case 3: free(p); free(p); return 0;
    case 4: free(p + 1); return 0;
    case 5: return *null;
    case 6: return 1 / zero;
    case 7: reach_error(); return 0;
    case 8: assert(c == 0); return 0;
    case 9: abort();
    case 10: return g[c - 6];
    case 11: { int a[2]; return a[c - 9]; }
    case 12: return *dangling();
    }
    free(p);
    return c;
}
"#;

#[test]
fn each_bug_kind_is_recognised() {
    let cases = [
        (0, "exit"),
        (1, "out-of-bounds"),
        (2, "use-after-free"),
        (3, "double-free"),
        (4, "invalid-free"),
        (5, "null-deref"),
        (6, "div-by-zero"),
        (7, "reach-error"),
        (8, "assertion"),
        (9, "abort"),
        (10, "out-of-bounds"),
        (11, "out-of-bounds"),
        (12, "use-after-free"),
    ];
    for (c, want) in cases {
        let got = replay(
            BUGS,
            vec![input("__VERIFIER_nondet_int", &i32::to_le_bytes(c))],
            BuildOptions::default(),
            false,
        );
        assert_eq!(
            got.outcome.kind, want,
            "case {c}: {:?}\n{}",
            got.outcome, got.report
        );
    }
}

#[test]
fn a_program_defined_reach_error_is_located_at_its_call() {
    let r = replay(
        BUGS,
        vec![input("__VERIFIER_nondet_int", &7i32.to_le_bytes())],
        BuildOptions::default(),
        false,
    );
    assert_eq!(r.outcome.line, Some(20), "{:?}", r.outcome);
    assert_eq!(r.outcome.function.as_deref(), Some("main"));
}

#[test]
fn overflow_and_leaks_only_when_checked() {
    let src = "#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\nint main(void) { int x = __VERIFIER_nondet_int(); malloc(3); return x + 1 < 0; }\n";
    let max = vec![input("__VERIFIER_nondet_int", &i32::MAX.to_le_bytes())];
    assert_eq!(kind(src, max.clone()), "exit");
    let checked = BuildOptions {
        check_overflow: true,
        ..BuildOptions::default()
    };
    let r = replay(src, max, checked, false);
    assert_eq!(r.outcome.kind, "signed-overflow", "{}", r.report);
    let shift = "extern int __VERIFIER_nondet_int(void);\nint main(void) { return (1 << __VERIFIER_nondet_int()) < 0; }\n";
    let by31 = vec![input("__VERIFIER_nondet_int", &31i32.to_le_bytes())];
    let wrapped = replay(shift, by31.clone(), BuildOptions::default(), false);
    assert_eq!(
        (wrapped.outcome.kind.as_str(), wrapped.outcome.code),
        ("exit", Some(1))
    );
    let checked = BuildOptions {
        check_overflow: true,
        ..BuildOptions::default()
    };
    assert_eq!(
        replay(shift, by31, checked, false).outcome.kind,
        "signed-overflow"
    );
    let one = vec![input("__VERIFIER_nondet_int", &1i32.to_le_bytes())];
    let r = replay(src, one, BuildOptions::default(), true);
    assert_eq!(r.outcome.kind, "memory-leak", "{}", r.report);
}

#[test]
fn the_offsetof_idiom_and_a_lost_block_are_judged_as_symex_does() {
    let src = "#include <stdlib.h>\nstruct s { int a; int b; };\nint *keep;\nint main(void) { int *p = malloc(4); keep = malloc(4); unsigned long off = (unsigned long)&((struct s *)0)->b; p = 0; return (int)off; }\n";
    let r = replay(src, vec![], BuildOptions::default(), true);
    // The block `p` pointed to is lost (a stale copy on the stack does not keep it); `keep`'s is not.
    assert_eq!(
        r.outcome.kind, "memory-leak",
        "{:?}\n{}",
        r.outcome, r.report
    );
    assert!(r.report.contains("1 allocation(s)"), "{}", r.report);
    let r = replay(src, vec![], BuildOptions::default(), false);
    assert_eq!((r.outcome.kind.as_str(), r.outcome.code), ("exit", Some(4)));
}

#[test]
fn inputs_reach_the_program_in_order_with_their_widths() {
    let src = r#"
#include <stdio.h>
extern char __VERIFIER_nondet_char(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern _Bool __VERIFIER_nondet_bool(void);
void klee_make_symbolic(void *, unsigned long, const char *);
int klee_range(int, int, const char *);
int main(void) {
    char c = __VERIFIER_nondet_char();
    unsigned long u = __VERIFIER_nondet_ulong();
    _Bool b = __VERIFIER_nondet_bool();
    short s[2];
    klee_make_symbolic(s, sizeof s, "s");
    int r = klee_range(3, 9, "r");
    printf("%d %lu %d %d %d %d\n", c, u, b, s[0], s[1], r);
    return 0;
}
"#;
    let inputs = vec![
        input("__VERIFIER_nondet_char", &[0xff]),
        input("__VERIFIER_nondet_ulong", &(1u64 << 40).to_le_bytes()),
        input("__VERIFIER_nondet_bool", &[1]),
        input("s", &[1, 0, 0xfe, 0xff]),
        input("r", &5i32.to_le_bytes()),
    ];
    let r = replay(src, inputs, BuildOptions::default(), false);
    assert_eq!(r.outcome.kind, "exit", "{}", r.report);
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        "-1 1099511627776 1 1 -2 5\n"
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn a_violated_assumption_means_the_test_does_not_apply() {
    let src = "extern int __VERIFIER_nondet_int(void);\nvoid __VERIFIER_assume(int);\nint main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x > 5); return x; }\n";
    let r = replay(
        src,
        vec![input("__VERIFIER_nondet_int", &[1, 0, 0, 0])],
        BuildOptions::default(),
        false,
    );
    assert_eq!(r.outcome.kind, "assumption-violated");
    assert!(!r.reproduced());
    let r = replay(
        src,
        vec![input("__VERIFIER_nondet_int", &[7, 0, 0, 0])],
        BuildOptions::default(),
        false,
    );
    assert_eq!((r.outcome.kind.as_str(), r.outcome.code), ("exit", Some(7)));
}

#[test]
fn stdin_bytes_are_the_programs_stdin() {
    let src = "#include <stdio.h>\nint main(void) { int a = getchar(), b = getchar(), c = getchar(); return a == 'o' && b == 'k' && c == EOF; }\n";
    let r = replay(
        src,
        vec![input("stdin", b"ok")],
        BuildOptions::default(),
        false,
    );
    assert_eq!((r.outcome.kind.as_str(), r.outcome.code), ("exit", Some(1)));
}

#[test]
fn uninitialised_memory_is_zero_and_only_zero_is_reproducible() {
    let src = "#include <stdlib.h>\nint main(void) { int x; int *p = malloc(8); int r = x + p[1]; free(p); return r; }\n";
    let zero = vec![input("uninit:x", &[0; 4]), input("uninit:malloc", &[0; 4])];
    let r = replay(src, zero, BuildOptions::default(), false);
    assert_eq!((r.outcome.kind.as_str(), r.outcome.code), ("exit", Some(0)));
    let r = replay(
        src,
        vec![input("uninit:x", &[1, 0, 0, 0])],
        BuildOptions::default(),
        false,
    );
    assert_eq!(r.outcome.kind, "not-reproducible");
    assert!(!r.reproduced());
}

#[test]
fn a_32_bit_build_has_4_byte_pointers_and_longs() {
    let src = "int main(void) { return sizeof(void *) + sizeof(long); }\n";
    let m32 = BuildOptions {
        m32: true,
        ..BuildOptions::default()
    };
    let r = replay(src, vec![], m32, false);
    assert_eq!(
        (r.outcome.kind.as_str(), r.outcome.code),
        ("exit", Some(8)),
        "{:?}",
        r.outcome
    );
    let r = replay(src, vec![], BuildOptions::default(), false);
    assert_eq!(r.outcome.code, Some(16));
}

#[test]
fn a_compile_error_is_reported_with_clangs_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let p = program(&dir, "bad.c", "int main(void) { return y; }\n");
    let e = build(&p, &BuildOptions::default()).unwrap_err();
    assert!(e.contains("bad.c:1:25"), "{e}");
}
