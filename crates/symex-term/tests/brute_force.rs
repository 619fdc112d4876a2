//! Answers against brute force: programs over one 8-bit input, run on the reference
//! interpreter for all 256 inputs. A YES needs every run to end, a NO needs a run that does
//! not (and its witness must be one). With 8-bit state a single loop that ends does so
//! within 256 iterations, far below the instruction limit.

mod common;
use common::*;
use symex_engine::Program;
use symex_term::rules::Semantics;
use symex_term::Answer;

const HEADER: &str = "extern unsigned char __VERIFIER_nondet_uchar(void);\n\
                      extern signed char __VERIFIER_nondet_char(void);\n";

/// (program body, the answer symex must give).
const CASES: &[(&str, Answer)] = &[
    // Wraps at 256.
    ("int main(void) { unsigned char j = __VERIFIER_nondet_uchar(); while (j > 0) j++; return 0; }", Answer::Yes),
    // x = 255 loops.
    ("int main(void) { unsigned char x = __VERIFIER_nondet_uchar(); unsigned char j = 0; while (j <= x) j++; return 0; }", Answer::No),
    // Even j never reaches 3.
    ("int main(void) { unsigned char j = __VERIFIER_nondet_uchar(); while (j != 3) j += 2; return 0; }", Answer::No),
    // Multiplication by a literal, no wrap below 10.
    ("int main(void) { unsigned char j = __VERIFIER_nondet_uchar(); while (j < 10) j = j * 3 + 1; return 0; }", Answer::Yes),
    // Signed char counts down through the int promotion and a truncation.
    ("int main(void) { signed char i = __VERIFIER_nondet_char(); while (i > 0) i = i - 2; return 0; }", Answer::Yes),
    // j = 0 stays 0 forever.
    ("int main(void) { unsigned char j = __VERIFIER_nondet_uchar(); while (j < 100) j = j * 2; return 0; }", Answer::No),
    // Division halves towards 0.
    ("int main(void) { unsigned char j = __VERIFIER_nondet_uchar(); while (j > 0) j = j / 2; return 0; }", Answer::Yes),
    // Two phases through a flag: the loop head keeps `up = 1` and `up = 0` apart (flag-split
    // heads), each phase has its own ranking function (200 − j, then j).
    ("int main(void) { unsigned char j = __VERIFIER_nondet_uchar(); int up = 1; while (j > 0) { if (up) { if (j < 200) j++; else up = 0; } else j--; } return 0; }", Answer::Yes),
];

#[test]
fn answers_agree_with_all_256_inputs() {
    for (i, (body, expected)) in CASES.iter().enumerate() {
        let (_dir, path) = source(&format!("{HEADER}{body}\n"));
        let report = term(&path, Semantics::default());
        let prog = Program::new(load(&path, false));
        let looping: Vec<u8> = (0..=255u8)
            .filter(|v| loops(&run_with(&prog, "in", vec![*v], 300_000)))
            .collect();
        match report.answer {
            Answer::Yes => assert!(looping.is_empty(), "case {i}: YES but {looping:?} loop"),
            Answer::No => {
                assert!(!looping.is_empty(), "case {i}: NO but every input ends");
                let w = report.witness.as_ref().expect("witness");
                let v = (w.inputs[0].2 as u8, w.inputs[0].2);
                assert!(looping.contains(&v.0), "case {i}: witness {v:?} ends");
            }
            Answer::Maybe => {}
        }
        assert_eq!(report.answer, *expected, "case {i}: {:?}", report.reason);
    }
}
