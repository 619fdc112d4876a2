//! The hash-consing table holds weak references: nodes die with their last handle. (The
//! only test of its binary, so that no other test creates terms meanwhile.)

use symex_expr::{nodes_alive, Sort, Term};

#[test]
fn nodes_are_freed_with_their_last_handle_and_equal_terms_are_shared() {
    let before = nodes_alive();
    let x = Term::var("x", Sort::bv(64));
    let mut terms = Vec::new();
    for i in 0..10_000u128 {
        terms.push(x.bvadd(&Term::bv(i + 1, 64)).bvmul(&x));
    }
    // Building the same terms again creates nothing.
    let during = nodes_alive();
    assert!(during >= before + 20_000, "{before} -> {during}");
    let again: Vec<Term> = (0..10_000u128)
        .map(|i| x.bvadd(&Term::bv(i + 1, 64)).bvmul(&x))
        .collect();
    assert_eq!(nodes_alive(), during);
    assert_eq!(again, terms);
    drop(again);
    drop(terms);
    drop(x);
    let after = nodes_alive();
    assert!(after <= before + 2, "{before} -> {during} -> {after}");
    // A deep chain is freed without overflowing the stack.
    let y = Term::var("y", Sort::bv(8));
    let mut t = y.clone();
    for _ in 0..200_000 {
        t = t.bvnot().bvneg();
    }
    drop(t);
    drop(y);
    assert!(nodes_alive() <= before + 2);
}
