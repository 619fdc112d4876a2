//! The verifier never panics on a program the checker accepts: example programs with a few
//! words deleted, duplicated, swapped, inserted or replaced (a leading name or number), verified
//! whenever they still check, and run by the concrete executor.
//! (The Figure 10 programs are left out only to keep the suite fast.)
use proptest::prelude::*;
use std::path::PathBuf;
const VOCAB: &[&str] = &[
    "x",
    "v",
    "c",
    "null",
    "0",
    "1",
    "this",
    "valid()",
    "getX()",
    "*",
    "&&",
    "=",
    "!=",
    "+",
    ";",
    "(",
    ")",
    "acc(x)",
    "open valid();",
    "close valid();",
    "use getX();",
    "if (v = 0) { x := 1; }",
    "return 0;",
    "old(x)",
    "c.setX(1);",
    "true",
    "false",
    "?",
    ":",
];
fn examples() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/idf");
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "idf"))
        .filter(|e| {
            !e.path().to_string_lossy().contains("iterator")
                && !e.path().to_string_lossy().contains("fig10")
        })
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect();
    out.sort();
    out
}
/// `word` with its leading name or number (what is left of it: `x;` → `tok;`) replaced by `tok`,
/// so that the program often still checks (`1` → `null` made the verifier panic once).
fn replace_word(word: &str, tok: &str) -> String {
    let end = word
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(word.len());
    if end == 0 {
        return word.to_string();
    }
    format!("{tok}{}", &word[end..])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    #[test]
    fn verify_never_panics(which in any::<prop::sample::Index>(), edits in prop::collection::vec((0u8..5, any::<prop::sample::Index>(), prop::sample::select(VOCAB)), 1..4)) {
        let all = examples();
        let src = which.get(&all);
        let mut ws: Vec<String> = src.split_inclusive(char::is_whitespace).map(str::to_string).collect();
        for (op, at, tok) in edits {
            let i = at.index(ws.len());
            match op { 0 => { ws.remove(i); } 1 => { let w = ws[i].clone(); ws.insert(i, w); } 2 => { let j = (i + 1) % ws.len(); ws.swap(i, j); } 3 => { ws.insert(i, format!("{tok} ")); } _ => { ws[i] = replace_word(&ws[i], tok); } }
        }
        let s = ws.concat();
        if symex_idf::front_end(&s).is_ok() {
            let r = std::panic::catch_unwind(|| symex_idf::verify_source(&s, Default::default()).map(|r| r.verified()));
            prop_assert!(r.is_ok(), "verifier panicked on:\n{}", s);
            let verified = matches!(r, Ok(Ok(true)));
            // The concrete executor (`symex verify --run`) must not panic either, and a mutant the
            // verifier accepts must run without a violation (the soundness oracle).
            let config = symex_idf::run::RunConfig { max_steps: 100_000, max_depth: 200 };
            let r = std::panic::catch_unwind(|| symex_idf::run::run_source(&s, config).map(|r| r.outcome));
            prop_assert!(r.is_ok(), "concrete executor panicked on:\n{}", s);
            if let (true, Ok(Ok(symex_idf::run::Outcome::Violation(v)))) = (verified, &r) {
                prop_assert!(false, "the verifier accepts this mutant, but its run violates {} of {}: {}\n{}", v.check, v.member, v.message, s);
            }
        }
    }
}
