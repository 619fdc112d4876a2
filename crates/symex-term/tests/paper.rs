//! The paper's examples ([B] Fig. 1, 2, 9) with exact results, and the §1 argument that a
//! prover over mathematical integers gets `g` and `f` wrong.

mod common;
use common::*;
use symex_engine::Program;
use symex_term::rules::Semantics;
use symex_term::{validate, Answer};

fn example(name: &str) -> std::path::PathBuf {
    repo().join("examples/term").join(name)
}

#[test]
fn g_terminates_only_by_wrap_around() {
    let r = term(&example("g.c"), Semantics::default());
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    assert!(r.memory_safe);
    // The paper's ranking function: umax32 − v_j after the wrap split (some location's
    // function has the coefficient −1 on a variable and the constant umax32, or umax32 + 1: the
    // Farkas synthesis may shift a ranking function by a constant, which keeps it one).
    let its = r.its_preprocessed.as_ref().expect("its");
    let shown: Vec<String> = r
        .proof
        .iter()
        .flat_map(|p| p.steps.iter().map(|s| s.function.display(its)))
        .collect();
    assert!(
        shown
            .iter()
            .any(|f| (f.contains("4294967295") || f.contains("4294967296")) && f.contains("-X")),
        "{shown:?}"
    );
    // Concretely: from j = UINT_MAX − k the loop ends after k + 1 iterations.
    let prog = Program::new(load(&example("g.c"), false));
    for k in 0..50u32 {
        let end = run_with(&prog, "j", (u32::MAX - k).to_le_bytes().to_vec(), 100_000);
        assert!(!loops(&end), "j = UINT_MAX - {k}: {end:?}");
    }
}

#[test]
fn f_does_not_terminate_for_uint_max() {
    let r = term(&example("f.c"), Semantics::default());
    assert_eq!(r.answer, Answer::No, "{:?}", r.reason);
    let w = r.witness.as_ref().expect("a witness");
    assert_eq!(w.inputs.len(), 1);
    assert_eq!(w.inputs[0].2, u32::MAX as i128);
    // The witness, replayed on the reference interpreter, runs into the instruction limit.
    let prog = Program::new(load(&example("f.c"), false));
    let end = run_with(&prog, "x", u32::MAX.to_le_bytes().to_vec(), 2_000_000);
    assert!(loops(&end), "{end:?}");
    let check = validate::check(
        &load(&example("f.c"), false),
        &options(Semantics::default()),
        &r,
        0,
    );
    assert_eq!(check.witness_replayed, Some(true));
    assert!(check.contradiction.is_none());
}

#[test]
fn h_terminates() {
    let r = term(&example("h.c"), Semantics::default());
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    let prog = Program::new(load(&example("h.c"), false));
    for j in 0..100u32 {
        assert!(!loops(&run_with(
            &prog,
            "j",
            j.to_le_bytes().to_vec(),
            100_000
        )));
    }
}

#[test]
fn mathematical_integers_get_g_and_f_wrong() {
    let math = Semantics {
        math_int: true,
        signed_wrap: false,
    };
    // g: over ℤ, j ≥ 1 grows forever: the model's (wrong) NO, a recurrent set. Its witness
    // cannot be checked on C, where the unsigned j wraps without an overflow check: the
    // check withdraws it (the CLI answers MAYBE).
    let g = term(&example("g.c"), math);
    assert_eq!(g.answer, Answer::No, "{:?}", g.reason);
    let plain = load(&example("g.c"), false);
    let check = validate::check(&plain, &options(math), &g, 0);
    assert!(check.contradiction.is_some(), "{}", check.summary());
    // f: over ℤ, x − j decreases: a (wrong) termination proof; the bit-vector model says NO.
    assert_eq!(term(&example("f.c"), math).answer, Answer::Yes);
    assert_eq!(term(&example("h.c"), math).answer, Answer::Yes);
}
