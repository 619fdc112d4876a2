//! The semantics switches: a signed counter that overflows is undefined behaviour by default
//! (`ERR`, MAYBE with the position), and terminates under `--signed-wrap` (it wraps to
//! `INT_MIN`), as the reference interpreter shows from both sides.

mod common;
use common::*;
use symex_engine::{End, Program};
use symex_term::rules::Semantics;
use symex_term::Answer;

const SRC: &str = "extern int __VERIFIER_nondet_int(void);\n\
                   int main(void) { int i = __VERIFIER_nondet_int(); while (i > 0) i++; return 0; }\n";

#[test]
fn signed_overflow_is_err_unless_it_wraps() {
    let (_dir, path) = source(SRC);
    let strict = term(&path, Semantics::default());
    assert_eq!(strict.answer, Answer::Maybe);
    assert!(!strict.memory_safe);
    let reason = strict.reason.unwrap_or_default();
    assert!(
        reason.contains("signed overflow") && reason.contains("p.c:2:"),
        "{reason}"
    );
    // The reference interpreter reaches the overflow from i = INT_MAX − 3.
    let prog = Program::new(load(&path, false));
    let end = run_with(&prog, "i", (i32::MAX - 3).to_le_bytes().to_vec(), 10_000);
    assert!(matches!(end, End::Bug(_)), "{end:?}");
    let wrap = term(
        &path,
        Semantics {
            math_int: false,
            signed_wrap: true,
        },
    );
    assert_eq!(wrap.answer, Answer::Yes, "{:?}", wrap.reason);
}
