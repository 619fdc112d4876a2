//! The parser and checker never panic: random token soups, random text, and example programs
//! with tokens deleted, duplicated or swapped all end in `Ok` or a positioned `Err`.
use proptest::prelude::*;
use std::path::PathBuf;

/// The lexer's own keywords, symbols and their Unicode synonyms, with some names and numbers of
/// the examples, so that token soups keep in step with the language.
fn vocab() -> Vec<String> {
    use symex_idf::syntax::lexer::{KEYWORDS, SYMBOLS, UNICODE_SYNONYMS};
    const NAMES: &[&str] = &[
        "C", "D", "x", "y", "f", "g", "p", "q", "0", "1", "42", "length", "elems", "Object",
        "valid", "getX", "setX",
    ];
    let unicode = UNICODE_SYNONYMS.iter().map(|(c, _)| c.to_string());
    KEYWORDS
        .iter()
        .chain(SYMBOLS)
        .chain(NAMES)
        .map(|w| w.to_string())
        .chain(unicode)
        .collect()
}

fn examples() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/idf");
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "idf"))
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn no_panic(src: &str) {
    let r = std::panic::catch_unwind(|| symex_idf::front_end(src).map(|_| ()));
    assert!(r.is_ok(), "the front end panicked on:\n{src}");
    if let Ok(Err(d)) = r {
        assert!(
            d.span.start <= src.len() && d.span.end <= src.len(),
            "span out of range: {d:?}"
        );
        let rendered = symex_idf::diagnostics::render("fuzz.idf", src, &d);
        assert!(!rendered.is_empty());
    }
}

/// Splits on whitespace, keeping it, so that token edits keep the text readable.
fn words(src: &str) -> Vec<&str> {
    src.split_inclusive(char::is_whitespace).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn token_soup(tokens in prop::collection::vec(prop::sample::select(vocab()), 0..80)) {
        no_panic(&tokens.join(" "));
    }

    #[test]
    fn arbitrary_text(src in "\\PC{0,200}") {
        no_panic(&src);
    }

    #[test]
    fn mutated_examples(which in any::<prop::sample::Index>(), edits in prop::collection::vec((0u8..4, any::<prop::sample::Index>(), prop::sample::select(vocab())), 1..6)) {
        let all = examples();
        prop_assume!(!all.is_empty());
        let src = which.get(&all);
        let mut ws: Vec<String> = words(src).into_iter().map(str::to_string).collect();
        for (op, at, tok) in edits {
            if ws.is_empty() { break; }
            let i = at.index(ws.len());
            match op {
                0 => { ws.remove(i); }
                1 => { let w = ws[i].clone(); ws.insert(i, w); }
                2 => { let j = (i + 1) % ws.len(); ws.swap(i, j); }
                _ => { ws.insert(i, format!("{tok} ")); }
            }
        }
        no_panic(&ws.concat());
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!(
        "main {{ int x := {}1{}; }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let r = symex_idf::front_end(&deep);
    assert!(r.is_err());
    let unary = format!("main {{ int x := {}1; }}", "-".repeat(5000));
    assert!(symex_idf::front_end(&unary).is_err());
}

/// The message of the front end's error for `src`, checking that it points into the text.
fn front_end_error(src: &str) -> (String, String) {
    let d = symex_idf::front_end(src).expect_err("an error");
    let at = src.get(d.span.start..d.span.end).unwrap_or("?").to_string();
    (d.message, at)
}

/// Every pass recurses over the height of expressions and the nesting of blocks; inputs past
/// the front end's bounds are positioned errors, not stack overflows (they aborted the
/// process before: a sum of 100000 ones, a field chain, 30000 nested `if`s).
#[test]
fn huge_inputs_are_errors_not_stack_overflows() {
    let sum = format!("main {{ int x := {}; }}", vec!["1"; 100_000].join(" + "));
    let (msg, at) = front_end_error(&sum);
    assert_eq!(
        (msg.as_str(), at.as_str()),
        ("expression too long (more than 5000 tokens)", "+")
    );

    let chain = format!(
        "class A {{ A n; void m() {{ A a := this{}; this{}.n := null; }} }}",
        ".n".repeat(100_000),
        ".n".repeat(100_000)
    );
    assert_eq!(
        front_end_error(&chain).0,
        "expression too long (more than 5000 tokens)"
    );

    let nested = format!(
        "main {{ int x := 0; {} {} }}",
        "if (x = 0) { ".repeat(30_000),
        "} ".repeat(30_000)
    );
    let (msg, at) = front_end_error(&nested);
    assert_eq!(
        (msg.as_str(), at.as_str()),
        ("blocks nested too deeply (more than 1000)", "{")
    );

    let clauses = format!(
        "class A {{ int x; void m() requires acc(x); {} {{ }} }}",
        "requires x > 0; ".repeat(2000)
    );
    let (msg, at) = front_end_error(&clauses);
    assert_eq!(
        (msg.as_str(), at.as_str()),
        ("too many clauses (more than 1000)", "requires")
    );

    let fields: String = (0..2000).map(|i| format!("int f{i}; ")).collect();
    let (msg, at) = front_end_error(&format!("class A {{ {fields} A() {{ }} }}"));
    assert_eq!(
        (msg.as_str(), at.as_str()),
        ("class `A` has too many fields (more than 1000)", "f1000")
    );

    let long = format!("main {{ int x := 0; {} }}", "x := x + 1; ".repeat(600_000));
    let (msg, at) = front_end_error(&long);
    assert_eq!(
        (msg.as_str(), at.as_str()),
        ("too many statements in one method (more than 500000)", "x")
    );
}

/// Just inside the bounds, the front end and the verifier cope, on a test thread's small stack.
#[test]
fn large_inputs_within_the_bounds_verify() {
    let sum = format!(
        "main {{ int x := {}; assert x = 2000; }}",
        vec!["1"; 2000].join(" + ")
    );
    let nested = format!(
        "main {{ int x := 0; {} x := 1; {} assert x = 1; }}",
        "if (x = 0) { ".repeat(900),
        "} ".repeat(900)
    );
    for src in [sum, nested] {
        let report = symex_idf::verify_source(&src, Default::default()).expect("checks");
        assert!(report.verified(), "{:?}", report.members);
    }
}
