//! Programs with memory (`AL`/`PT`): arrays, globals, address-taken locals, `malloc`/`free`.
//! Every YES is re-run on the reference interpreter (random inputs: no run may end in a
//! memory bug or reach the instruction limit); every `ERR` is confirmed by a concrete run
//! that hits the bug — on the reference interpreter, and natively under AddressSanitizer
//! when clang-14 can build with it.

mod common;
use common::*;
use std::process::Command;
use symex_engine::{BugKind, End, Program};
use symex_term::rules::Semantics;
use symex_term::{validate, Answer};

/// Proves `src` terminating and memory safe, and checks that on the reference interpreter.
fn yes(src: &str) {
    yes_in(src, Semantics::default());
}

fn yes_in(src: &str, sem: Semantics) {
    let (_dir, p) = source(src);
    let r = term(&p, sem);
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    assert!(r.memory_safe);
    let check = validate::check(&load(&p, false), &options(sem), &r, 20);
    assert!(check.contradiction.is_none(), "{}", check.summary());
    assert_eq!(check.limit_reached, 0, "{}", check.summary());
    assert_eq!(check.finished, 20);
}

/// `src` is `MAYBE` with an `ERR` state whose reason contains `what`; the program, run on no
/// input, ends in `bug` on the reference interpreter and under AddressSanitizer.
fn err(src: &str, what: &str, bug: BugKind) {
    let (dir, p) = source(src);
    let r = term(&p, Semantics::default());
    assert_eq!(r.answer, Answer::Maybe);
    assert!(!r.memory_safe);
    let reason = r.reason.unwrap_or_default();
    assert!(
        reason.starts_with("ERR state") && reason.contains(what),
        "{reason}"
    );
    let prog = Program::new(load(&p, false));
    match run_with(&prog, "none", vec![], 1_000_000) {
        End::Bug(b) => assert_eq!(b.kind, bug),
        other => panic!("no bug on the reference interpreter: {other:?}"),
    }
    let exe = dir.path().join("asan");
    let built = Command::new("clang-14")
        .args(["-O0", "-g", "-fsanitize=address", "-o"])
        .arg(&exe)
        .arg(&p)
        .status();
    match built {
        Ok(s) if s.success() => {
            let out = Command::new(&exe).output().expect("runs");
            assert!(!out.status.success());
            let text = String::from_utf8_lossy(&out.stderr);
            assert!(text.contains("AddressSanitizer"), "{text}");
        }
        _ => eprintln!("skipping the native ASan check: clang-14 -fsanitize=address failed"),
    }
}

#[test]
fn array_filled_and_summed() {
    yes(r#"
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int a[16];
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 16) return 0;
    for (int i = 0; i < n; i++) a[i] = i;
    int s = 0;
    for (int i = 0; i < n; i++) s += a[i] > 3;
    return s;
}
"#);
}

#[test]
fn global_counter() {
    // The loop counter lives in memory: the ranking function is over a memory variable.
    yes(r#"
extern int __VERIFIER_nondet_int(void);
int g;
int main(void) {
    g = __VERIFIER_nondet_int();
    if (g > 100000) return 0;
    while (g > 0) g--;
    return 0;
}
"#);
}

#[test]
fn counter_through_a_pointer() {
    yes(r#"
extern int __VERIFIER_nondet_int(void);
void dec(int *p) { *p = *p - 1; }
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x > 100000) return 0;
    while (x > 0) dec(&x);
    return x;
}
"#);
}

#[test]
fn malloc_of_a_variable_size() {
    yes(r#"
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n <= 0 || n > 1000) return 0;
    int *a = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) a[i] = n - i;
    free(a);
    return 0;
}
"#);
}

#[test]
fn out_of_bounds_write_is_err() {
    err(
        r#"
int main(void) {
    int a[10];
    for (int i = 0; i <= 10; i++) a[i] = i;
    return a[3];
}
"#,
        "out of bounds",
        BugKind::OutOfBounds,
    );
}

#[test]
fn use_after_free_is_err() {
    err(
        r#"
#include <stdlib.h>
int main(void) {
    int *p = malloc(sizeof(int));
    *p = 3;
    free(p);
    while (*p > 0) *p = *p - 1;
    return 0;
}
"#,
        "freed",
        BugKind::UseAfterFree,
    );
}

#[test]
fn memory_progress_is_no_lasso() {
    // The registers repeat at the loop head while the global counter grows: no concrete
    // lasso may be claimed (the program terminates: answer YES or MAYBE, never NO).
    let (_dir, p) = source(
        r#"
int c;
int main(void) {
    while (c < 1000) c = c + 1;
    return 0;
}
"#,
    );
    let r = term(&p, Semantics::default());
    assert_ne!(r.answer, Answer::No, "{:?}", r.reason);
    // A loop on memory that never changes is a lasso, replayed by the reference interpreter.
    let (_dir2, q) = source(
        r#"
int c = 1;
int main(void) {
    while (c > 0) c = c * 1;
    return 0;
}
"#,
    );
    let r = term(&q, Semantics::default());
    assert_eq!(r.answer, Answer::No, "{:?}", r.reason);
    let check = validate::check(&load(&q, false), &options(Semantics::default()), &r, 0);
    assert_eq!(check.witness_replayed, Some(true));
}

#[test]
fn variable_length_array_in_a_loop() {
    // `llvm.stacksave`/`stackrestore` around the VLA: each iteration's array ends with it.
    yes(r#"
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n <= 0 || n > 100) return 0;
    int s = 0;
    for (int k = 0; k < n; k++) {
        int a[n];
        a[k] = k;
        s += a[k] > 2;
    }
    return s;
}
"#);
}

#[test]
fn initializer_survives_stores_to_other_elements() {
    // Two stores to `bounds[0]` (the second replaces the first's cell) leave `bounds[2]`
    // readable from the initializer: the loop is bounded by 30.
    yes(r#"
int bounds[4] = {10, 20, 30, 40};
int main(void) {
    bounds[0] = 5;
    bounds[0] = 7;
    int s = 0;
    for (int i = 0; i < bounds[2]; i++) s++;
    return s;
}
"#);
}

#[test]
fn partial_memset_overwrites_the_initializer() {
    // After `memset(g, 0, 4)`, `g[0]` is 0 (the loop ends at once, natively too): reading
    // the initializer's 1 there would claim a lasso.
    let (_dir, p) = source(
        r#"
#include <string.h>
int g[2] = {1, 1};
int main(void) {
    memset(g, 0, sizeof(int));
    while (g[0]) {}
    return 0;
}
"#,
    );
    let r = term(&p, Semantics::default());
    assert_ne!(r.answer, Answer::No, "{:?}", r.reason);
    let prog = Program::new(load(&p, false));
    assert!(!loops(&run_with(&prog, "none", vec![], 100_000)));
}

#[test]
fn cells_read_signed_keep_one_reading() {
    // `x` is only stored (an unsigned register), but the cells behind `i` and `z` are read
    // by signed comparisons: stores keep them signed, so the ITS sees `y − i` decrease
    // (with a cell converted at each access, a fresh wrap-around `k` hides it).
    yes_in(
        r#"
#include <alloca.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    int y = __VERIFIER_nondet_int();
    int *i = alloca(sizeof(int));
    int *z = alloca(sizeof(int));
    *i = 0;
    *z = x;
    if (y <= 0 || y > 1000) return 0;
    while (*i < y) {
        (*i)++;
        (*z)--;
    }
    return *z;
}
"#,
        Semantics {
            math_int: false,
            signed_wrap: true,
        },
    );
}

#[test]
fn array_element_as_loop_counter() {
    // The inner loop counts `a[i]` down: the head keeps the cell at `4·i` (an offset over
    // its registers), and the ranking function is over the cell's value.
    yes(r#"
#include <alloca.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 1 || n > 1000) return 0;
    int *a = alloca(n * sizeof(int));
    for (int i = 0; i < n; i++) {
        a[i] = __VERIFIER_nondet_int();
        if (a[i] > 1000) a[i] = 1000;
        while (a[i] > 0) a[i]--;
    }
    return 0;
}
"#);
}
