//! The work of the bound arithmetic on sizes that nested growth makes large.
//!
//! `A' = A + B, B' = B + C, …, E' = E + F, F' = F − 1` under `A ≥ 1`: split by the sign of
//! the falling `F` (`preprocess::split_monotone_phases`, a last resort of the search), the
//! phase `F ≤ −1` has a runtime bound of degree 6, and each variable's size there is the
//! entry plus that bound times the next variable's size: polynomials of thousands of terms
//! in six variables. Their products must cost about the products of their terms (a copy of
//! the running sum per product of two terms made one product cubic in the terms, and this
//! inference took a minute). The count is [`symex_its::poly::work`], which does not depend on
//! the machine's load.
use symex_its::parse_koat;

mod common;

const CHAIN: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS start))\n\
  (VAR A B C D E F)\n(RULES\n\
  start(A,B,C,D,E,F) -> Com_1(loop(A,B,C,D,E,F))\n\
  loop(A,B,C,D,E,F) -> Com_1(loop(A + B,B + C,C + D,D + E,E + F,F - 1)) :|: A >= 1\n)\n";

/// The terms visited by the inference on the phase split: 166,449 with the products summed in
/// place, about six times that allowed. With a copy of the running sum per product this test
/// fails (its inference then took 421 s in the debug build).
const WORK_LIMIT: u64 = 1_000_000;

#[test]
fn sizes_of_nested_growth_cost_their_products_and_keep_a_bound() {
    common::count_not_time();
    let its = parse_koat(CHAIN).unwrap();
    let pre = symex_its::preprocess::preprocess(&its, std::time::Duration::from_secs(10));
    let split =
        symex_its::preprocess::split_monotone_phases(&pre, std::time::Duration::from_secs(10))
            .expect("F falls and drives E");
    let limits = symex_its::termination::Limits {
        query_timeout: std::time::Duration::from_secs(10),
        deadline: std::time::Instant::now() + common::BACKSTOP,
    };
    let before = symex_its::poly::work();
    let c = symex_its::complexity::infer(&split, &limits);
    let work = symex_its::poly::work() - before;
    eprintln!("bound arithmetic: {work} terms");
    let c = c.expect("a bound");
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&split.vars));
    assert!(work <= WORK_LIMIT, "{work} terms");
    // The bound covers runs of the ITS as given (its own interpreter, not the prover).
    let starts = common::random_starts(32, its.arity(), 6, 300);
    assert!(common::bound_holds_on_runs(&its, &c, starts, "chain") > 200);
}
